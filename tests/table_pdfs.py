"""Small PDFs with tables drawn by PyMuPDF, for the frame tests: ruled (a full grid) or aligned by whitespace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

__all__ = ["DrawnTable", "draw_pdf"]


@dataclass
class DrawnTable:
    """A table to draw: its rows (the first ``header_rows`` are headings), a caption above, ruled or not."""

    rows: list[list[str]]
    caption: str = ""
    ruled: bool = True
    header_rows: int = 1
    widths: list[float] = field(default_factory=list)  # column widths in points (default: 150, then 90 each)
    top: float = 120


def draw_pdf(path: Path, pages: Sequence[Sequence[DrawnTable] | str]) -> str:
    """Write a PDF with one page per entry: a page of prose (a string) or of tables; returns its path."""
    doc = pymupdf.open()
    for entry in pages:
        page = doc.new_page(width=612, height=792)
        if isinstance(entry, str):
            page.insert_textbox(pymupdf.Rect(72, 72, 540, 720), entry, fontsize=11, fontname="helv")
            continue
        for table in entry:
            _draw(page, table)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    doc.close()
    return str(path)


def _draw(page: pymupdf.Page, table: DrawnTable) -> None:
    columns = len(table.rows[0])
    widths = table.widths or [150.0] + [90.0] * (columns - 1)
    left, height = 60.0, 20.0
    top = table.top
    if table.caption:
        page.insert_text((left, top - 12), table.caption, fontsize=10, fontname="helv")
    xs = [left]
    for width in widths:
        xs.append(xs[-1] + width)
    for r, row in enumerate(table.rows):
        y = top + r * height
        bold = r < table.header_rows
        for c, text in enumerate(row):
            if not text:
                continue
            size = 9
            font = "hebo" if bold else "helv"
            if c == 0:
                x = xs[0] + 4
            else:  # figures and headings set right, as tables print them
                x = xs[c + 1] - 4 - pymupdf.get_text_length(text, fontname=font, fontsize=size)
            page.insert_text((x, y + 14), text, fontsize=size, fontname=font)
    if table.ruled:
        bottom = top + len(table.rows) * height
        for r in range(len(table.rows) + 1):
            page.draw_line((xs[0], top + r * height), (xs[-1], top + r * height), width=0.6)
        for x in xs:
            page.draw_line((x, top), (x, bottom), width=0.6)
