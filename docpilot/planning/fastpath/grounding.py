"""Which uploaded files a request means: by name or stem, by order, by kind, or all of them.

A request that names no file means the only PDF when there is one; with several PDFs and no
mention, the planner asks which (never silently all of them). A mention of a file name counts as
the full file name ("contract.pdf"), or its words after a determiner or preposition ("the contract",
"in the annual report", "these two invoices"), so a word that only happens to be a file's name
("add a DRAFT watermark" with draft.pdf uploaded) is not taken for one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docpilot.files import FileInfo

__all__ = ["Grounding", "ground_files", "FILE_MENTIONS", "name_pattern", "mentions", "word_aliases"]

_LEAD = r"(?:the|this|that|these|those|both|each|every|all|my|our|your|in|to|of|from|for|on|into|with)"
_NUMBER = r"(?:two|three|four|five|six|\d+)"
_ALL = re.compile(
    r"\b(?:both(?:\s+(?:of\s+them|files|documents|pdfs)|(?!\s+[a-z]))|all\s+(?:of\s+)?(?:the\s+|these\s+|my\s+)?"
    r"(?:files|documents|pdfs|of\s+them|uploads)|each\s+(?:file|document|pdf|one)|every\s+(?:file|document|pdf)|"
    r"these\s+(?:" + _NUMBER + r"\s+)?(?:files|documents|pdfs)|them\s+all|all\s+" + _NUMBER + r"|"
    r"the\s+" + _NUMBER + r"\s+(?:files|documents|pdfs))\b",
    re.IGNORECASE,
)
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3}
_ORDER = re.compile(
    r"\bthe\s+(first|1st|second|2nd|third|3rd|fourth|4th|last|latest)\s+(?:one|file|document|pdf|upload)\b",
    re.IGNORECASE,
)

FILE_MENTIONS = (_ALL, _ORDER)  # phrases that say which files ("both files", "the second one"), for the span tagger


@dataclass(frozen=True)
class Grounding:
    """The PDFs a request means (upload order), and whether the request said so."""

    pdfs: list[str]
    mentioned: bool
    ambiguous: list[str] | None = None  # a mention that fits several files where one was meant


def name_pattern(name: str) -> re.Pattern[str]:
    """A file's name as people write it: "invoice_1002.pdf", "invoice 1002", "the Q3 budget"."""
    words = _words(name.rsplit(".", 1)[0])
    return re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)|\b{_phrase(words, True)}\b", re.IGNORECASE)


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")  # fmt: skip


def word_aliases(word: str) -> set[str]:
    """A file-name word and the ways people say it: "feb" is "february", "september" is "sep" or "sept"."""
    out = {word}
    for month in _MONTHS:
        short = {month[:3], month[:4]} if month == "september" else {month[:3]}
        if word == month or word in short:
            out |= {month, *short}
    return out


def mentions(text: str, names: list[str]) -> list[tuple[int, int, str]]:
    """Where ``text`` names each of ``names``: by file name, by its stem's words, or by a word of its stem that no
    other name has ("cover" of cover.pdf, "february" of invoice_feb.pdf); (start, end, name) in text order."""
    found: list[tuple[int, int, str]] = []
    words_of = {name: {a for w in _words(name.rsplit(".", 1)[0]) for a in word_aliases(w)} for name in names}
    for name in names:
        others = set().union(*(w for n, w in words_of.items() if n != name))
        own = sorted(w for w in words_of[name] - others if len(w) > 2 or w.isdigit())
        patterns = [name_pattern(name)] + (
            [re.compile(rf"\b(?:{'|'.join(map(re.escape, own))})s?\b", re.I)] if own else []
        )
        for pattern in patterns:
            found += [(m.start(), m.end(), name) for m in pattern.finditer(text)]
    found.sort(key=lambda f: (f[0], -f[1]))
    out: list[tuple[int, int, str]] = []
    for start, end, name in found:  # the longest mention at each place; none inside another
        if not out or start >= out[-1][1]:
            out.append((start, end, name))
    return out


def _words(stem: str) -> list[str]:
    return [w for w in re.split(r"[\W_]+", stem.lower()) if w]


def _phrase(words: list[str], plural: bool) -> str:
    body = r"[\s_-]+".join(re.escape(w) for w in words)
    return body + (r"s?" if plural else "")


def ground_files(text: str, files: dict[str, FileInfo]) -> Grounding:
    """The PDFs ``text`` (the request, quoted strings already taken out) refers to."""
    pdfs = [name for name, info in files.items() if info.kind == "pdf"]
    if len(pdfs) <= 1:
        return Grounding(pdfs, mentioned=False)
    if _ALL.search(text):
        return Grounding(pdfs, mentioned=True)
    chosen: list[str] = []
    ambiguous: list[str] | None = None
    for name in pdfs:  # full file names
        if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", text, re.IGNORECASE):
            chosen.append(name)
    for match in _ORDER.finditer(text):
        word = match.group(1).lower()
        index = len(pdfs) - 1 if word in ("last", "latest") else _ORDINALS[word]
        if index < len(pdfs) and pdfs[index] not in chosen:
            chosen.append(pdfs[index])
    if not chosen:
        chosen, ambiguous = _by_words(text, pdfs)
    ordered = [name for name in pdfs if name in chosen]
    return Grounding(ordered or pdfs, mentioned=bool(ordered), ambiguous=ambiguous)


def _by_words(text: str, pdfs: list[str]) -> tuple[list[str], list[str] | None]:
    """Files named by the words of their names ("the annual report", "the invoices", "invoice 1002")."""
    chosen: list[str] = []
    ambiguous: list[str] | None = None
    words_of = {name: _words(name.rsplit(".", 1)[0]) for name in pdfs}
    # A whole stem ("invoice 1002", "annual report") names one file.
    for name, words in words_of.items():
        lead = "" if len(words) > 1 else rf"{_LEAD}\s+(?:\w+\s+)?"  # one word needs "the …", "in …"
        if words and re.search(rf"\b{lead}{_phrase(words, False)}\b", text, re.IGNORECASE):
            chosen.append(name)
    if chosen:
        return chosen, None
    # The words a stem starts with ("the invoice" of invoice_1001) may fit several files.
    for size in (2, 1):
        groups: dict[str, list[str]] = {}
        for name, words in words_of.items():
            alpha = [w for w in words if not w.isdigit()]
            keys = [" ".join(alpha[:size])] if size == 2 else [w for w in alpha if len(w) > 2 or w == alpha[0]]
            for key in keys if len(alpha) >= size else []:  # "the invoice", "the minutes" (board_minutes)
                groups.setdefault(key, []).append(name)
        for key, names in groups.items():
            lead = rf"\b{_LEAD}\s+(?:{_NUMBER}\s+)?"
            plural = re.search(lead + _phrase(key.split(), False) + r"s\b", text, re.IGNORECASE)
            single = re.search(lead + _phrase(key.split(), False) + r"\b", text, re.IGNORECASE)
            if plural:
                chosen += names
            elif single:
                if len(names) == 1:
                    chosen += names
                else:
                    ambiguous = names
        if chosen:
            return chosen, None
    return [], ambiguous
