"""Before any model is asked: open questions about the content, and vague requests, in under a second.

A question a tool answers exactly ("how many pages", "which pages mention X") is planned by the fast
path; an open question about what a document says ("who is …", "what does the report say about …",
"summarize …") is document QA, not a workflow, and never becomes a plan. A vague request ("make it
nicer", "clean it up") gets a short question with concrete suggestions read cheaply from the document
(size, blank pages, rotated pages, missing page numbers).
"""

from __future__ import annotations

import functools
import os
import re

from docpilot.files import FileInfo

__all__ = ["QA_ROUTED", "asked_last", "is_content_question", "vague_suggestions"]

QA_ROUTED = "This is a question about what the documents say: it is answered by document Q&A, not by a plan."
_QUESTION = re.compile(
    r"^\s*(?:what|what's|whats|who|whom|whose|when|where|why|which|how|does|do|did|is|are|was|were|can|could|"
    r"should|would|will|explain|summari[sz]e|describe|tell me)\b",
    re.IGNORECASE,
)
_ACTS = re.compile(  # a request that also acts stays a workflow ("summarize pages 1-2 and add it as a page")
    r"\b(?:add|insert|redact|black\s*out|highlight|underline|strike|save|export|convert|turn|put|stamp|watermark|"
    r"delete|remove|drop|rotate|merge|combine|join|split|make|compress|shrink|sign|encrypt|protect|lock|unlock|"
    r"number|crop|extract|fill|flatten|ocr|copy|rename|reorder|sort|move|print|email|send|translate|change|set)\b",
    re.IGNORECASE,
)
_VAGUE = re.compile(
    r"^\s*(?:please\s+)?(?:make\s+(?:it|this|them)\s+(?:nicer|better|look\s+(?:nicer|better|good|professional))|"
    r"fix\s+(?:it|this|that|them)(?:\s+up)?|clean\s+(?:it|this|them)\s+up|clean\s+up(?:\s+(?:it|this|the\s+\w+))?|"
    r"tidy\s+(?:it|this)\s+up|improve\s+(?:it|this)|polish\s+(?:it|this))\W*$",
    re.IGNORECASE,
)


# a request put as a question: "can u pull chapter 3 out …", "could you please ditch the cover?"
_POLITE = re.compile(
    r"^\s*(?:(?:hey|hi|so|ok|okay)\W+)?(?:can|could|would|will)\s+(?:you|u|ya)\s+"
    r"(?:please\s+|pls\s+|plz\s+|kindly\s+|just\s+|quickly\s+)*(?P<verb>[a-z]+)",
    re.IGNORECASE,
)


def is_content_question(text: str) -> bool:
    """An open question about what the documents say (not an action, not a count a tool gives)."""
    if not (text.strip().endswith("?") or _QUESTION.match(text)) or _ACTS.search(text):
        return False
    polite = _POLITE.match(text)
    return polite is None or polite.group("verb").lower() not in _acting_verbs()


@functools.cache
def _acting_verbs() -> frozenset[str]:
    """The first words of the registry's verbs of tools that make or change files ("pull" of "pull out")."""
    from pdftools import all_tools

    return frozenset(
        verb.split()[0] for tool in all_tools().values() if tool.kind != "value" for verb in tool.words.verbs
    )


# where one sentence or aside ends and the next begins: ". ", "? ", "! ", a dash between spaces, "; "
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\s+[—–-]{1,2}\s+|\s*[—–]\s*")


def asked_last(text: str) -> str | None:
    """The question a request ends with, when something is said before it ("this 10-Q is locked for copying I
    think — is it actually password protected?" → "is it actually password protected?"); None otherwise."""
    parts = [p for p in _SENTENCE_END.split(text.strip()) if p.strip()]
    if len(parts) < 2 or not parts[-1].rstrip().endswith("?") or not _QUESTION.match(parts[-1]):
        return None
    return parts[-1].strip()


def vague_suggestions(text: str, files: dict[str, FileInfo]) -> list[str] | None:
    """Concrete things to offer for a vague request, from cheap signals of the PDFs; None when not vague."""
    if not _VAGUE.match(text):
        return None
    import pymupdf

    suggestions: list[str] = []
    for info in files.values():
        if info.kind != "pdf" or info.problem or info.encrypted:
            continue
        try:
            size = os.path.getsize(info.path)
            with pymupdf.open(info.path) as doc:
                pages = list(doc)[:50]
                blank = [
                    p.number + 1
                    for p in pages
                    if not p.get_text().strip() and not p.get_images() and not p.get_drawings()
                ]
                turned = [p.number + 1 for p in pages if p.rotation]
                numbered = sum(bool(re.search(r"^\s*\d+\s*$", p.get_text(), re.M)) for p in pages)
        except (OSError, RuntimeError):  # gone or unreadable since it was inspected: nothing to suggest from it
            continue
        if size > 1_000_000:
            suggestions.append(f"compress {info.name} ({size / 1e6:.1f} MB; it may shrink)")
        if blank:
            suggestions.append(
                f"remove the blank page{'s' if len(blank) > 1 else ''} of {info.name} "
                f"({', '.join(map(str, blank[:5]))})"
            )
        if turned:
            suggestions.append(f"straighten the rotated page{'s' if len(turned) > 1 else ''} of {info.name}")
        if len(pages) > 1 and numbered < len(pages) / 2:
            suggestions.append(f"add page numbers to {info.name}")
    generic = ["add a header or footer", "compress it", "add a DRAFT or CONFIDENTIAL watermark"]
    return (suggestions + [g for g in generic if not any(g.split()[0] in s for s in suggestions)])[:4]
