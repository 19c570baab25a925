"""OCR with Tesseract through PyMuPDF: find the language data, add an invisible text layer.

Each scanned page is rendered, Tesseract turns the picture into a one-page PDF
(picture + invisible text), the picture is dropped from that page and the text
layer is laid over the original page. The original scan is kept untouched.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
from pathlib import Path

import pymupdf

from .docio import set_key
from .errors import ToolArgumentError, ToolUnavailableError

INSTALL_HINT = (
    "Install Tesseract OCR: `sudo apt install tesseract-ocr` (Debian/Ubuntu), "
    "`brew install tesseract` (macOS) or the UB Mannheim installer (Windows); "
    "set TESSDATA_PREFIX to its tessdata folder if it is not found."
)

LANGUAGE_NAMES = {
    "english": "eng",
    "en": "eng",
    "german": "deu",
    "de": "deu",
    "french": "fra",
    "fr": "fra",
    "spanish": "spa",
    "es": "spa",
    "italian": "ita",
    "it": "ita",
    "portuguese": "por",
    "pt": "por",
    "dutch": "nld",
    "nl": "nld",
    "russian": "rus",
    "ru": "rus",
    "chinese": "chi_sim",
    "zh": "chi_sim",
    "japanese": "jpn",
    "ja": "jpn",
    "arabic": "ara",
    "ar": "ara",
    "polish": "pol",
    "pl": "pol",
}

MAX_PIXELS = 40_000_000  # a 300-dpi A3 page; bigger pages are rendered at a lower resolution


def tessdata_dir() -> Path:
    """The folder holding ``*.traineddata``, or ToolUnavailableError with an install hint."""
    candidates: list[str] = []
    if os.environ.get("TESSDATA_PREFIX"):
        candidates.append(os.environ["TESSDATA_PREFIX"])
    try:
        found = pymupdf.get_tessdata()
        if found:
            candidates.append(found)
    except (RuntimeError, ValueError, OSError):
        pass
    candidates += sorted(glob.glob("/usr/share/tesseract-ocr/*/tessdata"), reverse=True)
    candidates += ["/usr/share/tessdata", "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata"]
    for candidate in candidates:
        path = Path(candidate)
        if path.is_dir() and any(path.glob("*.traineddata")):
            return path
    if shutil.which("tesseract") is None:
        raise ToolUnavailableError(f"OCR needs Tesseract, which is not installed. {INSTALL_HINT}")
    raise ToolUnavailableError(f"Tesseract is installed but its language data (tessdata) was not found. {INSTALL_HINT}")


def check_languages(language: str, tessdata: Path) -> str:
    """'eng', 'eng+deu', 'German' -> Tesseract codes; error naming the installed ones otherwise."""
    installed = sorted(p.stem for p in tessdata.glob("*.traineddata") if p.stem != "osd")
    codes = []
    for part in re.split(r"[+,\s]+", language.strip().lower()):
        if part:
            codes.append(LANGUAGE_NAMES.get(part, part))
    if not codes:
        raise ToolArgumentError(f"Give an OCR language such as 'eng'. Installed: {', '.join(installed)}.")
    missing = [c for c in codes if c not in installed]
    if missing:
        raise ToolArgumentError(
            f"OCR language {', '.join(missing)} is not installed; installed languages: {', '.join(installed)}. "
            f"Install more with e.g. `sudo apt install tesseract-ocr-{missing[0].replace('_', '-')}`."
        )
    return "+".join(dict.fromkeys(codes))


def has_text(page: pymupdf.Page) -> bool:
    return bool(page.get_text("text").strip())


def ocr_page(page: pymupdf.Page, language: str, tessdata: Path, dpi: int = 300) -> None:
    """Lay an invisible OCR text layer over ``page`` (in place, on the output document)."""
    rect = page.rect
    scale = dpi / 72
    pixels = rect.width * scale * rect.height * scale
    if pixels > MAX_PIXELS:
        dpi = max(72, int(dpi * (MAX_PIXELS / pixels) ** 0.5))
    pix = page.get_pixmap(dpi=dpi, alpha=False)
    try:
        data = pix.pdfocr_tobytes(language=language, tessdata=str(tessdata))
    except (RuntimeError, ValueError) as exc:
        raise ToolUnavailableError(f"Tesseract failed on page {page.number + 1}: {exc}. {INSTALL_HINT}") from None
    with pymupdf.open("pdf", data) as layer:
        text_only(layer)
        # the layer is drawn upright as displayed; show_pdf_page turns it into the page's own space
        page.show_pdf_page(
            rect * page.derotation_matrix,
            layer,
            0,
            overlay=True,
            keep_proportion=False,
            rotate=page.rotation,
        )


def text_only(layer: pymupdf.Document) -> None:
    """Remove the page picture from Tesseract's one-page PDF, keeping its invisible text."""
    page = layer[0]
    for xref in page.get_contents():
        stream = layer.xref_stream(xref)
        layer.update_stream(xref, re.sub(rb"/[A-Za-z0-9_.]+\s+Do\b", b"", stream))
    set_key(layer, page.xref, "Resources/XObject", "<<>>")
