"""Boxes for words and phrases from MuPDF's own search, checked against the reader's text.

:func:`pdftools.textmatch.find_matches` decides what matches on the page as a reader
reads it. For the most common request (words or phrases in any case) the boxes can come
from MuPDF's search on the same text page, in C, instead of per-character Python data.

MuPDF's search reads more narrowly than a reader: it folds only ASCII case and knows
nothing of curly quotes, compatibility characters or words hyphenated across lines. So
for an ASCII term every occurrence MuPDF finds is also a reader's match. MuPDF gives one
box per line of an occurrence; when it gives exactly as many as the reader's matches
cover, the two found the same occurrences, in the same order, and the boxes are used.
Anything else (a term split by hyphenation, a curly apostrophe, two matches touching)
returns None, and the page is read character by character instead.

Before that, :func:`single_line_matches` tries MuPDF's own plain-text output, made in C
several times faster than PyMuPDF's ``extractText``. It holds the same characters; its
only difference in whitespace is that a line ending in a hyphen runs on into the next
("copy-righted" for "copy-\nrighted"), which is checked for: when removing hyphens
inside words finds no more occurrences than the text as it is, no occurrence is broken
at a line end, and the reader's matches are the ones in this text.
"""

from __future__ import annotations

import re
from typing import Callable

import pymupdf

__all__ = ["term_boxes_usable", "term_matches", "single_line_matches", "SPLIT_AT_LINE_END"]

# single_line_matches' answer for a page where an occurrence may be split by a hyphen at a line end:
# only reading it character by character places such an occurrence.
SPLIT_AT_LINE_END: list = []

_SPACES = re.compile(r"\s+")
_WORD_HYPHEN = re.compile(r"(?<=\w)[-\u00ad](?=[a-z])")
_CONTEXT = 40


def term_boxes_usable(terms: list[str], case_sensitive: bool, whole_words: bool, others: bool) -> bool:
    """Whether :func:`term_matches` may be tried: ASCII terms only, any case, no other targets."""
    return bool(terms) and not (case_sensitive or whole_words or others) and all(t.isascii() for t in terms)


def _mupdf_text(tp: pymupdf.TextPage) -> str | None:
    """MuPDF's plain text of the page (lines of a paragraph run on), or None when unavailable."""
    try:
        buffer = pymupdf.mupdf.fz_new_buffer_from_stext_page(tp.this)
        return buffer.fz_buffer_extract().decode("utf-8", "replace")
    except (AttributeError, RuntimeError, TypeError):  # PyMuPDF's low-level API changed
        return None


def single_line_matches(index: int, tp: pymupdf.TextPage, terms: list[tuple[str, re.Pattern[str]]],
                        normalize: Callable[[str], str]) -> list[tuple[str, list[pymupdf.Rect], str]] | None:
    """Like :func:`term_matches` for a page where every occurrence lies on one line; [] when none can match.

    For a whole (unclipped) text page. :data:`SPLIT_AT_LINE_END` (itself) when an occurrence may
    be split by a hyphen at a line end; None when it cannot decide otherwise (an occurrence over
    two lines, or MuPDF's boxes do not pair one to one with the matches).
    """
    raw = _mupdf_text(tp)
    if raw is None:
        return None
    text = normalize(raw)
    run_on = _WORD_HYPHEN.sub("", text) if "-" in text or "\u00ad" in text else text
    found: list[tuple[int, int, list[pymupdf.Rect]]] = []
    for term, pattern in terms:
        matches = list(pattern.finditer(text))
        if len(run_on) != len(text) and len(matches) != sum(1 for _ in pattern.finditer(run_on)):
            return SPLIT_AT_LINE_END  # maybe "copy-" at a line end and "right" on the next
        if not matches:
            continue
        segments = _line_segments(tp.search(term, quads=True))
        if len(segments) != len(matches):
            return None  # an occurrence over two lines, or MuPDF reads the page differently
        found += [(m.start(), m.end(), [rect]) for m, rect in zip(matches, segments)]
    found.sort(key=lambda item: item[0])
    if any(a[1] > b[0] for a, b in zip(found, found[1:])):
        return None
    return [(_SPACES.sub(" ", text[start:end]), rects,
             " ".join(text[max(0, start - _CONTEXT) : end + _CONTEXT].split())) for start, end, rects in found]


def term_matches(index: int, tp: pymupdf.TextPage, text: str, reader_text: str,
                 terms: list[tuple[str, re.Pattern[str]]]) -> list[tuple[str, list[pymupdf.Rect], str]] | None:
    """(text as read, one box per line, context) of every term occurrence on the page, in page order.

    ``text`` is the page's plain text with its line breaks, ``reader_text`` the same with
    words hyphenated across lines joined again; ``terms`` pairs each term with its pattern.
    None when MuPDF's boxes cannot be matched one to one with the reader's matches.
    """
    found: list[tuple[int, int, list[pymupdf.Rect]]] = []
    for term, pattern in terms:
        matches = list(pattern.finditer(text))
        if len(reader_text) != len(text) and len(matches) != sum(1 for _ in pattern.finditer(reader_text)):
            return None  # an occurrence broken by a hyphen at a line end
        if not matches:
            continue
        lines = [m.group().count("\n") + 1 for m in matches]
        segments = _line_segments(tp.search(term, quads=True))
        if len(segments) != sum(lines):
            return None
        position = 0
        for match, count in zip(matches, lines):
            found.append((match.start(), match.end(), segments[position : position + count]))
            position += count
    found.sort(key=lambda item: item[0])
    if any(a[1] > b[0] for a, b in zip(found, found[1:])):
        return None  # overlapping matches of different terms read as one: the reader decides
    return [(_SPACES.sub(" ", text[start:end]), rects,
             " ".join(text[max(0, start - _CONTEXT) : end + _CONTEXT].split())) for start, end, rects in found]


def _line_segments(quads: list[pymupdf.Quad]) -> list[pymupdf.Rect]:
    """MuPDF's hit boxes with pieces of one line joined (it splits a line at a wide gap)."""
    segments: list[pymupdf.Rect] = []
    for quad in quads:
        rect = quad.rect
        if segments:
            last = segments[-1]
            height = max(rect.height, last.height, 0.1)
            same_line = abs(rect.y0 - last.y0) < 0.3 * height and abs(rect.y1 - last.y1) < 0.3 * height
            if same_line and -0.5 * height < rect.x0 - last.x1 < 1.5 * height:
                segments[-1] = last | rect  # (a new Rect: PyMuPDF has no in-place union)
                continue
        segments.append(pymupdf.Rect(rect))
    return segments
