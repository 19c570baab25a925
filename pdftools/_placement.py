"""Placing text, lines and images where a reader sees them, also on rotated pages.

Positions here are in *displayed* page coordinates: ``page.rect``, origin at the
top-left corner as the page appears in a viewer (``/Rotate`` applied). PyMuPDF's
insert methods work in unrotated coordinates, so every point goes through
``page.derotation_matrix`` and text and images are turned by ``page.rotation``
to stay upright for the reader.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from .docio import damaged_pages, set_key, write_pdf
from .errors import ToolArgumentError
from .paths import input_path

__all__ = [
    "Face",
    "Picture",
    "rotated_extent",
    "pick_face",
    "script_face",
    "anchor_rect",
    "draw_text",
    "draw_line",
    "draw_image",
    "load_image",
    "faded_image",
    "fill_placeholders",
    "save_pdf",
    "own_page",
    "check_fraction",
]


# Fonts searched for a handwriting look and for text the PDF base-14 fonts cannot show.
_SCRIPT_FILES = (
    "/usr/share/fonts/opentype/urw-base35/Z003-MediumItalic.otf",
    "/usr/share/fonts/truetype/urw-base35/Z003-MediumItalic.ttf",
)
_UNICODE_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
)


def check_fraction(value: float, name: str) -> float:
    """A value in (0, 1], e.g. opacity."""
    if not 0 < value <= 1:
        raise ToolArgumentError(f"{name} must be between 0 and 1 (e.g. 0.3 for 30%); got {value}.")
    return float(value)


def fill_placeholders(template: str, n: int, total: int) -> str:
    """Replace {n}/{page} with the page number and {total}/{pages} with the total."""
    out = template
    for key, value in (("{n}", n), ("{page}", n), ("{total}", total), ("{pages}", total)):
        out = out.replace(key, str(value))
    return out


@dataclass(frozen=True)
class Face:
    """A font to write with: PyMuPDF's name for it, the file when not base-14, and metrics."""

    name: str
    file: str | None
    font: pymupdf.Font

    @property
    def heavy(self) -> bool:
        """A large font (CJK, full Unicode) that is worth subsetting after use."""
        return len(self.font.buffer) > 200_000

    def width(self, text: str, size: float) -> float:
        return self.font.text_length(text, fontsize=size)

    def height(self, size: float) -> float:
        return (self.font.ascender - self.font.descender) * size

    def mid(self, size: float) -> float:
        """Distance from the baseline up to the middle of the glyphs."""
        return (self.font.ascender + self.font.descender) / 2 * size


def _latin1(text: str) -> bool:
    """Text the base-14 fonts can write without embedding a font (PyMuPDF encodes them as Latin-1)."""
    return all(ord(c) < 256 for c in text)


def _covers(font: pymupdf.Font, text: str) -> bool:
    return all(c.isspace() or font.has_glyph(ord(c)) for c in text)


def pick_face(text: str, base14: str = "helv") -> Face:
    """A base-14 font when it has the glyphs (punctuation like — ’ € included), else an embedded one."""
    font = pymupdf.Font(base14)
    if _covers(font, text):
        return Face(base14, None, font)
    for path in _UNICODE_FILES:
        if Path(path).exists():
            font = pymupdf.Font(fontfile=path)
            if _covers(font, text):
                return Face("dpuni", path, font)
    return Face("china-s", None, pymupdf.Font("cjk"))


def script_face(text: str) -> Face:
    """A handwriting-like font for typed signatures (URW Z003 if installed, else Times Italic)."""
    for path in _SCRIPT_FILES:
        if Path(path).exists():
            font = pymupdf.Font(fontfile=path)
            if _covers(font, text):
                return Face("dpscript", path, font)
    return pick_face(text, "tiit")


_TOUCHED = ("Font", "XObject", "ExtGState")


