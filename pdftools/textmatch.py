"""Find text the way a reader sees it.

PDF text is stored as positioned glyphs: ligatures ("ﬁ") are one glyph, words
break across lines, hyphenated words split in two. This module rebuilds each
page's text as a reader would read it — ligatures expanded, lines joined with
a space, end-of-line hyphens removed — keeps each character's box, and finds
literal terms, regular expressions and pattern categories in that text. A
match comes back as the boxes it covers, one per line.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

import pymupdf

from .errors import ToolArgumentError
from .patterns import category_pattern, normalize_category

__all__ = ["Match", "Targets", "PageText", "page_text", "find_matches", "reader_text"]

# Ligatures expanded (no TEXT_PRESERVE_LIGATURES), whitespace kept, clipped to the page.
_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "\u00a0": " ", "‐": "-", "‑": "-"})
_HYPHENS = ("-", "\u00ad", "‐")


@dataclass
class Match:
    """One occurrence: page (0-based), the text as read, its boxes (one per line)."""

    page: int
    text: str
    rects: list[pymupdf.Rect]
    kind: str

    def to_json(self) -> dict[str, object]:
        return {"page": self.page + 1, "text": self.text, "kind": self.kind}


@dataclass
class Targets:
    """What to look for: literal terms, one regular expression, pattern categories."""

    terms: list[str] = field(default_factory=list)
    regex: str | None = None
    categories: list[str] = field(default_factory=list)
    case_sensitive: bool = False
    whole_words: bool = False

    @classmethod
    def build(
        cls,
        terms: str | Sequence[str] | None = None,
        regex: str | None = None,
        categories: str | Sequence[str] | None = None,
        case_sensitive: bool = False,
        whole_words: bool = False,
    ) -> "Targets":
        term_list = [terms] if isinstance(terms, str) else list(terms or [])
        term_list = [t for t in (t.strip() for t in term_list) if t]
        cat_list = [categories] if isinstance(categories, str) else list(categories or [])
        cat_list = [normalize_category(c) for c in cat_list if c.strip()]
        if regex:
            try:
                re.compile(regex)
            except re.error as exc:
                raise ToolArgumentError(f"The regular expression {regex!r} is invalid: {exc}.") from None
        if not term_list and not regex and not cat_list:
            raise ToolArgumentError(
                "Nothing to look for: give 'terms' (words or phrases), 'regex', or 'categories' "
                "(email, phone, ssn, card, account, date, money, url)."
            )
        return cls(term_list, regex or None, cat_list, case_sensitive, whole_words)

    def patterns(self) -> list[tuple[str, re.Pattern[str], Callable[[str], bool] | None]]:
        flags = 0 if self.case_sensitive else re.IGNORECASE
        out: list[tuple[str, re.Pattern[str], Callable[[str], bool] | None]] = []
        for term in self.terms:
            out.append(("term", re.compile(term_regex(term, self.whole_words), flags), None))
        if self.regex:
            out.append(("regex", re.compile(self.regex, flags | re.MULTILINE), None))
        for category in self.categories:
            pattern, check = category_pattern(category)
            out.append((category, pattern, check))
        return out


def term_regex(term: str, whole_words: bool = False) -> str:
    """A literal term as a regex tolerant of line breaks, hyphenation and quote styles."""
    parts = []
    for char in normalize(term):
        if char.isspace():
            if not parts or parts[-1] != r"\s+":
                parts.append(r"\s+")
        elif char == "-":
            parts.append(r"-?\s*")
        else:
            parts.append(re.escape(char))
    body = "".join(parts).strip()
    if whole_words:
        return rf"(?<!\w){body}(?!\w)"
    return body


def normalize(text: str) -> str:
    """Compatibility-normalize (ligatures to letters) and unify quotes and spaces."""
    return unicodedata.normalize("NFKC", text.translate(_QUOTES))


@dataclass
class PageText:
    """A page's text as read, and for each character its box and line number."""

    text: str
    boxes: list[tuple[float, float, float, float] | None]
    lines: list[int]


