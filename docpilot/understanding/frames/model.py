"""A table as a pandas DataFrame whose every cell remembers where it was read.

A :class:`Frame` is what programs compute over and what citations come from: ``data`` (a DataFrame with a
plain 0..n-1 row index, the row-label column kept as a column), ``cells`` (row by row, column by column, the
:class:`CellRef` each value was read from: file, page, the cell's text as printed and its box), and what a
reader needs to know about it (caption, the heading over all its columns, the scale "in millions", what each
column holds). It is built from a :class:`RawTable` (the cells as the table finders give them; JSON-able, so
a page's tables are cached) by :func:`frame_of`:

- heading rows are joined per column ("Three Months Ended June 30," over "2023" → "Three Months Ended June 30,
  2023"); a heading spanning every value column is the table's heading, not part of each name; notes in
  parentheses ("(Unaudited)", "($ million, except per share amounts)") leave the names, their scale is kept;
- the first column is the row-label column when it holds text (or has no heading over figures);
- a column is a number column when most of its filled cells read as numbers (:mod:`.values`): the
  numbers are parsed once there, blanks and dashes are NaN; text cells stay text ("" when empty).

Frames of several files with the same columns are one frame with a ``file`` column (:func:`combine_files`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import reduce
from typing import Any

from docpilot.understanding.frames.values import NIL, is_year, read_number, read_scale
from pdftools._tablecells import union

__all__ = ["Box", "CellRef", "RawTable", "Frame", "frame_of", "combine_files", "name_frames", "FILE_COLUMN"]

Box = tuple[float, float, float, float]
FILE_COLUMN = "file"
LABEL_COLUMN = "label"
_NUMERIC_SHARE = 0.6  # a column is numeric when this share of its filled cells are numbers
_NOTE = re.compile(r"^\(.*\)$")


@dataclass(frozen=True)
class CellRef:
    """Where a value was read: the file, the 1-based page, the cell's text as printed, its box on the page."""

    file: str
    page: int
    text: str
    box: Box | None = None


@dataclass
class RawTable:
    """A table as found on a page: its cells (text and box, None where nothing is printed), how many of the
    first rows are headings, its caption and the lines just above it. JSON-able (see :meth:`to_dict`)."""

    file: str
    page: int  # 1-based
    index: int  # 1-based, top to bottom on the page
    cells: list[list[tuple[str, Box | None] | None]]
    header_rows: int
    caption: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "page": self.page,
            "index": self.index,
            "cells": [[None if c is None else [c[0], list(c[1]) if c[1] else None] for c in row] for row in self.cells],
            "header_rows": self.header_rows,
            "caption": self.caption,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RawTable:
        cells: list[list[tuple[str, Box | None] | None]] = [
            [None if c is None else (str(c[0]), _box(c[1])) for c in row] for row in data["cells"]
        ]
        return cls(
            data["file"], int(data["page"]), int(data["index"]), cells, int(data["header_rows"]), data["caption"]
        )


@dataclass
class Frame:
    """A table as data, with provenance per cell. ``cells[i][j]`` is where ``data.iat[i, j]`` was read."""

    data: Any  # pandas.DataFrame, index 0..n-1
    cells: list[list[CellRef | None]]
    caption: str = ""
    heading: str = ""  # a heading over all value columns ("Year Ended December 31,")
    kinds: dict[str, str] = field(default_factory=dict)  # column → "text" | "number" | "percent" | "money $" …
    scale: str = ""  # "thousand" | "million" | "billion" | ""
    label: str | None = None  # the row-label column, when there is one
    files: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    key: str = ""  # "file:page:index" of the table it was read from (first one when combined)
    name: str = ""  # what a program calls it (set by name_frames)
    totals: tuple[str, ...] = ()  # the labels of the total rows left out of it ("Consolidated"), which add it up

    @property
    def columns(self) -> list[str]:
        return [str(c) for c in self.data.columns]

    def cell(self, row: int, column: str) -> CellRef | None:
        """Where the value at row ``row`` (the index label) and ``column`` was read; None for a blank."""
        try:
            j = self.columns.index(str(column))
        except ValueError:
            return None
        return self.cells[row][j] if 0 <= row < len(self.cells) else None

    def row_labels(self) -> list[str]:
        return [str(v) for v in self.data[self.label].tolist()] if self.label else []

    def figure_columns(self) -> list[str]:
        """The columns of figures (amounts, counts, percents): not the row labels, not text."""
        return [c for c in self.columns if c != self.label and self.kinds.get(c, "text") != "text"]

    def describe(self) -> str:
        """How a person names it: "the table 'Table 1: GDP growth' on page 3 of eu.pdf"."""
        what = f"the table '{self.caption}'" if self.caption else "the table"
        pages = ", ".join(str(p) for p in self.pages)
        where = f" on page{'s' if len(self.pages) > 1 else ''} {pages}" if self.pages else ""
        if len(self.files) == 1:
            where += f" of {self.files[0]}"
        elif self.files:
            where += f" of {len(self.files)} files"
        return what + where


