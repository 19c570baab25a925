"""Boxes for words and phrases from MuPDF's own search, paired with the reader's matches.

:func:`pdftools.textmatch.find_matches` decides what matches on the page as a reader
reads it. For the most common request (words or phrases in any case) the boxes can come
from MuPDF's search on the same text page, in C, instead of per-character Python data.

MuPDF's search reads more narrowly than a reader: it folds only ASCII case and knows
nothing of curly quotes, compatibility characters or words hyphenated across lines. So
for an ASCII term every occurrence MuPDF finds is also a reader's match. MuPDF gives one
box per line of an occurrence; when it gives exactly as many as the matches in the page's
text cover, the two found the same occurrences, in the same order, and the boxes are used.
Anything else (a curly apostrophe, two matches touching) returns None, and the page is
read character by character instead. Whether an occurrence is split by a hyphen at a
line end (which the text would not show as a match) is for the caller to rule out first.

:func:`mupdf_text` is MuPDF's own plain text of a page, made in C several times faster
than PyMuPDF's ``extractText``: the same characters, with the lines of a paragraph run on
(a line ending in a hyphen runs on without a space: "copy-righted").
"""

from __future__ import annotations

import re

import pymupdf

__all__ = ["term_boxes_usable", "term_matches", "mupdf_text"]

_SPACES = re.compile(r"\s+")
_CONTEXT = 40


def term_boxes_usable(terms: list[str], case_sensitive: bool, whole_words: bool, others: bool) -> bool:
    """Whether :func:`term_matches` may be tried: ASCII terms only, any case, no other targets."""
    return bool(terms) and not (case_sensitive or whole_words or others) and all(t.isascii() for t in terms)


def mupdf_text(tp: pymupdf.TextPage) -> str | None:
    """MuPDF's plain text of the page (lines of a paragraph run on), or None when unavailable."""
    try:
        buffer = pymupdf.mupdf.fz_new_buffer_from_stext_page(tp.this)
        return buffer.fz_buffer_extract().decode("utf-8", "replace")
    except (AttributeError, RuntimeError, TypeError):  # PyMuPDF's low-level API changed
        return None


def term_matches(
    tp: pymupdf.TextPage, text: str, terms: list[tuple[str, re.Pattern[str]]]
) -> list[tuple[str, list[pymupdf.Rect], str]] | None:
    """(text as read, one box per line, context) of every term occurrence in ``text``, in page order.

    ``text`` is the page's plain text (its line breaks count the lines an occurrence spans);
    ``terms`` pairs each term with its pattern. None when MuPDF's boxes cannot be paired one
    to one with the matches.
    """
    found: list[tuple[int, int, list[pymupdf.Rect]]] = []
    for term, pattern in terms:
        matches = list(pattern.finditer(text))
        if not matches:
            continue
        lines = [m.group().count("\n") + 1 for m in matches]
        segments = _line_segments(tp.search(term, quads=True))
        if len(segments) != sum(lines):
            return None  # an occurrence over more lines than the text shows, or MuPDF reads the page differently
        position = 0
        for match, count in zip(matches, lines, strict=False):
            found.append((match.start(), match.end(), segments[position : position + count]))
            position += count
    found.sort(key=lambda item: item[0])
    if any(a[1] > b[0] for a, b in zip(found, found[1:], strict=False)):
        return None  # overlapping matches of different terms read as one: the reader decides
    return [
        (_SPACES.sub(" ", text[start:end]), rects, " ".join(text[max(0, start - _CONTEXT) : end + _CONTEXT].split()))
        for start, end, rects in found
    ]


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
