"""Helpers for the page tools (tools_pages.py): no tools here."""

from __future__ import annotations

import contextlib
import html
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymupdf
from pymupdf import mupdf

from .docio import set_key
from .errors import ToolArgumentError
from .pages import parse_pages

__all__ = [
    "arrange",
    "insertion_points",
    "new_text_pages",
    "part_toc",
    "to_points",
    "unlink_all",
    "visible_to_cropbox",
    "blank_reason",
]

_REF = re.compile(r"(\d+)\s+0\s+R")
_UNITS = {"pt": 1.0, "in": 72.0, "mm": 72 / 25.4, "cm": 72 / 2.54}
# Words `after` accepts for "before the first page" (declared as insert_blank_pages' page_words).
START_WORDS = ("0", "start", "beginning", "front", "before 1", "before first")


def arrange(doc: pymupdf.Document, indices: list[int]) -> None:
    """Keep only the pages ``indices`` (0-based), in that order, in memory.

    Uses delete_pages + move_page rather than Document.select: select (MuPDF 1.28)
    drops the catalog's AcroForm, attachments, XMP metadata, page labels and more.
    Outline items and form fields that pointed only at deleted pages are removed.
    """
    keep = set(indices)
    drop = [i for i in range(doc.page_count) if i not in keep]
    toc: list = []
    if drop and any(page >= 1 and page - 1 not in keep for _, _, page in doc.get_toc()):
        toc = doc.get_toc(simple=False)  # slow with named destinations: only when needed
    if drop:
        doc.delete_pages(drop)
    current = sorted(indices)
    for target, wanted in enumerate(indices):
        position = current.index(wanted, target)
        if position != target:
            doc.move_page(position, target)
            current.insert(target, current.pop(position))
    if toc:
        _prune_outline(doc, toc, {old: new for new, old in enumerate(indices)})
    if drop:
        _prune_named_dests(doc)
        _prune_structure(doc)
        _drop_dead_open_action(doc)
        if doc.is_form_pdf:
            _prune_fields(doc)


def _prune_named_dests(doc: pymupdf.Document) -> None:
    """Drop named destinations that point at deleted pages (they keep those pages' objects alive)."""
    pdf = mupdf.pdf_specifics(doc.this)
    alive = {doc.page_xref(i) for i in range(doc.page_count)}
    root = mupdf.pdf_dict_gets(mupdf.pdf_trailer(pdf), "Root")

    def dead(dest: mupdf.PdfObj) -> bool:
        if mupdf.pdf_is_dict(dest):
            dest = mupdf.pdf_dict_gets(dest, "D")
        if not mupdf.pdf_is_array(dest) or not mupdf.pdf_array_len(dest):
            return False
        first = mupdf.pdf_array_get(dest, 0)
        return bool(mupdf.pdf_is_indirect(first)) and mupdf.pdf_to_num(first) not in alive

    def walk(node: mupdf.PdfObj, depth: int) -> None:
        names = mupdf.pdf_dict_gets(node, "Names")
        if mupdf.pdf_is_array(names):
            for i in range(mupdf.pdf_array_len(names) - 2, -1, -2):
                if dead(mupdf.pdf_array_get(names, i + 1)):
                    mupdf.pdf_array_delete(names, i + 1)
                    mupdf.pdf_array_delete(names, i)
        kids = mupdf.pdf_dict_gets(node, "Kids")
        if mupdf.pdf_is_array(kids) and depth < 30:
            for i in range(mupdf.pdf_array_len(kids)):
                walk(mupdf.pdf_array_get(kids, i), depth + 1)

    tree = mupdf.pdf_dict_gets(mupdf.pdf_dict_gets(root, "Names"), "Dests")
    if mupdf.pdf_is_dict(tree):
        walk(tree, 0)
    old_style = mupdf.pdf_dict_gets(root, "Dests")  # PDF 1.1 name dictionary
    if mupdf.pdf_is_dict(old_style):
        for i in range(mupdf.pdf_dict_len(old_style) - 1, -1, -1):
            if dead(mupdf.pdf_dict_get_val(old_style, i)):
                mupdf.pdf_dict_del(old_style, mupdf.pdf_dict_get_key(old_style, i))


