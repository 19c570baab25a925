"""Passwords, encryption, compression, combining and sanitizing."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated, Any, Literal

import pymupdf
from pydantic import Field

from ._compress import LEVELS, SAVE_OPTIONS, downsample_images
from .docio import MUPDF_ERRORS, is_encrypted, open_pdf, write_pdf
from .effects import summed
from .errors import EncryptedPdfError, NotAPdfError, PdfToolError, ToolArgumentError, WrongPasswordError
from .paths import atomic_target, input_path, output_path
from .registry import IMAGE_LIBRARIES, generic_answer, tool
from .words import Words

__all__ = ["check_password", "add_password", "remove_password", "compress", "combine_files", "sanitize"]

# Permission bits of /P (PDF 32000-1, table 22): print, modify, copy, annotate (revision 2),
# plus fill forms, accessibility, assemble, high-quality print (revision 3 and later).
_PERMS_R2 = 0b0000_0011_1100
_PERMS_R3 = 0b1111_0011_1100


def _declared_permissions(path: Path) -> tuple[bool, str]:
    """(restricted, encryption method) from the file's /Encrypt dictionary, read without a password."""
    import pypdf

    try:
        reader = pypdf.PdfReader(str(path))
        encrypt = reader.trailer.get("/Encrypt")
        if encrypt is None:
            return False, ""
        encrypt = encrypt.get_object()
        p_value = int(encrypt.get("/P", -1))
        revision = int(encrypt.get("/R", 2))
        bits = (_PERMS_R2 if revision <= 2 else _PERMS_R3) & 0xFFFFFFFF
        method = f"{encrypt.get('/Filter', '/Standard')[1:]} V{encrypt.get('/V', '?')} R{revision}"
        return (p_value & 0xFFFFFFFF) & bits != bits, method
    except (pypdf.errors.PyPdfError, ValueError, TypeError, KeyError, AttributeError):
        return False, ""


def _check_password_answer(value: Any) -> str:
    if not isinstance(value, dict):
        return generic_answer(value)
    return str(
        value.get("summary")
        or ("It is password-protected." if value.get("needs_password") else "It is not password-protected.")
    )


@tool(
    kind="value",
    category="security",
    explain="Check whether {file} is password-protected",
    needs=("pypdf", "pypdf.filters", "pypdf._codecs._codecs"),
    secrets=("password",),
    result_name="password_status",
    answer=_check_password_answer,
    say="Check whether it is password-protected",
    words=Words(verbs=("check",), nouns=("password", "encryption")),
)
def check_password(file: str, password: str | None = None) -> dict:
    """Check whether a PDF is password-protected, and optionally whether a password opens it.

    A file can be encrypted without being password-protected: "permissions-only" encryption
    opens without a password but restricts printing or copying. ``needs_password`` is the
    answer to "is this file password-protected?".

    Args:
        file: The PDF.
        password: A password to try (leave out to only check whether one is needed).

    Returns:
        A dict: needs_password (bool: opening it needs a password), encrypted (bool: any
        encryption, including permissions-only), permissions_restricted (bool: printing,
        copying or editing restricted), password_ok (bool, or null when no password was
        given or none is needed), encryption (method, or ""), and summary (one sentence).
    """
    path = input_path(file)
    needs_password = is_encrypted(path)
    restricted, method = _declared_permissions(path)
    password_ok: bool | None = None
    if needs_password:
        if password:
            try:
                with open_pdf(path, password) as doc:
                    method = (doc.metadata or {}).get("encryption") or method
                password_ok = True
            except WrongPasswordError:
                password_ok = False
    else:
        with open_pdf(path) as doc:
            method = (doc.metadata or {}).get("encryption") or ""
        if not method:
            restricted = False
    encrypted = needs_password or bool(method)
    if needs_password:
        summary = f"{path.name} is password-protected: it needs a password to open."
        if password_ok is not None:
            summary += " The password given opens it." if password_ok else " The password given is wrong."
    elif encrypted and restricted:
        summary = (
            f"{path.name} is not password-protected (it opens without a password), but it has "
            "permissions-only encryption that restricts printing, copying or editing."
        )
    elif encrypted:
        summary = f"{path.name} is not password-protected (it opens without a password); it is encrypted."
    else:
        summary = f"{path.name} is not password-protected and not encrypted."
    return {
        "needs_password": needs_password,
        "encrypted": encrypted,
        "permissions_restricted": bool(encrypted and restricted),
        "password_ok": password_ok,
        "encryption": method,
        "summary": summary,
    }


