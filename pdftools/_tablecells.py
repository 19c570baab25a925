"""A table's cells as read: text and box, and the table as a pandas frame (issue K builds on these)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Box", "Cell", "TextTable", "frame_of", "union"]

Box = tuple[float, float, float, float]


@dataclass
class Cell:
    """One cell: its text as printed and its box on the page (x0, y0, x1, y1; PyMuPDF's coordinates)."""

    text: str
    bbox: Box


@dataclass
class _Header:
    """What ``table_rows`` asks of PyMuPDF's tables: a text table's heading rows are its own rows."""

    external: bool = False
    names: list[str] = field(default_factory=list)


@dataclass
class TextTable:
    """A table found by text alignment: rows of cells (None where nothing is printed)."""

    page: int  # 0-based
    bbox: Box
    cells: list[list[Cell | None]]
    header_rows: int  # the first rows hold column headings, not data
    header: _Header = field(default_factory=_Header)

    @property
    def row_count(self) -> int:
        return len(self.cells)

    @property
    def col_count(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    def texts(self) -> list[list[str]]:
        return [[c.text if c else "" for c in row] for row in self.cells]

    def to_markdown(self, clean: bool = False) -> str:
        rows = self.texts()
        if not rows:
            return ""
        head = rows[: max(self.header_rows, 1)]
        names = [" ".join(h[i] for h in head if h[i]) for i in range(self.col_count)]
        lines = ["|" + "|".join(names) + "|", "|" + "|".join("---" for _ in names) + "|"]
        lines += ["|" + "|".join(c.replace("|", "/") for c in r) + "|" for r in rows[len(head) :]]
        return "\n".join(lines) + "\n\n"

    def to_frame(self) -> Any:
        """The table as a pandas DataFrame (see ``frame_of``)."""
        return frame_of(self.cells, self.header_rows, self.page)


def frame_of(cells: list[list[Cell | None]], header_rows: int, page: int) -> Any:
    """Cells as a pandas DataFrame: heading rows become the column labels (a MultiIndex when there
    are several, a heading spanning columns repeated over them); ``frame.attrs["boxes"]`` holds each
    body cell's box, row by row (None where nothing is printed), ``frame.attrs["page"]`` the 1-based page."""
    import pandas as pd

    rows = [[c.text if c else "" for c in row] for row in cells]
    head, body = rows[:header_rows], rows[header_rows:]
    filled = [_carry_spans(h) for h in head[:-1]] + head[-1:]  # the last heading row names single columns
    columns: Any
    if len(filled) > 1:
        columns = pd.MultiIndex.from_arrays(filled)
    elif filled:
        columns = filled[0]
    else:
        columns = list(range(len(rows[0]) if rows else 0))
    frame = pd.DataFrame(body, columns=columns)
    frame.attrs["boxes"] = [[c.bbox if c else None for c in row] for row in cells[header_rows:]]
    frame.attrs["page"] = page + 1
    return frame


def _carry_spans(heading: list[str]) -> list[str]:
    """A heading row with each heading repeated over the empty cells after it ("Three Months", "", …)."""
    out, last = [], ""
    for i, text in enumerate(heading):
        last = text or (last if i else "")
        out.append(last)
    return out


def union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
