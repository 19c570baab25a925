"""Stamping tools: watermarks, signatures, page numbers, headers and footers, images.

Everything is placed where the reader sees it: positions are relative to the page as
displayed (``/Rotate`` applied) and text stays upright. Text is real text that search
and extraction find; images are real image objects.
"""

from __future__ import annotations

from typing import Any, Literal

import pymupdf

from ._placement import (
    Face,
    Picture,
    anchor_rect,
    check_fraction,
    draw_image,
    draw_line,
    draw_text,
    faded_image,
    fill_placeholders,
    load_image,
    own_page,
    pick_face,
    rotated_extent,
    save_pdf,
    script_face,
)
from .colors import ColorName, parse_color
from .docio import open_pdf
from .errors import ToolArgumentError
from .pages import Pages, parse_pages
from .paths import output_path
from .registry import IMAGE_LIBRARIES, tool
from .words import Words

__all__ = ["add_watermark", "add_signature", "add_page_numbers", "add_header_footer", "add_image"]

WatermarkPosition = Literal["center", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]
SignaturePosition = Literal["bottom-right", "bottom-left", "bottom-center", "top-right", "top-left"]
ImagePosition = Literal["center", "bottom-right", "bottom-left", "bottom-center", "top-right", "top-left"]
NumberPosition = Literal["bottom-center", "bottom-right", "bottom-left", "top-center", "top-right", "top-left"]
Align = Literal["left", "center", "right"]

_SIGNATURE_INK = (0.05, 0.1, 0.45)


def _margins(rect: pymupdf.Rect) -> tuple[float, float]:
    """Side and top/bottom margins for stamps: half an inch, less on small pages."""
    return min(36.0, rect.width * 0.06), min(36.0, rect.height * 0.045)


def _region(rect: pymupdf.Rect, position: str, center_share: float) -> tuple[float, float]:
    """Room a watermark may fill at ``position``: most of the page when centered, a band otherwise."""
    if position == "center":
        return rect.width * center_share, rect.height * center_share
    band = rect.height * 0.18
    return (rect.width * 0.8, band) if position in ("top", "bottom") else (rect.width * 0.42, band)


def _positive(value: float | None, name: str) -> None:
    if value is not None and value <= 0:
        raise ToolArgumentError(f"{name} must be a positive number of points; got {value}.")


def _write_lines(
    page: pymupdf.Page, lines: list[str], position: str, face: Face, size: float, color: tuple[float, float, float]
) -> None:
    """Write lines of text as a block at ``position`` ("top-left", "bottom-center" …) in the page margin."""
    rect = page.rect
    mx, my = _margins(rect)
    room = rect.width - 2 * mx
    widest = max(face.width(line, size) for line in lines)
    if widest > room:  # shrink to fit the width of the page
        size = max(4.0, size * room / widest)
        widest = max(face.width(line, size) for line in lines)
    leading = face.height(size) * 1.05
    block = anchor_rect(rect, widest, leading * len(lines), position, mx, my)
    horizontal = position.partition("-")[2] or "center"
    for i, line in enumerate(lines):
        width = face.width(line, size)
        if horizontal == "left":
            x = block.x0 + width / 2
        elif horizontal == "right":
            x = block.x1 - width / 2
        else:
            x = (block.x0 + block.x1) / 2
        draw_text(page, line, pymupdf.Point(x, block.y0 + leading * (i + 0.5)), face, size, color)


