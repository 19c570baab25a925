"""What the planner knows of the uploaded files: names, kinds, page counts, and (read when asked) their parts."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from docpilot.errors import LimitError
from pdftools.paths import IMAGE_SUFFIXES

if TYPE_CHECKING:
    from docpilot.fileparts import Part

__all__ = ["FileInfo", "UploadLimits", "inspect_files", "IMAGE_SUFFIXES"]

MAX_UPLOAD_MB = 100  # the corpus' largest file is 3.6 MB
MAX_PAGES = 1000  # the corpus' longest files have 352 and 400 pages


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


@dataclass(frozen=True)
class UploadLimits:
    """How large an uploaded file may be (MB) and how many pages it may have.

    Defaults :data:`MAX_UPLOAD_MB` and :data:`MAX_PAGES`; ``DOCPILOT_MAX_UPLOAD_MB`` and
    ``DOCPILOT_MAX_PAGES`` change them (:meth:`from_env`, read when the app starts).
    """

    max_mb: float = MAX_UPLOAD_MB
    max_pages: int = MAX_PAGES

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> UploadLimits:
        env = os.environ if env is None else env

        def number(name: str, default: float) -> float:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                value = float(raw)
            except ValueError:
                raise LimitError(f"{name}={raw!r} is not a number: give a positive number, e.g. {default:g}.") from None
            if value <= 0:
                raise LimitError(f"{name}={raw!r} must be a positive number, e.g. {default:g}.")
            return value

        return cls(number("DOCPILOT_MAX_UPLOAD_MB", MAX_UPLOAD_MB), int(number("DOCPILOT_MAX_PAGES", MAX_PAGES)))

    def check_size(self, path: str | Path, name: str | None = None) -> None:
        """Raise :class:`LimitError` when the file at ``path`` is larger than ``max_mb``."""
        size = Path(path).stat().st_size
        if size > self.max_mb * 1024 * 1024:
            raise LimitError(
                f"{name or Path(path).name} is {size / 1024 / 1024:.1f} MB; files up to {self.max_mb:g} MB are "
                "accepted. Compress or split it first, or start DocPilot with a higher DOCPILOT_MAX_UPLOAD_MB."
            )

    def check_pages(self, info: FileInfo, name: str | None = None) -> None:
        """Raise :class:`LimitError` when the PDF has more than ``max_pages`` pages."""
        if info.pages is not None and info.pages > self.max_pages:
            raise LimitError(
                f"{name or info.name} has {info.pages} pages; files of up to {self.max_pages} pages are accepted. "
                "Split it first, or start DocPilot with a higher DOCPILOT_MAX_PAGES."
            )


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
