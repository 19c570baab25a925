"""Tables drawn without rules: columns aligned by whitespace, as statistical and financial tables are.

Two steps. Where the tables are: this module reads the page's words (PyMuPDF) into visual lines and
the lines into runs of rows (lines of two or more phrases set apart by wide gaps, with row labels and
column headings between them); prose, titles and footnotes end a run. What the columns and rows are:
camelot's stream mode, given each run as a table area (measured on hand-checked corpus tables, see
``bench/tables.py``: camelot's stream mode 72.6% of cells right on its own, pdfplumber's text strategy
46.0%, PyMuPDF's 21.6%; camelot's misses were tables it did not delimit, which the runs fix). Its
cells are then tidied: a currency sign set apart joins its figure, a column that holds only a
heading spanning two columns joins the column it starts over, empty rows and columns go.

Each cell keeps its text and its box (page coordinates, as PyMuPDF's), so a frame built from a
table can say where each value was read.
"""

from __future__ import annotations

import re
import statistics
import tempfile
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf

from ._tablecells import Cell, TextTable, union

__all__ = ["find_text_tables"]

_CURRENCY = "$€£¥"
# Runs of rows whose phrases beyond the first are figures less often than this are prose set in
# columns or forms, not tables of data: camelot is not asked about them.
_MIN_FIGURES = 0.3
_FIGURE = re.compile(r"^[(\-−–]?[$€£¥]?\s?[(\-−–]?\d[\d,.\s]*\)?%?\)?$")


# ---------------------------------------------------------------- where the tables are


@dataclass
class _Line:
    y0: float
    y1: float
    segments: list[tuple[float, float, str]]  # (x0, x1, text) phrases set apart by wide gaps

    @property
    def x0(self) -> float:
        return self.segments[0][0]

    @property
    def x1(self) -> float:
        return self.segments[-1][1]

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def _lines(page: pymupdf.Page) -> list[_Line]:
    """The page's words as visual lines, each cut into phrases where a gap is wider than ~1 em."""
    words = sorted(page.get_text("words"), key=lambda w: ((w[1] + w[3]) / 2, w[0]))
    rows: list[list[Any]] = []
    for word in words:
        middle = (word[1] + word[3]) / 2
        if rows and abs(middle - (rows[-1][0][1] + rows[-1][0][3]) / 2) <= max(2.0, 0.35 * (word[3] - word[1])):
            rows[-1].append(word)
        else:
            rows.append([word])
    lines = []
    for row in rows:
        row.sort(key=lambda w: w[0])
        height = statistics.median(w[3] - w[1] for w in row)
        segments: list[list[Any]] = [[row[0][0], row[0][2], row[0][4]]]
        for prev, word in zip(row, row[1:], strict=False):
            if word[0] - segments[-1][1] > 0.9 * height or _starts_cell(prev[4], word[4]):
                segments.append([word[0], word[2], word[4]])
            else:
                segments[-1][1] = word[2]
                segments[-1][2] += " " + word[4]
        lines.append(_Line(min(w[1] for w in row), max(w[3] for w in row), [(s[0], s[1], s[2]) for s in segments]))
    return lines


def _starts_cell(previous: str, word: str) -> bool:
    """A word that starts a new phrase however close it is set: a currency sign after a figure
    ("100.0% $ 2,729,388", "$ 5,370,411 $ 4,764,379")."""
    return all(ch in _CURRENCY for ch in word) and _is_figure(previous)


