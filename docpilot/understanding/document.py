"""One uploaded file as the understanding code sees it: its structure, its tables and its passages, cached."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docpilot.understanding.cache import StructureCache, file_key
from docpilot.understanding.structure import Structure, read_structure
from docpilot.understanding.tables import Table, read_tables
from pdftools.docio import open_pdf

__all__ = ["Document", "Unit", "open_documents"]

MAX_OCR_PAGES = 30  # scanned pages read by OCR when a file's structure is first read
MAX_TABLE_PAGES = 12  # pages searched for tables up front; on longer files only the pages retrieval points at


@dataclass(frozen=True)
class Unit:
    """A piece of evidence retrieval ranks: a passage, a label/value pair, a table row, a section title."""

    file: str  # the file's name as the person uploaded it
    page: int
    text: str
    kind: str  # "chunk" | "pair" | "figure" | "row" | "section"


class Document:
    """A PDF with its structure read (or loaded from the cache) and its tables read on demand."""

    def __init__(
        self, path: str | os.PathLike[str], cache: StructureCache, name: str | None = None, password: str | None = None
    ) -> None:
        self.path = str(path)
        self.name = name or Path(path).name
        self.password = password
        self.cache = cache
        self.key = file_key(path)
        self._structure: Structure | None = None
        self._tables: dict[int, list[Table]] = {}

    @property
    def structure(self) -> Structure:
        if self._structure is None:
            data = self.cache.load_json(self.key, "structure")
            if data is None:
                with open_pdf(self.path, self.password) as doc:
                    ocr = _ocr_scanned_pages(doc)  # in memory only: the file is never changed
                    structure = read_structure(doc, self.name)
                    structure.ocr_pages = ocr
                self.cache.save_json(self.key, "structure", structure.to_dict())
            else:
                structure = Structure.from_dict(data)
                structure.name = self.name
            self._structure = structure
        return self._structure

    def tables(self, pages: list[int] | None = None) -> list[Table]:
        """The tables on ``pages`` (1-based; default: the likely table pages of a short file)."""
        if pages is None:
            pages = self.structure.table_pages[:MAX_TABLE_PAGES]
        missing = [p for p in pages if p not in self._tables]
        for page in list(missing):
            data = self.cache.load_json(self.key, f"tables-{page}")
            if data is not None:
                self._tables[page] = [Table.from_dict(t) for t in data]
                missing.remove(page)
        if missing:
            with open_pdf(self.path, self.password) as doc:
                for page in missing:
                    found = read_tables(doc[page - 1]) if 1 <= page <= doc.page_count else []
                    self._tables[page] = found
                    self.cache.save_json(self.key, f"tables-{page}", [t.to_dict() for t in found])
        return [t for p in pages for t in self._tables.get(p, [])]

    def units(self) -> list[Unit]:
        """Passages, pairs and figure captions, in reading order (table rows come with :meth:`tables`)."""
        s = self.structure
        units = [Unit(self.name, c.page, c.text, "chunk") for c in s.chunks]
        units += [Unit(self.name, p.page, f"{p.label}: {p.value}", "pair") for p in s.pairs]
        units += [Unit(self.name, f.page, f.caption, "figure") for f in s.figures]
        return units

    def page_text(self, page: int) -> str:
        pages = self.structure.pages
        return pages[page - 1] if 1 <= page <= len(pages) else ""


def _ocr_scanned_pages(doc: Any) -> list[int]:
    """OCR pages that are pictures of text (no text layer, an image), up to MAX_OCR_PAGES; their 1-based numbers.

    Without Tesseract the pages stay without text (the structure says which were not read).
    """
    from pdftools._ocr import has_text, ocr_page, tessdata_dir
    from pdftools.errors import ToolUnavailableError

    scanned = [page.number for page in doc if not has_text(page) and page.get_images()][:MAX_OCR_PAGES]
    if not scanned:
        return []
    try:
        tessdata = tessdata_dir()
    except ToolUnavailableError:
        return []
    for index in scanned:
        try:
            ocr_page(doc[index], "eng", tessdata, dpi=200)
        except ToolUnavailableError:
            continue
    return [i + 1 for i in scanned if has_text(doc[i])]


def open_documents(files: dict[str, str], cache: StructureCache, password: str | None = None) -> list[Document]:
    """Documents for ``{name: path}``."""
    return [Document(path, cache, name=name, password=password) for name, path in files.items()]
