"""Opening inputs safely and writing outputs atomically.

Every tool opens PDFs through :func:`open_pdf` (clear errors for empty,
truncated, non-PDF and encrypted files) and writes through :func:`write_pdf`
or :func:`pdftools.paths.output_path` + :func:`pdftools.paths.atomic_target`,
so a failure never leaves a half-written file and an input is never overwritten.
"""

from __future__ import annotations

import os
from pathlib import Path

import pymupdf

from .errors import EncryptedPdfError, NotAPdfError, WrongPasswordError
from .paths import atomic_target, check_pdf_bytes, input_path

# PyMuPDF 2 prints a "consider pymupdf_layout" hint into users' terminals; older versions have no such hint.
getattr(pymupdf, "no_recommend_layout", lambda: None)()

__all__ = ["open_pdf", "write_pdf", "is_encrypted", "object_key", "set_key", "MUPDF_ERRORS"]

# What PyMuPDF raises for a damaged object: its own wrappers raise RuntimeError/ValueError, the
# low-level calls MuPDF's error classes.
MUPDF_ERRORS = (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase)

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


def is_encrypted(file: str | os.PathLike[str]) -> bool:
    """True when opening the PDF needs a password."""
    path = input_path(file)
    check_pdf_bytes(path)
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
    check_pdf_bytes(path)
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


def write_pdf(doc: pymupdf.Document, path: Path, **save_options: object) -> str:
    """Save ``doc`` to ``path`` atomically (garbage-collected, deflated); return the path."""
    options: dict[str, object] = {"garbage": 3, "deflate": True}
    if doc.is_encrypted or getattr(doc, "_docpilot_keep_encryption", False):
        options["encryption"] = pymupdf.PDF_ENCRYPT_KEEP
    options.update(save_options)
    with atomic_target(path) as tmp:
        doc.save(tmp, **options)
    return str(path)


def object_key(doc: pymupdf.Document, xref: int, key: str) -> tuple[str, str]:
    """``doc.xref_get_key``, reading an entry of a damaged file's cross-reference table
    that points at no object (viewers ignore those) as an object without the key."""
    try:
        return doc.xref_get_key(xref, key)
    except MUPDF_ERRORS:
        return ("null", "null")


def set_key(doc: pymupdf.Document, xref: int, path: str, value: str) -> None:
    """``doc.xref_set_key`` for a path of keys ("Resources/Font/F1") that may pass through other objects.

    PyMuPDF sets a path only within one object: through a reference (``/Resources 20 0 R``)
    it raises, or writes a placeholder string instead of the value. So the path is followed
    here and the key set on the object that holds its last dictionary.
    """
    *parents, key = path.split("/")
    prefix = ""
    for name in parents:
        kind, ref = doc.xref_get_key(xref, prefix + name)
        if kind == "xref":
            xref, prefix = int(ref.split()[0]), ""
        else:  # a dictionary inside this object, or none yet (xref_set_key makes it)
            prefix += name + "/"
    doc.xref_set_key(xref, prefix + key, value)
