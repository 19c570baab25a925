"""Request text: quoted strings set aside, then split into clauses at verbs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Request", "split_request", "VERBS"]

# Verbs that start a new instruction. A clause boundary is a separator followed by one of these.
VERBS = (
    "add|redact|black ?out|blackout|blank ?out|remove|delete|drop|rotate|turn|highlight|underline|strike ?out|strikethrough|"  # noqa: E501 - one alternation reads best whole
    "cross out|comment|annotate|watermark|stamp|sign|number|insert|append|prepend|extract|split|merge|combine|join|"
    "concatenate|compress|shrink|reduce|optimi[sz]e|convert|export|save|make|create|give|send|put|reverse|reorder|"
    "rearrange|sort|move|protect|encrypt|lock|password-protect|unlock|decrypt|fill|flatten|set|change|update|crop|"
    "ocr|search|find|count|list|show|tell|check|sanitize|clean|copy|duplicate|rename|place|include|keep|read|mark|"
    "password[- ]protect|scrub|strip|"
    "erase|censor|mask|hide|scrub|apply|paginate|get|pull|attach|render|output"
)
_VERB_START = rf"(?:please\s+)?(?:also\s+)?(?:then\s+)?(?:{VERBS})\b"
# A phrase before a colon that asks for words to write: what follows the colon is those words
_SAYS = r"\b(?:note|comment|sticky|annotation|header|footer|watermark|stamp|text|message|saying|says|reads|reading)\b"
_QUOTED = re.compile(r"\"([^\"]+)\"|(?<![\w])'([^']+?)'(?![\w])")
# "pp. 3-5", "p. 7": a page abbreviation (its dot ends no sentence), read as "pages 3-5", "page 7"
_PP = re.compile(r"(?<![\w.])(pp?)\.\s*(?=\d)", re.IGNORECASE)
_WORD_NUMBERS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
}  # fmt: skip
_NW = "|".join(_WORD_NUMBERS)
# "pages two to four", "page three": page numbers spelled out, read as digits
_SPELLED_PAGES = re.compile(
    rf"\b(pages?\s+)({_NW})\b((?:\s*(?:-|–|to|through|thru|and|&|,)\s*(?:{_NW})\b)*)(?!\s+(?:times|pages?|copies)\b)",
    re.IGNORECASE,
)


def _digits(text: str) -> str:
    """'pp. 3-5' → 'pages 3-5'; 'pages two to four' → 'pages 2 to 4'."""
    text = _PP.sub(lambda m: "pages " if m.group(1).lower() == "pp" else "page ", text)
    return _SPELLED_PAGES.sub(
        lambda m: (
            m.group(1)
            + re.sub(
                rf"\b(?:{_NW})\b", lambda w: _WORD_NUMBERS[w.group(0).lower()], m.group(2) + m.group(3), flags=re.I
            )
        ),
        text,
    )


_QUOTE_MAP = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "«": '"', "»": '"', "`": "'"})


@dataclass
class Request:
    """The request with quoted strings replaced by ⟦n⟧ markers, and its clauses."""

    original: str
    text: str
    quotes: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)


def split_request(request: str) -> Request:
    """Normalize quotes, protect quoted strings, split into instruction clauses."""
    text = " ".join(request.translate(_QUOTE_MAP).split())
    quotes: list[str] = []

    def protect(match: re.Match[str]) -> str:
        quotes.append(match.group(1) or match.group(2))
        return f"⟦{len(quotes) - 1}⟧"

    masked = _digits(_QUOTED.sub(protect, text))
    parts = re.split(r"(?<=[.;!?])\s+|;\s*", masked)
    clauses: list[str] = []
    for part in parts:
        part = part.strip().rstrip(".!;")
        if not part:
            continue
        intro = re.match(rf"^([^:⟦]{{3,80}}):\s+(?={_VERB_START})", part, flags=re.IGNORECASE)
        if intro and re.search(_SAYS, intro.group(1), flags=re.IGNORECASE):
            intro = None  # "leave a note on page 1: Please sign and return": what the note says, not an instruction
        if intro:  # "Tidy up the contract for the board: number the pages …" — the list after the colon says what
            clauses.append(intro.group(1).strip() + ":")
            part = part[intro.end() :]
        pieces = re.split(
            rf"(?:,\s*(?:and\s+)?|\s+and\s+|\s+then\s+|,\s*then\s+)(?={_VERB_START})", part, flags=re.IGNORECASE
        )
        clauses.extend(p.strip(" ,") for p in pieces if p and p.strip(" ,"))
    return Request(request, masked, quotes, clauses)