def _table_runs(page: pymupdf.Page) -> list[list[_Line]]:
    """Runs of lines that look like the rows of one table, top to bottom."""
    lines = _lines(page)
    if not lines:
        return []
    width = page.rect.width
    runs: list[list[_Line]] = []
    current: list[_Line] = []
    pending: list[_Line] = []  # lines of a piece too short to be a table: maybe the headings of the next

    def close() -> None:
        rows = [line for line in current if len(line.segments) >= 2]
        if len(rows) >= 2 and _has_data(current):  # else column headings ("January 28," over "2023")
            label_end = _label_end(current)
            headings: list[_Line] = []
            for line in reversed(pending):  # headings set over the columns, apart from the body by a blank line
                if (headings or current)[0].y0 - line.y1 > 3 * line.height:
                    break
                short = len(line.segments) == 1 and len(line.segments[0][2].split()) <= 3
                if line.x0 < label_end - 2 and not short:  # a title, not a heading nor "ASSETS"
                    break
                headings.insert(0, line)
            runs.append(_trimmed(headings + current))
            pending.clear()
        else:
            pending[:] = (pending + current)[-6:]
        current.clear()

    for line in lines:
        tabular = len(line.segments) >= 2 and all(s[1] - s[0] < 0.45 * width for s in line.segments[1:])
        gap = line.y0 - current[-1].y1 if current else 0.0
        if current and gap > 1.8 * max(line.height, current[-1].height):  # a blank line and more
            close()
        if tabular:
            current.append(line)
            continue
        if current and _fits_label_column(line, current):
            current.append(line)
            continue
        close()
        current.append(line)  # a heading over the columns may start the next run; trimmed when not
    close()
    return [run for run in runs if sum(len(line.segments) >= 2 for line in run) >= 2]


def _has_data(run: Sequence[_Line]) -> bool:
    """Whether a figure other than a year stands beside a label or under a heading in the run."""
    return any(
        _is_figure(text) and not re.fullmatch(r"(19|20)\d\d", text) for line in run for _, _, text in line.segments[1:]
    )


def _figures_share(run: Sequence[_Line]) -> float:
    """The share of the run's phrases after the first in a row that are figures."""
    cells = [s[2] for line in run for s in line.segments[1:]]
    return sum(_is_figure(c) for c in cells) / len(cells) if cells else 0.0


def _label_end(run: Sequence[_Line]) -> float:
    """Where the first column ends: the leftmost start of a second phrase in the run's rows."""
    seconds = [line.segments[1][0] for line in run if len(line.segments) >= 2]
    return min(seconds) if seconds else float("inf")


def _fits_label_column(line: _Line, run: Sequence[_Line]) -> bool:
    """A single phrase inside a table: a row label or a section label, set within the first column."""
    return len(line.segments) == 1 and line.x1 <= _label_end(run) and line.x0 >= min(r.x0 for r in run) - 30


def _trimmed(run: list[_Line]) -> list[_Line]:
    """The run without the titles above it and the notes below it; headings over the columns stay."""
    rows = [i for i, line in enumerate(run) if len(line.segments) >= 2]
    first, last = rows[0], rows[-1]
    label_end = _label_end(run)
    start = first
    while start > 0 and run[start - 1].x0 >= label_end - 2:
        start -= 1  # a heading set over the figure columns ("13 Weeks Ended")
    if start == first and _figures_share([run[first]]) > 0:
        labels = 0  # the run opens on figures: short section labels above it are its first rows
        while start > 0 and labels < 3 and len(run[start - 1].segments[0][2].split()) <= 6:
            start, labels = start - 1, labels + 1
    core = run[start : last + 1]
    columns = _column_spans(core)
    while len(core) > 2 and not _fits_columns(core[-1], columns):
        core.pop()  # "Source: …", "GDP:   Gross domestic product."
    while len(core) > 2 and len(core[-1].segments) == 1:
        core.pop()
    return core


def _column_spans(run: Sequence[_Line]) -> list[tuple[float, float]]:
    """The x-extents of the columns, from the lines with the most phrases."""
    most = max(len(line.segments) for line in run)
    spans: list[tuple[float, float]] = []
    for line in run:
        if len(line.segments) < max(2, most - 1):
            continue
        for x0, x1, _ in line.segments:
            for i, (a, b) in enumerate(spans):
                if x0 <= b and x1 >= a:
                    spans[i] = (min(a, x0), max(b, x1))
                    break
            else:
                spans.append((x0, x1))
    return sorted(spans)


def _fits_columns(line: _Line, columns: list[tuple[float, float]]) -> bool:
    for x0, x1, _ in line.segments[1:]:
        middle = (x0 + x1) / 2
        if not any(a - 6 <= middle <= b + 6 for a, b in columns[1:]):
            return False
    return True


