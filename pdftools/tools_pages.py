"""Page tools: pick, drop, turn, order, split, add, crop and clean up pages.

Every tool opens its input with :func:`open_pdf`, changes the in-memory
document and writes a NEW file through :func:`write_pdf`; the input is never
touched. Pages are 1-based at the edge (``Pages`` + ``parse_pages``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pymupdf

from ._pageutil import (
    START_WORDS,
    arrange,
    blank_reason,
    insertion_points,
    new_text_pages,
    part_toc,
    to_points,
    unlink_all,
    visible_to_cropbox,
)
from .docio import open_pdf, write_pdf
from .effects import added, removed, unknown
from .errors import PdfToolError, ToolArgumentError
from .pages import Pages, parse_pages
from .paths import output_path
from .registry import tool
from .words import Words

__all__ = [
    "delete_pages",
    "rotate_pages",
    "reorder_pages",
    "split_pdf",
    "insert_blank_pages",
    "add_page_with_text",
    "crop_pages",
    "remove_blank_pages",
]

# Words `order` accepts for "last page first" (declared as reorder_pages' page_words: the verifier reads them).
REVERSE_WORDS = ("reverse", "reversed", "backwards", "backward", "reverse order", "last-1", "last-first")


def _blank_pages_added(values: dict[str, Any], pages_in: int | None, files_sum: int | None) -> int | None:
    """insert_blank_pages' page count: ``count`` pages at each insertion point."""
    if pages_in is None:
        return None
    try:
        points = insertion_points(values.get("after"), pages_in)
    except PdfToolError:
        return None
    return pages_in + int(values.get("count") or 1) * len(points)


@tool(
    kind="pdf",
    category="pages",
    explain="Delete {pages} from {file}",
    result_name="shortened",
    page_effect=removed("pages"),
    say="Delete {pages}",
    words=Words(
        verbs=("delete", "remove", "drop", "cut", "get rid of", "take out", "throw away", "ditch"),
        nouns=("pages", "page"),
    ),
)
def delete_pages(file: str, pages: Pages, output: str | None = None) -> str:
    """Remove pages from a PDF.

    Args:
        file: The PDF to remove pages from.
        pages: The pages to delete, e.g. "2", "4-9" or "last".
        output: File name for the result (default: <name>_deleted.pdf).

    Returns:
        Path of the new PDF without those pages.
    """
    with open_pdf(file) as doc:
        drop = set(parse_pages(pages, doc.page_count))
        keep = [i for i in range(doc.page_count) if i not in drop]
        if not keep:
            raise ToolArgumentError(
                f"Deleting {pages!r} would delete every page of {Path(file).name} "
                f"({doc.page_count} page{'s' if doc.page_count != 1 else ''}); a PDF needs at least one page. "
                "Choose fewer pages."
            )
        target = output_path(file, "deleted", ".pdf", output)
        arrange(doc, keep)
        return write_pdf(doc, target)


@tool(
    kind="pdf",
    category="pages",
    explain="Rotate {pages} of {file} by {degrees} degrees (clockwise)",
    result_name="rotated",
    say="Rotate {pages} by {degrees} degrees",
    words=Words(verbs=("rotate", "turn"), nouns=("rotation",), makes=("rotated",)),
)
def rotate_pages(file: str, pages: Pages = "all", degrees: int = 90, output: str | None = None) -> str:
    """Turn pages by a multiple of 90 degrees, on top of any rotation they already have.

    Args:
        file: The PDF whose pages to turn.
        pages: The pages to rotate (default: all).
        degrees: How far to turn: 90, 180 or 270 clockwise; negative turns counter-clockwise (-90).
        output: File name for the result (default: <name>_rotated.pdf).

    Returns:
        Path of the new PDF.
    """
    if isinstance(degrees, bool) or not isinstance(degrees, int) or degrees % 90:
        raise ToolArgumentError(
            f"degrees must be a multiple of 90 (90, 180, 270, or -90 for counter-clockwise), not {degrees!r}."
        )
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        target = output_path(file, "rotated", ".pdf", output)
        for index in indices:
            page = doc[index]
            page.set_rotation((page.rotation + degrees) % 360)
        return write_pdf(doc, target)


