"""Opening inputs safely and writing outputs atomically.

Every tool opens PDFs through :func:`open_pdf` (clear errors for empty,
truncated, non-PDF and encrypted files) and writes through :func:`write_pdf`
or :func:`pdftools.paths.output_path` + :func:`pdftools.paths.atomic_target`,
so a failure never leaves a half-written file and an input is never overwritten.
"""

from __future__ import annotations

import contextlib
import os
import zlib
from collections.abc import Iterator
from pathlib import Path

import pymupdf

from .errors import EncryptedPdfError, NotAPdfError, PdfToolError, TooLargeError, WrongPasswordError
from .paths import atomic_target, check_pdf_bytes, input_path

# PyMuPDF 2 prints a "consider pymupdf_layout" hint into users' terminals; older versions have no such hint.
getattr(pymupdf, "no_recommend_layout", lambda: None)()

__all__ = [
    "open_pdf",
    "write_pdf",
    "is_encrypted",
    "object_key",
    "set_key",
    "MUPDF_ERRORS",
    "CONTENT_LIMIT",
    "PIXEL_LIMIT",
    "check_image_pixels",
    "mupdf_message",
    "damaged_pages",
]

# What PyMuPDF raises for a damaged object: its own wrappers raise RuntimeError/ValueError, the
# low-level calls MuPDF's error classes.
MUPDF_ERRORS = (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase)

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

# A page's contents are read again by every pass over the page (text, search, drawing), at ~200 MB/s here: past
# this size one pass takes seconds, and a decompression bomb (a small stream that inflates to gigabytes) minutes.
# Real pages hold at most a few MB. One Flate stage inflates at most ~1,032x, so a single-Flate stream under
# _CHECKED_RAW bytes cannot pass the limit and is not inflated to check it.
CONTENT_LIMIT = 128 << 20
_CHECKED_RAW = 64 << 10
_INFLATING = {"FlateDecode", "Fl"}
# The most pixels an image a tool decodes may have (a 1,200-dpi A3 scan has 70 million): one of 50,000 x 50,000
# pixels takes ~25 s and gigabytes to decode (MuPDF itself stops at ~2 GB of samples, "Overly large image").
PIXEL_LIMIT = 200_000_000


def is_encrypted(file: str | os.PathLike[str]) -> bool:
    """True when opening the PDF needs a password."""
    path = input_path(file)
    check_pdf_bytes(path)
    try:
        with pymupdf.open(path, filetype="pdf") as doc:
            return bool(doc.needs_pass)
    except MUPDF_ERRORS as exc:
        raise NotAPdfError(f"{path.name} could not be read as a PDF: {mupdf_message(exc)}") from None


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
    try:
        pages = doc.page_count
    except MUPDF_ERRORS as exc:  # a page tree MuPDF cannot count ("Invalid number of pages")
        doc.close()
        raise NotAPdfError(f"{path.name} has a damaged page list ({mupdf_message(exc)}); it cannot be read.") from None
    if pages == 0:
        doc.close()
        raise NotAPdfError(f"{path.name} has no readable pages; it may be damaged.")
    try:
        _check_contents(doc, path.name)
    except TooLargeError:
        doc.close()
        raise
    if doc.page_count == 0:  # reading the pages made MuPDF repair a damaged page tree, and none was left
        doc.close()
        raise NotAPdfError(f"{path.name} has no readable pages; it may be damaged.")
    return doc


# What PyMuPDF itself says (without MuPDF's "code=N: ") when an object a page needs is missing or damaged.
_BROKEN = {pymupdf.MSG_BAD_XREF, pymupdf.MSG_BAD_PAGENO}


@contextlib.contextmanager
def damaged_pages(name: str, doing: str) -> Iterator[None]:
    """Inside, MuPDF's errors about a damaged page or object ("too many nested graphics states") become a
    :class:`PdfToolError` naming the file, what was being done and MuPDF's words; any other error passes."""
    try:
        yield
    except MUPDF_ERRORS as exc:
        if not (isinstance(exc, pymupdf.mupdf.FzErrorBase) or str(exc).startswith("code=") or str(exc) in _BROKEN):
            raise  # not MuPDF's: a tool's own ValueError, or a bug
        raise PdfToolError(
            f"{name} is damaged: MuPDF could not {doing} ({mupdf_message(exc)}). Nothing was written; "
            "try another copy of the file."
        ) from None