def _box(value: Any) -> Box | None:
    return (float(value[0]), float(value[1]), float(value[2]), float(value[3])) if value else None


def frame_of(raw: RawTable) -> Frame | None:
    """The frame of a table, or None when it holds no data (fewer than one body row or two columns)."""
    import pandas as pd

    texts = [[clean_text(c[0]) if c else "" for c in row] for row in raw.cells]
    width = max((len(r) for r in texts), default=0)
    texts = [r + [""] * (width - len(r)) for r in texts]
    boxes = [[(c[1] if c else None) for c in row] + [None] * (width - len(row)) for row in raw.cells]
    head, body = texts[: raw.header_rows], texts[raw.header_rows :]
    keep_rows = [i for i, row in enumerate(body) if any(row)]
    while len(keep_rows) > 1 and not any(body[keep_rows[-1]][1:]):  # notes under the table, not a row of it
        keep_rows.pop()
    body = [body[i] for i in keep_rows]
    body_boxes = [boxes[raw.header_rows + i] for i in keep_rows]
    keep_cols = [j for j in range(width) if any(row[j] for row in body)]
    if not body or len(keep_cols) < 2:
        return None
    head = [[row[j] for j in keep_cols] for row in head]
    head_boxes = [[row[j] for j in keep_cols] for row in boxes[: raw.header_rows]]
    body = [[row[j] for j in keep_cols] for row in body]
    body_boxes = [[row[j] for j in keep_cols] for row in body_boxes]
    spans = [_span([row[j] for row in [*head_boxes[-1:], *body_boxes]]) for j in range(len(keep_cols))]
    head, head_boxes = _two_line_headings(head, head_boxes, spans)
    names, heading, notes, titles = _headings(head, len(keep_cols), head_boxes, spans)
    numbers = [[read_number(t) if t else None for t in row] for row in body]
    numeric = [_is_numeric([r[j] for r in body], [n[j] for n in numbers]) for j in range(len(keep_cols))]
    years = _years([row[0] for row in body])  # "2019 … 2023" down the first column name the rows, not amounts
    label = 0 if not numeric[0] or years or (not names[0] and any(numeric[1:])) else None
    if label == 0:
        numeric[0] = False
        names[0] = names[0] or LABEL_COLUMN
    names = _unique([n or f"column {j + 1}" for j, n in enumerate(names)], numbers, numeric)
    columns: dict[str, list[Any]] = {}
    kinds: dict[str, str] = {}
    for j, name in enumerate(names):
        if numeric[j]:
            columns[name] = [_number_or_nan(n[j]) for n in numbers]
            kinds[name] = value_kind([n[j] for n in numbers])
        else:
            columns[name] = [row[j] for row in body]
            kinds[name] = "text"
    data = pd.DataFrame(columns)
    for name in names:
        data[name] = data[name].astype("float64" if kinds[name] != "text" else object)
    cells = [
        [CellRef(raw.file, raw.page, text, box) if text else None for text, box in zip(row, row_boxes, strict=True)]
        for row, row_boxes in zip(body, body_boxes, strict=True)
    ]
    if label == 0:
        data, cells, kinds = _with_sections(data, cells, kinds, names[0])
    scale = read_scale(" ".join([raw.caption, heading, *notes]))
    return Frame(
        data=data,
        cells=cells,
        caption=raw.caption or " ".join(titles),
        heading=heading,
        kinds=kinds,
        scale=scale,
        label=names[0] if label == 0 else None,
        files=(raw.file,),
        pages=(raw.page,),
        key=f"{raw.file}:{raw.page}:{raw.index}",
    )


