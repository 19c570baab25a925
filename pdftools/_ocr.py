"""OCR with Tesseract through PyMuPDF: find the language data, add an invisible text layer.

Each scanned page is rendered, Tesseract turns the picture into a one-page PDF
(picture + invisible text), the picture is dropped from that page and the text
layer is laid over the original page. The original scan is kept untouched.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
from pathlib import Path
from typing import Any

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

# Tesseract codes of the languages identified from a first pass (py3langid's ISO 639-1 codes).
ISO_CODES = {
    "eng": "en",
    "fra": "fr",
    "deu": "de",
    "spa": "es",
    "ita": "it",
    "por": "pt",
    "nld": "nl",
    "pol": "pl",
    "ces": "cs",
    "dan": "da",
    "swe": "sv",
    "nor": "no",
    "fin": "fi",
    "tur": "tr",
    "ron": "ro",
    "hun": "hu",
}
# The language read for a script other than Latin that orientation and script detection reports.
SCRIPT_LANGUAGES = {
    "Cyrillic": "rus",
    "Greek": "ell",
    "Arabic": "ara",
    "Hebrew": "heb",
    "Han": "chi_sim",
    "Japanese": "jpn",
    "Korean": "kor",
    "Hangul": "kor",
    "Devanagari": "hin",
    "Thai": "tha",
}
AUTO = "auto"

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


def installed_languages(tessdata: Path) -> list[str]:
    """Tesseract language codes with data in ``tessdata`` (``osd`` is detection data, not a language)."""
    return sorted(p.stem for p in tessdata.glob("*.traineddata") if p.stem != "osd")


def package_name(code: str) -> str:
    """The Debian/Ubuntu package that installs a Tesseract language ("chi_sim" -> tesseract-ocr-chi-sim)."""
    return "tesseract-ocr-" + code.lower().replace("_", "-")


def check_languages(language: str, tessdata: Path) -> str:
    """'eng', 'eng+deu', 'German' -> Tesseract codes; 'auto' as it is; an error naming the package otherwise."""
    installed = installed_languages(tessdata)
    codes = []
    for part in re.split(r"[+,\s]+", language.strip().lower()):
        if part:
            codes.append(LANGUAGE_NAMES.get(part, part))
    if codes == [AUTO]:
        return AUTO
    if not codes:
        raise ToolArgumentError(f"Give an OCR language such as 'eng' (or 'auto'). Installed: {', '.join(installed)}.")
    missing = [c for c in codes if c not in installed]
    if missing:
        packages = " ".join(package_name(c) for c in missing)
        raise ToolArgumentError(
            f"OCR language {', '.join(missing)} is not installed; installed languages: {', '.join(installed)}. "
            f"Install it with `sudo apt install {packages}` (Debian/Ubuntu; `make install` installs the common "
            "ones), or choose an installed language."
        )
    return "+".join(dict.fromkeys(codes))


def has_text(page: pymupdf.Page) -> bool:
    return bool(page.get_text("text").strip())


def ocr_page(page: pymupdf.Page, language: str, tessdata: Path, dpi: int = 300) -> str:
    """Lay an invisible OCR text layer over ``page`` (in place, on the output document).

    ``language`` is Tesseract codes ("eng", "fra+eng") or "auto": the language of the page's own text
    layer when it has one, else the script read by orientation and script detection and the language
    from a first pass (see :func:`auto_language`).
    Returns the language codes used.
    """
    rect = page.rect
    scale = dpi / 72
    pixels = rect.width * scale * rect.height * scale
    if pixels > MAX_PIXELS:
        dpi = max(72, int(dpi * (MAX_PIXELS / pixels) ** 0.5))
    pix = page.get_pixmap(dpi=dpi, alpha=False)
    known = identify_language(page.get_text("text"), installed_languages(tessdata)) if language == AUTO else None
    if known:  # a page that has text (OCR forced again): its language read from that text
        language, data = known, recognise(pix, known, tessdata, page.number)
    elif language == AUTO:
        language, data = auto_language(pix, page, tessdata)
    else:
        data = recognise(pix, language, tessdata, page.number)
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
    return language


def recognise(pix: pymupdf.Pixmap, language: str, tessdata: Path, number: int | None) -> bytes:
    """Tesseract's one-page PDF (picture + invisible text) of ``pix``."""
    try:
        return pix.pdfocr_tobytes(language=language, tessdata=str(tessdata))
    except (RuntimeError, ValueError) as exc:
        where = f" on page {number + 1}" if number is not None else ""
        raise ToolUnavailableError(f"Tesseract failed{where}: {exc}. {INSTALL_HINT}") from None


def auto_language(pix: pymupdf.Pixmap, page: pymupdf.Page, tessdata: Path) -> tuple[str, bytes]:
    """The language of a page picture and Tesseract's PDF of it in that language.

    The script comes from Tesseract's orientation and script detection; a page in a script other
    than Latin is read with that script's language. A Latin page is read once in English and the
    language of that text identified (py3langid, among the installed Latin languages); a page in
    another language is read again in it.
    """
    from ._scan import detect_orientation

    installed = installed_languages(tessdata)
    osd = detect_orientation(pix.tobytes("png"), tessdata) if (tessdata / "osd.traineddata").exists() else None
    script = osd.script if osd is not None and osd.script_confidence >= 1.0 else ""
    if script and script != "Latin" and script in SCRIPT_LANGUAGES:
        code = SCRIPT_LANGUAGES[script]
        if code not in installed:
            raise ToolArgumentError(
                f"Page {page.number + 1} is in {script} script; its OCR language {code} is not installed "
                f"(installed: {', '.join(installed)}). Install it with `sudo apt install {package_name(code)}`, "
                "or give the language."
            )
        return code, recognise(pix, code, tessdata, page.number)
    first = "eng" if "eng" in installed else installed[0]
    data = recognise(pix, first, tessdata, page.number)
    with pymupdf.open("pdf", data) as layer:
        text = layer[0].get_text("text")
    code = identify_language(text, installed) or first
    if code == first:
        return first, data
    return code, recognise(pix, code, tessdata, page.number)


def identify_language(text: str, installed: list[str]) -> str | None:
    """The installed Tesseract language ``text`` is written in (py3langid), or None when unsure."""
    words = re.findall(r"[^\W\d_]{2,}", text)
    choices = {ISO_CODES[c]: c for c in installed if c in ISO_CODES}
    if len(words) < 5 or not choices:
        return None
    iso, probability = _identifier(tuple(sorted(choices))).classify(" ".join(words))
    return choices.get(iso) if probability >= 0.8 else None


@functools.cache
def _identifier(isos: tuple[str, ...]) -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(isos))
    return identifier


def remove_text(page: pymupdf.Page) -> None:
    """Remove the page's text (an old OCR layer), keeping its images and drawings."""
    page.add_redact_annot(page.rect)
    page.apply_redactions(
        images=pymupdf.PDF_REDACT_IMAGE_NONE,
        graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
        text=pymupdf.PDF_REDACT_TEXT_REMOVE,
    )


def text_only(layer: pymupdf.Document) -> None:
    """Remove the page picture from Tesseract's one-page PDF, keeping its invisible text."""
    page = layer[0]
    for xref in page.get_contents():
        stream = layer.xref_stream(xref)
        layer.update_stream(xref, re.sub(rb"/[A-Za-z0-9_.]+\s+Do\b", b"", stream))
    set_key(layer, page.xref, "Resources/XObject", "<<>>")
