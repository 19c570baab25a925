"""A ruled table whose body is not ruled: its rows read from where its words stand under the ruled headings.

Statements and expense reports draw a box, rule the heading into columns and print the records below without a
line between them or between their columns: PyMuPDF finds the table and its heading cells, and reads each block
of records as one cell across the whole width ("37,499.96 DISTRICT DIRECTOR BAIN, J MATTHEW …"). The heading
cells say where each column stands; each line of such a block is cut into phrases and each phrase goes to the
column it stands under. A line starts a record when it fills more than one column, or a column the record has
not filled; a line that only goes on with one text column of a record of several (a description wrapped onto
the next line) is joined to it.
"""

from __future__ import annotations

from typing import Any

from docpilot.understanding.frames import pagewords as pw
from docpilot.understanding.frames.values import read_number

__all__ = ["unruled_bodies"]

_MIN_LINES = 2  # a block of records is read this way only when it has this many lines or more


def unruled_bodies(page: Any, rows: list[list[Any]]) -> list[list[Any]]:
    """``rows`` (cells as ``(text, box)`` or None) with each unruled block of records read into records."""
    width = max((len(r) for r in rows), default=0)
    first = next((i for i, row in enumerate(rows) if _block(row, width)), None)
    if not first:
        return rows  # no such block, or nothing above it to say where the columns stand
    columns = _columns(rows[:first], width)
    if columns is None:
        return rows
    out = list(rows[:first])
    for row in rows[first:]:
        if _block(row, width):
            read = _records(page, row[0][1], columns)
            if read is None:
                return rows
            out += read
        else:
            out.append(row)
    return out


def _block(row: list[Any], width: int) -> bool:
    """Whether a row is one cell drawn across every column, holding lines of text: a block of records."""
    filled = [c for c in row if c]
    return (
        width >= 3
        and len(filled) == 1
        and bool(row[0])
        and bool(row[0][1])
        and len(str(row[0][0]).splitlines()) >= _MIN_LINES
    )


def _columns(heads: list[list[Any]], width: int) -> list[tuple[float, float]] | None:
    """Each column's left and right edge: the narrowest heading cell drawn over it (a heading over two columns,
    "OBLIGATION/SERVICE DATES" over "START | END", is wider than each one's own)."""
    columns = []
    for j in range(width):
        boxes = [row[j][1] for row in heads if j < len(row) and row[j] and row[j][1]]
        if not boxes:
            return None
        box = min(boxes, key=lambda b: b[2] - b[0])
        columns.append((float(box[0]), float(box[2])))
    if any(a[1] > b[0] + 1 for a, b in zip(columns, columns[1:], strict=False)):
        return None  # cells that overlap do not say where one column ends
    return columns


def _records(page: Any, box: tuple[float, ...], columns: list[tuple[float, float]]) -> list[list[Any]] | None:
    """The records of one block; None when a phrase stands under no column (the headings do not say its place)."""
    records: list[list[Any]] = []
    for line in pw.cell_lines(page, box):
        cells: dict[int, list[Any]] = {}
        for phrase in pw.phrases(line):
            column = pw.owner(phrase, columns)
            if column is None:
                column = _under(phrase, columns)
            if column is None:
                return None
            cells.setdefault(column, []).append(phrase)
        if records and _goes_on(records[-1], cells):
            (column,) = cells
            text, old = records[-1][column]
            records[-1][column] = (f"{text}\n{_text(cells[column])}", pw.box_of([old, *cells[column]]))
            continue
        record: list[Any] = [None] * len(columns)
        for column, said in cells.items():
            record[column] = (_text(said), pw.box_of(said))
        records.append(record)
    return records


def _under(phrase: Any, columns: list[tuple[float, float]]) -> int | None:
    """The column whose edges hold the phrase's middle."""
    middle = (phrase[0] + phrase[2]) / 2
    return next((m for m, (x0, x1) in enumerate(columns) if x0 <= middle <= x1), None)


def _goes_on(record: list[Any], cells: dict[int, list[Any]]) -> bool:
    """Whether a line only goes on with one text column of a record of several columns."""
    if len(cells) != 1 or sum(1 for c in record if c) < 2:
        return False
    (column,) = cells
    return record[column] is not None and read_number(_text(cells[column])) is None


def _text(phrases: list[Any]) -> str:
    return " ".join(str(p[4]) for p in phrases)