SECTION = "Section"
_CAPS = re.compile(r"[A-Z][A-Z&,.'-]*(?:\s+[A-Z&,.'-]+)+")  # "MINISTRY OF DEFENCE": two words or more in capitals


def _with_sections(
    data: Any, cells: list[list[CellRef | None]], kinds: dict[str, str], label: str
) -> tuple[Any, list[list[CellRef | None]], dict[str, str]]:
    """The frame with a ``Section`` column after its labels when its rows are grouped under heading rows: a label
    ending in ":" over no figures ("Operating expenses:"), or labels in capitals among labels that are not
    ("MINISTRY OF DEFENCE" over "20. Ministry of Defence", "22. Defence Services-Army", its figures their
    totals). Each row under a heading holds the heading (cited to it) down to the next heading or to a row
    labelled "Total …", which closes it; the heading rows themselves hold none. Unchanged without two rows
    under one heading, or when the frame has a column of that name."""
    labels = [str(v) for v in data[label].tolist()]
    values = [c for c in data.columns if c != label]
    empty = [all(_blank(v) for v in data.loc[i, values]) for i in range(len(data))]
    lettered = sum(1 for t in labels if re.search(r"[a-z]", t, re.I))
    capitals = [len(t) >= 8 and _CAPS.fullmatch(t.strip()) is not None for t in labels]
    if sum(capitals) < 2 or sum(capitals) * 2 > lettered:  # capitals are headings only among other labels
        capitals = [False] * len(labels)
    under: list[int | None] = []
    current: int | None = None
    for i, text in enumerate(labels):
        if capitals[i] or (empty[i] and text.rstrip().endswith(":")):
            under.append(None)
            current = i
            continue
        under.append(current)
        if is_total(text):
            current = None
    members = Counter(u for u in under if u is not None)
    if SECTION in data.columns or not members or max(members.values()) < 2:
        return data, cells, kinds
    j = list(data.columns).index(label) + 1
    data = data.copy()
    data.insert(j, SECTION, [section_name(labels[u]) if u is not None else "" for u in under])
    heads = [None if u is None else cells[u][j - 1] for u in under]
    cells = [row[:j] + [head] + row[j:] for row, head in zip(cells, heads, strict=True)]
    return data, cells, {**kinds, SECTION: "text"}


_TOTAL = re.compile(r"^\s*(?:grand\s+|sub-?)?totals?\b", re.I)


def is_total(label: str) -> bool:
    """A row label that names a total of the rows above it ("Total", "Grand total", "Subtotal", "Totals")."""
    return _TOTAL.match(label) is not None


def section_name(label: str) -> str:
    """The section a heading row's label names ("Operating expenses:" → "Operating expenses")."""
    return label.strip().rstrip(":").strip()


def _blank(value: Any) -> bool:
    return value == "" or (isinstance(value, float) and math.isnan(value))


def _years(texts: list[str]) -> bool:
    """Whether ``texts`` are two or more different years, each printed alone ("2019", "2020" …)."""
    filled = [t for t in texts if t]
    return len(filled) >= 2 and len(set(filled)) == len(filled) and all(is_year(t) for t in filled)


def _number_or_nan(number: Any) -> float:
    return float(number.value) if number is not None else float("nan")


