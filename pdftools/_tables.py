"""Reading tables: one finder and one cell reader for extract_tables, Excel and Markdown.

PyMuPDF's ``find_tables`` finds ruled tables. A table counts as ruled when stroked
vertical rules separate its columns; tables whose rows are only underlined or shaded
(most financial statements) and tables with no rules at all are read by text alignment
instead (``_texttables``: the page's runs of aligned rows, columns by camelot's stream
mode), and kept only when they look like data (mostly numeric cells), so running prose
never becomes a "table".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import reduce
from typing import Any

import pymupdf

from ._tablecells import Box, Cell, TextTable, frame_of, union
from ._texttables import find_text_tables

__all__ = [
    "page_tables",
    "table_rows",
    "table_cells",
    "table_frame",
    "cell_value",
    "has_borderless_data_table",
    "TEXT_FLAGS",
]

# Ligatures expanded, line-end hyphens joined.
TEXT_FLAGS = (pymupdf.TEXTFLAGS_TEXT | pymupdf.TEXT_DEHYPHENATE) & ~pymupdf.TEXT_PRESERVE_LIGATURES
_MIN_NUMERIC_SHARE = 0.3
# Pages of figures have a fifth or more of their words numbers (measured: 0.23-0.83 on statements
# and tables of the corpus); prose, even set in columns, a few per cent (0.00-0.14).
_MIN_NUMERIC_WORDS = 0.2


def page_tables(page: pymupdf.Page, thorough: bool = True) -> list[Any]:
    """Tables on ``page``, top to bottom: ruled ones, and (when ``thorough``) those aligned by whitespace.

    A table PyMuPDF's line strategy finds without vertical rules between its columns is read by
    text alignment instead, which sees its columns where the rules under its rows do not.
    """
    try:
        tables = list(page.find_tables().tables)
    except (RuntimeError, ValueError, IndexError):
        tables = []  # a page whose drawings confuse the finder has no usable ruled table
    if not thorough:
        return tables
    drawings = page.get_drawings() if tables else []
    stacked = [t for t in tables if _stacked(page, t) or _side_by_side(page, t)]
    ruled = [t for t in tables if has_column_rules(page, t.bbox, drawings) and t not in stacked]
    if len(ruled) == len(tables) and tables:
        return tables
    aligned = [
        t
        for t in find_text_tables(page)
        if _looks_like_data(page, t, joined=any(_overlap(t.bbox, s.bbox) for s in stacked))
        and not any(_overlap(t.bbox, r.bbox) for r in ruled)
    ]
    # where text alignment found nothing, the line strategy's reading stands
    kept = [t for t in tables if t in ruled or not any(_overlap(t.bbox, a.bbox) for a in aligned)]
    return sorted(kept + aligned, key=lambda t: (t.bbox[1], t.bbox[0]))


def _overlap(a: Any, b: Any) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _borderless_data_tables(page: pymupdf.Page) -> list[TextTable]:
    """Tables aligned by whitespace on ``page`` that look like data."""
    return [t for t in find_text_tables(page) if _looks_like_data(page, t)]


def has_borderless_data_table(doc: pymupdf.Document, indices: list[int]) -> bool:
    """Whether one of the pages ``indices`` holds a table without ruling lines that looks like data.

    The text-strategy search costs ~0.5 s a page, so it runs only on pages where numbers
    make up a fifth of the words or more.
    """
    for index in indices:
        page = doc[index]
        words = [w[4] for w in page.get_text("words")]
        numbers = sum(isinstance(cell_value(w)[0], (int, float)) for w in words)
        if words and numbers >= _MIN_NUMERIC_WORDS * len(words) and _borderless_data_tables(page):
            return True
    return False


def _stacked(page: pymupdf.Page, table: Any) -> bool:
    """Whether a ruled table's rules do not separate its rows: half its cells of figures or more hold three lines of
    figures or more ("3,393 / 3,540 / 4 / 289 …" under a rule drawn only below the heading). Its columns are read
    better by the words' alignment, when that finds a table there."""
    figures = [
        sum(_is_figures(line) for line in text.splitlines())
        for row in _ruled_cells(page, table, by_place=False)
        for cell in row
        if cell is not None
        for text in [cell.text]
        if text and any(_is_figures(line) for line in text.splitlines())
    ]
    return bool(figures) and sum(n >= 3 for n in figures) * 2 >= len(figures)