# ---------------------------------------------------------------- columns and rows (camelot)


def find_text_tables(page: pymupdf.Page) -> list[TextTable]:
    """The tables on ``page`` whose columns are aligned by whitespace, top to bottom."""
    runs = [run for run in _table_runs(page) if _figures_share(run) >= _MIN_FIGURES]
    if not runs:
        return []
    height = page.mediabox.height
    areas = []
    for run in runs:
        x0 = min(line.x0 for line in run) - 1
        x1 = max(line.x1 for line in run) + 1
        y0, y1 = run[0].y0 - 1, run[-1].y1 + 1
        areas.append(f"{x0:.2f},{height - y0:.2f},{x1:.2f},{height - y1:.2f}")
    columns = _camelot_columns(page, areas)
    tables = []
    for run, area in zip(runs, areas, strict=True):
        spans = columns.get(area)
        if spans and len(spans) >= 2:
            table = _tidy(page.number, _grid(run, spans))
            if table is not None:
                tables.append(table)
    return sorted(tables, key=lambda t: (t.bbox[1], t.bbox[0]))


def _camelot_columns(page: pymupdf.Page, areas: list[str]) -> dict[str, list[tuple[float, float]]]:
    """Camelot's stream columns (x-extents, left to right) for each table area of ``page``.

    Only the columns are taken from camelot: the rows are the page's own lines, and the text is
    PyMuPDF's (camelot's text reader misses figures set in some boxed cells, e.g. Amazon's 10-K).
    """
    import camelot

    single = pymupdf.open()
    try:
        single.insert_pdf(page.parent, from_page=page.number, to_page=page.number)
        with tempfile.TemporaryDirectory(prefix="docpilot-tables-") as folder:
            path = Path(folder) / "page.pdf"
            single.save(str(path))

            def read(group: list[str]) -> list[Any]:
                with warnings.catch_warnings():  # "No tables found in table area …" is an answer here
                    warnings.simplefilter("ignore")
                    return list(camelot.read_pdf(str(path), pages="1", flavor="stream", table_areas=group))

            found: list[Any] = []
            try:
                found = read(areas)
            except Exception:  # noqa: BLE001 - camelot fails on an area with no text lines in it: read each alone
                for one in areas:
                    try:
                        found += read([one])
                    except Exception:  # noqa: BLE001 - that area is no table
                        continue
    finally:
        single.close()
    out: dict[str, list[tuple[float, float]]] = {}
    for table in found:
        x0, y0, x1, y1 = table._bbox
        area = next((a for a in areas if _same_area(a, (x0, y1, x1, y0))), None)
        if area is not None:
            out[area] = [(float(a), float(b)) for a, b in table.cols]
    return out


def _same_area(area: str, box: tuple[float, float, float, float]) -> bool:
    return all(abs(float(a) - b) < 1 for a, b in zip(area.split(","), box, strict=True))


def _grid(run: Sequence[_Line], spans: list[tuple[float, float]]) -> list[list[Cell | None]]:
    """The run's lines as rows, each phrase in the column it starts over (a heading spanning
    columns in the first of them), phrases sharing a column joined."""
    grid: list[list[Cell | None]] = []
    for line in run:
        row: list[Cell | None] = [None] * len(spans)
        for x0, x1, text in line.segments:
            col = _column_of(x0, x1, spans)
            box = (x0, line.y0, x1, line.y1)
            current = row[col]
            if current is not None:
                text, box = f"{current.text} {text}", union(current.bbox, box)
            row[col] = Cell(text, box)
        for cell in row:
            if cell is not None:
                cell.text = re.sub(rf"^([{_CURRENCY}]) (?=[\d(.-])", r"\1", cell.text)
        grid.append(row)
    return grid


def _column_of(x0: float, x1: float, spans: list[tuple[float, float]]) -> int:
    width = max(x1 - x0, 1.0)
    overlaps = [max(0.0, min(x1, b) - max(x0, a)) for a, b in spans]
    for index, overlap in enumerate(overlaps):
        if overlap >= 0.25 * width:
            return index
    if any(overlaps):
        return max(range(len(spans)), key=lambda i: overlaps[i])
    return min(range(len(spans)), key=lambda i: min(abs(x0 - spans[i][1]), abs(x1 - spans[i][0])))