def page_text(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> PageText:
    """Rebuild a page's reading text with one box per character."""
    tp = textpage or page.get_textpage(flags=_FLAGS)
    raw = tp.extractRAWDICT()
    chars: list[str] = []
    boxes: list[tuple[float, float, float, float] | None] = []
    lines: list[int] = []
    line_no = 0
    for block in raw["blocks"]:
        if block.get("type", 0) != 0:
            continue
        if chars and chars[-1] != "\n":
            chars.append("\n"), boxes.append(None), lines.append(-1)
        for line in block["lines"]:
            line_no += 1
            glyphs = [(c["c"], tuple(c["bbox"])) for span in line["spans"] for c in span["chars"]]
            if not glyphs:
                continue
            if chars and chars[-1] not in ("\n", " "):
                if chars[-1] in _HYPHENS and glyphs[0][0].islower():
                    chars.pop(), boxes.pop(), lines.pop()  # "hyphen-\nation" reads "hyphenation"
                else:
                    chars.append(" "), boxes.append(None), lines.append(-1)
            for char, box in glyphs:
                for piece in normalize(char) or " ":
                    chars.append(" " if piece.isspace() else piece)
                    boxes.append(box if not piece.isspace() else None)
                    lines.append(line_no)
    return PageText("".join(chars), boxes, lines)


def reader_text(page: pymupdf.Page) -> str:
    """The page's text as read (ligatures expanded, lines joined, hyphens removed)."""
    return page_text(page).text


def _rects(pt: PageText, start: int, end: int) -> list[pymupdf.Rect]:
    by_line: dict[int, pymupdf.Rect] = {}
    for i in range(start, end):
        box = pt.boxes[i]
        if box is None:
            continue
        rect = pymupdf.Rect(box)
        if rect.is_empty:
            rect = pymupdf.Rect(rect.x0, rect.y0, max(rect.x1, rect.x0 + 0.1), max(rect.y1, rect.y0 + 0.1))
        line = pt.lines[i]
        by_line[line] = by_line[line] | rect if line in by_line else rect
    return list(by_line.values())


def _quick_text(tp: pymupdf.TextPage) -> str:
    return re.sub(r"-\n(?=[a-z])", "", normalize(tp.extractText())).replace("\n", " ")


def _value_span(m: re.Match[str]) -> tuple[int, int]:
    """The span of the first named group that matched, else the whole match."""
    for name in m.re.groupindex:
        if m.group(name) is not None:
            return m.span(name)
    return m.span()


def find_matches(doc: pymupdf.Document, pages: Iterable[int], targets: Targets) -> list[Match]:
    """Every occurrence of ``targets`` on ``pages`` (0-based), in page order."""
    patterns = targets.patterns()
    found: list[Match] = []
    for index in pages:
        page = doc[index]
        tp = page.get_textpage(flags=_FLAGS)
        quick = _quick_text(tp)
        # Cheap pre-check on the plain text; rebuild with boxes only where something may match.
        if not any(p.search(quick) for _, p, _ in patterns) and not any(
            p.search(quick.replace(" ", "")) for k, p, _ in patterns if k == "term"
        ):
            continue
        pt = page_text(page, tp)
        spans: list[tuple[int, int, str]] = []
        for kind, pattern, check in patterns:
            for m in pattern.finditer(pt.text):
                start, end = _value_span(m)
                if end <= start or (check and not check(pt.text[start:end])):
                    continue
                spans.append((start, end, kind))
        spans.sort()
        last_end = -1
        for start, end, kind in spans:
            if start < last_end:  # overlapping matches: keep the first, longest
                continue
            rects = _rects(pt, start, end)
            if rects:
                found.append(Match(index, pt.text[start:end], rects, kind))
                last_end = end
    return found