@tool(
    kind="pdf",
    category="security",
    explain="Protect {file} with the password {password}",
    secrets=("password", "owner_password"),
    result_name="protected",
    say="Protect it with the password {password}",
    words=Words(verbs=("protect", "encrypt", "lock", "secure"), nouns=("password",), makes=("protected", "encrypted")),
)
def add_password(file: str, password: str, owner_password: str | None = None, output: str | None = None) -> str:
    """Protect a PDF with a password (AES-256): it opens only with that password.

    Args:
        file: The PDF to protect.
        password: The password needed to open the file.
        owner_password: A separate owner (permissions) password (default: the same as password).
        output: File name for the result (default: <name>_protected.pdf).

    Returns:
        Path of the password-protected PDF.
    """
    if not password:
        raise ToolArgumentError("add_password needs a non-empty password. Say which password to set.")
    source = input_path(file)
    target = output_path(source, "protected", ".pdf", output)
    with open_pdf(source) as doc, atomic_target(target) as tmp:
        doc.save(
            tmp,
            garbage=3,
            deflate=True,
            encryption=pymupdf.PDF_ENCRYPT_AES_256,
            user_pw=password,
            owner_pw=owner_password or password,
            permissions=-1,
        )
        with pymupdf.open(tmp) as check:
            if not check.needs_pass or check.authenticate("") or not check.authenticate(password):
                raise PdfToolError(f"Encrypting {source.name} failed: the result did not require the password.")
    return str(target)


@tool(
    kind="pdf",
    category="security",
    explain="Remove the password from {file}",
    secrets=("password",),
    result_name="unlocked",
    say="Remove the password {password}",
    words=Words(verbs=("unlock", "decrypt", "remove"), nouns=("password",), makes=("unlocked",)),
)
def remove_password(file: str, password: str, output: str | None = None) -> str:
    """Remove the password and encryption from a PDF (the password is needed to do it).

    Also removes permissions-only encryption (copy or print restrictions); then any
    password, even "", is accepted.

    Args:
        file: The encrypted PDF.
        password: Its current password (the open or the owner password).
        output: File name for the result (default: <name>_unlocked.pdf).

    Returns:
        Path of the PDF without a password.
    """
    source = input_path(file)
    target = output_path(source, "unlocked", ".pdf", output)
    with open_pdf(source, password) as doc, atomic_target(target) as tmp:
        doc.save(tmp, garbage=3, deflate=True, encryption=pymupdf.PDF_ENCRYPT_NONE)
        with pymupdf.open(tmp) as check:
            if check.needs_pass or (check.metadata or {}).get("encryption"):
                raise PdfToolError(f"Removing the password from {source.name} failed; the result is still encrypted.")
    return str(target)


@tool(
    kind="pdf",
    category="files",
    explain="Compress {file} to make it smaller[ ({level} level)]",
    needs=IMAGE_LIBRARIES,
    result_name="compressed",
    say="Compress it",
    words=Words(
        verbs=("compress", "shrink", "reduce", "optimize", "optimise"),
        nouns=("file size", "size"),
        makes=("smaller", "compressed"),
    ),
)
def compress(file: str, level: Literal["low", "medium", "high"] = "medium", output: str | None = None) -> str:
    """Make a PDF smaller; the text stays selectable and searchable.

    Every level removes unused objects, recompresses streams, packs objects into object
    streams and subsets fonts. "medium" also downsamples images drawn above ~165 dpi to
    150 dpi (JPEG quality 75) and black-and-white scans above 450 dpi to 300 dpi, like
    Ghostscript's /ebook; "high" goes to ~96 dpi and stronger JPEG (200 dpi for black and
    white). Scanned pages (an image over the whole page) already at or below those resolutions
    but stored losslessly are recompressed as they are: CCITT G4 for black and white, JPEG for
    colour and grey, each kept only when smaller. The result is never larger than the input:
    when nothing can be saved the output is an identical copy of it.

    Args:
        file: The PDF to compress.
        level: "low" (lossless only), "medium" (150 dpi images, good for screen and print) or
            "high" (96 dpi images, smallest).
        output: File name for the result (default: <name>_compressed.pdf).

    Returns:
        Path of the compressed PDF (a copy of the input when it could not be made smaller).
    """
    if level not in LEVELS:
        raise ToolArgumentError(f"level must be one of {', '.join(LEVELS)}, not {level!r}.")
    source = input_path(file)
    target = output_path(source, "compressed", ".pdf", output)
    with open_pdf(source) as doc, atomic_target(target) as tmp:
        pages = doc.page_count
        options = dict(SAVE_OPTIONS)
        if (doc.metadata or {}).get("encryption"):
            options["encryption"] = pymupdf.PDF_ENCRYPT_KEEP  # permissions-only encryption stays
        try:
            downsample_images(doc, LEVELS[level])
        except MUPDF_ERRORS:
            if doc.page_count == pages:
                raise
        try:
            doc.subset_fonts()
        except Exception:  # noqa: BLE001 - fontTools fails on some fonts; subsetting is optional
            pass
        if doc.page_count != pages:  # MuPDF repaired a damaged page tree while reading the pages
            raise NotAPdfError(
                f"{source.name} is damaged: {pages - doc.page_count} of its {pages} pages could not be read. "
                "Nothing was written; try another copy of the file."
            )
        doc.save(tmp, **options)
        with pymupdf.open(tmp) as check:
            if check.page_count != pages:
                raise PdfToolError(f"Compressing {source.name} lost pages; nothing was written.")
        if tmp.stat().st_size >= source.stat().st_size:
            shutil.copyfile(source, tmp)
    return str(target)


