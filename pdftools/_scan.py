"""Scanned pages: which pages are scans, which way up they are, how crooked, and straightening them.

Orientation and script come from Tesseract's orientation and script detection (OSD, ``--psm 0``),
run as the installed ``tesseract`` program on the rendered page. Skew is measured on the scan's own
pixels with a projection profile: the ink is sheared by each candidate angle and the angle whose
row histogram is sharpest (text lines fall into the fewest rows) is the skew.
"""

from __future__ import annotations

import io
import math
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf
from PIL import Image

from .errors import ToolUnavailableError

__all__ = [
    "Orientation",
    "detect_orientation",
    "render_png",
    "scan_image",
    "measure_skew",
    "straighten_image",
    "MIN_SKEW",
]

SCAN_COVER = 0.85  # a page whose single image covers this share of it is a scanned page
MIN_SKEW = 0.3  # degrees; a smaller skew is left alone
MAX_SKEW = 15.0  # degrees searched either way
_OSD_TIMEOUT = 120  # seconds for one page
_OSD_DPI = 150


@dataclass(frozen=True)
class Orientation:
    """What OSD read on one page."""

    turn: int  # degrees clockwise that set the page upright: 0, 90, 180 or 270
    confidence: float  # Tesseract's orientation confidence (about 0-50; below ~2 is a guess)
    script: str  # "Latin", "Cyrillic", "Han" …
    script_confidence: float


def render_png(page: pymupdf.Page, dpi: int = _OSD_DPI) -> bytes:
    """The page as displayed (its /Rotate applied), grey, as PNG bytes."""
    return page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False).tobytes("png")


def detect_orientation(png: bytes, tessdata: Path) -> Orientation | None:
    """Tesseract's OSD of one page picture; None when it found too little text to judge."""
    if not (tessdata / "osd.traineddata").exists():
        raise ToolUnavailableError(
            "Orientation detection needs Tesseract's osd data, which is not installed: "
            "`sudo apt install tesseract-ocr-osd` (Debian/Ubuntu)."
        )
    try:
        done = subprocess.run(
            ["tesseract", "stdin", "stdout", "--psm", "0", "--tessdata-dir", str(tessdata), "-l", "osd"],
            input=png,
            capture_output=True,
            timeout=_OSD_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise ToolUnavailableError(
            "Orientation detection needs the tesseract program: `sudo apt install tesseract-ocr`."
        ) from None
    except subprocess.TimeoutExpired:
        return None
    out = done.stdout.decode("utf-8", "replace")
    values = dict(re.findall(r"^([A-Za-z ]+):\s*(\S+)\s*$", out, re.M))
    try:
        return Orientation(
            turn=int(values["Rotate"]) % 360,
            confidence=float(values["Orientation confidence"]),
            script=values.get("Script", ""),
            script_confidence=float(values.get("Script confidence", "0")),
        )
    except (KeyError, ValueError):
        return None  # "Too few characters. Skipping this page": nothing to judge by


def scan_image(page: pymupdf.Page) -> int | None:
    """The xref of the image that is the page's scan (one image covering the page), or None."""
    area = abs(page.rect)
    if area <= 0:
        return None
    found = [
        info["xref"]
        for info in page.get_image_info(xrefs=True)
        if info.get("xref", 0) > 0 and abs(pymupdf.Rect(info["bbox"]) & page.rect) >= SCAN_COVER * area
    ]
    return found[0] if len(set(found)) == 1 else None


def _ink(img: Image.Image) -> tuple[Any, Any] | None:
    """Coordinates of dark pixels of a reduced copy (numpy arrays), centred; None when nearly blank."""
    import numpy as np

    grey = img.convert("L")
    scale = min(1.0, 1400 / max(grey.size))
    if scale < 1.0:
        grey = grey.resize(
            (max(1, round(grey.width * scale)), max(1, round(grey.height * scale))), Image.Resampling.BOX
        )
    pixels = np.asarray(grey, dtype=np.uint8)
    threshold = min(128, float(pixels.mean()) * 0.7)
    ys, xs = np.nonzero(pixels < threshold)
    if len(xs) < 200:
        return None
    return ys.astype(np.float64), xs.astype(np.float64) - grey.width / 2


def measure_skew(img: Image.Image) -> float:
    """How far the text lines of ``img`` are turned, in degrees (positive: clockwise as seen).

    Projection profile: the dark pixels are sheared by each candidate angle and counted per row;
    the angle at which the rows are sharpest (the sum of squared row counts is largest) is the skew.
    A coarse pass over ±15° in 0.5° steps, then 0.05° steps around the best.
    """
    import numpy as np

    ink = _ink(img)
    if ink is None:
        return 0.0
    ys, xs = ink

    def sharpness(angle: float) -> float:
        rows = np.rint(ys - xs * math.tan(math.radians(angle))).astype(np.int64)
        counts = np.bincount(rows - rows.min()).astype(np.float64)
        return float(np.dot(counts, counts))

    coarse = np.arange(-MAX_SKEW, MAX_SKEW + 1e-9, 0.5)
    best = max(coarse, key=sharpness)
    fine = np.arange(best - 0.6, best + 0.6 + 1e-9, 0.05)
    return round(float(max(fine, key=sharpness)), 2)


def straighten_image(img: Image.Image, skew: float) -> Image.Image:
    """``img`` turned back by ``skew`` degrees, same size and resolution, corners filled white."""
    if img.mode == "1":
        turned = img.convert("L").rotate(skew, resample=Image.Resampling.BICUBIC, fillcolor=255)
        return turned.point(lambda v: 255 if v >= 128 else 0).convert("1")
    fill: int | tuple[int, ...] = 255 if img.mode == "L" else (255,) * len(img.getbands())
    return img.rotate(skew, resample=Image.Resampling.BICUBIC, fillcolor=fill)


def image_of(doc: pymupdf.Document, xref: int) -> tuple[Image.Image, str]:
    """The image ``xref`` as a Pillow image (grey, RGB or 1-bit) and its PDF filter."""
    pix = pymupdf.Pixmap(doc, xref)
    if pix.alpha:
        pix = pymupdf.Pixmap(pix, 0)
    if pix.colorspace is not None and pix.colorspace.n not in (1, 3):
        pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
    mode = "L" if pix.n == 1 else "RGB"
    img = Image.frombytes(mode, (pix.width, pix.height), pix.samples)
    if doc.xref_get_key(xref, "BitsPerComponent")[1] == "1" or doc.xref_get_key(xref, "ImageMask")[1] == "true":
        img = img.convert("1", dither=Image.Dither.NONE)
    return img, doc.xref_get_key(xref, "Filter")[1]


def encode(img: Image.Image, pdf_filter: str) -> bytes:
    """JPEG for a picture that was JPEG, PNG (Flate in the PDF) otherwise."""
    buf = io.BytesIO()
    if "DCT" in pdf_filter and img.mode in ("L", "RGB"):
        img.save(buf, "JPEG", quality=90)
    else:
        img.save(buf, "PNG", optimize=False)
    return buf.getvalue()
