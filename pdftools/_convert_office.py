"""Helpers for the office conversions: Word (pdf2docx), PowerPoint and Excel.

The heavy libraries (pdf2docx, python-pptx, openpyxl) are imported inside the
functions that need them, so importing the tool modules stays cheap.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymupdf

from ._tables import TEXT_FLAGS, cell_value
from .errors import PdfToolError

__all__ = [
    "LAYOUT_TABLE_PAGES",
    "write_docx",
    "write_pptx",
    "write_xlsx",
    "xml_safe",
]

# Borderless-table search (text strategy) costs ~0.5 s a page: longer selections use ruled tables only.
LAYOUT_TABLE_PAGES = 40

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_safe(text: str) -> str:
    """Drop characters that XML (and so docx/pptx/xlsx) cannot hold."""
    return _XML_ILLEGAL.sub("", text)


# ---------------------------------------------------------------- Word (pdf2docx)


class _DropPdf2docxRecords(logging.Filter):
    """pdf2docx logs progress through the root logger; keep it out of our output."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "pdf2docx" not in (record.pathname or "")


_PDF2DOCX_FILTER = _DropPdf2docxRecords()


def _import_pdf2docx() -> Any:
    """Import pdf2docx without letting it configure logging or warn about ``fitz``."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pdf2docx  # its import calls logging.basicConfig(level=INFO)
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    if _PDF2DOCX_FILTER not in root.filters:
        root.addFilter(_PDF2DOCX_FILTER)
    return pdf2docx


def write_docx(source: Path, target: Path, indices: list[int], password: str | None, borderless_tables: bool) -> None:
    """Convert the 0-based pages ``indices`` of ``source`` to a Word file at ``target``.

    ``borderless_tables``: also look for tables without ruling lines. pdf2docx finds them in
    prose set in columns too, and builds giant false tables slowly (six minutes for one page
    of the Federal Register), so this is for documents known to hold such tables of data.
    """
    pdf2docx = _import_pdf2docx()
    converter = pdf2docx.Converter(str(source), password=password or None)
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # it prints a few messages too
            converter.convert(str(target), pages=sorted(indices), parse_stream_table=borderless_tables)
    except pdf2docx.converter.ConversionException as exc:
        raise PdfToolError(f"{source.name} could not be converted to Word: {exc}") from None
    finally:
        converter.close()


# ---------------------------------------------------------------- PowerPoint

_EMU_PER_PT = 12700
_SLIDE_MIN_EMU = 914400  # PowerPoint accepts slides from 1 inch ...
_SLIDE_MAX_EMU = 51206400  # ... to 56 inches a side
_MAX_SLIDE_PIXELS = 4000  # longest side of a slide's picture (posters would otherwise be huge)


def _slide_size(width_pt: float, height_pt: float) -> tuple[int, int]:
    """The page size in EMU, scaled (keeping its shape) into PowerPoint's limits."""
    width, height = width_pt * _EMU_PER_PT, height_pt * _EMU_PER_PT
    scale = 1.0
    if max(width, height) > _SLIDE_MAX_EMU:
        scale = _SLIDE_MAX_EMU / max(width, height)
    elif min(width, height) < _SLIDE_MIN_EMU:
        scale = _SLIDE_MIN_EMU / min(width, height)
    width = min(max(width * scale, _SLIDE_MIN_EMU), _SLIDE_MAX_EMU)
    height = min(max(height * scale, _SLIDE_MIN_EMU), _SLIDE_MAX_EMU)
    return int(width), int(height)


def write_pptx(doc: pymupdf.Document, indices: list[int], target: Path, dpi: int = 150) -> None:
    """One slide per page: the page as a picture filling the slide, its text in the notes.

    The slide size follows the first selected page; other pages are fitted and centred.
    """
    from pptx import Presentation
    from pptx.util import Emu

    first = doc[indices[0]].rect
    prs = Presentation()
    slide_width, slide_height = _slide_size(first.width, first.height)
    prs.slide_width, prs.slide_height = Emu(slide_width), Emu(slide_height)
    blank = prs.slide_layouts[6]
    for index in indices:
        page = doc[index]
        longest = max(page.rect.width, page.rect.height) / 72  # inches
        png = page.get_pixmap(dpi=max(int(min(dpi, _MAX_SLIDE_PIXELS / longest)), 1), alpha=False).tobytes("png")
        slide = prs.slides.add_slide(blank)
        scale = min(slide_width / page.rect.width, slide_height / page.rect.height)
        width, height = int(page.rect.width * scale), int(page.rect.height * scale)
        left, top = (slide_width - width) // 2, (slide_height - height) // 2
        picture = slide.shapes.add_picture(io.BytesIO(png), left, top, width, height)
        picture.name = f"Page {index + 1}"
        text = xml_safe(page.get_text("text", flags=TEXT_FLAGS)).strip()
        slide.notes_slide.notes_text_frame.text = text
        if text:  # alt text, so screen readers and search see the page's words too
            picture._element.nvPicPr.cNvPr.set("descr", " ".join(text.split())[:1000])
    prs.save(str(target))


# ---------------------------------------------------------------- tables and Excel


def write_xlsx(sheets: Iterator[tuple[str, list[list[str | None]]]], target: Path) -> int:
    """Write (sheet name, rows) pairs as sheets of a workbook; return the number of sheets."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    book.remove(book.active)
    count = 0
    for name, rows in sheets:
        sheet = book.create_sheet(title=name[:31])
        widths: dict[int, int] = {}
        for r, row in enumerate(rows, start=1):
            for c, text in enumerate(row, start=1):
                value, fmt = cell_value(xml_safe(text) if text is not None else None)
                if value is None:
                    continue
                cell = sheet.cell(row=r, column=c, value=value)
                if fmt:
                    cell.number_format = fmt
                if r == 1:
                    cell.font = Font(bold=True)
                longest = max((len(line) for line in str(text).splitlines()), default=0)
                widths[c] = max(widths.get(c, 0), longest)
        for c, width in widths.items():
            sheet.column_dimensions[get_column_letter(c)].width = min(max(width + 2, 8), 60)
        count += 1
    if count:
        book.save(str(target))
    return count