def _drop_dead_open_action(doc: pymupdf.Document) -> None:
    """Remove an OpenAction that jumps to a deleted page."""
    catalog = doc.pdf_catalog()
    kind, value = doc.xref_get_key(catalog, "OpenAction")
    if kind == "xref":
        value = doc.xref_object(_xref_number(value), compressed=True)
    elif kind not in ("array", "dict"):
        return
    alive = {doc.page_xref(i) for i in range(doc.page_count)}
    target = _REF.search(value)
    if target and "/GoTo" in value or kind == "array":
        if target and int(target.group(1)) not in alive:
            doc.xref_set_key(catalog, "OpenAction", "null")


def _prune_structure(doc: pymupdf.Document) -> None:
    """Drop tagged-PDF structure elements that only mark content of deleted pages."""
    pdf = mupdf.pdf_specifics(doc.this)
    root = mupdf.pdf_dict_gets(mupdf.pdf_trailer(pdf), "Root")
    tree = mupdf.pdf_dict_gets(root, "StructTreeRoot")
    if not mupdf.pdf_is_dict(tree):
        return
    alive = {doc.page_xref(i) for i in range(doc.page_count)}
    removed: set[int] = set()

    def page_of(obj: mupdf.PdfObj, inherited: int) -> int:
        pg = mupdf.pdf_dict_gets(obj, "Pg")
        return mupdf.pdf_to_num(pg) if mupdf.pdf_is_indirect(pg) else inherited

    def keep(item: mupdf.PdfObj, page: int, depth: int) -> bool:
        if mupdf.pdf_is_int(item):  # marked-content id on the element's page
            return page == 0 or page in alive
        if not mupdf.pdf_is_dict(item):
            return True
        own = page_of(item, page)
        if not mupdf.pdf_dict_gets(item, "S").m_internal and mupdf.pdf_dict_gets(item, "Type").m_internal:
            return own == 0 or own in alive  # MCR / OBJR reference
        if depth > 200:
            return True
        if mupdf.pdf_dict_gets(item, "K").m_internal:
            survives = prune(item, own, depth + 1)
        else:
            survives = own == 0 or own in alive
        if not survives and mupdf.pdf_is_indirect(item):
            removed.add(mupdf.pdf_to_num(item))
        return survives

    def prune(element: mupdf.PdfObj, page: int, depth: int) -> bool:
        kids = mupdf.pdf_dict_gets(element, "K")
        if mupdf.pdf_is_array(kids):
            for i in range(mupdf.pdf_array_len(kids) - 1, -1, -1):
                if not keep(mupdf.pdf_array_get(kids, i), page, depth):
                    mupdf.pdf_array_delete(kids, i)
            return mupdf.pdf_array_len(kids) > 0
        if kids.m_internal and not keep(kids, page, depth):
            mupdf.pdf_dict_dels(element, "K")
            return False
        return bool(kids.m_internal)

    prune(tree, 0, 0)
    _prune_tree_values(mupdf.pdf_dict_gets(tree, "ParentTree"), "Nums", removed, alive)
    _prune_tree_values(mupdf.pdf_dict_gets(tree, "IDTree"), "Names", removed, alive)


