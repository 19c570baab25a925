"""A page's words where a table stands: in lines, in phrases, and the column a phrase stands over.

A word is PyMuPDF's ``(x0, y0, x1, y1, text, …)``; a phrase is ``(x0, y0, x1, y1, text)``.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

from pdftools._tablecells import union

__all__ = ["box_of", "cell_lines", "owner", "page_words", "phrases", "words_in"]


def page_words(page: Any, box: tuple[float, ...]) -> list[tuple[Any, ...]]:
    """The words inside ``box``, both as the page is shown: a page turned by ``/Rotate`` (a landscape statement)
    has its tables found where they are shown, while PyMuPDF gives words and takes clips unturned."""
    if not page.rotation:
        return list(page.get_text("words", clip=box))
    import pymupdf

    turn = page.rotation_matrix
    words = []
    for word in page.get_text("words", clip=(pymupdf.Rect(box) * page.derotation_matrix).normalize()):
        shown = (pymupdf.Rect(word[:4]) * turn).normalize()
        words.append((shown.x0, shown.y0, shown.x1, shown.y1, *word[4:]))
    return words


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