@tool(
    kind="pdf",
    category="markup",
    explain="Add the watermark[ {text}][ image {image}] to {pages} of {file}",
    needs=IMAGE_LIBRARIES,
    result_name="watermarked",
    say="Add the watermark[ {text}]",
    words=Words(verbs=("watermark", "stamp"), nouns=("watermark",), makes=("watermarked",)),
)
def add_watermark(
    file: str,
    text: str | None = None,
    image: str | None = None,
    pages: Pages = "all",
    opacity: float = 0.3,
    rotation: float | None = None,
    font_size: float | None = None,
    color: ColorName = "gray",
    position: WatermarkPosition = "center",
    output: str | None = None,
) -> str:
    """Add a see-through text or image watermark (e.g. "DRAFT", "CONFIDENTIAL", a logo) to pages.

    Give exactly one of text or image. Text watermarks are real text, so searching the PDF finds them.

    Args:
        file: The PDF to watermark.
        text: Watermark text, e.g. "DRAFT" or "CONFIDENTIAL".
        image: An image file (PNG or JPEG) to use as the watermark instead of text.
        pages: Pages to watermark (default: all).
        opacity: How opaque the watermark is, from 0 (invisible) to 1 (solid); default 0.3.
        rotation: Angle in degrees, counterclockwise as the page is seen (default: 45 for text, 0 for images).
        font_size: Text size in points (default: as large as fits the page). Text only.
        color: Text color: a name (gray, red, blue, black, green …) or a hex code like "#FF0000".
        position: Where on the page: center, top, bottom or a corner (default: center).
        output: File name for the result (default: <name>_watermarked.pdf).

    Returns:
        Path of the watermarked PDF.
    """
    label = " ".join(text.split()) if text else ""
    if bool(label) == (image is not None):
        raise ToolArgumentError(
            'Give exactly one of text (e.g. text="DRAFT") or image (a PNG/JPEG file) for the watermark.'
        )
    opacity = check_fraction(opacity, "opacity")
    _positive(font_size, "font_size")
    rgb = parse_color(color)
    angle = float(rotation if rotation is not None else (45 if label else 0))
    picture = faded_image(load_image(image), opacity, angle) if image is not None else None
    face = pick_face(label, "hebo") if label else None
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        target = output_path(file, "watermarked", ".pdf", output)
        xref = 0
        for index in indices:
            page = own_page(doc, index)
            rect = page.rect
            mx, my = _margins(rect)
            if picture is not None:
                room_w, room_h = _region(rect, position, 0.5)
                scale = min(room_w / picture.points[0], room_h / picture.points[1])
                box = anchor_rect(rect, picture.points[0] * scale, picture.points[1] * scale, position, mx, my)
                xref = draw_image(page, box, picture.data, xref)
                continue
            assert face is not None
            size = font_size or _fit_size(face, label, angle, rect, position)
            extent = rotated_extent(face.width(label, size), face.height(size), angle)
            center = anchor_rect(rect, *extent, position, mx, my)
            draw_text(page, label, (center.tl + center.br) / 2, face, size, rgb, opacity, angle)
        return save_pdf(doc, target, [face] if face else [])


def _fit_size(face: Face, text: str, angle: float, rect: pymupdf.Rect, position: str) -> float:
    """The largest font size whose turned text fits the watermark's room."""
    room_w, room_h = _region(rect, position, 0.8)
    unit_w, unit_h = rotated_extent(face.width(text, 1), face.height(1), angle)
    size = min(room_w / unit_w, room_h / unit_h, min(rect.width, rect.height) * 0.25)
    return max(size, 4.0)


@tool(
    kind="pdf",
    category="markup",
    explain="Sign page {page} of {file}[ with the image {image}][ as {name}][ at the {position}]",
    needs=IMAGE_LIBRARIES,
    result_name="signed",
    say="Sign it",
    words=Words(verbs=("sign",), nouns=("signature",), makes=("signed",)),
)
def add_signature(
    file: str,
    image: str | None = None,
    name: str | None = None,
    page: Pages = "last",
    position: SignaturePosition = "bottom-right",
    width: float = 150,
    output: str | None = None,
) -> str:
    """Add a signature to a page: a signature image, or a typed name in a handwriting-style font on a line.

    Give image, name, or both (the name is then printed under the signature image).

    Args:
        file: The PDF to sign.
        image: A signature image file (PNG or JPEG, ideally with a transparent background).
        name: A name to type as the signature, e.g. "Jane Doe".
        page: Page(s) to sign (default: the last page).
        position: Where on the page (default: bottom-right).
        width: Width of the signature in points (72 points = 1 inch); default 150.
        output: File name for the result (default: <name>_signed.pdf).

    Returns:
        Path of the signed PDF.
    """
    name = " ".join(name.split()) if name else None
    if image is None and not name:
        raise ToolArgumentError('Give a signature image file (image=...) or a name to type (name="Jane Doe").')
    _positive(width, "width")
    picture = load_image(image) if image is not None else None
    with open_pdf(file) as doc:
        indices = parse_pages(page, doc.page_count)
        target = output_path(file, "signed", ".pdf", output)
        face = (pick_face(name) if picture is not None else script_face(name)) if name else None
        xref = 0
        for index in indices:
            xref = _sign(own_page(doc, index), picture, name, face, position, width, xref)
        return save_pdf(doc, target, [face] if face else [])