def _side_by_side(page: pymupdf.Page, table: Any) -> bool:
    """Whether a third or more of a ruled table's cells of figures print two figures or more side by side, apart
    ("897   3,673" in one cell: columns parted by whitespace, where only a rule between two groups of them was
    drawn). Like a stacked table's, its columns are read better by the words' alignment, when that finds one."""
    words = [w for w in page.get_text("words") if _is_number(str(w[4]))]
    if not words:
        return False
    figures = side = 0
    for row in table.rows:
        for box in row.cells:
            if box is None:
                continue
            inside = [w for w in words if box[0] - 1 <= w[0] and w[2] <= box[2] + 1 and box[1] - 1 <= w[1] <= box[3]]
            if not inside:
                continue
            figures += 1
            side += any(
                a is not b and abs((a[1] + a[3]) - (b[1] + b[3])) < 2 and b[0] - a[2] > 2 * (a[3] - a[1])
                for a in inside
                for b in inside
            )
    return figures > 0 and side * 3 >= figures


def _is_figures(text: str) -> bool:
    """A figure, or several printed side by side ("3,393 3,540": two columns the alignment did not part)."""
    parts = text.split()
    return bool(parts) and all(_is_number(p) for p in parts)


def _looks_like_data(page: pymupdf.Page, table: Any, joined: bool = False) -> bool:
    """Whether a table found by alignment holds data: three rows or more, and figures in enough of its cells;
    ``joined``: where a ruled reading stacked its rows, a cell of figures side by side counts as figures."""
    if table.row_count < 3 or table.col_count < 2:
        return False
    cells = [c for row in table_rows(page, table) for c in row if c]
    numeric = sum((_is_figures if joined else _is_number)(c) for c in cells)
    return bool(cells) and numeric >= _MIN_NUMERIC_SHARE * len(cells)


def _is_number(text: str) -> bool:
    """A figure, with or without a currency sign ("$9,583", "€ 399,00", "(12)", "31%")."""
    if isinstance(cell_value(text)[0], (int, float)):
        return True
    bare = text.strip().lstrip("$€£¥").strip()
    return isinstance(cell_value(bare)[0], (int, float)) or bool(re.fullmatch(r"-?\d{1,3}(\.\d{3})*,\d\d", bare))


def table_rows(page: pymupdf.Page, table: Any) -> list[list[str | None]]:
    """The table's cell texts, row by row (None for cells covered by a merged cell).

    Cell text is read with PyMuPDF's cell extractor (character boxes inside the cell),
    which keeps decimals like "41.2" whole where ``Table.extract`` can split them.
    """
    if isinstance(table, TextTable):
        return [[c.text if c else "" for c in row] for row in table.cells]
    return [[None if c is None else c.text for c in row] for row in _ruled_cells(page, table)]


def table_cells(page: pymupdf.Page, table: Any) -> list[list[Cell | None]]:
    """The table's cells with their boxes, row by row (None where a merged cell continues or,
    in a table found by alignment, where nothing is printed)."""
    return table.cells if isinstance(table, TextTable) else _ruled_cells(page, table)


def table_frame(page: pymupdf.Page, table: Any) -> Any:
    """The table as a pandas DataFrame, heading rows as column labels; ``frame.attrs["boxes"]`` holds
    each body cell's box (page coordinates; None for an empty cell) and ``frame.attrs["page"]`` the
    1-based page. Ruled tables take their first row as the heading."""
    if isinstance(table, TextTable):
        return table.to_frame()
    cells = _ruled_cells(page, table)
    return frame_of(cells, 1 if len(cells) > 1 else 0, page.number)


def _ruled_cells(page: pymupdf.Page, table: Any, by_place: bool = True) -> list[list[Cell | None]]:
    """The cells of a table found by its rules, a row stacking several records' lines split into one row each:
    by line when its cells hold as many lines each, else (``by_place``) by where its lines of figures stand."""
    from pymupdf.table import extract_cells

    textpage = _ReadOnce(getattr(table, "textpage", None) or page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT))
    rows: list[list[Cell | None]] = []
    if table.header.external:
        boxes = list(table.header.cells) + [None] * len(table.header.names)
        rows.append([Cell(name or "", _box(boxes[i])) for i, name in enumerate(table.header.names)])
    words: list[Any] | None = None
    for row in table.rows:
        texts = [None if cell is None else extract_cells(textpage, cell, markdown=False).strip() for cell in row.cells]
        split = _split_stacked(texts)
        if by_place and len(split) == 1 and any(t and "\n" in t for t in texts):  # unequal counts of lines
            words = page.get_text("words", flags=TEXT_FLAGS) if words is None else words
            banded = _split_by_lines([_lines_in(words, c) for c in row.cells], [_box(c) for c in row.cells])
            if banded:
                rows.extend(banded)
                continue
        # a ruled cell holding several records gives each its lines; a line's own box is not known, the cell's is
        rows.extend([None if t is None else Cell(t, _box(b)) for t, b in zip(r, row.cells, strict=True)] for r in split)
    return rows