def own_page(doc: pymupdf.Document, index: int) -> pymupdf.Page:
    """The page, after giving it its own /Resources (and Font/XObject/ExtGState dicts) before drawing on it.

    Pages often share one resources object (producers do it, and saving with garbage
    collection merges identical ones). Adding an image or font to a shared one would
    make it appear in every sharing page's resources, so copy what PyMuPDF will change.
    """
    with damaged_pages(Path(doc.name).name or "the PDF", f"prepare page {index + 1} for drawing"):
        xref = doc.page_xref(index)
        _own_resources(doc, xref)
        return doc[index]


def _own_resources(doc: pymupdf.Document, xref: int) -> None:
    kind, value = doc.xref_get_key(xref, "Resources")
    if kind == "null":  # inherited from the page tree: copy the nearest ancestor's
        node = xref
        while kind == "null":
            parent_kind, parent = doc.xref_get_key(node, "Parent")
            if parent_kind != "xref":
                return
            node = int(parent.split()[0])
            kind, value = doc.xref_get_key(node, "Resources")
        if kind == "xref":
            value = doc.xref_object(int(value.split()[0]), compressed=True)
        doc.xref_set_key(xref, "Resources", value)
    elif kind == "xref":
        copy = doc.get_new_xref()
        doc.update_object(copy, doc.xref_object(int(value.split()[0]), compressed=True))
        doc.xref_set_key(xref, "Resources", f"{copy} 0 R")
    for key in _TOUCHED:
        kind, value = doc.xref_get_key(xref, f"Resources/{key}")
        if kind == "xref":
            copy = doc.get_new_xref()
            doc.update_object(copy, doc.xref_object(int(value.split()[0]), compressed=True))
            set_key(doc, xref, f"Resources/{key}", f"{copy} 0 R")


def save_pdf(doc: pymupdf.Document, target: Path, faces: list[Face]) -> str:
    """Write the result; keep only the glyphs used of any large font that was embedded."""
    if any(face.heavy for face in faces):
        doc.subset_fonts()
    return write_pdf(doc, target)


def rotated_extent(width: float, height: float, angle: float) -> tuple[float, float]:
    """Width and height of the bounding box of a width×height box turned by ``angle`` degrees."""
    rad = math.radians(angle)
    c, s = abs(math.cos(rad)), abs(math.sin(rad))
    return width * c + height * s, width * s + height * c


def anchor_rect(
    area: pymupdf.Rect, width: float, height: float, position: str, margin_x: float, margin_y: float
) -> pymupdf.Rect:
    """A width×height rect at ``position`` ("center", "top", "bottom-right" …) inside ``area`` with margins."""
    vertical, _, horizontal = position.partition("-")
    if vertical in ("left", "right"):  # "left"/"right" alone: vertically centered
        vertical, horizontal = "center", vertical
    if vertical == "center":
        horizontal = horizontal or "center"
    if horizontal in ("", "center"):
        x0 = area.x0 + (area.width - width) / 2
    elif horizontal == "left":
        x0 = area.x0 + margin_x
    else:
        x0 = area.x1 - margin_x - width
    if vertical == "top":
        y0 = area.y0 + margin_y
    elif vertical == "bottom":
        y0 = area.y1 - margin_y - height
    else:
        y0 = area.y0 + (area.height - height) / 2
    return pymupdf.Rect(x0, y0, x0 + width, y0 + height)


def draw_text(
    page: pymupdf.Page,
    text: str,
    center: pymupdf.Point,
    face: Face,
    size: float,
    color: tuple[float, float, float],
    opacity: float = 1.0,
    angle: float = 0.0,
) -> None:
    """Write one line of real text centered on ``center`` (displayed coordinates).

    ``angle`` turns it counterclockwise as the reader sees the page; the page's own
    /Rotate is compensated so angle 0 is upright for the reader.
    """
    with damaged_pages(Path(page.parent.name).name or "the PDF", f"write on page {page.number + 1}"):
        _draw_text(page, text, center, face, size, color, opacity, angle)