def _prune_tree_values(node: mupdf.PdfObj, key: str, removed: set[int], alive: set[int], depth: int = 0) -> None:
    """Delete number/name-tree pairs whose value (or every element of it) was removed."""
    if not mupdf.pdf_is_dict(node) or depth > 30:
        return

    def element_gone(value: mupdf.PdfObj) -> bool:
        if mupdf.pdf_is_indirect(value) and mupdf.pdf_to_num(value) in removed:
            return True
        if not mupdf.pdf_is_dict(value):
            return False
        page = mupdf.pdf_dict_gets(value, "Pg")
        if not page.m_internal:  # an element marking content of one page through a kid reference
            kid = mupdf.pdf_dict_gets(value, "K")
            page = mupdf.pdf_dict_gets(kid, "Pg") if mupdf.pdf_is_dict(kid) else page
        return bool(mupdf.pdf_is_indirect(page) and mupdf.pdf_to_num(page) not in alive)

    def gone(value: mupdf.PdfObj) -> bool:
        if mupdf.pdf_is_array(value) and mupdf.pdf_array_len(value):
            items = [mupdf.pdf_array_get(value, i) for i in range(mupdf.pdf_array_len(value))]
            return all(mupdf.pdf_is_null(x) or element_gone(x) for x in items)
        return element_gone(value)

    pairs = mupdf.pdf_dict_gets(node, key)
    if mupdf.pdf_is_array(pairs):
        for i in range(mupdf.pdf_array_len(pairs) - 2, -1, -2):
            if gone(mupdf.pdf_array_get(pairs, i + 1)):
                mupdf.pdf_array_delete(pairs, i + 1)
                mupdf.pdf_array_delete(pairs, i)
    kids = mupdf.pdf_dict_gets(node, "Kids")
    if mupdf.pdf_is_array(kids):
        for i in range(mupdf.pdf_array_len(kids)):
            _prune_tree_values(mupdf.pdf_array_get(kids, i), key, removed, alive, depth + 1)


_STYLE = ("to", "zoom", "color", "bold", "italic", "collapse")


def _prune_outline(doc: pymupdf.Document, toc: list, new_number: dict[int, int]) -> None:
    """Rebuild the outline without the items whose target page was deleted."""
    entries: list[list] = []
    for level, title, page, *rest in toc:
        details = dict(rest[0]) if rest else {}
        if page >= 1:
            if page - 1 not in new_number:
                continue
            page = new_number[page - 1] + 1
            details = {k: v for k, v in details.items() if k in _STYLE}
            details.update(kind=pymupdf.LINK_GOTO, page=page - 1)
        level = 1 if not entries else min(level, entries[-1][0] + 1)
        entries.append([level, title, page, details])
    with contextlib.suppress(ValueError, RuntimeError, KeyError):
        doc.set_toc(entries, collapse=0)


def _prune_fields(doc: pymupdf.Document) -> None:
    """Drop form fields (and field kids) none of whose widgets is on a remaining page."""
    catalog = doc.pdf_catalog()
    kind, value = doc.xref_get_key(catalog, "AcroForm/Fields")
    holder = 0
    if kind == "xref":
        holder = _xref_number(value)
        value = doc.xref_object(holder, compressed=True)
    elif kind != "array":
        return
    live = {xref for page in doc for xref, atype, _ in page.annot_xrefs() if atype == pymupdf.PDF_ANNOT_WIDGET}

    def used(xref: int, depth: int = 0) -> bool:
        if xref in live:
            return True
        kids_kind, kids = doc.xref_get_key(xref, "Kids")
        if depth > 30 or kids_kind != "array":
            return False
        children = [int(kid) for kid in _REF.findall(kids)]
        kept = [kid for kid in children if used(kid, depth + 1)]
        if kept and len(kept) < len(children):
            doc.xref_set_key(xref, "Kids", "[" + " ".join(f"{k} 0 R" for k in kept) + "]")
        return bool(kept)

    fields = [int(x) for x in _REF.findall(value)]
    kept = [x for x in fields if used(x)]
    if len(kept) == len(fields):
        return
    array = "[" + " ".join(f"{x} 0 R" for x in kept) + "]"
    if holder:
        doc.update_object(holder, array)
    else:
        set_key(doc, catalog, "AcroForm/Fields", array)


def insertion_points(after: object, count: int) -> list[int]:
    """Places to insert at, as the number of pages before each (0 = before page 1)."""
    items = list(after) if isinstance(after, (list, tuple)) else [after]
    points: list[int] = []
    for item in items:
        parts = item.split(",") if isinstance(item, str) else [item]
        for part in parts:
            if isinstance(part, str):
                part = part.strip().lower()
                if not part:
                    continue
            if part == 0 or part in START_WORDS:
                found = [0]
            else:
                found = [i + 1 for i in parse_pages(part, count)]
            points.extend(p for p in found if p not in points)
    if not points:
        raise ToolArgumentError(f"{after!r} names no page to insert after; use a page number, or 0 for the start.")
    return points