def _sign(
    page: pymupdf.Page,
    picture: Picture | None,
    name: str | None,
    face: Face | None,
    position: str,
    width: float,
    xref: int,
) -> int:
    """Draw one signature; return the image xref to reuse on the next page."""
    rect = page.rect
    mx, my = _margins(rect)
    w = min(width, rect.width - 2 * mx)
    gap = 4.0
    if picture is not None:
        h = w * picture.aspect
        if h > rect.height * 0.3:
            h = rect.height * 0.3
            w = h / picture.aspect
        caption = face.height(9) + 2 * gap if name and face else 0.0
        box = anchor_rect(rect, w, h + caption, position, mx, my)
        xref = draw_image(page, pymupdf.Rect(box.x0, box.y0, box.x1, box.y0 + h), picture.data, xref)
        if name and face:
            line_y = box.y0 + h + gap / 2
            draw_line(page, pymupdf.Point(box.x0, line_y), pymupdf.Point(box.x1, line_y), (0.2, 0.2, 0.2), 0.6)
            mid = pymupdf.Point((box.x0 + box.x1) / 2, line_y + gap / 2 + face.height(9) / 2)
            draw_text(page, name, mid, face, 9, (0.2, 0.2, 0.2))
        return xref
    assert name is not None and face is not None
    size = min(40.0, max(12.0, w * 0.9 / face.width(name, 1)), (rect.width - 2 * mx) / face.width(name, 1))
    w = max(w, face.width(name, size))
    text_h = face.height(size)
    box = anchor_rect(rect, w, text_h + gap, position, mx, my)
    draw_text(page, name, pymupdf.Point((box.x0 + box.x1) / 2, box.y0 + text_h / 2), face, size, _SIGNATURE_INK)
    draw_line(page, pymupdf.Point(box.x0, box.y1), pymupdf.Point(box.x1, box.y1), (0.2, 0.2, 0.2), 0.6)
    return xref


@tool(
    kind="pdf",
    category="markup",
    explain="Number {pages} of {file}[ at the {position}]",
    result_name="numbered",
    say="Number the pages",
    words=Words(verbs=("number", "paginate"), nouns=("page numbers", "page number", "numbering"), makes=("numbered",)),
)
def add_page_numbers(
    file: str,
    pages: Pages = "all",
    position: NumberPosition = "bottom-center",
    format: str = "{n}",
    start: int | None = None,
    font_size: float = 10,
    output: str | None = None,
) -> str:
    """Add page numbers to pages, e.g. "3" or "Page 3 of 10".

    Args:
        file: The PDF to number.
        pages: Pages to number (default: all).
        position: Where on the page (default: bottom-center).
        format: Text of each number: {n} is the number, {total} the last number, e.g. "Page {n} of {total}".
        start: Number shown on the first numbered page (default: its real page number, so page 3 shows 3).
        font_size: Text size in points; default 10.
        output: File name for the result (default: <name>_numbered.pdf).

    Returns:
        Path of the numbered PDF.
    """
    _positive(font_size, "font_size")
    if "{n}" not in format and "{page}" not in format:
        raise ToolArgumentError(f'The format {format!r} has no {{n}} for the number; use e.g. "{{n}}" or "Page {{n}}".')
    with open_pdf(file) as doc:
        indices = sorted(parse_pages(pages, doc.page_count))
        target = output_path(file, "numbered", ".pdf", output)
        total = doc.page_count if start is None else start + len(indices) - 1
        faces = []
        for k, index in enumerate(indices):
            label = fill_placeholders(format, index + 1 if start is None else start + k, total)
            faces.append(pick_face(label))
            _write_lines(own_page(doc, index), [label], position, faces[-1], font_size, (0, 0, 0))
        return save_pdf(doc, target, faces[:1])


