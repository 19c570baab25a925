"""Find text the way a reader sees it.

PDF text is stored as positioned glyphs: ligatures ("ﬁ") are one glyph, words
break across lines, hyphenated words split in two. This module rebuilds each
page's text as a reader would read it — ligatures expanded, lines joined with
a space, end-of-line hyphens removed — keeps each character's box, and finds
literal terms, regular expressions and pattern categories in that text. A
match comes back as the boxes it covers, one per line.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import pymupdf

from ._termsearch import mupdf_text, term_boxes_usable, term_matches
from .errors import ToolArgumentError
from .patterns import CATEGORIES, category_pattern, normalize_category

__all__ = ["Match", "Targets", "PageText", "page_text", "find_matches", "reader_text", "span_match"]

# Ligatures expanded (no TEXT_PRESERVE_LIGATURES), whitespace kept, clipped to the page.
_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "\u00a0": " ", "‐": "-", "‑": "-"})
_QUOTE_PAIRS = tuple((chr(k), v) for k, v in _QUOTES.items())
_HYPHENS = ("-", "\u00ad", "‐")
_SPACES = re.compile(r"\s")
_HYPHEN_BREAK = re.compile(r"[-\u00ad]\n(?=\w)")
_WORD_HYPHEN = re.compile(r"(?<=\w)[-\u00ad](?=[a-z])")  # in MuPDF's text a line-end hyphen runs on
_CONTEXT = 40  # characters of context kept either side of a match


@dataclass
class Match:
    """One occurrence: page (0-based), the text as read, its boxes (one per line)."""

    page: int
    text: str
    rects: list[pymupdf.Rect]
    kind: str
    context: str = ""

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
    ) -> Targets:
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
                f"({', '.join(CATEGORIES)})."
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
    parts: list[str] = []
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
    if text.isascii():
        return text
    for char, plain in _QUOTE_PAIRS:
        if char in text:
            text = text.replace(char, plain)
    return unicodedata.normalize("NFKC", text)


@dataclass
class PageText:
    """A page's text as read, and for each character its box and line number."""

    text: str
    boxes: list[tuple[float, float, float, float] | None]
    lines: list[int]


