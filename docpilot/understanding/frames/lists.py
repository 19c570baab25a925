"""A priced list read as a table: a run of bulleted lines each ending in an amount ("• Margherita 8$", "– Hot
chocolate ..... €3.50"), as menus, price lists and fee schedules print them, with lines of description between.

No ruling and no column of aligned words marks such a list, so the table finders pass it by; its items and their
amounts are still rows and a column of figures ("the cheapest pizza", "the average price"). A list is headed
"Item" and "Price"; its caption is the line just above its first item ("PIZZAS").
"""

from __future__ import annotations

import re
from typing import Any

from docpilot.understanding.frames.model import Box, RawTable
from docpilot.understanding.frames.values import read_number

__all__ = ["priced_lists", "MIN_ITEMS"]

MIN_ITEMS = 3  # bulleted priced lines that make a list
_BULLET = r"^\s*[•\u2022\u25cf\u25aa\-\u2013*·]"  # a list item's mark
_ITEM = re.compile(
    _BULLET + r"\s*(?P<label>[^\d\s].*?)[\s.…_]{1,}"
    r"(?P<price>(?:[$€£]\s?)?\d[\d.,]*(?:\s?[$€£])?)\s*$"
)


def priced_lists(page: Any, file: str, first_index: int) -> list[RawTable]:
    """The priced lists of a PyMuPDF ``page`` as tables (numbered from ``first_index``), top to bottom."""
    lines = _lines(page)
    found: list[RawTable] = []
    items: list[tuple[int, str, str, Box]] = []  # (line number, label, price, box)
    for number, (text, box) in enumerate(lines):
        match = _ITEM.match(text)
        if match and read_number(match.group("price")) is not None:
            items.append((number, match.group("label").strip(), match.group("price").strip(), box))
        elif _ITEM_LIKE.match(text) or _SECTION.match(text):  # a bulleted line with no price, or a new heading
            if len(items) >= MIN_ITEMS:
                found.append(_table(items, lines, file, page.number + 1, first_index + len(found)))
            items = []
    if len(items) >= MIN_ITEMS:
        found.append(_table(items, lines, file, page.number + 1, first_index + len(found)))
    return found


_ITEM_LIKE = re.compile(_BULLET + r"\s")
_SECTION = re.compile(r"^\s*[A-ZÀ-Ý][A-ZÀ-Ý &/-]{2,40}\s*$")  # "PIZZAS", "HOT DRINKS": the next list's heading


def _lines(page: Any) -> list[tuple[str, Box]]:
    """The page's visual lines top to bottom: the text lines that sit side by side (a bullet, a name and a price
    drawn apart) joined left to right, each with the box around them."""
    pieces = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = "".join(span["text"] for span in line["spans"])
            if text.strip():
                pieces.append((text, tuple(line["bbox"])))
    pieces.sort(key=lambda piece: (piece[1][1] + piece[1][3]) / 2)
    rows: list[list[tuple[str, Box]]] = []
    for piece in pieces:
        middle = (piece[1][1] + piece[1][3]) / 2
        last = rows[-1][-1][1] if rows else None
        if last is not None and last[1] <= middle <= last[3]:
            rows[-1].append(piece)
        else:
            rows.append([piece])
    out = []
    for row in rows:
        row.sort(key=lambda piece: piece[1][0])
        box = (
            min(p[1][0] for p in row),
            min(p[1][1] for p in row),
            max(p[1][2] for p in row),
            max(p[1][3] for p in row),
        )
        out.append((" ".join(p[0].strip() for p in row), box))
    return out


def _table(
    items: list[tuple[int, str, str, Box]], lines: list[tuple[str, Box]], file: str, page: int, index: int
) -> RawTable:
    first = items[0][0]
    above = [text.strip() for text, _ in lines[max(0, first - 3) : first]]
    headings = [text for text in above if _SECTION.match(text)]  # "PIZZAS" over a line of description
    caption = headings[-1] if headings else (above[-1] if above else "")
    rows: list[list[tuple[str, Box | None] | None]] = [[("Item", None), ("Price", None)]]
    rows += [[(label, box), (price, box)] for _, label, price, box in items]
    return RawTable(file, page, index, rows, 1, caption)
