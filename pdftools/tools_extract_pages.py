"""``extract_pages``: a new PDF made of chosen pages.

The pages are copied by qpdf when it is installed (structural work it does faster than
loading PyMuPDF takes), else by PyMuPDF; both give the same document. This module
loads neither PyMuPDF nor pydantic unless it has to fall back.
"""

from __future__ import annotations

from pathlib import Path

from ._qpdf import qpdf_page_count, qpdf_select
from .effects import selected
from .pages import Pages, fixed_pages, parse_pages
from .paths import check_pdf_bytes, input_path, output_path
from .registry import tool
from .words import Words

__all__ = ["extract_pages"]


@tool(
    kind="pdf",
    category="pages",
    explain="Make a new PDF from {pages} of {file}",
    result_name="extracted",
    page_effect=selected("pages"),
    say="Extract {pages}",
    words=Words(verbs=("extract", "keep", "pull out", "take"), nouns=("pages", "page"), makes=("new pdf",)),
)
def extract_pages(file: str, pages: Pages, output: str | None = None) -> str:
    """Make a new PDF holding only the chosen pages, in the order given.

    The pages keep their content, links, comments and form fields. Bookmarks, attachments
    and document properties belong to the whole document and stay with the original; to
    keep them, delete the other pages with delete_pages instead.

    Args:
        file: The PDF to take pages from.
        pages: The pages to keep, in the order they should appear, e.g. "1-3,5" or "3,1,2".
        output: File name for the result (default: <name>_pages.pdf).

    Returns:
        Path of the new PDF.
    """
    source = input_path(file)
    check_pdf_bytes(source)
    target = output_path(source, "pages", ".pdf", output)
    indices = fixed_pages(pages)
    if indices is None:  # "last", "all", "odd" …: the page count decides
        count = qpdf_page_count(source)
        indices = parse_pages(pages, count) if count else None
    if indices is not None and qpdf_select(source, indices, target):
        return str(target)
    return _extract_with_pymupdf(source, pages, target)


def _extract_with_pymupdf(source: Path, pages: Pages, target: Path) -> str:
    """The same new document with PyMuPDF; raises the precise error when the file or pages are wrong."""
    import pymupdf

    from ._pageutil import arrange
    from .docio import open_pdf, write_pdf

    with open_pdf(source) as doc:
        indices = parse_pages(pages, doc.page_count)
        restricted = bool(doc.metadata.get("encryption"))  # opens without a password, with restrictions
        arrange(doc, indices)  # keeps form fields and links of the kept pages
        doc.set_toc([])  # the parts of the whole document stay with it, as qpdf does
        for name in doc.embfile_names():
            doc.embfile_del(name)
        doc.set_metadata({})
        doc.del_xml_metadata()
        return write_pdf(doc, target, **({"encryption": pymupdf.PDF_ENCRYPT_KEEP} if restricted else {}))
