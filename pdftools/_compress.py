"""Image downsampling and lossless rewriting behind the ``compress`` tool.

PyMuPDF's ``Document.rewrite_images`` runs the page contents through MuPDF's
content filter, which (MuPDF 1.28.5, PyMuPDF 2.0) drops mesh shadings from pages — a
picture on page 95 of the GeoTopo lecture notes loses its fill. So images are
rewritten here, one image object at a time, without touching page contents:
the effective resolution of every placement is measured, images above the
level's threshold are resampled (Pillow, box filter) and re-encoded as JPEG
(colour and grey) or CCITT G4 (black and white), and a new stream replaces the
old one only when it is smaller. A page's scan (an image drawn over the whole page)
stored losslessly is recompressed the same way at its own resolution.
"""

from __future__ import annotations

import functools
import io
import math
import zlib
from dataclasses import dataclass

import pymupdf
from PIL import Image, TiffImagePlugin

from .docio import MUPDF_ERRORS, PIXEL_LIMIT

__all__ = ["Level", "LEVELS", "downsample_images", "SAVE_OPTIONS"]

# Lossless structure rewrite shared by every level.
SAVE_OPTIONS: dict[str, object] = {
    "garbage": 4,
    "deflate": True,
    "deflate_images": True,
    "deflate_fonts": True,
    "use_objstms": True,
    "compression_effort": 100,
}


@dataclass(frozen=True)
class Level:
    """Resampling settings; ``None`` resolutions leave those images alone."""

    color_dpi: int | None  # target resolution of colour and grey images
    color_threshold: int | None  # resample only above this resolution
    quality: int  # JPEG quality
    mono_dpi: int | None  # target resolution of black-and-white images
    mono_threshold: int | None


LEVELS: dict[str, Level] = {
    # Lossless only: structure, streams and fonts.
    "low": Level(None, None, 0, None, None),
    # Like Ghostscript's /ebook: colour/grey to 150 dpi JPEG, black-and-white to 300 dpi.
    "medium": Level(150, 165, 75, 300, 450),
    # Screen quality: ~96 dpi, stronger JPEG, black-and-white to 200 dpi.
    "high": Level(96, 110, 55, 200, 300),
}


# Filters already made for pictures: an image stored with one is not recompressed at its own resolution.
_LOSSY_FILTERS = ("DCT", "JPX", "JBIG2", "CCITT")

# MuPDF reports an image's size as its data length plus a small fixed overhead (57 bytes in 1.28).
_IMAGE_SIZE_SLACK = 256


# An image drawn over this share of a page or more is the page's scan.
_SCAN_COVER = 0.85


def _placements_dpi(doc: pymupdf.Document, scans: set[int] | None = None) -> dict[int, float]:
    """Highest effective resolution (pixels per inch) at which each image xref is drawn.

    The xrefs of images drawn over (nearly) a whole page, the pages' scans, are added to ``scans``.
    """
    best: dict[int, float] = {}
    raw_sizes: dict[int, int] = {}
    for page in doc:
        images = page.get_images(full=True)
        if not images:
            continue
        page_area = abs(page.rect)
        try:
            placed = _placed_images(doc, page, images, raw_sizes)
        except MUPDF_ERRORS:  # contents MuPDF cannot run ("too many nested graphics states"): its images stay
            continue
        for xref, info in placed:
            if scans is not None and page_area > 0:
                if abs(pymupdf.Rect(info["bbox"]) & page.rect) >= _SCAN_COVER * page_area:
                    scans.add(xref)
            a, b, c, d, _, _ = info["transform"]
            width_in = math.hypot(a, b) / 72
            height_in = math.hypot(c, d) / 72
            if width_in <= 0 or height_in <= 0:
                continue
            dpi = max(info["width"] / width_in, info["height"] / height_in)
            best[xref] = max(best.get(xref, 0.0), dpi)
    return best