@tool(
    kind="pdf",
    category="pages",
    explain="Put the pages of {file} in the order {order}",
    result_name="reordered",
    page_words={"order": REVERSE_WORDS},
    say="Put the pages in the order {order:spec}",
    words=Words(verbs=("reorder", "rearrange", "reverse", "move", "swap", "sort"), nouns=("order",)),
)
def reorder_pages(file: str, order: Pages, output: str | None = None) -> str:
    """Put the pages of a PDF in a new order.

    The order must name every page exactly once (e.g. "3,1,2" or "2-last,1"), so no page is
    lost or doubled by accident; "reverse" reverses the whole document. To keep only some
    pages use extract_pages instead.

    Args:
        file: The PDF to reorder.
        order: The new order as page numbers, e.g. "3,1,2", "5,1-4,6-last", or "reverse".
        output: File name for the result (default: <name>_reordered.pdf).

    Returns:
        Path of the reordered PDF.
    """
    with open_pdf(file) as doc:
        count = doc.page_count
        if isinstance(order, str) and order.strip().lower() in REVERSE_WORDS:
            indices = list(range(count - 1, -1, -1))
        else:
            indices = _full_order(order, count)
        target = output_path(file, "reordered", ".pdf", output)
        arrange(doc, indices)
        return write_pdf(doc, target)


def _full_order(order: object, count: int) -> list[int]:
    """0-based order that names every page once, or a clear error."""
    items = order if isinstance(order, (list, tuple)) else [order]
    seen: list[int] = []
    repeated: list[int] = []
    for item in items:
        for part in str(item).split(",") if isinstance(item, str) else [item]:
            if isinstance(part, str) and not part.strip():
                continue
            for index in parse_pages(part, count):
                (repeated if index in seen else seen).append(index)
    missing = [i + 1 for i in range(count) if i not in seen]
    if repeated or missing:
        problems = []
        if repeated:
            problems.append(f"lists page(s) {', '.join(str(i + 1) for i in sorted(set(repeated)))} more than once")
        if missing:
            problems.append(
                f"leaves out page(s) {', '.join(str(i) for i in missing[:20])}" + ("…" if len(missing) > 20 else "")
            )
        raise ToolArgumentError(
            f"The order {order!r} {' and '.join(problems)}; it must name each of pages 1-{count} exactly "
            f'once, e.g. "3,1-2,4-last" to move page 3 to the front, or "reverse". '
            "To keep only some pages, use extract_pages."
        )
    return seen


@tool(
    kind="files",
    category="pages",
    explain="Split {file} into separate files[ every {every} pages][ starting new parts at pages {at}]",
    makes="pdf",
    result_name="parts",
    page_effect=unknown,
    say="Split it[ every {every} pages][ at {at}]",
    words=Words(verbs=("split", "break", "divide", "separate"), nouns=("parts", "files")),
)
def split_pdf(
    file: str,
    every: int | None = None,
    at: Pages | None = None,
    output: str | None = None,
) -> list[str]:
    """Split a PDF into several PDFs, every N pages or at chosen pages.

    Give `every` (parts of that many pages) or `at` (a new part starts at each of these
    pages), not both; with neither, every page becomes its own PDF.

    Args:
        file: The PDF to split.
        every: Pages per part, e.g. 1 for one PDF per page, 10 for parts of 10 pages.
        at: Pages where a new part starts, e.g. "5,12" gives pages 1-4, 5-11 and 12-last.
        output: Base file name for the parts; part N is named <output>_partN.pdf (default: <name>_partN.pdf).

    Returns:
        Paths of the parts, in page order.
    """
    if every is not None and at is not None:
        raise ToolArgumentError("Give either every (pages per part) or at (pages where parts start), not both.")
    if every is not None and (isinstance(every, bool) or not isinstance(every, int) or every < 1):
        raise ToolArgumentError(f"every must be a whole number of pages, 1 or more, not {every!r}.")
    with open_pdf(file) as doc:
        count = doc.page_count
        if at is not None:
            starts = sorted({0, *parse_pages(at, count)})
        else:
            starts = list(range(0, count, every or 1))
        ranges = [(a, b - 1) for a, b in zip(starts, starts[1:] + [count], strict=False)]
        if at is not None and len(ranges) < 2:
            raise ToolArgumentError(
                f"Splitting at {at!r} gives one part with all {count} pages of {Path(file).name}: "
                f"nothing to split. Give pages after page 1 where new parts start (valid pages are 2-{count})."
            )
        base = Path(output).with_suffix("") if output else Path(file).stem
        width = len(str(len(ranges)))
        toc = doc.get_toc(simple=True)
        metadata = {k: v for k, v in (doc.metadata or {}).items() if k not in ("format", "encryption")}
        written: list[str] = []
        try:
            for number, (first, last) in enumerate(ranges, 1):
                name = f"part{number:0{width}d}"
                target = (
                    output_path(None, "", ".pdf", f"{base}_{name}.pdf") if output else output_path(file, name, ".pdf")
                )
                if doc.is_form_pdf:  # slower, but insert_pdf can lose form fields
                    with open_pdf(file) as part:
                        arrange(part, list(range(first, last + 1)))
                        written.append(write_pdf(part, target))
                    continue
                with pymupdf.open() as part:  # fast for many parts of a long document
                    part.insert_pdf(doc, from_page=first, to_page=last, widgets=False)
                    part.set_metadata(metadata)
                    part_toc(part, toc, first, last)
                    written.append(write_pdf(part, target))
        except BaseException:
            unlink_all(written)
            raise
        return written