@tool(
    kind="pdf",
    category="files",
    explain="Combine {files} into one PDF, in that order",
    result_name="combined",
    page_effect=summed,
    say="Combine {files} into one PDF",
    words=Words(verbs=("combine", "merge", "join", "concatenate"), nouns=("files",), makes=("combined",)),
)
def combine_files(files: Annotated[list[str], Field(min_length=2)], output: str | None = None) -> str:
    """Combine several PDFs into one, in the order given (bookmarks are kept).

    Args:
        files: The PDFs to combine, in order (at least two).
        output: File name for the result (default: <first name>_combined.pdf).

    Returns:
        Path of the combined PDF.
    """
    if len(files) < 2:
        raise ToolArgumentError("combine_files needs at least two PDFs, in the order to combine them.")
    sources = [input_path(f) for f in files]
    target = output_path(sources[0], "combined", ".pdf", output)
    if any(target.resolve() == s.resolve() for s in sources):
        raise ToolArgumentError(f"The output name {target.name} is one of the inputs; choose another name.")
    with pymupdf.open() as combined:
        toc: list[list] = []
        for source in sources:
            with open_pdf(source) as doc:
                offset = combined.page_count
                combined.insert_pdf(doc)
                toc.extend([entry[0], entry[1], entry[2] + offset] for entry in doc.get_toc(simple=True))
        if toc:
            try:
                combined.set_toc(toc)
            except (ValueError, RuntimeError):
                pass  # a malformed outline in an input does not stop the merge
        return write_pdf(combined, target, garbage=4)


def _strip_scripts(doc: pymupdf.Document) -> None:
    """Remove every /JS, /JavaScript, /AA and /OpenAction entry scrub() leaves behind."""
    for xref in range(1, doc.xref_length()):
        try:
            keys = doc.xref_get_keys(xref)
        except MUPDF_ERRORS:
            continue  # an entry that points at no object
        for key in ("JS", "JavaScript", "AA", "OpenAction", "EmbeddedFiles"):
            if key in keys:
                doc.xref_set_key(xref, key, "null")
        if "S" in keys and doc.xref_get_key(xref, "S")[1] in ("/JavaScript", "/Launch", "/SubmitForm"):
            doc.xref_set_key(xref, "S", "null")


@tool(
    kind="pdf",
    category="security",
    explain="Remove hidden and risky content (scripts, attachments, metadata) from {file}",
    result_name="sanitized",
    say="Remove hidden and risky content",
    words=Words(verbs=("sanitize", "sanitise", "clean", "strip"), nouns=("metadata", "scripts", "hidden content")),
)
def sanitize(file: str, output: str | None = None) -> str:
    """Remove hidden and risky content: JavaScript, attachments, links, metadata, hidden text.

    Removes JavaScript and other actions, embedded and attached files, links, the document
    properties and XMP metadata, thumbnails and invisible text (note: this includes the
    invisible OCR text layer of scanned pages). Visible text, images and form values stay.

    Args:
        file: The PDF to sanitize.
        output: File name for the result (default: <name>_sanitized.pdf).

    Returns:
        Path of the sanitized PDF.
    """
    source = input_path(file)
    target = output_path(source, "sanitized", ".pdf", output)
    with open_pdf(source) as doc:
        if doc.is_encrypted:
            raise EncryptedPdfError(f"{source.name} is encrypted; remove its password first (remove_password).")
        clean = _scrubbed(doc, source.name)
        try:
            _strip_scripts(clean)
            return write_pdf(clean, target, garbage=4)
        finally:
            if clean is not doc:
                clean.close()


def _scrubbed(doc: pymupdf.Document, name: str) -> pymupdf.Document:
    """``doc`` scrubbed; or a scrubbed copy without the unreadable objects that stopped scrub().

    A damaged file's cross-reference table may list objects that are not there (viewers
    ignore them); a garbage-collected copy in memory leaves them out.
    """
    try:
        doc.scrub(reset_fields=False)
        return doc
    except MUPDF_ERRORS:
        pass
    copy = pymupdf.open("pdf", doc.tobytes(garbage=1))
    try:
        copy.scrub(reset_fields=False)
    except MUPDF_ERRORS as exc:
        copy.close()
        raise NotAPdfError(f"{name} could not be sanitized: {exc}") from None
    return copy
