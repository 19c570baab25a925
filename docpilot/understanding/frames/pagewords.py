"""A page's words where a table stands: in lines, in phrases, and the column a phrase stands over.

A word is PyMuPDF's ``(x0, y0, x1, y1, text, …)``; a phrase is ``(x0, y0, x1, y1, text)``.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

from docpilot.understanding.textnorm import FOOTNOTE_MARK
from pdftools._tablecells import union

__all__ = [
    "box_of", "cell_lines", "footnote_marks", "owner", "page_words", "phrases", "without_mark", "words_in",
]  # fmt: skip


def page_words(page: Any, box: tuple[float, ...]) -> list[tuple[Any, ...]]:
    """The words inside ``box``, both as the page is shown: a page turned by ``/Rotate`` (a landscape statement)
    has its tables found where they are shown, while PyMuPDF gives words and takes clips unturned. A footnote mark
    set above the line at a word's end ("83,190,556²") is not part of the word."""
    if not page.rotation:
        return _unmarked(page, page.get_text("words", clip=box), box)
    import pymupdf

    turn = page.rotation_matrix
    words = []
    clip = (pymupdf.Rect(box) * page.derotation_matrix).normalize()
    for word in _unmarked(page, page.get_text("words", clip=clip), clip):
        shown = (pymupdf.Rect(word[:4]) * turn).normalize()
        words.append((shown.x0, shown.y0, shown.x1, shown.y1, *word[4:]))
    return words


def footnote_marks(page: Any, clip: Any = None) -> list[tuple[tuple[float, float, float, float], str]]:
    """The superscript spans of at most three digits or marks ("2", "*", "†") on ``page`` (inside ``clip``), with
    their boxes: footnote marks, where one is set after a word or a figure."""
    import pymupdf

    text_only = pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES  # the spans; no image is decoded
    return [
        (span["bbox"], span["text"].strip())
        for block in page.get_text("dict", clip=clip, flags=text_only)["blocks"]
        for line in block.get("lines", [])
        for span in line["spans"]
        if span["flags"] & 1 and FOOTNOTE_MARK.fullmatch(span["text"].strip())
    ]


def without_mark(text: str, box: tuple[float, ...], marks: list[tuple[tuple[float, float, float, float], str]]) -> str:
    """A table cell's ``text`` (its ruled ``box``) less a footnote mark of ``marks`` that stands in the cell and
    ends its text."""
    for (x0, y0, x1, _y1), mark in marks:
        inside = box[0] <= x0 and x1 <= box[2] + 1 and box[1] - 1 <= y0 <= box[3]
        if inside and len(text) > len(mark) and text.rstrip().endswith(mark):
            return text.rstrip()[: -len(mark)]
    return text


def _mark_at(
    text: str, box: tuple[float, ...], marks: list[tuple[tuple[float, float, float, float], str]]
) -> tuple[tuple[float, float, float, float], str] | None:
    """The mark of ``marks`` that ends where ``text``'s box ends, starts after it does and stands on its line."""
    for bbox, mark in marks:
        x0, y0, x1, _y1 = bbox
        if len(text) > len(mark) and text.endswith(mark) and abs(x1 - box[2]) < 1 and x0 > box[0]:
            if box[1] - 1 <= y0 <= box[3]:
                return bbox, mark
    return None


def _unmarked(page: Any, words: list[Any], clip: Any) -> list[tuple[Any, ...]]:
    """``words`` with the footnote marks at their ends taken off: a superscript span of at most three digits or
    marks ("2", "*", "†") that ends where a word ends and starts after it does."""
    marks = footnote_marks(page, clip)
    if not marks:
        return list(words)
    out = []
    for word in words:
        text = str(word[4])
        found = _mark_at(text, word[:4], marks)
        if found is not None:
            word = (word[0], word[1], found[0][0], word[3], text[: -len(found[1])], *word[5:])
        out.append(tuple(word))
    return out


def cell_lines(page: Any, box: tuple[float, ...]) -> list[list[Any]]:
    """The words inside ``box``, in lines from the top (a word whose middle is inside a line's height joins it)."""
    words = sorted(page_words(page, box), key=lambda w: ((w[1] + w[3]) / 2, w[0]))
    lines: list[list[Any]] = []
    for word in words:
        if lines and lines[-1][0][1] <= (word[1] + word[3]) / 2 <= lines[-1][0][3]:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w[0]) for line in lines]


def box_of(words: list[Any]) -> tuple[float, float, float, float]:
    """The box around words or phrases (each one's first four items are its box)."""
    return reduce(union, ((w[0], w[1], w[2], w[3]) for w in words))


def words_in(page: Any, box: tuple[float, ...]) -> list[Any]:
    """The words inside ``box``, left to right."""
    return sorted(page_words(page, box), key=lambda w: w[0])


def phrases(line: list[Any]) -> list[tuple[float, float, float, float, str]]:
    """A line's words joined into phrases: words closer than half their height are one ("Long Gun", "Return
    to Seller - Private Sale"); a wider gap starts another."""
    out: list[tuple[float, float, float, float, str]] = []
    for word in sorted(line, key=lambda w: w[0]):
        x0, y0, x1, y1, text = float(word[0]), float(word[1]), float(word[2]), float(word[3]), str(word[4])
        if out and x0 - out[-1][2] < (y1 - y0) / 2:
            a0, b0, _, b1, said = out[-1]
            out[-1] = (a0, min(b0, y0), x1, max(b1, y1), f"{said} {text}")
        else:
            out.append((x0, y0, x1, y1, text))
    return out


def owner(word: Any, columns: list[tuple[float, float]]) -> int | None:
    """The column most of a phrase stands over (more than half its width), else None."""
    width = max(word[2] - word[0], 0.1)
    for m, (x0, x1) in enumerate(columns):
        if min(word[2], x1) - max(word[0], x0) > width / 2:
            return m
    return None
