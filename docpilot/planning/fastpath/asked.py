"""Questions about the file itself ("does it have form fields?", "any bookmarks?", "who is the author?"), answered
by the tool that reports that fact — never by reading pages with a model.

The facts each tool reports are read from the registry: a tool that returns a value and needs nothing but the file
(``count_pages``, ``get_metadata``, ``check_password``, ``get_outline``, ``read_annotations``, ``read_form`` …),
or that saves what the file holds with nothing more to say (``extract_attachments``),
names what it reports in its ``explain`` text and its summary ("List the bookmarks (table of contents) of {file}").
A question whose words name the facts of exactly one such tool becomes that tool's step; a new tool of that kind is
asked about with no change here.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from docpilot.planning.fastpath.extract import pages_in
from docpilot.planning.fastpath.rules import Context, Intent
from docpilot.planning.fastpath.spans import FORM_NAME, tag
from docpilot.plans.edit import schema_types

if TYPE_CHECKING:
    from pdftools import Tool

__all__ = ["file_question", "fact_words"]

# A question about the file: how it is asked, and the words that only frame it
_ASKS = re.compile(
    r"^\s*(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?(?:is|are|does|do|has|have|any|what|what's|whats|which|who|"
    r"who's|how\s+many|list|show(?:\s+me)?|tell\s+me|give\s+me)\b",
    re.IGNORECASE,
)
_FRAMING = {
    "is", "are", "does", "do", "has", "have", "any", "there", "what", "what's", "whats", "which", "who", "who's",
    "how", "many", "list", "show", "tell", "give", "me", "it", "its", "this", "that", "the", "a", "an", "file",
    "document", "pdf", "doc", "of", "in", "on", "got", "contain", "contains", "set", "can", "could", "would", "you",
    "please", "all", "some", "us", "these", "those", "they", "them", "each", "every", "both", "files", "documents",
    "pdfs", "their", "actually", "really", "already", "still", "currently", "now", "anything", "something", "scan",
    "scans", "ones",
}  # fmt: skip
# Words of the registry's texts that name no fact of the file, or name one that other tools find in the text
_NOT_FACTS = {
    "count", "read", "list", "check", "whether", "the", "of", "a", "an", "and", "or", "is", "its", "on", "in", "to",
    "pdf", "pdf's", "document", "file", "files", "page", "dates", "date", "optionally", "opens", "it", "their",
    "with", "current", "values", "fillable", "etc", "s", "any", "return", "find", "from", "each", "save",
}  # fmt: skip


def _stem(word: str) -> str:
    word = word.lower().strip("'’")
    for suffix in ("ments", "ment", "ions", "ion", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _words(text: str) -> list[str]:
    text = re.sub(r"\{[^}]*\}|\[[^\]]*\]", " ", text)  # the placeholders and optional parts of explain texts
    found = re.findall(r"[a-z][a-z']*", text.lower().replace("-", " "))
    return [w for w in found if w not in _NOT_FACTS and len(w) >= 4]


@functools.cache
def fact_words() -> dict[str, frozenset[str]]:
    """Word stem → the tools whose registry texts (explain text and summary) name it as a fact of a file."""
    from pdftools import all_tools

    asked = [
        t
        for t in all_tools().values()
        if "file" in t.arg_docs
        and (
            t.kind == "value"
            and all(_knob(t, arg) for arg in set(t.arg_docs) - {"file", "password", "pages"})
            or t.kind == "files"
            and set(t.arg_docs) <= {"file", "password", "output"}  # what it holds: attachments
        )
    ]  # a fact of the file (and of its pages), asked with nothing more to say
    claims: dict[str, set[str]] = {}
    for tool in asked:
        for word in _words(f"{tool.explain} {tool.summary}"):
            claims.setdefault(_stem(word), set()).add(tool.name)
    return {stem: frozenset(tools) for stem, tools in claims.items()}


def _knob(tool: Tool, arg: str) -> bool:
    """An argument a question about the file never says: optional, and a number or a switch that tunes how the
    fact is found (detect_orientation's ``min_confidence``), not what is looked for."""
    schema = tool.schema()
    if arg in schema.get("required", []):
        return False
    return schema_types(schema["properties"].get(arg, {})) - {"null"} <= {"number", "boolean"}


_FILE_NOUNS = {
    "file", "document", "pdf", "doc", "report", "paper", "files", "documents", "pdfs", "reports", "scan", "scans",
}  # fmt: skip


def _names_the_file(words: list[str], i: int, claims: dict[str, frozenset[str]]) -> bool:
    """A word that says which file: the one before a file noun ("this IRM file", "the Chelsea report")."""
    return i + 1 < len(words) and words[i + 1] in _FILE_NOUNS and _stem(words[i]) not in claims


def file_question(c: str, low: str, ctx: Context) -> list[Intent] | None:
    """'does it have form fields?', 'any bookmarks?', 'what's the title?': the one tool whose registry texts name
    every fact word of the question ("table of contents": only get_outline says both), when every other word
    only frames the question."""
    if not _ASKS.match(low) or "⟦" in low:
        return None
    claims = fact_words()
    pages = None
    for span in tag(low, []):
        if span.kind == "pages":  # "what is the orientation of page 3?": a fact of those pages
            pages = pages_in(span.text, ctx.page_count) if pages is None else "several"
            low = low[: span.start] + " " * (span.end - span.start) + low[span.end :]
    # a number that is no page is more than a fact of the file (a form's name, "the 10-K", is none)
    if pages == "several" or re.search(r"\d", re.sub(rf"\b{FORM_NAME.pattern}\b", " ", low)):
        return None
    words = re.findall(r"[a-z][a-z'’]*", low.replace("-", " "))
    facts = [w for i, w in enumerate(words) if w not in _FRAMING and not _names_the_file(words, i, claims)]
    if not facts or any(_stem(w) not in claims for w in facts):
        return None  # more is said than a fact of the file: the tool's own rule (or the model) reads it
    tools = set.intersection(*(set(claims[_stem(w)]) for w in facts))
    if len(tools) != 1:
        return None
    from pdftools import get_tool

    task = tools.pop()
    if "pages" not in get_tool(task).arg_docs:
        return None if pages else [Intent(task, {}, words=set(words))]
    return [Intent(task, {"pages": pages or "all"}, words=set(words))]  # no page was said: all of them