@tool(
    kind="pdf",
    category="markup",
    explain="Add[ the header {header}][ the footer {footer}] to {pages} of {file}",
    result_name="headed",
    say="Add a header or footer[ with the header {header}][ and the footer {footer}]",
    words=Words(verbs=("add",), nouns=("header", "footer", "running head")),
)
def add_header_footer(
    file: str,
    header: str | None = None,
    footer: str | None = None,
    pages: Pages = "all",
    font_size: float = 10,
    align: Align = "center",
    output: str | None = None,
) -> str:
    """Add a header (top margin) and/or footer (bottom margin) text to pages.

    Args:
        file: The PDF.
        header: Text at the top of each page; {n} is the page number, {total} the page count.
        footer: Text at the bottom of each page; {n} and {total} work here too.
        pages: Pages to change (default: all).
        font_size: Text size in points; default 10.
        align: left, center or right (default: center).
        output: File name for the result (default: <name>_header_footer.pdf).

    Returns:
        Path of the new PDF.
    """
    if not (header and header.strip()) and not (footer and footer.strip()):
        raise ToolArgumentError('Give a header, a footer or both, e.g. header="Confidential", footer="Page {n}".')
    _positive(font_size, "font_size")
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        target = output_path(file, "header_footer", ".pdf", output)
        total = doc.page_count
        faces: dict[Any, Any] = {}
        for index in indices:
            page = own_page(doc, index)
            for text, where in ((header, "top"), (footer, "bottom")):
                if text and text.strip():
                    lines = [ln for ln in fill_placeholders(text, index + 1, total).splitlines() if ln.strip()]
                    face = faces.setdefault(where, pick_face(" ".join(lines) + "0123456789"))
                    _write_lines(page, lines, f"{where}-{align}", face, font_size, (0, 0, 0))
        return save_pdf(doc, target, list(faces.values()))


@tool(
    kind="pdf",
    category="markup",
    explain="Place the image {image} on page {page} of {file}[ at the {position}]",
    needs=IMAGE_LIBRARIES,
    say="Place the image {image}",
    words=Words(verbs=("place", "insert", "put", "stamp"), nouns=("image", "logo", "picture")),
)
def add_image(
    file: str,
    image: str,
    page: Pages = 1,
    position: ImagePosition = "top-right",
    rect: list[float] | None = None,
    width: float | None = None,
    output: str | None = None,
) -> str:
    """Place an image (a logo, a stamp, a photo) on pages, keeping its aspect ratio.

    Args:
        file: The PDF.
        image: The image file (PNG or JPEG).
        page: Page(s) to place it on (default: page 1).
        position: Where on the page (default: top-right); ignored when rect is given.
        rect: Exact box [x0, y0, x1, y1] in points from the page's top-left corner; the image is fitted inside.
        width: Width of the image in points (72 points = 1 inch; default: its natural size, at most 40% of the page).
        output: File name for the result (default: <name>_with_image.pdf).

    Returns:
        Path of the new PDF.
    """
    _positive(width, "width")
    box_given = _check_rect(rect) if rect is not None else None
    picture = load_image(image)
    with open_pdf(file) as doc:
        indices = parse_pages(page, doc.page_count)
        target = output_path(file, "with_image", ".pdf", output)
        xref = 0
        for index in indices:
            pg = own_page(doc, index)
            area = pg.rect
            if box_given is not None:
                if not area.contains(box_given):
                    raise ToolArgumentError(
                        f"The rect {list(box_given)} is outside page {index + 1}, which is "
                        f"{area.width:.0f} x {area.height:.0f} points; use coordinates inside it."
                    )
                box = box_given
            else:
                mx, my = _margins(area)
                w = width or min(picture.points[0], area.width * 0.4)
                h = w * picture.aspect
                if h > area.height - 2 * my:
                    h = area.height - 2 * my
                    w = h / picture.aspect
                box = anchor_rect(area, w, h, position, mx, my)
            xref = draw_image(pg, box, picture.data, xref)
        return save_pdf(doc, target, [])


def _check_rect(rect: list[float]) -> pymupdf.Rect:
    if len(rect) != 4:
        raise ToolArgumentError(f"rect needs 4 numbers [x0, y0, x1, y1]; got {len(rect)}.")
    box = pymupdf.Rect(*(float(v) for v in rect))
    if box.width <= 0 or box.height <= 0:
        raise ToolArgumentError(f"rect {rect} is empty: x1 must be larger than x0 and y1 larger than y0.")
    return box
