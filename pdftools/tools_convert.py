"""Conversion tools: PDF pages to Word, PowerPoint, Excel, images, text and Markdown; images to PDF.

Every tool writes new files next to nothing but its own output (atomically: a failure
leaves no partial file) and never touches its input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pymupdf

from ._convert_images import add_image_pages, check_dpi, page_image_paths, render, write_tiff
from ._convert_markdown import pages_to_markdown
from ._convert_office import LAYOUT_TABLE_PAGES, write_docx, write_pptx, write_xlsx
from ._tables import TEXT_FLAGS, has_borderless_data_table, page_tables, table_rows
from .docio import damaged_pages, open_pdf, write_pdf
from .errors import PdfToolError, ToolArgumentError
from .pages import Pages, describe_pages, parse_pages
from .paths import atomic_target, input_path, output_path
from .registry import IMAGE_LIBRARIES, tool
from .words import Words

__all__ = [
    "convert_to_docx",
    "convert_to_pptx",
    "convert_to_xlsx",
    "convert_to_png",
    "convert_to_jpeg",
    "convert_to_tiff",
    "convert_to_text",
    "convert_to_markdown",
    "images_to_pdf",
]


@tool(
    kind="files",
    category="convert",
    explain="Convert {file} to a Word document[ ({pages})]",
    needs=("pdf2docx", "pdf2docx.table.TablesConstructor", "docx", "camelot"),
    makes="office",
    secrets=("password",),
    result_name="word_file",
    converts_to="docx",
    say="Convert it to Word",
    words=Words(verbs=("convert", "export"), nouns=("word", "docx", "word document"), makes=("word file",)),
)
def convert_to_docx(file: str, pages: Pages = "all", password: str | None = None, output: str | None = None) -> str:
    """Convert a PDF to an editable Word document (.docx), keeping paragraphs, tables and images.

    Args:
        file: The PDF to convert.
        pages: Which pages to convert (default: all).
        password: The PDF's password, if it is encrypted.
        output: File name for the result (default: <name>.docx).

    Returns:
        Path of the Word file.
    """
    source = input_path(file)
    with open_pdf(source, password) as doc:
        indices = parse_pages(pages, doc.page_count)
        borderless = has_borderless_data_table(doc, indices[:LAYOUT_TABLE_PAGES])
    target = output_path(source, "", ".docx", output)
    with atomic_target(target) as tmp:
        write_docx(source, tmp, indices, password, borderless_tables=borderless)
    return str(target)


@tool(
    kind="files",
    category="convert",
    explain="Turn {file} into PowerPoint slides, one per page[ ({pages})]",
    needs=("pptx",),
    makes="office",
    secrets=("password",),
    result_name="slides",
    converts_to="pptx",
    say="Convert it to PowerPoint",
    words=Words(
        verbs=("convert", "export", "turn"),
        nouns=("powerpoint", "pptx", "slides", "deck", "slideshow", "presentation"),
        makes=("slides",),
    ),
)
def convert_to_pptx(file: str, pages: Pages = "all", password: str | None = None, output: str | None = None) -> str:
    """Convert a PDF to a PowerPoint deck (.pptx): one slide per page, showing the page as a picture.

    The page's text goes into the slide's notes (and the picture's alt text) so it stays
    searchable. The slide size follows the first page's shape.

    Args:
        file: The PDF to convert.
        pages: Which pages become slides (default: all).
        password: The PDF's password, if it is encrypted.
        output: File name for the result (default: <name>.pptx).

    Returns:
        Path of the PowerPoint file.
    """
    source = input_path(file)
    with open_pdf(source, password) as doc:
        indices = parse_pages(pages, doc.page_count)
        target = output_path(source, "", ".pptx", output)
        with atomic_target(target) as tmp:
            write_pptx(doc, indices, tmp)
    return str(target)


@tool(
    kind="files",
    category="convert",
    explain="Put the tables in {file} into an Excel workbook[ ({pages})]",
    needs=(
        "openpyxl",
        "openpyxl.styles",
        "openpyxl.utils",
        "openpyxl.packaging.extended",
        "pymupdf.table",
        "camelot",
    ),
    makes="office",
    secrets=("password",),
    result_name="workbook",
    converts_to="xlsx",
    say="Put the tables into an Excel workbook",
    words=Words(verbs=("convert", "export"), nouns=("excel", "xlsx", "spreadsheet", "workbook")),
)
def convert_to_xlsx(file: str, pages: Pages = "all", password: str | None = None, output: str | None = None) -> str:
    """Convert the tables in a PDF to an Excel workbook (.xlsx), one sheet per table.

    Sheets are named like "p2 table 1" (page 2, first table). Numbers become real numbers
    ("1,284" → 1284, "31%" → 31 %); other cells stay text. Fails when the pages hold no
    table (use convert_to_text for plain text). Selections of up to 40 pages also find
    borderless tables (slower); longer ones find ruled tables.

    Args:
        file: The PDF with tables.
        pages: Which pages to look for tables on (default: all).
        password: The PDF's password, if it is encrypted.
        output: File name for the result (default: <name>.xlsx).

    Returns:
        Path of the Excel file.
    """
    source = input_path(file)
    with open_pdf(source, password) as doc:
        indices = parse_pages(pages, doc.page_count)
        thorough = len(indices) <= LAYOUT_TABLE_PAGES

        def sheets():
            for index in indices:
                page = doc[index]
                for number, table in enumerate(page_tables(page, thorough), start=1):
                    yield f"p{index + 1} table {number}", table_rows(page, table)

        target = output_path(source, "", ".xlsx", output)
        with atomic_target(target) as tmp:
            if not write_xlsx(sheets(), tmp):
                raise PdfToolError(
                    f"No tables found on {describe_pages(indices, doc.page_count)} of {source.name}, "
                    "so there is nothing to put in a spreadsheet. Choose other pages, use convert_to_text "
                    "for the text, or run ocr first if the pages are scanned."
                )
    return str(target)


def _page_images(
    file: str, pages: Pages, dpi: int, password: str | None, output: str | None, fmt: str, quality: int = 85
) -> list[str]:
    check_dpi(dpi)
    source = input_path(file)
    written: list[Path] = []
    with open_pdf(source, password) as doc:
        indices = parse_pages(pages, doc.page_count)
        ext = ".png" if fmt == "png" else ".jpg"
        paths = page_image_paths(source, [i + 1 for i in indices], ext, output)
        try:
            for index, path in zip(indices, paths, strict=False):
                with atomic_target(path) as tmp, damaged_pages(source.name, f"draw page {index + 1}"):
                    pixmap = render(doc[index], dpi)
                    if fmt == "png":
                        pixmap.save(str(tmp), output="png")
                    else:
                        pixmap.save(str(tmp), output="jpeg", jpg_quality=quality)
                    del pixmap
                written.append(path)
        except BaseException:
            for path in written:  # all pages or none
                path.unlink(missing_ok=True)
            raise
    return [str(p) for p in written]


@tool(
    kind="files",
    category="convert",
    explain="Save {pages} of {file} as PNG images[ at {dpi} dpi]",
    makes="image",
    secrets=("password",),
    result_name="png_images",
    converts_to="png",
    say="Save the pages as PNG images",
    words=Words(
        verbs=("convert", "save", "export"), nouns=("png", "picture", "pictures", "image", "images"), makes=("images",)
    ),
)
def convert_to_png(
    file: str,
    pages: Pages = "all",
    dpi: int = 150,
    password: str | None = None,
    output: str | None = None,
) -> list[str]:
    """Save PDF pages as PNG images, one file per page.

    Args:
        file: The PDF to render.
        pages: Which pages to save (default: all).
        dpi: Resolution in dots per inch (150 for screens, 300 for print).
        password: The PDF's password, if it is encrypted.
        output: Base name for the images, e.g. "scan" gives scan_page1.png, scan_page2.png
            (default: <name>_page<N>.png).

    Returns:
        Paths of the PNG files, in page order.
    """
    return _page_images(file, pages, dpi, password, output, "png")


@tool(
    kind="files",
    category="convert",
    explain="Save {pages} of {file} as JPEG images[ at {dpi} dpi]",
    makes="image",
    secrets=("password",),
    result_name="jpeg_images",
    converts_to="jpeg",
    say="Save the pages as JPEG images",
    words=Words(verbs=("convert", "save", "export"), nouns=("jpeg", "jpg", "photo", "photos"), makes=("images",)),
)
def convert_to_jpeg(
    file: str,
    pages: Pages = "all",
    dpi: int = 150,
    quality: int = 85,
    password: str | None = None,
    output: str | None = None,
) -> list[str]:
    """Save PDF pages as JPEG images, one file per page.

    Args:
        file: The PDF to render.
        pages: Which pages to save (default: all).
        dpi: Resolution in dots per inch (150 for screens, 300 for print).
        quality: JPEG quality from 1 (smallest file) to 100 (best picture).
        password: The PDF's password, if it is encrypted.
        output: Base name for the images, e.g. "scan" gives scan_page1.jpg, scan_page2.jpg
            (default: <name>_page<N>.jpg).

    Returns:
        Paths of the JPEG files, in page order.
    """
    if not 1 <= quality <= 100:
        raise ToolArgumentError(f"quality must be between 1 and 100 (got {quality}); 85 is a good default.")
    return _page_images(file, pages, dpi, password, output, "jpeg", quality)


@tool(
    kind="files",
    category="convert",
    explain="Save {pages} of {file} as one multi-page TIFF image[ at {dpi} dpi]",
    needs=IMAGE_LIBRARIES,
    makes="image",
    secrets=("password",),
    result_name="tiff_image",
    converts_to="tiff",
    say="Save the pages as one TIFF image",
    words=Words(verbs=("convert", "save", "export"), nouns=("tiff", "tif")),
)
def convert_to_tiff(
    file: str,
    pages: Pages = "all",
    dpi: int = 150,
    password: str | None = None,
    output: str | None = None,
) -> str:
    """Save PDF pages as one multi-page TIFF image (lossless, deflate-compressed).

    Args:
        file: The PDF to render.
        pages: Which pages to include (default: all).
        dpi: Resolution in dots per inch (150 for screens, 300 for print or fax).
        password: The PDF's password, if it is encrypted.
        output: File name for the result (default: <name>.tiff).

    Returns:
        Path of the TIFF file.
    """
    check_dpi(dpi)
    source = input_path(file)
    with open_pdf(source, password) as doc:
        indices = parse_pages(pages, doc.page_count)
        target = output_path(source, "", ".tiff", output)
        with atomic_target(target) as tmp:
            write_tiff(doc, indices, dpi, tmp)
    return str(target)


def _no_text(indices: list[int], count: int, name: str) -> PdfToolError:
    one = len(indices) == 1
    return PdfToolError(
        f"{describe_pages(indices, count).capitalize()} of {name} {'has' if one else 'have'} no text layer "
        f"({'it is probably a scanned image' if one else 'they are probably scanned images'}). "
        "Run ocr on the file first, then convert the result."
    )


def _write_text(target: Path, text: str) -> None:
    with atomic_target(target) as tmp:
        with open(tmp, "w", encoding="utf-8", errors="replace", newline="\n") as handle:
            handle.write(text)


@tool(
    kind="files",
    category="convert",
    explain="Save the text of {file} as a text file[ ({pages})]",
    makes="text",
    secrets=("password",),
    result_name="text_file",
    converts_to="text",
    say="Convert it to a text file",
    words=Words(verbs=("convert", "export"), nouns=("text file", "txt", "plain text")),
)
def convert_to_text(file: str, pages: Pages = "all", password: str | None = None, output: str | None = None) -> str:
    """Save the text of a PDF as a plain UTF-8 text file (.txt), pages separated by a form feed.

    Ligatures are spelled out and words hyphenated across lines are joined. Scanned pages
    have no text: run ocr first.

    Args:
        file: The PDF.
        pages: Which pages to take the text from (default: all).
        password: The PDF's password, if it is encrypted.
        output: File name for the result (default: <name>.txt).

    Returns:
        Path of the text file.
    """
    source = input_path(file)
    with open_pdf(source, password) as doc:
        indices = parse_pages(pages, doc.page_count)
        texts = [doc[i].get_text("text", flags=TEXT_FLAGS).strip() for i in indices]
        if not any(texts):
            raise _no_text(indices, doc.page_count, source.name)
    target = output_path(source, "", ".txt", output)
    _write_text(target, "\n\f".join(texts) + "\n")
    return str(target)


@tool(
    kind="files",
    category="convert",
    explain="Convert {file} to Markdown[ ({pages})]",
    makes="text",
    secrets=("password",),
    result_name="markdown_file",
    converts_to="markdown",
    needs=("camelot",),
    say="Convert it to Markdown",
    words=Words(verbs=("convert", "export"), nouns=("markdown", "md")),
)
def convert_to_markdown(file: str, pages: Pages = "all", password: str | None = None, output: str | None = None) -> str:
    """Convert a PDF to Markdown (.md): headings, paragraphs, lists and tables.

    Headings come from larger (or bold) type, tables become Markdown tables. Selections of
    up to 40 pages also find borderless tables (slower). Scanned pages have no text: run
    ocr first.

    Args:
        file: The PDF.
        pages: Which pages to convert (default: all).
        password: The PDF's password, if it is encrypted.
        output: File name for the result (default: <name>.md).

    Returns:
        Path of the Markdown file.
    """
    source = input_path(file)
    with open_pdf(source, password) as doc:
        indices = parse_pages(pages, doc.page_count)
        markdown = pages_to_markdown(doc, indices, thorough=len(indices) <= LAYOUT_TABLE_PAGES)
        if not markdown.strip():
            raise _no_text(indices, doc.page_count, source.name)
    target = output_path(source, "", ".md", output)
    _write_text(target, markdown)
    return str(target)


@tool(
    kind="pdf",
    category="convert",
    explain="Make one PDF from the images {images}, one image per page",
    needs=IMAGE_LIBRARIES,
    result_name="combined",
    say="Make one PDF from the images {images}",
    words=Words(verbs=("combine", "make", "turn"), nouns=("images", "photos", "scans"), makes=("pdf",)),
)
def images_to_pdf(
    images: list[str],
    page_size: Literal["fit", "A4", "letter"] = "fit",
    output: str | None = None,
) -> str:
    """Make one PDF from images (JPEG, PNG, TIFF, ...), one page per image, in the order given.

    JPEG photos are embedded as they are (no quality loss); camera rotation (EXIF) is
    respected; each page of a multi-page TIFF becomes a page.

    Args:
        images: The image files, in page order.
        page_size: "fit" (each page the size of its image), "A4" or "letter" (the image
            fitted inside a half-inch margin, page turned to match the image's shape).
        output: File name for the result (default: <first image name>_combined.pdf).

    Returns:
        Path of the new PDF.
    """
    if isinstance(images, str):
        images = [images]
    if not images:
        raise ToolArgumentError("images_to_pdf needs at least one image file.")
    if page_size not in ("fit", "A4", "letter"):
        raise ToolArgumentError(f'page_size must be "fit", "A4" or "letter" (got {page_size!r}).')
    paths = [Path(image).expanduser() for image in images]
    target = output_path(paths[0], "combined", ".pdf", output)
    if any(p.exists() and p.resolve() == target.resolve() for p in paths):
        raise ToolArgumentError(f"The output name {target.name} is one of the images; choose another name.")
    with pymupdf.open() as doc:
        for path in paths:
            add_image_pages(doc, path, page_size)
        return write_pdf(doc, target)
