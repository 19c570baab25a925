"""Redaction: remove text (and the image pixels under it) for good, or blank whole pages.

``redact_text`` marks every match (found as a reader sees the text, see
:mod:`pdftools.textmatch`), applies the redactions so the characters are deleted
from the page content, then re-reads the touched pages to prove nothing matching
is left; it raises :class:`RedactionError` rather than write a file that leaks.
"""

from __future__ import annotations

import re

import pymupdf

from ._marking import locate
from .colors import Color, parse_color
from .docio import MUPDF_ERRORS, check_image_pixels, damaged_pages, mupdf_message, open_pdf, write_pdf
from .entity_kinds import Kinds
from .errors import PdfToolError, RedactionError
from .pages import Pages, parse_pages
from .paths import output_path
from .registry import tool
from .textmatch import Match, Targets, find_matches, normalize
from .words import Words

__all__ = ["redact_text", "redact_pages"]

# Character boxes span the font's ascent to descent and overlap the lines above and
# below; MuPDF deletes every glyph a redaction touches. Marking the middle band of
# each line removes the match without eating its neighbours.
_BAND = 0.15
_PLACEHOLDER = "[redacted]"


def _band(rect: pymupdf.Rect) -> pymupdf.Rect:
    dy = rect.height * _BAND
    return pymupdf.Rect(rect.x0, rect.y0 + dy, rect.x1, rect.y1 - dy)


def _apply(page: pymupdf.Page) -> None:
    try:
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_PIXELS,  # blank the pixels under the box, keep the rest of the image
            graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,  # table lines and drawings stay
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
    except MUPDF_ERRORS as exc:  # a damaged page, or an image too large to blank the pixels of
        check_image_pixels(page, "have the pixels under a redaction blanked")
        raise PdfToolError(
            f"Page {page.number + 1} of {page.parent.name.rsplit('/', 1)[-1]} could not be redacted: "
            f"{mupdf_message(exc)} (the file may be damaged). Nothing was written."
        ) from None


def _redact_page(page: pymupdf.Page, matches: list[Match], fill: tuple, band: bool) -> None:
    for match in matches:
        for rect in match.rects:
            page.add_redact_annot(_band(rect) if band else rect, fill=fill, cross_out=False)
    _apply(page)


def _scrub(text: str, patterns: list[re.Pattern[str]]) -> str:
    clean = normalize(text)
    for pattern in patterns:
        clean = pattern.sub(_PLACEHOLDER, clean)
    return clean if clean != normalize(text) else text


def _scrub_document(doc: pymupdf.Document, checks: list[Targets], found: list[str]) -> None:
    """Remove the redacted strings from metadata, XMP, bookmarks and annotation texts."""
    patterns = [p for targets in checks for _, p, _ in targets.patterns()]
    patterns += [re.compile(re.escape(" ".join(s.split())), re.IGNORECASE) for s in set(found)]
    meta = doc.metadata or {}
    cleaned = {
        k: _scrub(v, patterns) for k, v in meta.items() if isinstance(v, str) and k not in ("format", "encryption")
    }
    if any(cleaned[k] != meta.get(k) for k in cleaned):
        doc.set_metadata(
            {
                k: v
                for k, v in cleaned.items()
                if k
                in (
                    "title",
                    "author",
                    "subject",
                    "keywords",
                    "creator",
                    "producer",
                    "creationDate",
                    "modDate",
                    "trapped",
                )
            }
        )
    xmp = doc.get_xml_metadata()
    if xmp and _scrub(xmp, patterns) != xmp:
        doc.del_xml_metadata()
    toc = doc.get_toc(simple=False)
    if toc and any(_scrub(entry[1], patterns) != entry[1] for entry in toc):
        for entry in toc:
            entry[1] = _scrub(entry[1], patterns)
        doc.set_toc(toc)
    for index in range(doc.page_count):
        if doc.xref_get_key(doc.page_xref(index), "Annots")[0] == "null":
            continue  # no annotations: skip loading the page
        page = doc[index]
        for annot in page.annots():
            info = annot.info
            content = info.get("content", "")
            if content and _scrub(content, patterns) != content:
                annot.set_info(content=_scrub(content, patterns))
                annot.update()