def to_points(value: object, unit: str, name: str) -> float:
    """A crop amount in points; negative or non-numbers are errors."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ToolArgumentError(f"{name} must be a number, not {value!r}.")
    if value < 0:
        raise ToolArgumentError(f"{name} must not be negative ({value}); crop amounts cut into the page.")
    if unit not in _UNITS:
        raise ToolArgumentError(f"unit must be one of {', '.join(_UNITS)}, not {unit!r}.")
    return float(value) * _UNITS[unit]


def visible_to_cropbox(page: pymupdf.Page, keep: pymupdf.Rect) -> pymupdf.Rect:
    """The CropBox (unrotated, mediabox-based) that shows ``keep`` of the page as seen."""
    unrotated = (keep * page.derotation_matrix).normalize()
    return unrotated + (page.cropbox.x0, page.cropbox.y0, page.cropbox.x0, page.cropbox.y0)


def unlink_all(paths: list[str]) -> None:
    for path in paths:
        Path(path).unlink(missing_ok=True)


def _xref_number(value: str) -> int:
    """The object number of an indirect reference such as "12 0 R"."""
    match = _REF.match(value)
    if match is None:
        raise ValueError(f"not an object reference: {value!r}")
    return int(match.group(1))


def part_toc(part: pymupdf.Document, toc: list, first: int, last: int) -> None:
    """Give a split part the outline entries that point into its pages (levels repaired)."""
    entries: list[list[Any]] = []
    previous = 0
    for level, title, page in toc:
        if not first + 1 <= page <= last + 1:
            continue
        level = 1 if not entries else min(level, previous + 1)
        entries.append([level, title, page - first])
        previous = level
    if entries:
        with contextlib.suppress(ValueError, RuntimeError):
            part.set_toc(entries)


@contextlib.contextmanager
def new_text_pages(text: str, width: float, height: float, font_size: float) -> Iterator[pymupdf.Document]:
    """A temporary PDF whose pages (width x height) carry ``text``, wrapped and flowed."""
    paragraphs = [p.strip("\n") for p in text.replace("\r\n", "\n").split("\n\n") if p.strip()]
    body = "".join(f"<p>{html.escape(p).replace(chr(10), '<br/>')}</p>" for p in paragraphs)
    css = (
        f"body {{font-family: sans-serif; font-size: {font_size:g}pt; line-height: 1.3;}} "
        f"p {{margin: 0 0 {font_size * 0.6:g}pt 0;}}"
    )
    story = pymupdf.Story(html=body, user_css=css)
    mediabox = pymupdf.Rect(0, 0, width, height)
    pad = min(72.0, width * 0.1, height * 0.1)
    where = mediabox + (pad, pad, -pad, -pad)
    buffer = io.BytesIO()
    writer = pymupdf.DocumentWriter(buffer)
    more, pages = 1, 0
    while more:
        pages += 1
        if pages > 500:
            raise ToolArgumentError("The text is too long: it would need more than 500 pages.")
        device = writer.begin_page(mediabox)
        more, _ = story.place(where)
        story.draw(device)
        writer.end_page()
    writer.close()
    doc = pymupdf.open("pdf", buffer.getvalue())
    try:
        yield doc
    finally:
        doc.close()


def blank_reason(page: pymupdf.Page, threshold: float, dpi: int = 36) -> str:
    """Why the page counts as blank ("" when it does not)."""
    if page.get_text("text").strip():
        return ""
    if any(annot.type[0] != pymupdf.PDF_ANNOT_LINK for annot in page.annots()) or page.first_widget:
        return ""
    if not page.read_contents().strip():
        return "empty"
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    samples = pix.samples
    dark = len(samples.translate(None, delete=bytes(range(216, 256))))
    return "white" if dark <= threshold * max(len(samples), 1) else ""
