"""Tables as typed cells: caption ("Table 1: …"), header row, units, numbers parsed; read page by page on demand."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any

import pymupdf

from docpilot.understanding.frames.pagewords import footnote_marks, without_mark
from docpilot.understanding.textnorm import parse_number
from pdftools._tables import page_tables, table_cells

__all__ = ["Table", "read_tables", "page_lines", "use_layout_analysis"]

_CAPTION = re.compile(r"^\s*(table|exhibit|schedule)\s+[\w.]+\s*[:.\-–—]?", re.I)
_SCALE = re.compile(r"\bin (thousands|millions|billions)\b", re.I)
_UNITS = re.compile(r"\(([^)]*(?:usd|eur|gbp|\$|€|£|million|billion|thousand|%|percent|in )[^)]*)\)", re.I)


@dataclass
class Table:
    page: int  # 1-based
    caption: str
    header: list[str]
    rows: list[list[str]]  # body rows, cells as text ("" for empty)
    units: list[str]  # per column, from the header ("USD million", "%"), "" when none

    def number(self, row: int, col: int) -> float | None:
        return parse_number(self.rows[row][col]) if col < len(self.rows[row]) else None

    def row_text(self, row: int) -> str:
        return " | ".join(c for c in self.rows[row] if c)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        return cls(**data)

    def render(self, max_rows: int = 30) -> str:
        lines = [self.caption or f"Table on page {self.page}", " | ".join(self.header)]
        lines += [" | ".join(r) for r in self.rows[:max_rows]]
        return "\n".join(lines)


def use_layout_analysis() -> None:
    """Let PyMuPDF's table finder use its bundled layout analyser (a small offline model) in this process.

    pdftools keeps it out of the tools' start-up (``sys.modules["pymupdf.layout"] = None``); without it
    ``find_tables`` breaks a financial statement into a dozen fragments, so reading a document's tables
    switches it on, whatever was imported first (~0.3 s once, ~0.3 s a page).
    """
    import importlib
    import sys

    if getattr(pymupdf, "_get_layout", None) is not None:
        return
    if "pymupdf.layout" in sys.modules and sys.modules["pymupdf.layout"] is None:
        del sys.modules["pymupdf.layout"]
    try:
        importlib.import_module("pymupdf.layout")
    except ImportError:  # not installed: the finder's own line and text strategies still run
        return


def read_tables(page: pymupdf.Page) -> list[Table]:
    """The data tables on ``page`` with their captions."""
    use_layout_analysis()
    found: list[Table] = []
    try:
        tables = page_tables(page)
    except Exception:  # noqa: BLE001 - a table finder crash on odd drawings means no table, not no answer
        return []
    lines = page_lines(page)
    marks = footnote_marks(page)  # "83,190,556²": the mark is no digit of the figure
    for table in tables:
        rows = [
            [_clean(None if c is None else without_mark(c.text, c.bbox, marks)) for c in row]
            for row in table_cells(page, table)
        ]
        rows = _compact([r for r in rows if any(r)])
        if len(rows) < 2 or max(len(r) for r in rows) < 2:
            continue
        header, body = _header(rows)
        filled = [i for i in range(len(header)) if any(i < len(r) and r[i] for r in body)]
        header, body = [header[i] for i in filled], [[r[i] if i < len(r) else "" for i in filled] for r in body]
        units = [_unit(h) for h in header]
        caption = _caption(lines, table.bbox)
        found.append(Table(page=page.number + 1, caption=caption, header=header, rows=body, units=units))
    return found


def _clean(cell: str | None) -> str:
    text = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", cell or "")).strip()
    # a statement's "$" is set apart from its figure; read by alignment it is joined to it ("$12,421"), read
    # by rules it is a column of its own (dropped by _compact): either way the figure is "12,421"
    text = re.sub(r"^\$ ?(?=[\d(])", "", text)
    # PyMuPDF's cell reader can put a thousands comma or a decimal point after the digits: "45 000 ,"
    match = re.fullmatch(r"(\$?)(\d{1,3})((?: \d{3})+)( \d{2})? ([,.](?: [,.])?)", text)
    if match:
        sign, first, groups, cents, marks = match.groups()
        number = first + groups.replace(" ", ",")
        if cents:
            number += "." + cents.strip()
        return sign + number
    match = re.fullmatch(r"(\$?)(\d+) (\d+) \.", text)
    if match:
        return f"{match.group(1)}{match.group(2)}.{match.group(3)}"
    return re.sub(r"(\w) ([,.]) ?$", r"\1", text) if re.search(r"[A-Za-z]", text) else text


def _compact(rows: list[list[str]]) -> list[list[str]]:
    """Drop columns that hold nothing but currency signs or blanks (statements set "$" in its own column)."""
    if not rows:
        return rows
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    keep = [i for i in range(width) if any(r[i] not in ("", "$", "%", "€", "£") for r in rows)]
    return [[r[i] for i in keep] for r in rows]


def _header(rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    first = rows[0]
    if len(rows) > 2 and _is_year_row(rows[1]) and not _is_year_row(first):
        merged = [" ".join(p for p in (a, b) if p) for a, b in zip(first, rows[1], strict=False)]
        return [c or f"column {i + 1}" for i, c in enumerate(merged)], rows[2:]
    numeric_first = sum(parse_number(c) is not None for c in first if c)
    if numeric_first * 2 > len([c for c in first if c]) and len(rows) > 1:
        return [f"column {i + 1}" for i in range(len(first))], rows
    return [c or f"column {i + 1}" for i, c in enumerate(first)], rows[1:]


def _unit(header: str) -> str:
    match = _UNITS.search(header)
    return match.group(1).strip() if match else ("%" if "%" in header else "")


def page_lines(page: pymupdf.Page) -> list[tuple[float, float, str]]:
    """The page's text lines as (top, bottom, text), in the order PyMuPDF reads them."""
    lines: list[tuple[float, float, str]] = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = "".join(s["text"] for s in line["spans"]).strip()
            if text:
                lines.append((line["bbox"][1], line["bbox"][3], text))
    return lines


def _caption(lines: list[tuple[float, float, str]], bbox: tuple[float, float, float, float]) -> str:
    above = [(y1, text) for y0, y1, text in lines if y1 <= bbox[1] + 2 and bbox[1] - y1 < 60 and _CAPTION.match(text)]
    below = [(y0, text) for y0, y1, text in lines if y0 >= bbox[3] - 2 and y0 - bbox[3] < 30 and _CAPTION.match(text)]
    caption = max(above)[1] if above else min(below)[1] if below else ""
    # the statement's scale under its title ("(In thousands)"), above a table read without its titles
    scale = [(y1, text) for y0, y1, text in lines if y1 <= bbox[1] + 2 and bbox[1] - y1 < 60 and _SCALE.search(text)]
    if scale and not _SCALE.search(caption):
        caption = f"{caption} {max(scale)[1]}".strip()
    return caption


def _is_year_row(row: list[str]) -> bool:
    years = [c for c in row if re.fullmatch(r"(19|20)\d\d", c)]
    return len(years) >= 2 and len(years) >= len([c for c in row if c]) - 1