@tool(
    kind="pdf",
    category="markup",
    explain="Permanently remove [{terms}][ {categories}][ the pattern {regex}] on {pages} of {file} "
    "(blacked out, text deleted)",
    result_name="redacted",
    say="Redact[ {terms}][ every {categories}][ the pattern {regex}]",
    words=Words(verbs=("redact", "black out", "remove", "hide", "scrub"), nouns=("redactions",), makes=("redacted",)),
)
def redact_text(
    file: str,
    terms: str | list[str] | None = None,
    regex: str | None = None,
    categories: Kinds = None,
    pages: Pages = "all",
    case_sensitive: bool = False,
    whole_words: bool = False,
    color: Color = None,
    output: str | None = None,
) -> str:
    """Permanently remove words, phrases or kinds of data (names, addresses, emails, phones, SSNs …) from a PDF.

    The text is deleted from the page (not just covered), a box is drawn where it was,
    image pixels under the box are blanked, and the result is checked so that no match
    can still be extracted. The strings are also cleaned out of the document's metadata,
    bookmarks and comments.

    Args:
        file: The PDF to redact.
        terms: Words or phrases to remove, e.g. ["VoltGuard", "Maria Gonzalez"].
        regex: A regular expression to remove instead of (or as well as) terms.
        categories: Kinds of data to remove: person (people's names), organization, party (defined
            parties such as "the Client" and the name they stand for), address, date, email, phone, ssn,
            card, account, id (passport/ID numbers), money, url, heading, or pii (people, addresses,
            dates, IDs, emails, phones, account/card numbers, SSNs).
        pages: Pages to redact.
        case_sensitive: Match upper/lower case exactly.
        whole_words: Match whole words only ("art" does not match "party").
        color: Colour of the boxes drawn over removed text (default: black).
        output: File name for the result (default: <name>_redacted.pdf).

    Returns:
        Path of the redacted PDF. Fails when nothing matched on the pages given.
    """
    fill = parse_color(color, (0.0, 0.0, 0.0))
    name = str(file).replace("\\", "/").rsplit("/", 1)[-1]
    with open_pdf(file) as doc, damaged_pages(name, "find and remove the text"):
        _, checks, matches = locate(doc, pages, terms, regex, categories, case_sensitive, whole_words, name)
        by_page: dict[int, list[Match]] = {}
        for match in matches:
            by_page.setdefault(match.page, []).append(match)
        for index, page_matches in by_page.items():
            _redact_page(doc[index], page_matches, fill, band=True)
        touched = sorted(by_page)
        areas = _areas(by_page)
        left = [m for targets in checks for m in find_matches(doc, touched, targets, areas)]
        if left:  # a glyph drawn outside its line band: redact what is left with full boxes
            again: dict[int, list[Match]] = {}
            for match in left:
                again.setdefault(match.page, []).append(match)
            for index, page_matches in again.items():
                _redact_page(doc[index], page_matches, fill, band=False)
            left = [m for targets in checks for m in find_matches(doc, sorted(again), targets)]
        if left:
            pages_left = sorted({m.page + 1 for m in left})
            raise RedactionError(
                f"Redaction could not remove every match: {len(left)} still readable on page(s) "
                f"{', '.join(map(str, pages_left))}. No file was written; the text may be drawn in a way "
                "that cannot be edited - use redact_pages on those pages instead."
            )
        _scrub_document(doc, checks, [m.text for m in matches])
        # garbage collection drops the replaced content streams and image data for good.
        return write_pdf(doc, output_path(file, "redacted", ".pdf", output), garbage=1)


def _areas(by_page: dict[int, list[Match]], margin: float = 4.0) -> dict[int, pymupdf.Rect]:
    """Per page, the rectangle around every match: where re-extraction must find nothing.

    Text outside it was not matched before redaction and is untouched by it, so checking
    there again would only repeat the first search.
    """
    areas: dict[int, pymupdf.Rect] = {}
    for index, matches in by_page.items():
        area = pymupdf.Rect()
        for match in matches:
            for rect in match.rects:
                area |= pymupdf.Rect(rect)
        areas[index] = area + (-margin, -margin, margin, margin)
    return areas


def _blank(doc: pymupdf.Document, page: pymupdf.Page) -> None:
    for widget in list(page.widgets()):
        page.delete_widget(widget)
    for link in page.get_links():
        page.delete_link(link)
    for annot in list(page.annots()):
        page.delete_annot(annot)
    xref = page.xref
    empty = doc.get_new_xref()
    doc.update_object(empty, "<<>>")
    doc.update_stream(empty, b"")
    doc.xref_set_key(xref, "Contents", f"{empty} 0 R")
    doc.xref_set_key(xref, "Resources", "<<>>")
    for key in ("Annots", "Thumb", "AA", "PieceInfo", "Group"):
        if doc.xref_get_key(xref, key)[0] != "null":
            doc.xref_set_key(xref, key, "null")


@tool(
    kind="pdf",
    category="markup",
    explain="Black out {pages} of {file} completely (all content removed)",
    result_name="blacked_out",
    say="Black out {pages}",
    words=Words(verbs=("black out", "blank out"), nouns=("pages", "page")),
)
def redact_pages(file: str, pages: Pages, output: str | None = None) -> str:
    """Remove everything on whole pages (text, images, drawings, comments), leaving blank pages.

    The pages stay in place with their size, so the page count and numbering do not change.

    Args:
        file: The PDF to redact.
        pages: Pages to blank out, e.g. "3" or "2-4,last".
        output: File name for the result (default: <name>_redacted.pdf).

    Returns:
        Path of the PDF with those pages blank.
    """
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        for index in indices:
            _blank(doc, doc[index])
        left = [i + 1 for i in indices if doc[i].get_text().strip() or doc[i].get_images()]
        if left:
            raise RedactionError(f"Page(s) {left} still show content after blanking; no file was written.")
        return write_pdf(doc, output_path(file, "redacted", ".pdf", output), garbage=1)