_Line = tuple[float, float, float, float, str]  # x0, y0, x1, y1 and the text of one printed line of a cell


def _lines_in(words: list[Any], cell: Any) -> list[_Line] | None:
    """The printed lines of a ruled cell (the words whose centre lies in it, joined by their heights); None for a
    cell a merged cell covers."""
    if cell is None:
        return None
    x0, y0, x1, y1 = cell
    inside = sorted(
        (w for w in words if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1),
        key=lambda w: ((w[1] + w[3]) / 2, w[0]),
    )
    lines: list[list[Any]] = []
    for word in inside:
        if lines and abs((word[1] + word[3]) / 2 - (lines[-1][0][1] + lines[-1][0][3]) / 2) < (word[3] - word[1]) / 2:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [(*_union(line), " ".join(w[4] for w in sorted(line, key=lambda w: w[0]))) for line in lines]


def _split_by_lines(cells: list[list[_Line] | None], boxes: list[Box]) -> list[list[Cell | None]] | None:
    """One ruled row whose cells stack several records, split where its figures' lines stand: each line of figures
    starts a record ("3715.00 / 2154.93 / 1779.00" beside three names and two page ranges), and a text line goes to
    the record whose figures it stands beside (a wrapped name's second line to the record above). None when the
    figure cells hold one line each, or half the filled cells are not figures (wrapped words, not records)."""
    filled = [lines for lines in cells if lines]
    figures = [lines for lines in filled if all(_is_number(t) or _DASHES.fullmatch(t) for *_, t in lines)]
    if not figures or len(figures) * 2 < len(filled) or max(len(lines) for lines in figures) < 2:
        return None
    height = min(y1 - y0 for lines in figures for _, y0, _, y1, _ in lines)
    bands: list[float] = []
    for y in sorted((y0 + y1) / 2 for lines in figures for _, y0, _, y1, _ in lines):
        if not bands or y - bands[-1] > height / 2:
            bands.append(y)
    if any(len({_band(bands, line) for line in lines}) < len(lines) for lines in figures):
        return None  # two lines of one cell of figures beside one record: not records
    records: list[list[list[_Line]]] = [[[] for _ in cells] for _ in bands]
    for i, lines in enumerate(cells):
        for line in lines or ():
            band = _band(bands, line)
            if abs((line[1] + line[3]) / 2 - bands[band]) > height:
                above = [b for b in range(len(bands)) if bands[b] < (line[1] + line[3]) / 2 and records[b][i]]
                band = above[-1] if above else band  # a name's wrapped line, away from any figures: its record's
            records[band][i].append(line)
    return [
        [
            None if lines is None else Cell(" ".join(t for *_, t in part), _union(part) if part else box)
            for lines, part, box in zip(cells, record, boxes, strict=True)
        ]
        for record in records
    ]


_DASHES = re.compile(r"\.{2,}|…|[-\u2013\u2014]")  # a cell left empty on purpose


def _band(bands: list[float], line: _Line) -> int:
    y = (line[1] + line[3]) / 2
    return min(range(len(bands)), key=lambda b: abs(bands[b] - y))


def _union(items: Sequence[Any]) -> Box:
    """The box around words or lines (each one's first four items are its box)."""
    return reduce(union, ((x[0], x[1], x[2], x[3]) for x in items))


def _box(cell: Any) -> Box:
    return (0.0, 0.0, 0.0, 0.0) if cell is None else tuple(float(v) for v in cell)  # type: ignore[return-value]


class _ReadOnce:
    """A text page as ``extract_cells`` reads it, with the page's characters read once.

    ``extract_cells`` rebuilds the whole page's character dictionary for every cell it is
    given: 11 ms a cell on a text-heavy page, 8 s for a 72 x 10 table. Its result for a
    cell depends only on that dictionary, so it is built once per table here.
    """

    def __init__(self, textpage: pymupdf.TextPage) -> None:
        self._raw = textpage.extractRAWDICT()

    def extractRAWDICT(self) -> dict:  # noqa: N802 (PyMuPDF's name)
        return self._raw


