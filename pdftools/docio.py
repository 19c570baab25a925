"""Opening inputs safely and writing outputs atomically.

Every tool opens PDFs through :func:`open_pdf` (clear errors for empty,
truncated, non-PDF and encrypted files) and writes through :func:`write_pdf`
or :func:`output_path` + :func:`atomic_target`, so a failure never leaves a
half-written file and an input is never overwritten.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

import pymupdf

from .errors import EncryptedPdfError, NotAPdfError, ToolArgumentError, WrongPasswordError

# PyMuPDF 2 prints a "consider pymupdf_layout" hint into users' terminals; older versions have no such hint.
getattr(pymupdf, "no_recommend_layout", lambda: None)()

__all__ = ["open_pdf", "output_path", "atomic_target", "write_pdf", "input_path", "is_encrypted"]

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


def input_path(file: str | os.PathLike[str]) -> Path:
    """Resolve an input file, failing clearly when it is missing or empty."""
    path = Path(file).expanduser()
    if not path.exists():
        raise ToolArgumentError(f"File not found: {path.name}. Check the file name.")
    if not path.is_file():
        raise ToolArgumentError(f"{path.name} is not a file.")
    if path.stat().st_size == 0:
        raise NotAPdfError(f"{path.name} is empty (0 bytes); upload the file again.")
    return path


def _check_pdf_bytes(path: Path) -> None:
    with path.open("rb") as handle:
        head = handle.read(1024)
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        handle.seek(max(0, size - 2048))
        tail = handle.read()
    if b"%PDF-" not in head:
        preview = head[:8].decode("latin-1", "replace")
        raise NotAPdfError(
            f"{path.name} is not a PDF (it starts with {preview!r}, not '%PDF-'). "
            "Upload a PDF, or convert the file first."
        )
    if b"%%EOF" not in tail and b"startxref" not in tail:
        raise NotAPdfError(
            f"{path.name} is truncated or damaged (no end-of-file marker). "
            "Upload a complete copy of the file."
        )


def is_encrypted(file: str | os.PathLike[str]) -> bool:
    """True when opening the PDF needs a password."""
    path = input_path(file)
    _check_pdf_bytes(path)
    with pymupdf.open(path, filetype="pdf") as doc:
        return bool(doc.needs_pass)


def open_pdf(file: str | os.PathLike[str], password: str | None = None) -> pymupdf.Document:
    """Open a PDF for reading, authenticating with ``password`` when needed.

    Raises:
        NotAPdfError: empty, truncated, or not a PDF.
        EncryptedPdfError: a password is needed and none was given.
        WrongPasswordError: the password does not open it.
    """
    path = input_path(file)
    _check_pdf_bytes(path)
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as exc:
        raise NotAPdfError(f"{path.name} could not be read as a PDF: {exc}") from None
    if doc.needs_pass:
        if not password:
            doc.close()
            raise EncryptedPdfError(
                f"{path.name} is password-protected. Give its password, or remove the password first "
                "(remove_password with the password)."
            )
        if not doc.authenticate(password):
            doc.close()
            raise WrongPasswordError(f"The password given does not open {path.name}. Check the password.")
    if doc.page_count == 0:
        doc.close()
        raise NotAPdfError(f"{path.name} has no readable pages; it may be damaged.")
    return doc


def output_path(
    source: str | os.PathLike[str] | None,
    what: str,
    ext: str = ".pdf",
    output: str | None = None,
) -> Path:
    """Where a tool writes its result.

    ``output`` (a name or path the request gave) is used as given, relative to the
    current working directory. Otherwise ``<source stem>_<what><ext>`` in the
    current working directory, with ``-2``, ``-3`` … when the name is taken.
    """
    if output:
        path = Path(output).expanduser()
        if not path.suffix:
            path = path.with_suffix(ext)
        if not path.is_absolute():
            path = Path.cwd() / path
        if source and path.resolve() == Path(source).resolve():
            raise ToolArgumentError(
                f"The output name {path.name} is the input file; tools never overwrite their input. "
                "Choose another name."
            )
        return path
    stem = Path(source).stem if source else "document"
    base = Path.cwd() / f"{stem}_{what}{ext}" if what else Path.cwd() / f"{stem}{ext}"
    return unique_path(base)


def unique_path(path: Path) -> Path:
    """``path`` if free, else ``name-2.ext``, ``name-3.ext`` …"""
    if not path.exists():
        return path
    n = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1


@contextlib.contextmanager
def atomic_target(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; move it into place only on success."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o644)  # mkstemp makes 0600; outputs are ordinary readable files
        os.replace(tmp_path, path)
    finally:
        tmp_path.unlink(missing_ok=True)


def write_pdf(doc: pymupdf.Document, path: Path, **save_options: object) -> str:
    """Save ``doc`` to ``path`` atomically (garbage-collected, deflated); return the path."""
    options: dict[str, object] = {"garbage": 3, "deflate": True}
    if doc.is_encrypted or getattr(doc, "_docpilot_keep_encryption", False):
        options["encryption"] = pymupdf.PDF_ENCRYPT_KEEP
    options.update(save_options)
    with atomic_target(path) as tmp:
        doc.save(tmp, **options)
    return str(path)