@tool(
    kind="pdf",
    category="pages",
    explain="Insert[ {count}] blank page(s) after page {after} of {file}",
    result_name="padded",
    page_effect=_blank_pages_added,
    page_words={"after": START_WORDS},
    say="Insert blank pages after {after}",
    words=Words(verbs=("insert", "add"), nouns=("blank page", "empty page")),
)
def insert_blank_pages(file: str, after: Pages, count: int = 1, output: str | None = None) -> str:
    """Insert blank pages, sized like the page before them.

    Args:
        file: The PDF to add blank pages to.
        after: The page(s) to insert after, e.g. 3, "2,5" or "last"; 0 inserts before the first page.
        count: How many blank pages to insert at each place.
        output: File name for the result (default: <name>_blank.pdf).

    Returns:
        Path of the new PDF.
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 1000:
        raise ToolArgumentError(f"count must be a whole number from 1 to 1000, not {count!r}.")
    with open_pdf(file) as doc:
        points = insertion_points(after, doc.page_count)
        target = output_path(file, "blank", ".pdf", output)
        for point in sorted(points, reverse=True):  # from the back, so earlier points keep their place
            size = doc[max(point - 1, 0)].rect  # as seen: a blank after a landscape page is landscape
            for _ in range(count):
                doc.new_page(pno=point, width=size.width, height=size.height)
        return write_pdf(doc, target)


@tool(
    kind="pdf",
    category="pages",
    explain="Add a page with the text {text} to {file}[ (at the {position})]",
    result_name="extended",
    page_effect=added(1),
    say="Add a page with the text {text}",
    words=Words(verbs=("add", "append", "insert"), nouns=("page with text", "cover page", "note page")),
)
def add_page_with_text(
    file: str,
    text: str,
    position: Literal["end", "start"] = "end",
    after: int | None = None,
    font_size: float = 12,
    output: str | None = None,
) -> str:
    """Add a new page carrying text (a note, cover or approval line), wrapped to fit.

    The page has the size of its neighbour page; text too long for one page flows onto more pages.

    Args:
        file: The PDF to add the page to.
        text: The text to write; blank lines separate paragraphs.
        position: Where the page goes: "end" (after the last page) or "start" (before the first).
        after: Put the page after this page number instead (0 = before the first page).
        font_size: Text size in points.
        output: File name for the result (default: <name>_note.pdf).

    Returns:
        Path of the new PDF.
    """
    if not isinstance(text, str) or not text.strip():
        raise ToolArgumentError("text is empty: give the text to write on the new page.")
    if not 4 <= float(font_size) <= 72:
        raise ToolArgumentError(f"font_size must be between 4 and 72 points, not {font_size!r}.")
    with open_pdf(file) as doc:
        count = doc.page_count
        if after is not None:
            point = insertion_points(after, count)
            if len(point) != 1:
                raise ToolArgumentError(f"after must be one page number (0-{count}), not {after!r}.")
            point_at = point[0]
        else:
            point_at = count if position == "end" else 0
        size = doc[min(max(point_at - 1, 0), count - 1)].rect
        target = output_path(file, "note", ".pdf", output)
        with new_text_pages(text, size.width, size.height, float(font_size)) as pages_doc:
            doc.insert_pdf(pages_doc, start_at=point_at)
        return write_pdf(doc, target)


@tool(
    kind="pdf",
    category="pages",
    explain="Crop {pages} of {file}[ by {margin} {unit}]",
    result_name="cropped",
    say="Crop",
    words=Words(verbs=("crop", "trim"), nouns=("margins", "margin"), makes=("cropped",)),
)
def crop_pages(
    file: str,
    pages: Pages = "all",
    margin: float = 0,
    left: float | None = None,
    top: float | None = None,
    right: float | None = None,
    bottom: float | None = None,
    unit: Literal["pt", "in", "mm", "cm"] = "pt",
    output: str | None = None,
) -> str:
    """Crop pages by cutting margins off their edges, as the page is seen on screen.

    Args:
        file: The PDF to crop.
        pages: The pages to crop (default: all).
        margin: Amount to cut from every side not given separately.
        left: Amount to cut from the left edge (default: margin).
        top: Amount to cut from the top edge (default: margin).
        right: Amount to cut from the right edge (default: margin).
        bottom: Amount to cut from the bottom edge (default: margin).
        unit: Unit of the amounts: "pt" (1/72 inch), "in", "mm" or "cm".
        output: File name for the result (default: <name>_cropped.pdf).

    Returns:
        Path of the cropped PDF.
    """
    sides = {
        name: to_points(margin if value is None else value, unit, name)
        for name, value in (("left", left), ("top", top), ("right", right), ("bottom", bottom))
    }
    if not any(sides.values()):
        raise ToolArgumentError("Nothing to crop: give margin, or left/top/right/bottom, greater than 0.")
    with open_pdf(file) as doc:
        indices = parse_pages(pages, doc.page_count)
        target = output_path(file, "cropped", ".pdf", output)
        for index in indices:
            page = doc[index]
            seen = page.rect
            keep = pymupdf.Rect(sides["left"], sides["top"], seen.width - sides["right"], seen.height - sides["bottom"])
            if keep.width < 1 or keep.height < 1:
                raise ToolArgumentError(
                    f"Cropping page {index + 1} ({seen.width:.0f} x {seen.height:.0f} pt) by left "
                    f"{sides['left']:.0f}, top {sides['top']:.0f}, right {sides['right']:.0f}, bottom "
                    f"{sides['bottom']:.0f} pt would leave nothing. Use smaller margins."
                )
            page.set_cropbox(visible_to_cropbox(page, keep))
        return write_pdf(doc, target)


@tool(
    kind="pdf",
    category="pages",
    explain="Remove the blank pages from {file}",
    result_name="trimmed",
    page_effect=unknown,
    say="Remove the blank pages",
    words=Words(verbs=("remove", "delete", "drop", "get rid of"), nouns=("blank pages", "empty pages")),
)
def remove_blank_pages(file: str, threshold: float = 0.001, output: str | None = None) -> str:
    """Remove blank pages: pages with no text that show (next to) nothing.

    A page with any text, comment or form field is kept. A page without them is blank when
    nothing is drawn on it, or when it renders almost white (e.g. an empty scanned sheet).

    Args:
        file: The PDF to clean.
        threshold: Largest share of dark pixels (0-1) a page without text may have and still count as blank.
        output: File name for the result (default: <name>_no_blanks.pdf).

    Returns:
        Path of the new PDF without blank pages.
    """
    if not 0 <= float(threshold) < 0.5:
        raise ToolArgumentError(f"threshold must be a share between 0 and 0.5 (e.g. 0.001), not {threshold!r}.")
    with open_pdf(file) as doc:
        keep = [i for i in range(doc.page_count) if not blank_reason(doc[i], float(threshold))]
        if not keep:
            raise ToolArgumentError(
                f"Every page of {Path(file).name} is blank, so removing blank pages would leave nothing. "
                "Nothing was written."
            )
        target = output_path(file, "no_blanks", ".pdf", output)
        if len(keep) < doc.page_count:
            arrange(doc, keep)
        return write_pdf(doc, target)