def page_text(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> PageText:
    """Rebuild a page's reading text with one box per character."""
    tp = textpage or page.get_textpage(flags=_FLAGS)
    return _build(tp.extractRAWDICT()["blocks"])


def _build(raw_blocks: list[dict]) -> PageText:
    """Reading text and character boxes from rawdict blocks."""
    chars: list[str] = []
    boxes: list[tuple[float, float, float, float] | None] = []
    lines: list[int] = []
    line_no = 0
    for block in raw_blocks:
        if block.get("type", 0) != 0:
            continue
        if chars and chars[-1] != "\n":
            chars.append("\n")
            boxes.append(None)
            lines.append(-1)
        for line in block["lines"]:
            line_no += 1
            glyphs = [(c["c"], tuple(c["bbox"])) for span in line["spans"] for c in span["chars"]]
            if not glyphs:
                continue
            if chars and chars[-1] not in ("\n", " "):
                if chars[-1] in _HYPHENS and glyphs[0][0].islower():
                    chars.pop()  # "hyphen-\nation" reads "hyphenation"
                    boxes.pop()
                    lines.pop()
                else:
                    chars.append(" ")
                    boxes.append(None)
                    lines.append(-1)
            for char, box in glyphs:
                if char.isascii() and not char.isspace():  # the common case: kept as is
                    chars.append(char)
                    boxes.append(box)
                    lines.append(line_no)
                    continue
                for piece in normalize(char) or " ":
                    chars.append(" " if piece.isspace() else piece)
                    boxes.append(box if not piece.isspace() else None)
                    lines.append(line_no)
    return PageText("".join(chars), boxes, lines)


@dataclass
class _Line:
    """A text line as ``extractWORDS`` sees it: block, words joined by one space, the words."""

    block: int
    text: str
    words: list[tuple]

    def box(self) -> tuple[float, float, float, float]:
        return (
            min(w[0] for w in self.words),
            min(w[1] for w in self.words),
            max(w[2] for w in self.words),
            max(w[3] for w in self.words),
        )


_LINE_KEY = operator.itemgetter(5, 6)
_WORD = operator.itemgetter(4)


def _word_lines(tp: pymupdf.TextPage) -> list[_Line]:
    lines = []
    for (block, _), group in itertools.groupby(tp.extractWORDS(), _LINE_KEY):
        words = list(group)
        lines.append(_Line(block, " ".join(map(_WORD, words)), words))
    return lines


def _quick_text(lines: list[_Line]) -> tuple[str, list[int]]:
    """The page as :func:`page_text` reads it (from words, without boxes) and each line's offset."""
    out: list[str] = []
    starts: list[int] = []
    pos = 0
    block = None
    for line in lines:
        text = line.text
        if not text.isascii():
            text = _SPACES.sub(" ", normalize(text))
        if block is not None:
            if line.block != block:
                out.append("\n")
                pos += 1
            elif out[-1][-1:] in _HYPHENS and line.text[:1].islower():
                out[-1] = out[-1][:-1]  # "hyphen-\nation" reads "hyphenation"
                pos -= 1
            else:
                out.append(" ")
                pos += 1
        starts.append(pos)
        out.append(text)
        pos += len(text)
        block = line.block
    return "".join(out), starts


def _candidate_lines(lines: list[_Line], patterns: list[re.Pattern[str]]) -> list[int]:
    """Indices of the lines some pattern may match on (a match across lines marks them all)."""
    text, starts = _quick_text(lines)
    hit: set[int] = set()
    for pattern in patterns:
        for m in pattern.finditer(text):
            first = bisect.bisect_right(starts, m.start()) - 1
            last = bisect.bisect_right(starts, max(m.start(), m.end() - 1)) - 1
            hit.update(range(max(first, 0), last + 1))
    return sorted(hit)


def _raw_line(tp: pymupdf.TextPage, line: _Line) -> dict | None:
    """The rawdict line for ``line``, read alone; None when it cannot be singled out.

    PyMuPDF builds the rawdict only for what overlaps the text page's rectangle, so
    narrowing that rectangle to a thin band through the line for one call skips every
    other character of the page (the expensive part on long pages). The line whose
    text equals the words' text is the one; otherwise the caller reads the whole page.
    """
    try:
        box = tp.this.m_internal.mediabox
        saved = (box.x0, box.y0, box.x1, box.y1)
    except AttributeError:  # PyMuPDF internals changed: read the whole page instead
        return None
    x0, y0, x1, y1 = line.box()
    middle, half = (y0 + y1) / 2, max((y1 - y0) * 0.1, 0.05)
    try:
        box.x0, box.y0, box.x1, box.y1 = x0 - 1, middle - half, x1 + 1, middle + half
        raw = tp.extractRAWDICT()["blocks"]
    finally:
        box.x0, box.y0, box.x1, box.y1 = saved
    want = " ".join(line.text.split())
    for block in raw:
        for candidate in block.get("lines", ()):
            text = "".join(c["c"] for span in candidate["spans"] for c in span["chars"])
            if " ".join(text.split()) == want:
                return candidate
    return None


def _line_texts(page: pymupdf.Page, tp: pymupdf.TextPage, lines: list[_Line], hit: list[int]) -> list[PageText]:
    """Reading text with boxes for runs of consecutive hit lines (the whole page if that fails)."""
    if len(hit) > max(12, len(lines) // 2):  # most of the page: one full read is cheaper
        return [page_text(page, tp)]
    runs: list[list[int]] = []
    for i in hit:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    texts = []
    for run in runs:
        blocks: list[dict] = []
        for i in run:
            raw = _raw_line(tp, lines[i])
            if raw is None:
                return [page_text(page, tp)]
            if not blocks or lines[i].block != lines[i - 1].block:
                blocks.append({"type": 0, "lines": []})
            blocks[-1]["lines"].append(raw)
        texts.append(_build(blocks))
    return texts


def reader_text(page: pymupdf.Page) -> str:
    """The page's text as read (ligatures expanded, lines joined, hyphens removed)."""
    return page_text(page).text


def _rects(pt: PageText, start: int, end: int) -> list[pymupdf.Rect]:
    by_line: dict[int, list[float]] = {}
    for i in range(start, end):
        box = pt.boxes[i]
        if box is None:
            continue
        line = pt.lines[i]
        have = by_line.get(line)
        if have is None:
            by_line[line] = list(box)
        else:
            have[0], have[1] = min(have[0], box[0]), min(have[1], box[1])
            have[2], have[3] = max(have[2], box[2]), max(have[3], box[3])
    rects = []
    for x0, y0, x1, y1 in by_line.values():
        rects.append(pymupdf.Rect(x0, y0, max(x1, x0 + 0.1), max(y1, y0 + 0.1)))
    return rects


def _dehyphenate(m: re.Match[str]) -> str:
    """'hyphen-\nation' reads 'hyphenation'; before a capital the hyphen stays."""
    return "" if m.string[m.end()].islower() else m.group()


def _value_span(m: re.Match[str]) -> tuple[int, int]:
    """The span of the first named group that matched, else the whole match."""
    for name in m.re.groupindex:
        if m.group(name) is not None:
            return m.span(name)
    return m.span()


def find_matches(
    doc: pymupdf.Document, pages: Iterable[int], targets: Targets, areas: dict[int, pymupdf.Rect] | None = None
) -> list[Match]:
    """Every occurrence of ``targets`` on ``pages`` (0-based), in page order.

    ``areas`` limits the search on a page to a rectangle (e.g. re-checking only where a redaction was).
    """
    patterns = targets.patterns()
    regexes = [p for _, p, _ in patterns]
    quick = term_boxes_usable(
        targets.terms, targets.case_sensitive, targets.whole_words, bool(targets.regex or targets.categories)
    )
    terms = list(zip(targets.terms, regexes, strict=False)) if quick else []
    found: list[Match] = []
    for index in pages:
        page = doc[index]
        clip = areas.get(index) if areas else None
        tp = page.get_textpage(clip=clip, flags=_FLAGS)
        if quick and clip is None and (raw := mupdf_text(tp)) is not None:
            # Words and phrases from MuPDF's text, unless removing every hyphen inside a word finds
            # more: then one may be split at a line end, and only reading characters places it.
            text = normalize(raw)
            run_on = _WORD_HYPHEN.sub("", text) if "-" in text or "\u00ad" in text else text
            if _split_at_line_end(text, run_on, regexes):
                found += _read_by_characters(index, page, tp, patterns, regexes)
                continue
            located = term_matches(tp, text, terms)
            if located is not None:
                found += [Match(index, what, rects, "term", context) for what, rects, context in located]
                continue
        # Cheap pre-check on the blocks' plain text; rebuild with boxes only where something may match.
        text = normalize(tp.extractText())
        joined = _HYPHEN_BREAK.sub(_dehyphenate, text)
        # (term patterns read any whitespace as a space; patterns and categories may want a plain space)
        haystack = joined if quick else joined.replace("\n", " ")
        if not any(p.search(haystack) for p in regexes):  # nothing on this page can match
            continue
        located = term_matches(tp, text, terms) if quick and not _split_at_line_end(text, joined, regexes) else None
        if located is not None:  # MuPDF's boxes agree with the reader's matches
            found += [Match(index, what, rects, "term", context) for what, rects, context in located]
        else:
            found += _read_by_characters(index, page, tp, patterns, regexes)
    return found


def _split_at_line_end(text: str, joined: str, regexes: list[re.Pattern[str]]) -> bool:
    """Whether ``joined`` (``text`` with hyphenated words joined) has matches ``text`` does not show."""
    return len(joined) != len(text) and any(
        sum(1 for _ in p.finditer(text)) != sum(1 for _ in p.finditer(joined)) for p in regexes
    )


def _read_by_characters(
    index: int, page: pymupdf.Page, tp: pymupdf.TextPage, patterns: list, regexes: list[re.Pattern[str]]
) -> list[Match]:
    """Matches on the lines that may hold one, read character by character (the reader's way)."""
    lines = _word_lines(tp)
    hit = _candidate_lines(lines, regexes)
    return [m for pt in _line_texts(page, tp, lines, hit) for m in _page_matches(index, pt, patterns)]


def _page_matches(index: int, pt: PageText, patterns: list) -> list[Match]:
    found: list[Match] = []
    spans: list[tuple[int, int, str]] = []
    for kind, pattern, check in patterns:
        for m in pattern.finditer(pt.text):
            start, end = _value_span(m)
            if end <= start or (check and not check(pt.text[start:end])):
                continue
            spans.append((start, end, kind))
    spans.sort(key=lambda s: (s[0], -s[1]))
    merged: list[list] = []
    for start, end, kind in spans:
        if merged and start < merged[-1][1]:  # overlapping matches read as one
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, kind])
    for start, end, kind in merged:
        match = span_match(index, pt, start, end, kind)
        if match:
            found.append(match)
    return found


def span_match(index: int, pt: PageText, start: int, end: int, kind: str) -> Match | None:
    """The match for characters ``start:end`` of page ``index``'s reading text; None when none has a box."""
    rects = _rects(pt, start, end)
    if not rects:
        return None
    context = pt.text[max(0, start - _CONTEXT) : end + _CONTEXT]
    return Match(index, pt.text[start:end], rects, kind, " ".join(context.split()))