def clean_text(text: str) -> str:
    """A cell's text as read: NFKC, whitespace collapsed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text or "")).strip()


def _headings(
    head: list[list[str]], width: int, boxes: list[list[Any]], spans: list[Box | None]
) -> tuple[list[str], str, list[str], list[str]]:
    """Column names from the heading rows, the heading over all value columns, the notes in parentheses, and
    title rows (a line over the whole table read as its first row). ``boxes``: the heading cells' boxes;
    ``spans``: where each column stands (its own heading and its values)."""
    titles: list[str] = []
    table_level: list[str] = []
    notes: list[str] = []
    used: list[list[str]] = []
    for r, row in enumerate(head):
        filled = [t for t in row[1:] if t]
        if r < len(head) - 1 and not filled and row[0]:
            titles.append(row[0])  # a title row over the whole table
            continue
        if r < len(head) - 1 and len(filled) == 1 and width > 2:
            table_level.append(filled[0])  # one heading over all the value columns
            continue
        used.append(_carry(row, boxes[r], spans) if r < len(head) - 1 else row)
    names = []
    for j in range(width):
        parts: list[str] = []
        for row in used:
            text = row[j]
            if not text:
                continue
            if _NOTE.match(text):
                notes.append(text)
                continue
            if not parts or parts[-1] != text:
                parts.append(text)
        names.append(" ".join(parts))
    return names, " ".join(table_level), notes, titles


def _carry(row: list[str], boxes: list[Any], spans: list[Box | None]) -> list[str]:
    """A heading row with each value column's heading carried over the blank cells it heads.

    Where the columns' places are known, a heading centred over a run of columns heads them all ("Fiscal
    2024" centred over four, its cell at the second); a heading centred over its own column alone is that
    column's ("Total Stores at", the first line of a heading cell, is not its neighbours'). A heading whose box
    is its drawn cell's (it says nothing of where its words stand), or that is centred over no run, is carried
    right over the blanks after it, as is every heading beside a drawn blank cell (a ruled grid's)."""
    width = len(row)
    placed = all(spans[j] is not None for j in range(1, width))
    filled = {k for k in range(1, width) if row[k]}
    own: dict[int, str] = {}
    carried = set(filled)
    for k in sorted(filled) if placed else []:
        box, span = _box(boxes[k]), spans[k]
        drawn = box and span and box[0] <= span[0] + 1 and box[2] >= span[2] - 1  # a cell's box, not its words'
        if drawn:  # a drawn cell heads the blank columns its box covers ("DATES" over "START | END")
            for j in range(k + 1, width):
                if row[j] or spans[j] is None or spans[j][2] > box[2] + 1:  # type: ignore[index]
                    break
                own.setdefault(j, row[k])
        group = _centred_group(box, k, filled | set(own), spans) if box and not drawn else None
        if group is not None:
            carried.discard(k)
            for j in group:
                own.setdefault(j, row[k])
    out, last, last_any = [row[0]], "", ""
    for j in range(1, width):
        if row[j]:
            last, last_any = (row[j] if j in carried else ""), row[j]
            out.append(row[j])
        else:
            out.append(own.get(j) or (last_any if boxes[j] else last))
    return out


def _two_line_headings(
    head: list[list[str]], boxes: list[list[Any]], spans: list[Box | None]
) -> tuple[list[list[str]], list[list[Any]]]:
    """Heading rows read line by line made one where headings of two lines stand beside headings of one centred
    between them: "Rigid" over "Flexibles | | Total" over "Packaging" is "Flexibles | Rigid Packaging | Total".
    Told by three rows: the first's headings in columns the third's also fill, the middle one's in none of them,
    and each heading of the first and third over its own column alone (a group's heading stands over several)."""
    i = 1
    while i + 1 < len(head):
        top, middle, bottom = ({j for j in range(1, len(row)) if row[j]} for row in head[i - 1 : i + 2])
        own = all(
            [m for m in range(1, len(spans)) if _overlaps(box, spans[m])] == [j]
            for r in (i - 1, i + 1)
            for j, box in enumerate(map(_box, boxes[r]))
            if j and box and head[r][j]
        )
        if top and middle and top <= bottom and not middle & bottom and own:
            rows = head[i - 1 : i + 2]
            merged = [" ".join(t for t in (row[j] for row in rows) if t) for j in range(len(head[i]))]
            merged_boxes = [_span([row[j] for row in boxes[i - 1 : i + 2]]) for j in range(len(head[i]))]
            head = [*head[: i - 1], merged, *head[i + 2 :]]
            boxes = [*boxes[: i - 1], merged_boxes, *boxes[i + 2 :]]
        i += 1
    return head, boxes


def _overlaps(box: Box, span: Box | None) -> bool:
    return span is not None and min(box[2], span[2]) - max(box[0], span[0]) > 0


def _centred_group(box: Box, k: int, filled: set[int], spans: list[Box | None]) -> range | None:
    """The widest run of columns holding column ``k`` and no other heading (``filled``: the columns with a
    heading of their own or one a heading to their left already heads) that ``box`` is centred over."""
    middle = (box[0] + box[2]) / 2
    best: tuple[int, int] | None = None
    for a in range(1, k + 1):
        for b in range(k, len(spans)):
            if any(f in filled for f in range(a, b + 1) if f != k):
                break
            left, right = spans[a][0], spans[b][2]  # type: ignore[index]
            if abs((left + right) / 2 - middle) <= 0.1 * (right - left) and (best is None or b - a > best[1] - best[0]):
                best = (a, b)
    return range(best[0], best[1] + 1) if best else None


def _span(boxes: list[Any]) -> Box | None:
    """Where a column stands: the union of its own heading's box and its values' boxes."""
    known = [b for b in map(_box, boxes) if b]
    return reduce(union, known) if known else None


def _is_numeric(texts: list[str], numbers: list[Any]) -> bool:
    filled = [t for t in texts if t]
    read = sum(n is not None for n in numbers)
    nil = sum(1 for t in filled if read_number(t) is None and t.strip().lower() in NIL - {"n/a", "na", "nil", "none"})
    return bool(filled) and read + nil >= _NUMERIC_SHARE * len(filled)


def value_kind(numbers: list[Any]) -> str:
    """The kind of a column of read numbers: "percent", "money $" … or "number"."""
    found = [n for n in numbers if n is not None]
    if found and sum(n.percent for n in found) * 2 > len(found):
        return "percent"
    currencies = Counter(n.currency for n in found if n.currency)
    if currencies:
        return f"money {currencies.most_common(1)[0][0]}"
    return "number"


def _unique(names: list[str], numbers: list[list[Any]], numeric: list[bool]) -> list[str]:
    """Names made unique: a repeated heading over a percent column gets " %", others " (2)", " (3)" …"""
    out: list[str] = []
    for j, name in enumerate(names):
        if name in out and numeric[j] and value_kind([n[j] for n in numbers]) == "percent":
            name = f"{name} %"
        base, counter = name, 2
        while name in out or name == FILE_COLUMN:
            name = f"{base} ({counter})"
            counter += 1
        out.append(name)
    return out


def combine_files(frames: list[Frame]) -> list[Frame]:
    """Frames of different files with the same columns, kinds and scale as one frame with a ``file``
    column first (the same form's records, the same statement of several years' reports); the rest as
    they are, in their order. Two tables of one file with the same columns stay apart."""
    import pandas as pd

    groups: dict[tuple[Any, ...], list[Frame]] = {}
    for frame in frames:
        key = (tuple(frame.columns), tuple(sorted(frame.kinds.items())), frame.scale, frame.label)
        groups.setdefault(key, []).append(frame)
    out: list[Frame] = []
    done: set[int] = set()
    for frame in frames:
        if id(frame) in done:
            continue
        group = groups[(tuple(frame.columns), tuple(sorted(frame.kinds.items())), frame.scale, frame.label)]
        files = [f.files[0] for f in group if len(f.files) == 1]
        if len(group) < 2 or len(set(files)) != len(group):
            out.append(frame)
            done.add(id(frame))
            continue
        done.update(id(f) for f in group)
        pieces = []
        for member in group:
            part = member.data.copy()
            part.insert(0, FILE_COLUMN, member.files[0])
            pieces.append(part)
        data = pd.concat(pieces, ignore_index=True)
        cells = [[None, *row] for member in group for row in member.cells]
        captions = list(dict.fromkeys(f.caption for f in group if f.caption))
        out.append(
            replace(
                frame,
                data=data,
                cells=cells,
                caption=captions[0] if len(captions) == 1 else frame.caption,
                kinds={FILE_COLUMN: "text", **frame.kinds},
                files=tuple(files),
                pages=tuple(dict.fromkeys(p for f in group for p in f.pages)),
            )
        )
    return out


def name_frames(frames: list[Frame]) -> list[Frame]:
    """The frames named ``t1``, ``t2`` … in their order: the names a program uses."""
    return [replace(frame, name=f"t{i}") for i, frame in enumerate(frames, 1)]
