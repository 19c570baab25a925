"""Helpers for the image conversions: pages to PNG/JPEG/TIFF files, and images to PDF pages.

Pages are rendered one at a time and written as they come, so a long document never
holds more than one page's pixels in memory.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pymupdf

from .docio import PIXEL_LIMIT, check_image_pixels
from .errors import TooLargeError, ToolArgumentError

__all__ = [
    "check_dpi",
    "page_image_paths",
    "render",
    "write_tiff",
    "add_image_pages",
    "PAGE_SIZES",
]

PAGE_SIZES = {"A4": (595.0, 842.0), "letter": (612.0, 792.0)}
_MARGIN = 36.0  # half an inch around an image placed on an A4 or letter page
_MAX_PAGE = 14400.0  # 200 inches: the largest page PDF readers accept
_EXIF_ROTATE = {3: 180, 6: -90, 8: 90}  # EXIF orientation → insert_image rotation


def check_dpi(dpi: int) -> None:
    if not 10 <= dpi <= 1200:
        raise ToolArgumentError(f"dpi must be between 10 and 1200 (got {dpi}); 150 suits screens, 300 print.")


def render(page: pymupdf.Page, dpi: int) -> pymupdf.Pixmap:
    """The page as an RGB picture at ``dpi`` (rotation applied, no transparency).

    Raises:
        TooLargeError: the picture, or an image on the page, has more than :data:`PIXEL_LIMIT` pixels.
    """
    _check_pixels(page, dpi)
    pixmap = page.get_pixmap(dpi=dpi, alpha=False, colorspace=pymupdf.csRGB)
    pixmap.set_dpi(dpi, dpi)
    return pixmap


def _check_pixels(page: pymupdf.Page, dpi: int) -> None:
    name, number = Path(page.parent.name).name or "the PDF", page.number + 1
    width, height = page.rect.width * dpi / 72, page.rect.height * dpi / 72
    if width * height > PIXEL_LIMIT:
        raise TooLargeError(
            f"Page {number} of {name} would be {width:,.0f} x {height:,.0f} pixels at {dpi} dpi, more than the "
            f"{PIXEL_LIMIT // 1_000_000} million pixels a page image may have. Choose a lower dpi."
        )
    check_image_pixels(page, "be drawn")


def page_image_paths(source: Path, numbers: list[int], ext: str, output: str | None) -> list[Path]:
    """Where page images go: ``<stem>_page<N><ext>`` in the working directory.

    ``output`` is a base name ("scan" → scan_page1.png, ...), or for one page the file's
    own name. Without it, a ``-2``, ``-3`` … suffix keeps a whole set clear of earlier ones.
    """
    if output:
        base = Path(output).expanduser()
        if not base.is_absolute():
            base = Path.cwd() / base
        if base.suffix.lower() in (".png", ".jpg", ".jpeg", ".tif", ".tiff", ext):
            if len(numbers) == 1:
                return [base.with_suffix(ext) if base.suffix.lower() != ext else base]
            base = base.with_suffix("")
        paths = [base.with_name(f"{base.name}_page{n}{ext}") for n in numbers]
    else:
        stem = Path.cwd() / source.stem
        paths = [stem.with_name(f"{stem.name}_page{n}{ext}") for n in numbers]
        tag = 1
        while any(p.exists() for p in paths):
            tag += 1
            paths = [stem.with_name(f"{stem.name}_page{n}-{tag}{ext}") for n in numbers]
    if any(p.resolve() == source.resolve() for p in paths):
        raise ToolArgumentError("The output name is the input file; tools never overwrite their input.")
    return paths


def write_tiff(doc: pymupdf.Document, indices: list[int], dpi: int, target: Path) -> None:
    """Write the pages as one multi-page TIFF (deflate-compressed), a page at a time."""
    from PIL import Image, TiffImagePlugin

    with TiffImagePlugin.AppendingTiffWriter(str(target), new=True) as tiff:
        for index in indices:
            pixmap = render(doc[index], dpi)
            image = Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)
            del pixmap
            image.save(tiff, format="TIFF", compression="tiff_deflate", dpi=(dpi, dpi))
            tiff.newFrame()
            image.close()


# ---------------------------------------------------------------- images to PDF


def _not_an_image(path: Path, why: str) -> ToolArgumentError:
    return ToolArgumentError(
        f"{path.name} is not an image ({why}). images_to_pdf takes PNG, JPEG, TIFF, GIF, BMP or WebP files"
        + ("; to join PDFs use combine_files." if why.startswith("it is a PDF") else ".")
    )


def _frames(path: Path) -> Iterator[tuple[bytes, int, int, float, int]]:
    """(image bytes for PyMuPDF, width px, height px, dpi, rotation) for each picture in the file.

    A JPEG without mirroring is passed through untouched (no recompression; its EXIF
    rotation becomes the placement's rotation); everything else goes through Pillow,
    EXIF orientation applied, as PNG. Each page of a multi-page TIFF is a picture.
    """
    from PIL import Image, ImageOps, UnidentifiedImageError

    if not path.exists():
        raise ToolArgumentError(f"File not found: {path.name}. Check the file name.")
    if not path.is_file() or path.stat().st_size == 0:
        raise _not_an_image(path, "it is empty" if path.is_file() else "it is a folder")
    data = path.read_bytes()
    if data[:1024].find(b"%PDF-") >= 0:
        raise _not_an_image(path, "it is a PDF")
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise _not_an_image(path, "Pillow cannot read it as a picture") from exc
    dpi = image.info.get("dpi", (96, 96))[0] or 96
    dpi = float(dpi) if 30 <= float(dpi) <= 2400 else 96.0
    orientation = image.getexif().get(0x0112, 1)
    if image.format == "JPEG" and orientation in (1, 3, 6, 8) and image.mode in ("RGB", "L", "CMYK"):
        yield data, image.width, image.height, dpi, _EXIF_ROTATE.get(orientation, 0)
        return
    count = getattr(image, "n_frames", 1) if image.format == "TIFF" else 1
    for frame in range(count):
        image.seek(frame)
        picture = ImageOps.exif_transpose(image)
        if picture.mode not in ("RGB", "RGBA", "L", "LA"):
            has_alpha = picture.mode in ("P", "PA") and "transparency" in picture.info or "A" in picture.mode
            picture = picture.convert("RGBA" if has_alpha else "RGB")
        buffer = io.BytesIO()
        picture.save(buffer, format="PNG")
        yield buffer.getvalue(), picture.width, picture.height, dpi, 0


def _page_rect(width_pt: float, height_pt: float, page_size: str) -> tuple[pymupdf.Rect, pymupdf.Rect]:
    """(page rect, where the picture goes) for a picture of this displayed size."""
    if page_size == "fit":
        scale = min(1.0, _MAX_PAGE / max(width_pt, height_pt))
        rect = pymupdf.Rect(0, 0, max(width_pt * scale, 1), max(height_pt * scale, 1))
        return rect, rect
    short, long = PAGE_SIZES[page_size]
    rect = pymupdf.Rect(0, 0, long, short) if width_pt > height_pt else pymupdf.Rect(0, 0, short, long)
    return rect, rect + (_MARGIN, _MARGIN, -_MARGIN, -_MARGIN)


def add_image_pages(doc: pymupdf.Document, path: Path, page_size: str) -> int:
    """Append one page per picture in ``path``; return how many pages were added."""
    added = 0
    for data, width, height, dpi, rotation in _frames(path):
        if rotation in (90, -90):
            width, height = height, width
        page_rect, box = _page_rect(width * 72 / dpi, height * 72 / dpi, page_size)
        page = doc.new_page(width=page_rect.width, height=page_rect.height)
        try:
            page.insert_image(box, stream=data, rotate=rotation, keep_proportion=True)
        except (RuntimeError, ValueError) as exc:
            raise _not_an_image(path, f"it could not be placed on a page: {exc}") from None
        added += 1
    return added