def _draw_text(
    page: pymupdf.Page,
    text: str,
    center: pymupdf.Point,
    face: Face,
    size: float,
    color: tuple[float, float, float],
    opacity: float,
    angle: float,
) -> None:
    pivot = center * page.derotation_matrix
    start = pymupdf.Point(pivot.x - face.width(text, size) / 2, pivot.y + face.mid(size))
    morph = (pivot, pymupdf.Matrix(angle + page.rotation))
    if face.file is None and face.name != "china-s" and _latin1(text):
        page.insert_text(
            start,
            text,
            fontsize=size,
            fontname=face.name,
            color=color,
            fill_opacity=opacity,
            stroke_opacity=opacity,
            morph=morph,
        )
        return
    # Outside Latin-1 PyMuPDF's simple base-14 encoding loses characters: embed the font instead.
    writer = pymupdf.TextWriter(page.rect)
    writer.append(start, text, font=face.font, fontsize=size)
    writer.write_text(page, color=color, opacity=opacity, morph=morph)


def draw_line(
    page: pymupdf.Page,
    start: pymupdf.Point,
    end: pymupdf.Point,
    color: tuple[float, float, float],
    width: float = 0.75,
) -> None:
    """A straight line between two displayed points."""
    page.draw_line(start * page.derotation_matrix, end * page.derotation_matrix, color=color, width=width)


def draw_image(page: pymupdf.Page, rect: pymupdf.Rect, data: bytes, xref: int = 0) -> int:
    """Show an image upright in ``rect`` (displayed coordinates, aspect kept); return its xref.

    Pass the xref of an earlier call to reuse the same image object on other pages.
    """
    target = (rect * page.derotation_matrix).normalize()
    if xref:
        return page.insert_image(target, xref=xref, rotate=page.rotation)
    return page.insert_image(target, stream=data, rotate=page.rotation)


@dataclass(frozen=True)
class Picture:
    """An image file read into memory, with its size in pixels and its natural size in points."""

    data: bytes
    pixels: tuple[int, int]
    points: tuple[float, float]

    @property
    def aspect(self) -> float:
        return self.pixels[1] / self.pixels[0]


def load_image(image: str) -> Picture:
    """Read an image file (PNG, JPEG, …), failing clearly when it is missing or not an image."""
    from PIL import Image, UnidentifiedImageError

    path = input_path(image)
    try:
        with Image.open(path) as im:
            im.load()
            size = im.size
            dpi = im.info.get("dpi", (96, 96))
            fmt = im.format
            if fmt not in ("PNG", "JPEG"):
                buf = io.BytesIO()
                im.convert("RGBA" if "A" in im.getbands() else "RGB").save(buf, "PNG")
                data = buf.getvalue()
            else:
                data = path.read_bytes()
    except (UnidentifiedImageError, OSError) as exc:
        raise ToolArgumentError(
            f"{path.name} is not an image I can read ({exc.__class__.__name__}). Give a PNG or JPEG file."
        ) from None
    try:
        dpx, dpy = (float(d) or 96.0 for d in dpi)
    except (TypeError, ValueError):
        dpx = dpy = 96.0
    if dpx < 20 or dpy < 20:  # nonsense density (e.g. 1x1 "aspect ratio" JFIF)
        dpx = dpy = 96.0
    return Picture(data, size, (size[0] * 72 / dpx, size[1] * 72 / dpy))


def faded_image(picture: Picture, opacity: float, angle: float = 0.0) -> Picture:
    """The picture as a PNG with its alpha scaled by ``opacity`` and turned ``angle`` degrees counterclockwise."""
    from PIL import Image

    with Image.open(io.BytesIO(picture.data)) as im:
        rgba = im.convert("RGBA")
    alpha = rgba.getchannel("A").point(lambda a: round(a * opacity))
    rgba.putalpha(alpha)
    if angle % 360:
        rgba = rgba.rotate(angle, expand=True, resample=Image.Resampling.BICUBIC, fillcolor=(255, 255, 255, 0))
    buf = io.BytesIO()
    rgba.save(buf, "PNG")
    scale = picture.points[0] / picture.pixels[0]
    return Picture(buf.getvalue(), rgba.size, (rgba.size[0] * scale, rgba.size[1] * scale))