def _tidy(index: int, grid: list[list[Cell | None]]) -> TextTable | None:
    grid = _join_currency(grid)
    grid = _drop_empty(grid)
    if not grid:
        return None
    header_rows = _heading_rows(grid)
    grid = _merge_heading_columns(grid, header_rows)
    if len(grid) < 2 or len(grid[0]) < 2:
        return None
    boxes = [c.bbox for row in grid for c in row if c]
    bbox = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return TextTable(page=index, bbox=bbox, cells=grid, header_rows=header_rows)


def _join_currency(grid: list[list[Cell | None]]) -> list[list[Cell | None]]:
    """A currency sign joins the figure after it: "$" | "9,583" → "$9,583"; "100.0% $" | "2,729,388" →
    "100.0%" | "$2,729,388"."""
    for row in grid:
        for i, cell in enumerate(row):
            if cell is None:
                continue
            match = re.fullmatch(rf"(.*?)\s*([{_CURRENCY}])", cell.text)
            if not match:
                continue
            target = next((j for j in range(i + 1, len(row)) if row[j] is not None), None)
            if target is None:
                continue
            following = row[target]
            assert following is not None
            following.text = match.group(2) + following.text.lstrip()
            if match.group(1):
                cell.text = match.group(1)
            else:
                row[i] = None
    return grid


def _drop_empty(grid: list[list[Cell | None]]) -> list[list[Cell | None]]:
    grid = [row for row in grid if any(row)]
    if not grid:
        return []
    keep = [c for c in range(len(grid[0])) if any(row[c] for row in grid)]
    return [[row[c] for c in keep] for row in grid]


def _is_figure(text: str) -> bool:
    return bool(_FIGURE.match(text.replace(" ", ""))) and any(ch.isdigit() for ch in text)


def _heading_rows(grid: list[list[Cell | None]]) -> int:
    """How many rows at the top are column headings: those before the first row with a figure
    beside its label (years such as "2023" in a heading row are headings, not figures)."""
    for r, row in enumerate(grid):
        figures = [c for c in row[1:] if c and _is_figure(c.text)]
        years = [c for c in figures if re.fullmatch(r"(19|20)\d\d", c.text)]
        if figures and len(years) < len(figures):
            return r
    return 0


def _merge_heading_columns(grid: list[list[Cell | None]], header_rows: int) -> list[list[Cell | None]]:
    """A column with text in heading rows only (a heading set between two columns, or over a column
    of "$" signs now joined to their figures) is dissolved: each of its headings goes to the first
    column whose figures it stands over, else to the nearest one."""
    if not header_rows or len(grid) <= header_rows:
        return grid
    body = grid[header_rows:]
    extents: dict[int, tuple[float, float]] = {}
    for col in range(len(grid[0])):
        boxes = [row[col].bbox for row in body if row[col] is not None]  # type: ignore[union-attr]
        if boxes:
            extents[col] = (min(b[0] for b in boxes), max(b[2] for b in boxes))
    if not extents:
        return grid
    empty = [col for col in range(len(grid[0])) if col not in extents]
    for col in empty:
        for row in grid[:header_rows]:
            cell = row[col]
            if cell is None:
                continue
            x0, x1 = cell.bbox[0], cell.bbox[2]
            over = [c for c in sorted(extents) if c > 0 and extents[c][0] < x1 and x0 < extents[c][1]]
            middle = (x0 + x1) / 2
            target = over[0] if over else min(extents, key=lambda c: abs(middle - sum(extents[c]) / 2))
            current = row[target]
            if current is None:
                row[target] = cell
            else:
                first, second = (current, cell) if current.bbox[0] <= x0 else (cell, current)
                row[target] = Cell(f"{first.text} {second.text}", union(first.bbox, second.bbox))
            row[col] = None
    keep = [col for col in range(len(grid[0])) if col in extents]
    return [[row[col] for col in keep] for row in grid]
