"""Scanned pages: set them the right way up (orientation detection) and straighten crooked ones (deskew).

Orientation is read by Tesseract's orientation and script detection and fixed through each page's
/Rotate, so the page content is never touched. Deskew measures each scanned page's skew on its own
image and replaces that image with a straightened one at the same resolution; a page that had a
text layer is recognised again (OCR) so the text stays where the straightened words are.
"""

from __future__ import annotations

from typing import Any

import pymupdf

from . import _ocr, _scan
from .docio import open_pdf, write_pdf
from .errors import ToolArgumentError
from .pages import Pages, parse_pages
from .paths import output_path
from .registry import tool
from .words import Words

__all__ = ["detect_orientation", "fix_orientation", "deskew"]

# Below this OSD orientation confidence a page's orientation is a guess: it is left alone and listed.
MIN_CONFIDENCE = 2.0


def _orientations(doc: pymupdf.Document, indices: list[int], min_confidence: float) -> list[dict[str, Any]]:
    tessdata = _ocr.tessdata_dir()
    found = []
    for index in indices:
        page = doc[index]
        osd = _scan.detect_orientation(_scan.render_png(page), tessdata)
        sure = osd is not None and osd.confidence >= min_confidence
        found.append(
            {
                "page": index + 1,
                "turn": osd.turn if osd and sure else 0,
                "confidence": round(osd.confidence, 2) if osd else 0.0,
                "script": osd.script if osd else "",
                "left_alone": not sure,
            }
        )
    return found


def _check_confidence(min_confidence: float) -> None:
    if isinstance(min_confidence, bool) or not isinstance(min_confidence, (int, float)) or min_confidence < 0:
        raise ToolArgumentError(f"min_confidence must be a number of 0 or more (default 2), not {min_confidence!r}.")


def _orientation_answer(value: Any) -> str:
    if not isinstance(value, list):
        return str(value)
    turned = [f"page {p['page']} by {p['turn']}°" for p in value if p["turn"]]
    unsure = [str(p["page"]) for p in value if p["left_alone"]]
    parts = [("Needs turning: " + ", ".join(turned) + ".") if turned else "Every page checked is upright."]
    if unsure:
        parts.append(f"Too little text to tell on page{'s' if len(unsure) > 1 else ''} {', '.join(unsure)}.")
    return " ".join(parts)


@tool(
    kind="value",
    category="pages",
    explain="Check which way up {pages} of {file} are",
    result_name="orientation",
    answer=_orientation_answer,
    say="Check which way up the pages are",
    words=Words(verbs=("check", "detect"), nouns=("orientation", "upside down", "sideways")),
)
def detect_orientation(file: str, pages: Pages = "all", min_confidence: float = MIN_CONFIDENCE) -> list[dict]:
    """Find which pages lie sideways or upside down (Tesseract's orientation and script detection).

    Args:
        file: The PDF (scanned or text pages).
        pages: Which pages to check (default: all).
        min_confidence: Orientation confidence below which a page's orientation counts as unknown
            (default 2; Tesseract's scale runs to about 50).

    Returns:
        One entry per page: page (1-based), turn (degrees clockwise that would set it upright: 0, 90,
        180 or 270), confidence, script (e.g. "Latin") and left_alone (true when the page has too
        little text to tell, or the confidence is below min_confidence).
    """
    _check_confidence(min_confidence)
    with open_pdf(file) as doc:
        return _orientations(doc, parse_pages(pages, doc.page_count), float(min_confidence))


@tool(
    kind="pdf",
    category="pages",
    explain="Turn the pages of {file} that lie sideways or upside down the right way up[ (checking {pages})]",
    result_name="upright",
    idempotent=True,
    say="Turn the pages the right way up",
    words=Words(verbs=("fix", "turn", "right"), nouns=("orientation", "upside down", "sideways"), makes=("upright",)),
)
def fix_orientation(
    file: str, pages: Pages = "all", min_confidence: float = MIN_CONFIDENCE, output: str | None = None
) -> str:
    """Set every page the right way up: each page's orientation is detected and sideways or upside-down pages turned.

    The orientation is read from the page's text by Tesseract's orientation detection; a page is
    turned through its rotation setting, so its content is untouched. Pages with too little text to
    tell (or a confidence below min_confidence) are left as they are.

    Args:
        file: The PDF whose pages to set upright (scans or text pages).
        pages: Which pages to check (default: all).
        min_confidence: Orientation confidence below which a page is left alone (default 2).
        output: File name for the result (default: <name>_upright.pdf).

    Returns:
        Path of the new PDF with every page it could read the right way up.
    """
    _check_confidence(min_confidence)
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        target = output_path(file, "upright", ".pdf", output)
        for found in _orientations(doc, indices, float(min_confidence)):
            if found["turn"]:
                page = doc[found["page"] - 1]
                page.set_rotation((page.rotation + found["turn"]) % 360)
        return write_pdf(doc, target)


@tool(
    kind="pdf",
    category="pages",
    explain="Straighten the crooked scanned pages of {file}[ ({pages})]",
    result_name="straightened",
    idempotent=True,
    needs=("numpy", "PIL.Image", "PIL.PngImagePlugin", "PIL.JpegImagePlugin"),
    say="Straighten the crooked pages",
    words=Words(verbs=("straighten", "deskew"), nouns=("crooked", "skewed", "tilted")),
)
def deskew(file: str, pages: Pages = "all", language: str = "auto", output: str | None = None) -> str:
    """Straighten crooked scans: measure each scanned page's skew and turn its image straight.

    The image is replaced by a straightened one of the same size and resolution; skews under 0.3°
    are left alone, and pages that are not scans (no page-sized image) are kept as they are. A page
    that had a text layer (an earlier OCR) is recognised again so its text matches the new image.

    Args:
        file: The PDF with scanned pages.
        pages: Which pages to straighten (default: all).
        language: OCR language for pages whose text layer is redone: a Tesseract code such as "eng",
            "fra+eng", or "auto" (detected per page, the default).
        output: File name for the result (default: <name>_straightened.pdf).

    Returns:
        Path of the new PDF with straight scans.
    """
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        target = output_path(file, "straightened", ".pdf", output)
        for index in indices:
            page = doc[index]
            xref = _scan.scan_image(page)
            if xref is None:
                continue
            img, pdf_filter = _scan.image_of(doc, xref)
            skew = _scan.measure_skew(img)
            if abs(skew) < _scan.MIN_SKEW:
                continue
            had_text = _ocr.has_text(page)
            page.replace_image(xref, stream=_scan.encode(_scan.straighten_image(img, skew), pdf_filter))
            if had_text:
                tessdata = _ocr.tessdata_dir()
                codes = _ocr.check_languages(language, tessdata)
                if codes == _ocr.AUTO:  # the language of the old layer, read before it goes
                    codes = _ocr.identify_language(page.get_text(), _ocr.installed_languages(tessdata)) or codes
                _ocr.remove_text(page)
                _ocr.ocr_page(page, codes, tessdata)
        return write_pdf(doc, target)