def _placed_images(
    doc: pymupdf.Document, page: pymupdf.Page, images: list, raw_sizes: dict[int, int]
) -> list[tuple[int, dict]]:
    """(xref, placement) for every image drawn on ``page``.

    Asking PyMuPDF for placements with xrefs decodes every image to hash it (most of the
    time ``compress`` spent on a 352-page book). An image is recognised instead by its
    pixel size and the length of its data when exactly one of the page's images has them;
    only a page where that is ambiguous (or an inline image looks like one) is hashed.
    """
    by_size: dict[tuple[int, int], list[int]] = {}
    for item in images:
        by_size.setdefault((item[2], item[3]), []).append(item[0])
    placed = []
    for info in page.get_image_info():
        candidates = by_size.get((info["width"], info["height"]), [])
        if len(candidates) != 1:
            break
        xref = candidates[0]
        if xref not in raw_sizes:
            raw_sizes[xref] = len(doc.xref_stream_raw(xref) or b"")
        if not 0 <= info["size"] - raw_sizes[xref] <= _IMAGE_SIZE_SLACK:
            break  # an inline image of the same pixel size, or data MuPDF counts differently
        placed.append((xref, info))
    else:
        return placed
    try:
        hashed = page.get_image_info(xrefs=True)
    except MUPDF_ERRORS:  # an image MuPDF will not decode to hash it ("Overly large image"): the page's stay
        return []
    return [(info["xref"], info) for info in hashed if info.get("xref", 0) > 0]


def _is_stencil_or_mono(doc: pymupdf.Document, xref: int) -> tuple[bool, bool]:
    stencil = doc.xref_get_key(xref, "ImageMask")[1] == "true"
    bpc = doc.xref_get_key(xref, "BitsPerComponent")[1]
    return stencil, stencil or bpc == "1"


def _encode_g4(img: Image.Image) -> bytes | None:
    """CCITT G4 data of a 1-bit image (one strip), or None when Pillow cannot write it."""
    buf = io.BytesIO()
    try:
        img.save(buf, "TIFF", compression="group4", strip_size=1 << 30)
        buf.seek(0)
        with Image.open(buf) as tiff:
            if not isinstance(tiff, TiffImagePlugin.TiffImageFile):
                raise ValueError("not a TIFF")
            offsets = tiff.tag_v2.get(273)
            counts = tiff.tag_v2.get(279)
    except (OSError, ValueError, KeyError):
        return None
    if not offsets or not counts or len(offsets) != 1:
        return None
    return buf.getvalue()[offsets[0] : offsets[0] + counts[0]]


def _rewrite_mono(doc: pymupdf.Document, xref: int, scale: float, stencil: bool) -> bool:
    pix = pymupdf.Pixmap(doc, xref)
    if pix.n != 1:
        return False
    # Stencil masks decode to coverage (255 = painted), grey 1-bit images to 0 = black.
    img = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    size = (max(1, round(pix.width * scale)), max(1, round(pix.height * scale)))
    small = img.resize(size, Image.Resampling.BOX)
    # PDF bit value: stencil paints where the bit is 0; grey image 0 is black.
    if stencil:
        bw = small.point(lambda v: 0 if v >= 128 else 255).convert("1")
    else:
        bw = small.point(lambda v: 255 if v >= 128 else 0).convert("1")
    raw = bw.tobytes()
    old_len = len(doc.xref_stream_raw(xref))
    expected = Image.frombytes("1", size, raw).convert("L").tobytes()
    g4 = _encode_g4(bw)
    flate = zlib.compress(raw, 6)
    if g4 and len(g4) < min(old_len, len(flate)):
        for black_is_1 in ("true", "false"):
            parms = f"<</K -1/Columns {size[0]}/Rows {size[1]}/BlackIs1 {black_is_1}>>"
            _replace_stream(doc, xref, g4, "/CCITTFaxDecode", parms, size, None, 1)
            check = pymupdf.Pixmap(doc, xref)
            if (check.width, check.height) == size and _same_bits(check.samples, expected, stencil):
                return True
    # Flate is smaller, or G4 is unavailable or failed the check: 1-bit Flate is always correct.
    if len(flate) >= old_len:
        return False  # the caller restores the original image
    _replace_stream(doc, xref, flate, "/FlateDecode", "null", size, None, 1)
    return True