def mupdf_message(exc: BaseException) -> str:
    """MuPDF's own words for an error, without its "code=N: " prefix."""
    text = str(exc)
    return text.split(": ", 1)[1] if text.startswith("code=") and ": " in text else text


def check_image_pixels(page: pymupdf.Page, doing: str) -> None:
    """Raise :class:`TooLargeError` when an image drawn on ``page`` has more than :data:`PIXEL_LIMIT` pixels."""
    for info in page.get_image_info():
        if info["width"] * info["height"] > PIXEL_LIMIT:
            name = Path(page.parent.name).name or "the PDF"
            raise TooLargeError(
                f"Page {page.number + 1} of {name} holds an image of {info['width']:,} x {info['height']:,} pixels, "
                f"more than the {PIXEL_LIMIT // 1_000_000} million pixels DocPilot decodes (a damaged or hostile "
                f"file?), so it cannot {doing}. Nothing was written."
            )


def _check_contents(doc: pymupdf.Document, name: str) -> None:
    """Refuse a file whose page contents (or the forms they draw) inflate past :data:`CONTENT_LIMIT`.

    Read through MuPDF's own calls: PyMuPDF's per-call overhead made this ~0.1 s on a 400-page file.
    """
    m = pymupdf.mupdf
    pdf = m.pdf_document_from_fz_document(doc.this)
    seen: set[int] = set()
    for index in range(doc.page_count):
        try:
            page = m.pdf_lookup_page_obj(pdf, index)
            streams = _members(m.pdf_dict_gets(page, "Contents"))
            drawn = m.pdf_dict_getp(page, "Resources/XObject")
            for k in range(m.pdf_dict_len(drawn)):
                xobject = m.pdf_dict_get_val(drawn, k)
                if m.pdf_to_name(m.pdf_dict_gets(xobject, "Subtype")) == "Form":  # images are read lazily
                    streams.append(xobject)
            for stream in streams:
                number = m.pdf_to_num(stream)
                if number in seen or not m.pdf_is_stream(stream):
                    continue
                seen.add(number)
                size, raw = _inflated_size(doc, stream, number)
                if size > CONTENT_LIMIT:
                    raise TooLargeError(
                        f"{name} cannot be read safely: the contents of page {index + 1} expand to more than "
                        f"{CONTENT_LIMIT >> 20} MB from {raw:,} bytes (a decompression bomb, or a damaged file). "
                        "Nothing was done; use another copy of the file."
                    )
        except MUPDF_ERRORS:
            continue  # a page or object MuPDF cannot read: the tool that reads it says so


def _members(obj: object) -> list:
    m = pymupdf.mupdf
    if m.pdf_is_array(obj):
        return [m.pdf_array_get(obj, k) for k in range(m.pdf_array_len(obj))]
    return [obj] if m.pdf_is_stream(obj) else []


def _inflated_size(doc: pymupdf.Document, stream: object, number: int) -> tuple[int, int]:
    """(size after the stream's Flate stages, stopping past the limit; raw size); (0, 0) when not measured."""
    m = pymupdf.mupdf
    filters = _members(m.pdf_dict_gets(stream, "Filter")) if m.pdf_is_array(m.pdf_dict_gets(stream, "Filter")) else []
    names = [m.pdf_to_name(f) for f in filters] or [m.pdf_to_name(m.pdf_dict_gets(stream, "Filter"))]
    if not all(n in _INFLATING for n in names):
        return 0, 0  # no Flate, or other filters between: MuPDF reads them as they come
    if len(names) == 1 and m.pdf_to_int(m.pdf_dict_gets(stream, "Length")) < _CHECKED_RAW:
        return 0, 0
    data = doc.xref_stream_raw(number) or b""
    raw = len(data)
    for _ in names:
        try:
            data = zlib.decompressobj().decompress(data, CONTENT_LIMIT + 1)
        except zlib.error:
            return 0, raw  # damaged data: MuPDF reads what it can
    return len(data), raw


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
