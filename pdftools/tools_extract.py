"""Extraction tools: text, tables, images, attachments, outline, and OCR for scans.

Conventions chosen here:
- Tools that produce files (extract_text, extract_images, extract_attachments) raise
  ToolArgumentError when there is nothing to write ("this PDF has no attachments"),
  so the user hears why no file came back.
- Tools that return values (extract_tables, get_outline) return an empty list.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pymupdf

from . import _ocr
from ._tables import page_tables, table_rows
from .docio import MUPDF_ERRORS, damaged_pages, open_pdf, write_pdf
from .errors import ToolArgumentError
from .pages import Pages, describe_pages, parse_pages
from .paths import atomic_target, output_path, unique_path
from .registry import tool
from .words import Words

__all__ = ["extract_text", "extract_tables", "extract_images", "extract_attachments", "get_outline", "ocr"]

MAX_TABLES = 50
MAX_ROWS = 200
MAX_CELL = 1000
LAYOUT_PAGES = 20  # up to this many pages, borderless tables are looked for too (slower)
MAX_IMAGES = 500
_TEXT_FLAGS = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES  # "ﬁ" -> "fi"


@tool(
    kind="files",
    category="extract",
    explain="Save the text of {pages} of {file} as a text file",
    makes="text",
    result_name="text_file",
    say="Save the text",
    words=Words(verbs=("extract", "save", "pull out"), nouns=("text",), makes=("text file",)),
)
def extract_text(file: str, pages: Pages = "all", output: str | None = None) -> str:
    """Save the text of a PDF's pages, in reading order, to a .txt file.

    Args:
        file: The PDF.
        pages: Which pages (default: all).
        output: File name for the result (default: <name>_text.txt).

    Returns:
        Path of the text file; each page starts with a line "--- Page N ---".
    """
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        parts, empty = [], []
        for index in indices:
            with damaged_pages(Path(file).name, f"read the text of page {index + 1}"):
                text = doc[index].get_text("text", flags=_TEXT_FLAGS).strip()
            if not text:
                empty.append(index)
                text = "(no text on this page: it may be a scanned image; run ocr first)"
            parts.append(f"--- Page {index + 1} ---\n{text}\n")
        if len(empty) == len(indices):
            raise ToolArgumentError(
                f"{Path(file).name} has no extractable text on {describe_pages(indices, doc.page_count)}: "
                "it looks scanned. Run ocr first to make it searchable, then extract the text."
            )
    target = output_path(file, "text", ".txt", output)
    with atomic_target(target) as tmp:
        tmp.write_text("\n".join(parts), encoding="utf-8")
    return str(target)


@tool(
    kind="value",
    category="extract",
    explain="Read the tables on {pages} of {file}",
    needs=("pymupdf.table", "camelot"),
    result_name="tables",
    say="Read the tables",
    words=Words(verbs=("read", "extract", "list", "pull out"), nouns=("tables", "table")),
)
def extract_tables(file: str, pages: Pages = "all") -> list[dict[str, Any]]:
    """Find tables in a PDF and return their cells row by row.

    Args:
        file: The PDF.
        pages: Which pages to search (default: all).

    Returns:
        One entry per table: 1-based page, rows (lists of cell texts; null where a merged
        cell continues) and columns. At most 50 tables of 200 rows each ("truncated": true
        marks a cut table). Empty when no table is found.
    """
    found: list[dict[str, Any]] = []
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        thorough = len(indices) <= LAYOUT_PAGES
        for index in indices:
            page = doc[index]
            for table in page_tables(page, thorough):
                rows = [[c[:MAX_CELL] if c else c for c in r] for r in table_rows(page, table)]
                rows = [r for r in rows if any(c for c in r)]
                if not rows:
                    continue
                entry: dict[str, Any] = {"page": index + 1, "rows": rows[:MAX_ROWS], "columns": table.col_count}
                if len(rows) > MAX_ROWS:
                    entry["truncated"] = True
                found.append(entry)
                if len(found) >= MAX_TABLES:
                    found[-1]["truncated"] = True
                    return found
    return found


def _image_bytes(doc: pymupdf.Document, xref: int, smask: int) -> tuple[bytes, str]:
    """The image as a file Pillow opens: original JPEG/PNG bytes, else PNG."""
    info = doc.extract_image(xref)
    ext = (info.get("ext") or "").lower()
    if not smask and ext in ("png", "jpeg", "jpg") and info.get("colorspace", 3) in (1, 3):
        return info["image"], "jpg" if ext == "jpeg" else ext
    pix = pymupdf.Pixmap(doc, xref)
    if pix.colorspace and pix.colorspace.n not in (1, 3):
        pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
    if smask:
        try:
            opaque = pymupdf.Pixmap(pix, 0) if pix.alpha else pix  # the mask replaces any alpha it has
            pix = pymupdf.Pixmap(opaque, pymupdf.Pixmap(doc, smask))
        except MUPDF_ERRORS:
            pass  # keep the picture without its transparency
    return pix.tobytes("png"), "png"


@tool(
    kind="files",
    category="extract",
    explain="Save the images on {pages} of {file} as image files",
    makes="image",
    result_name="images",
    say="Save the images",
    words=Words(verbs=("extract", "save", "pull out"), nouns=("images", "pictures", "photos")),
)
def extract_images(file: str, pages: Pages = "all", min_size: int = 50) -> list[str]:
    """Save the pictures embedded in a PDF as image files.

    Args:
        file: The PDF.
        pages: Which pages (default: all).
        min_size: Skip images narrower or shorter than this many pixels (icons, lines).

    Returns:
        Paths of the images, named <name>_p<page>_<n>.<ext> (JPEG or PNG); an image used on
        several pages is saved once.
    """
    if min_size < 0:
        raise ToolArgumentError("min_size must be 0 or more pixels.")
    written: list[str] = []
    seen: set[int] = set()
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        for index in indices:
            n = 0
            for item in doc[index].get_images(full=True):
                xref, smask, width, height = item[0], item[1], item[2], item[3]
                if xref in seen or width < min_size or height < min_size:
                    continue
                seen.add(xref)
                try:
                    data, ext = _image_bytes(doc, xref, smask)
                except MUPDF_ERRORS:
                    continue  # an image MuPDF cannot decode is skipped, not fatal
                n += 1
                target = output_path(file, f"p{index + 1}_{n}", f".{ext}")
                with atomic_target(target) as tmp:
                    tmp.write_bytes(data)
                written.append(str(target))
                if len(written) >= MAX_IMAGES:
                    return written
        if not written:
            raise ToolArgumentError(
                f"{Path(file).name} has no images of at least {min_size}x{min_size} pixels on "
                f"{describe_pages(indices, doc.page_count)}. (Use convert_to_png to save whole pages as pictures.)"
            )
    return written


def safe_name(name: str, number: int) -> str:
    """An attachment name without folders, control or reserved characters: never leaves the folder."""
    name = unicodedata.normalize("NFC", str(name or "")).replace("\\", "/").split("/")[-1]
    name = re.sub(r'[\x00-\x1f\x7f<>:"|?*]', "_", name).strip().lstrip(".").strip()
    if not name:
        name = f"attachment_{number}"
    stem, dot, ext = name.rpartition(".")
    if len(name) > 150:
        name = (stem[:140] + "." + ext[:9]) if dot else name[:150]
    return name


def _attachments(doc: pymupdf.Document) -> list[tuple[str, bytes]]:
    """(name, bytes) of embedded files and file-attachment annotations."""
    found = []
    for i in range(doc.embfile_count()):
        info = doc.embfile_info(i)
        name = info.get("ufilename") or info.get("filename") or info.get("name") or ""
        found.append((name, doc.embfile_get(i)))
    for page in doc:
        for annot in page.annots(types=[pymupdf.PDF_ANNOT_FILE_ATTACHMENT]):
            info = annot.file_info
            found.append((info.get("filename") or "", annot.get_file()))
    return found


@tool(
    kind="files",
    category="extract",
    explain="Save the files attached to {file}",
    makes="any",
    result_name="attachments",
    say="Save the attached files",
    words=Words(verbs=("extract", "save", "pull out"), nouns=("attachments", "attached files", "embedded files")),
)
def extract_attachments(file: str) -> list[str]:
    """Save the files embedded in (attached to) a PDF.

    Args:
        file: The PDF.

    Returns:
        Paths of the saved files, under their attachment names (folders in a name are dropped;
        a name already taken gets -2, -3 ...).
    """
    with open_pdf(file) as doc:
        found = _attachments(doc)
    if not found:
        raise ToolArgumentError(f"{Path(file).name} has no attached files.")
    written = []
    folder = Path.cwd()
    for number, (name, data) in enumerate(found, 1):
        target = unique_path(folder / safe_name(name, number))
        if target.parent != folder:  # safe_name makes this impossible; never write elsewhere
            raise ToolArgumentError(f"Refusing to write attachment {name!r} outside the working folder.")
        with atomic_target(target) as tmp:
            tmp.write_bytes(data)
        written.append(str(target))
    return written


@tool(
    kind="value",
    category="extract",
    explain="List the bookmarks (table of contents) of {file}",
    result_name="outline",
    say="List the bookmarks",
    words=Words(verbs=("list", "show", "get"), nouns=("bookmarks", "outline", "table of contents")),
)
def get_outline(file: str) -> list[dict[str, Any]]:
    """List a PDF's bookmarks (table of contents / outline).

    Args:
        file: The PDF.

    Returns:
        One entry per bookmark: level (1 = top), title, and 1-based page (null when the
        bookmark points nowhere in the document). Empty when the PDF has no bookmarks.
    """
    with open_pdf(file) as doc:
        toc = doc.get_toc(simple=True)
    return [
        {"level": level, "title": " ".join(str(title).split()), "page": page if page >= 1 else None}
        for level, title, page in toc
    ]


@tool(
    kind="pdf",
    category="extract",
    explain="Recognise the text on {pages} of {file} with OCR so it becomes searchable[ (language {language})]",
    result_name="searchable",
    needs=("numpy", "lzma", "py3langid.langid"),
    say="Make the text searchable with OCR",
    words=Words(
        verbs=("ocr", "recognise", "recognize"), nouns=("ocr", "searchable", "text layer"), makes=("searchable",)
    ),
)
def ocr(
    file: str,
    pages: Pages = "all",
    language: str = "auto",
    force: bool = False,
    output: str | None = None,
) -> str:
    """Make a scanned PDF searchable: recognise the text in page images (OCR) and add it as an invisible layer.

    Pages that already have text are kept as they are unless force is true. With language "auto"
    each page's script is detected (Tesseract's orientation and script detection) and its language
    identified from a first reading.

    Args:
        file: The PDF (scanned or photographed pages).
        pages: Which pages to recognise (default: all).
        language: Tesseract language code(s), e.g. "eng", "deu", "eng+fra", or "auto" (detected per
            page, the default).
        force: Recognise pages that already have a text layer too (adds a second text layer).
        output: File name for the result (default: <name>_ocr.pdf).

    Returns:
        Path of the searchable PDF: same pages and images, with selectable text.
    """
    tessdata = _ocr.tessdata_dir()
    codes = _ocr.check_languages(language, tessdata)
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        for index in indices:
            page = doc[index]
            if force or not _ocr.has_text(page):
                _ocr.ocr_page(page, codes, tessdata)
        return write_pdf(doc, output_path(file, "ocr", ".pdf", output))