def _split_stacked(row: list[str | None]) -> list[list[str | None]]:
    """Split a row whose cells stack several records line by line into one row per line.

    Tables ruled only every few records come out of the detector as one row holding
    "Alabama\nAlaska\n…" beside "18,870\n209\n…". The row is split when every filled
    cell has the same number of lines (two or more) and most filled cells are numbers.
    """
    filled = [text for text in row if text]
    if len(filled) < 2:
        return [row]
    counts = {len(text.split("\n")) for text in filled}
    if len(counts) != 1 or counts == {1}:
        return [row]
    numeric = sum(all(isinstance(cell_value(line)[0], (int, float)) for line in text.split("\n")) for text in filled)
    if numeric * 2 < len(filled):
        return [row]
    height = counts.pop()
    return [[text.split("\n")[i].strip() if text else text for text in row] for i in range(height)]


_NUMBER = re.compile(
    r"""^(?P<neg>[-−–(])?\s*            # sign or accounting parenthesis
        (?P<int>\d{1,3}(?:,\d{3})+|\d+)?  # integer part, maybe with thousands commas
        (?P<frac>\.\d+)?                  # decimals
        \)?\s*(?P<pct>%)?$""",
    re.X,
)


_MONEY = re.compile(r"^(?P<sign>[$£€])\s?(?P<rest>[(\d.].*)$")


def cell_value(text: str | None) -> tuple[Any, str | None]:
    """A cell's value for Excel and its number format: numbers as numbers, else the text.

    "1,284" → 1284, "55.3" → 55.3, "(12)" → -12, "31%" → 0.31 shown as 31%, "$9,583" → 9583
    shown as $9,583. Codes with a leading zero ("007"), dates and mixed text stay text.
    """
    if text is None:
        return None, None
    clean = text.strip()
    money = _MONEY.match(clean)
    if money:
        value, fmt = cell_value(money.group("rest"))
        if isinstance(value, (int, float)) and fmt is None:
            places = len(money.group("rest").rpartition(".")[2]) if "." in money.group("rest") else 0
            sign = money.group("sign")
            return value, f'"{sign}"#,##0' + ("." + "0" * places if places else "") + f';-"{sign}"#,##0' + (
                "." + "0" * places if places else ""
            )
        return text, None
    match = _NUMBER.match(clean)
    if not clean or not match or not (match.group("int") or match.group("frac")):
        return text, None
    neg, whole, frac, pct = match.group("neg", "int", "frac", "pct")
    if neg == "(" and not clean.endswith(")") or clean.endswith(")") and neg != "(":
        return text, None
    if whole and len(whole) > 1 and whole.startswith("0") and "," not in whole:
        return text, None  # a code such as a ZIP or an ID
    digits = (whole or "0").replace(",", "")
    number: float | int = float(digits + frac) if frac else int(digits)
    if neg:
        number = -number
    if len(digits) > 15:
        return text, None  # beyond Excel's precision: an identifier, not a quantity
    if pct:
        places = len(frac) - 1 if frac else 0
        return number / 100, "0" + ("." + "0" * places if places else "") + "%"
    return number, None


def has_column_rules(page: pymupdf.Page, bbox: Sequence[float], drawings: list[dict[str, Any]] | None = None) -> bool:
    """Whether stroked vertical rules separate columns inside ``bbox`` (a ruled table, not one whose
    rows are only underlined or shaded)."""
    x0, y0, x1, y1 = bbox
    for path in drawings if drawings is not None else page.get_drawings():
        stroked = "s" in (path.get("type") or "")
        for item in path["items"]:
            sides: list[tuple[float, float, float]] = []  # (x, top, bottom) of vertical strokes
            if item[0] == "l" and stroked:
                a, b = item[1], item[2]
                if abs(a.x - b.x) < 1 and abs(a.y - b.y) > 4:
                    sides.append((a.x, min(a.y, b.y), max(a.y, b.y)))
            elif item[0] == "re":
                rect = item[1]
                if rect.width < 2 and rect.height > 4:  # a rule drawn as a thin box
                    sides.append(((rect.x0 + rect.x1) / 2, rect.y0, rect.y1))
                elif stroked and rect.height > 4:  # a bordered cell
                    sides += [(rect.x0, rect.y0, rect.y1), (rect.x1, rect.y0, rect.y1)]
            for x, top, bottom in sides:
                if x0 + 3 < x < x1 - 3 and top < y1 and bottom > y0:
                    return True
    return False