def _same_bits(decoded: bytes, expected: bytes, stencil: bool) -> bool:
    """Spot-check a decoded image against the intended bits (stencils decode inverted)."""
    if len(decoded) != len(expected):
        return False
    step = max(1, len(expected) // 4096)
    return all(((decoded[i] >= 128) != stencil) == (expected[i] >= 128) for i in range(0, len(expected), step))


def _rewrite_color(doc: pymupdf.Document, xref: int, scale: float, quality: int) -> bool:
    if doc.xref_get_key(xref, "Mask")[0] == "array":
        return False  # colour-key masking does not survive lossy compression
    pix = pymupdf.Pixmap(doc, xref)
    if pix.colorspace is None:
        return False
    if pix.alpha:
        pix = pymupdf.Pixmap(pix, 0)
    if pix.colorspace.n not in (1, 3):
        pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
    mode = "L" if pix.n == 1 else "RGB"
    img = Image.frombytes(mode, (pix.width, pix.height), pix.samples)
    size = (max(1, round(pix.width * scale)), max(1, round(pix.height * scale)))
    if size != img.size:
        img = img.resize(size, Image.Resampling.BOX)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality, optimize=True)
    data = buf.getvalue()
    if len(data) >= len(doc.xref_stream_raw(xref)):
        return False
    space = "/DeviceGray" if mode == "L" else "/DeviceRGB"
    _replace_stream(doc, xref, data, "/DCTDecode", "null", size, space, 8)
    return True


def _replace_stream(
    doc: pymupdf.Document,
    xref: int,
    data: bytes,
    filt: str,
    parms: str,
    size: tuple[int, int],
    space: str | None,
    bpc: int,
) -> None:
    doc.update_stream(xref, data, compress=False)
    doc.xref_set_key(xref, "Filter", filt)
    doc.xref_set_key(xref, "DecodeParms", parms)
    doc.xref_set_key(xref, "Width", str(size[0]))
    doc.xref_set_key(xref, "Height", str(size[1]))
    doc.xref_set_key(xref, "BitsPerComponent", str(bpc))
    doc.xref_set_key(xref, "Decode", "null")
    if space:
        doc.xref_set_key(xref, "ColorSpace", space)


def _too_large(doc: pymupdf.Document, xref: int) -> bool:
    """An image of more pixels than tools decode (a 50,000 x 50,000 bomb) stays as it is."""
    try:
        return int(doc.xref_get_key(xref, "Width")[1]) * int(doc.xref_get_key(xref, "Height")[1]) > PIXEL_LIMIT
    except ValueError:
        return False


def downsample_images(doc: pymupdf.Document, level: Level) -> int:
    """Resample images drawn above the level's thresholds; return how many were replaced."""
    if level.color_dpi is None and level.mono_dpi is None:
        return 0
    replaced = 0
    # The soft masks of the pages' images (not of every object: a damaged file's repaired cross-reference table
    # can have hundreds of thousands of entries, and asking each took 46 s on one).
    smasks = {item[1] for page in doc for item in page.get_images(full=True) if item[1] > 0}
    scans: set[int] = set()
    for xref, dpi in _placements_dpi(doc, scans).items():
        if xref in smasks or doc.xref_get_key(xref, "Subtype")[1] != "/Image" or _too_large(doc, xref):
            continue
        stencil, mono = _is_stencil_or_mono(doc, xref)
        lossless = not any(f in doc.xref_get_key(xref, "Filter")[1] for f in _LOSSY_FILTERS)
        if mono and level.mono_dpi and level.mono_threshold and dpi > level.mono_threshold:
            rewrite = functools.partial(_rewrite_mono, doc, xref, level.mono_dpi / dpi, stencil)
        elif not mono and level.color_dpi and level.color_threshold and dpi > level.color_threshold:
            rewrite = functools.partial(_rewrite_color, doc, xref, level.color_dpi / dpi, level.quality)
        elif xref in scans and lossless and (level.mono_dpi if mono else level.color_dpi):
            # a scanned page already at or below the target resolution, stored losslessly: recompressed
            # as it is (CCITT G4 for black and white, JPEG for colour and grey), kept when not smaller
            if mono:
                rewrite = functools.partial(_rewrite_mono, doc, xref, 1.0, stencil)
            else:
                rewrite = functools.partial(_rewrite_color, doc, xref, 1.0, level.quality)
        else:
            continue
        original = (doc.xref_object(xref, compressed=True), doc.xref_stream_raw(xref))
        try:
            done = rewrite()
        except (*MUPDF_ERRORS, OSError):
            done = False  # an image MuPDF or Pillow cannot decode stays as it is
        if done:
            replaced += 1
        else:
            doc.update_stream(xref, original[1], compress=False)
            doc.update_object(xref, original[0])
    return replaced
