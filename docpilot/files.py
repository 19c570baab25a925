"""What the planner knows of the uploaded files: names, kinds, page counts, and (read when asked) their parts."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pdftools.paths import IMAGE_SUFFIXES

if TYPE_CHECKING:
    from docpilot.fileparts import Part

__all__ = ["FileInfo", "inspect_files", "IMAGE_SUFFIXES"]


@dataclass(frozen=True)
class FileInfo:
    """An uploaded file as the plan sees it (by name, never by path)."""

    name: str
    path: str
    kind: str  # "pdf" | "image" | "other"
    pages: int | None = None  # None when unknown (unreadable, encrypted, not a PDF)
    encrypted: bool = False
    problem: str | None = None  # why the file cannot be read, if it cannot

    @functools.cached_property
    def parts(self) -> tuple[Part, ...]:
        """Its chapters, sections, contents, index and appendices with their page ranges (from its outline, else
        its headings), read on first use only: a request that names no part of a file never pays for it."""
        if self.kind != "pdf" or self.encrypted or not self.pages:
            return ()
        from docpilot.fileparts import read_parts

        return read_parts(self.path, self.pages)

    def describe(self) -> str:
        if self.kind == "pdf" and self.pages:
            lock = ", password-protected" if self.encrypted else ""
            return f"{self.name} ({self.pages} page{'s' if self.pages != 1 else ''}{lock})"
        if self.kind == "pdf" and self.encrypted:
            return f"{self.name} (password-protected PDF)"
        return f"{self.name} ({self.kind})"


def _inspect(path: Path) -> FileInfo:
    suffix = path.suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return FileInfo(path.name, str(path), "image")
    if suffix != ".pdf":
        return FileInfo(path.name, str(path), "other")
    from pdftools.docio import open_pdf
    from pdftools.errors import EncryptedPdfError, PdfToolError

    try:
        with open_pdf(path) as doc:
            return FileInfo(path.name, str(path), "pdf", doc.page_count)
    except EncryptedPdfError:
        return FileInfo(path.name, str(path), "pdf", None, True)
    except PdfToolError as exc:
        return FileInfo(path.name, str(path), "pdf", None, False, str(exc))


def inspect_files(paths: Iterable[str | Path]) -> dict[str, FileInfo]:
    """FileInfo for each path, keyed by file name (the name plans use)."""
    out: dict[str, FileInfo] = {}
    for raw in paths:
        path = Path(raw).expanduser().resolve()
        out[path.name] = _inspect(path)
    return out
