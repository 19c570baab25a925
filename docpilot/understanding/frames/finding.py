"""Frames found lazily: only on the pages asked for (those retrieval or the outline point to), read once per
(file, page) and kept — in memory, and on disk in the structure cache when the store has one.

Finding a page's tables costs ~0.4-1 s (ruled tables by PyMuPDF, tables aligned by whitespace by
``pdftools._texttables``): a 200-page report is never read whole; a call reads at most :data:`MAX_PAGES`.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from docpilot.understanding.cache import StructureCache, file_key
from docpilot.understanding.frames import pagewords as pw
from docpilot.understanding.frames.lists import priced_lists
from docpilot.understanding.frames.model import LABEL_COLUMN, Frame, RawTable, combine_files, frame_of, name_frames
from docpilot.understanding.frames.records import (
    RECORD,
    carried_over,
    footer,
    is_record,
    joined_records,
    record_of,
    title,
)
from docpilot.understanding.frames.unruled import unruled_bodies
from docpilot.understanding.frames.values import is_year, read_number

__all__ = ["FrameStore", "candidate_frames", "read_page_tables", "MAX_PAGES"]

MAX_PAGES = 12  # pages one call reads tables from
RUN_ON = 40  # pages a table that runs on from page to page is read over
_PART = "frames14-{page}"  # the cache part: change the number when RawTable's reading changes
_RUNNING = re.compile(r"^\s*table of contents\s*$", re.I)  # a running link at the top of a report's pages
# "Table 3:", "Exhibit 1", "Table A-2", "Table IV" (not "Table of Contents")
_CAPTION = re.compile(r"^\s*(?:table|exhibit|schedule)\s+(?:[A-Z]?\d[\w.\-]*|[IVXLC]+\b|[A-Z]\b)", re.I)
_FIGURE = re.compile(r"^\s*(?:figure|fig\.)\s*\d+[.:]", re.I)  # a table printed as a paper's figure, captioned below


class FrameStore:
    """The frames of the pages asked for, each page read once. ``cache=None`` keeps them in memory only."""

    def __init__(self, cache: StructureCache | None = None) -> None:
        self.cache = cache
        self._raw: dict[tuple[str, int], list[RawTable]] = {}
        self._keys: dict[tuple[str, int, int], str] = {}
        self.pages_read = 0  # pages whose tables were found by reading the PDF (not memory or disk)

    def frames(
        self,
        path: str | os.PathLike[str],
        pages: Iterable[int],
        *,
        name: str | None = None,
        password: str | None = None,
    ) -> list[Frame]:
        """The frames on ``pages`` (1-based; the first :data:`MAX_PAGES` distinct ones) of the PDF at ``path``,
        top to bottom, page by page. ``name`` is the file's name as the person uploaded it (default: its own)."""
        label = name or Path(path).name
        wanted = list(dict.fromkeys(int(p) for p in pages))[:MAX_PAGES]
        key = self._key(path)
        missing = [p for p in wanted if (key, p) not in self._raw and not self._load(key, p, label)]
        if missing:
            from pdftools.docio import open_pdf

            with open_pdf(path, password) as doc:
                for page in missing:
                    found = read_page_tables(doc, page, label) if 1 <= page <= doc.page_count else []
                    self.pages_read += 1
                    self._raw[(key, page)] = found
                    if self.cache is not None:
                        self.cache.save_json(key, _PART.format(page=page), [t.to_dict() for t in found])
        frames = []
        for page in wanted:
            for raw in self._raw[(key, page)]:
                raw = raw if raw.file == label else replace(raw, file=label)
                frame = record_of(raw) or frame_of(raw)
                if frame is not None:
                    frames.append(frame)
        return frames

    def _key(self, path: str | os.PathLike[str]) -> str:
        info = os.stat(path)
        memo = (os.path.realpath(path), info.st_mtime_ns, info.st_size)
        if memo not in self._keys:
            self._keys[memo] = file_key(path)
        return self._keys[memo]

    def _load(self, key: str, page: int, label: str) -> bool:
        if self.cache is None:
            return False
        data = self.cache.load_json(key, _PART.format(page=page))
        if data is None:
            return False
        self._raw[(key, page)] = [RawTable.from_dict(t) for t in data]
        return True


def candidate_frames(
    store: FrameStore, pages: Mapping[str, Iterable[int]], files: Mapping[str, str], password: str | None = None
) -> list[Frame]:
    """The frames on the pages wanted of each file (``pages``: {file name: 1-based pages}; ``files``: {file name:
    path}), frames of several files with the same columns combined (a ``file`` column), named ``t1``, ``t2`` …"""
    found: list[Frame] = []
    for name, wanted in pages.items():
        frames = _with_all_records(store, files[name], list(wanted), name, password)
        frames = [_headed(store, files[name], name, password, f) if _starts_page(f, frames) else f for f in frames]
        found += joined_records(_run_on(store, files[name], name, password, frames))
    return name_frames(combine_files(found))


def _run_on(store: FrameStore, path: str, name: str, password: str | None, frames: list[Frame]) -> list[Frame]:
    """``frames`` with the rows of the tables they run on into: the last table of a page continued at the top of
    the next page, page after page (a report's listing of 600 notices over 20 pages: "the single biggest notice
    in this report" ranks them all), and the first table of a page continuing the last one of the page before; at
    most :data:`RUN_ON` pages in all."""
    for page in sorted({p for f in frames for p in f.pages}):
        last = sorted((f for f in frames if f.pages[-1] == page), key=_foot)[-1:]
        while last and len(last[0].pages) < RUN_ON:
            after = store.frames(path, [last[0].pages[-1] + 1], name=name, password=password)[:1]
            joined = _continued(last[0], after[0]) if after else None
            if joined is None:
                break
            frames = [joined if f is last[0] else f for f in frames if f.key != after[0].key]
            last = [joined]
    for frame in list(frames):
        first = frame
        while first.pages[0] > 1 and len(first.pages) < RUN_ON and _starts_page(first, frames):
            before = store.frames(path, [first.pages[0] - 1], name=name, password=password)[-1:]
            earlier = _headed(store, path, name, password, before[0]) if before else None  # its heading, if unnamed
            joined = _continued(earlier, first) if earlier else None
            if joined is None or earlier is None:
                break
            shown = next((f for f in frames if f.key == earlier.key), None)
            if shown is not None:  # the table it continues is shown too (a page's second table): one frame of both
                joined = _continued(shown, first) if shown.pages[-1] == first.pages[0] - 1 else None
                if joined is not None:
                    frames = [joined if f is shown else f for f in frames if f is not first]
                break
            frames = [joined if f is first else f for f in frames]
            first = joined
    return frames


def _foot(frame: Frame) -> float:
    """How far down its last page ``frame``'s last row is printed: of the tables that end on a page, the lowest is
    the one the next page may continue (a listing that ran on from the pages before ends above the summary under
    it)."""
    tops = [c.box[1] for row in frame.cells for c in row if c and c.box and c.page == frame.pages[-1]]
    return max(tops, default=0.0)


def _repeats_heading(first: Frame, more: Frame) -> bool:
    """Whether ``more`` prints the same heading row as ``first`` (the same column names and kinds of value) and
    goes on with other rows under no caption of its own: a table that repeats its heading on each page it runs
    over. Two statements of the same columns (a segment's and another segment's, each with a "Revenue" row, or a
    caption each) are two tables."""
    if list(more.columns) != list(first.columns) or (more.caption and more.caption != first.caption):
        return False
    if any((first.kinds.get(c, "text") == "text") != (more.kinds.get(c, "text") == "text") for c in first.columns):
        return False
    seen = set(first.row_labels())
    again = sum(label in seen for label in more.row_labels())
    return again * 2 < max(1, len(more.row_labels()))


def _with_all_records(store: FrameStore, path: str, wanted: list[int], name: str, password: str | None) -> list[Frame]:
    """The frames on ``wanted``, and when one of them is a record (a filing's fund, :mod:`.records`), those on the
    pages next to the records' pages too, until no new record is found: a question about every fund of a filing
    counts the funds of the pages retrieval did not choose (q10 asked again, tuning: Silver's second fund on
    page 3 was not read, and "how many funds have one adviser" counted 2 of 3)."""
    pages = list(dict.fromkeys(wanted))
    frames = store.frames(path, pages, name=name, password=password)
    count = 0
    while (records := {p for f in frames if f.label == RECORD for p in f.pages}) and len(records) > count:
        count = len(records)
        more = sorted({q for p in records for q in (p - 1, p + 1) if q >= 1} - set(pages))
        if not more or len(pages) >= MAX_PAGES:
            break
        pages = sorted(set(pages) | set(more))[:MAX_PAGES]
        frames = store.frames(path, pages, name=name, password=password)
    return frames


_UNNAMED = re.compile(rf"{LABEL_COLUMN}|column \d+")


_BACK = 12  # pages read back for the heading of a table that runs on without it


def _starts_page(frame: Frame, frames: list[Frame]) -> bool:
    return next(f for f in frames if f.pages[0] == frame.pages[0]) is frame and frame.pages[0] > 1


def _headed(store: FrameStore, path: str, name: str, password: str | None, frame: Frame) -> Frame:
    """``frame``, the first table of its page printed without a heading row, with the column names of the table it
    continues: the last table of the pages before, back to the page that prints its heading (as wide, the same
    kind of value in each column); ``frame`` as it is when there is none."""
    if not all(_UNNAMED.fullmatch(c) for c in frame.columns):
        return frame
    for page in range(frame.pages[0] - 1, max(0, frame.pages[0] - 1 - _BACK), -1):
        before = store.frames(path, [page], name=name, password=password)[-1:]
        if not before or not _continues(before[0], frame):
            return frame
        if not all(_UNNAMED.fullmatch(c) for c in before[0].columns):
            heading = before[0]
            kinds = {new: frame.kinds.get(old, "text") for old, new in zip(frame.columns, heading.columns, strict=True)}
            data = frame.data.set_axis(heading.columns, axis=1)
            label = heading.label if heading.label in heading.columns else None
            return replace(frame, data=data, kinds=kinds, caption=heading.caption, heading=heading.heading, label=label)
    return frame


def _continues(first: Frame, more: Frame) -> bool:
    """Whether ``more`` may continue ``first``: printed without a heading row (its columns unnamed), as many
    columns wide, the same kind of value in each; or printed under the same heading again (:func:`_repeats_heading`)."""
    if _repeats_heading(first, more) and not all(_UNNAMED.fullmatch(c) for c in more.columns):
        return True  # the heading printed again at the top of the page
    if len(more.columns) != len(first.columns) or not all(_UNNAMED.fullmatch(c) for c in more.columns):
        return False
    texts = [first.kinds.get(c, "text") == "text" for c in first.columns]
    return texts == [more.kinds.get(c, "text") == "text" for c in more.columns]


def _continued(first: Frame, more: Frame) -> Frame | None:
    """``first`` with the rows of ``more`` below it, when ``more`` is its continuation at the top of the next page
    (:func:`_continues`: printed without its heading row, or under the same heading again); None otherwise."""
    import pandas as pd

    if not _continues(first, more):
        return None
    rows = more.data.set_axis(first.data.columns, axis=1)
    data = pd.concat([first.data, rows], ignore_index=True)
    return replace(first, data=data, cells=first.cells + more.cells, pages=first.pages + more.pages)


def read_page_tables(doc: Any, page_number: int, file: str) -> list[RawTable]:
    """The tables of one page (1-based) of an open PyMuPDF document, with their captions."""
    from docpilot.understanding.tables import page_lines, use_layout_analysis
    from pdftools._tablecells import TextTable
    from pdftools._tables import page_tables, table_cells

    use_layout_analysis()
    page = doc[page_number - 1]
    try:
        tables = page_tables(page)
    except Exception:  # noqa: BLE001 - a finder crash on odd drawings means no table on this page, not a failure
        return []
    all_lines = page_lines(page)
    found: list[RawTable] = []
    for table in tables:
        lines = _outside_tables_above(all_lines, table, tables)
        cells = table_cells(page, table)
        rows = unruled_bodies(page, [[None if c is None else (c.text, tuple(c.bbox)) for c in row] for row in cells])
        texts = [[c[0] if c else "" for c in row] for row in rows]
        carried = None if found else carried_over(doc, page_number, rows)
        if carried or is_record(rows):  # labels and their values: no heading rows to find, no columns to split
            rows, caption = carried or (rows, title(rows) or _caption(lines, tuple(table.bbox)))
            found.append(RawTable(file, page_number, len(found) + 1, rows, 0, caption))
            continue
        if isinstance(table, TextTable):
            parts = [(rows, table.header_rows)]
        else:
            parts = _stacked_tables(rows, _ruled_header_rows(texts))
        for n, (rows, header_rows) in enumerate(parts):
            rows = _whole_heading_words(page, _split_spanning_headings(page, rows, header_rows), header_rows)
            rows, header_rows = _group_lines(page, rows, header_rows)
            rows = _split_figure_columns(page, rows, header_rows)
            rows = rows[:header_rows] + [part for row in rows[header_rows:] for part in _leader_rows(page, row)]
            rows = _without_prose_columns(rows, header_rows)
            # a part under another in one grid has that part's rows above it, not a caption
            caption = (_caption(lines, tuple(table.bbox)) if n == 0 else "") or _caption_above(found, rows, header_rows)
            rows, totals = footer(rows, header_rows)
            found.append(RawTable(file, page_number, len(found) + 1, rows, header_rows, caption))
            if totals:  # an invoice's totals under its lines: a record of their own
                found.append(RawTable(file, page_number, len(found) + 1, totals, 0, caption))
    return found or priced_lists(page, file, 1)


def _outside_tables_above(lines: list[tuple[float, float, str]], table: Any, tables: list[Any]) -> list[Any]:
    """The page's lines less those printed within a table that ends above ``table``: the last row of a listing
    set just above a summary table is that listing's row, not the summary's caption."""
    top = table.bbox[1]
    spans = [(t.bbox[1], t.bbox[3]) for t in tables if t is not table and t.bbox[3] <= top + 2]
    return [line for line in lines if not any(a - 1 <= line[0] and line[1] <= b + 1 for a, b in spans)]


def _stacked_tables(rows: list[list[Any]], header_rows: int) -> list[tuple[list[list[Any]], int]]:
    """A ruled grid holding two tables one under the other, each with its own headings, as two: (rows, heading
    rows) each. Amcor's "GAAP results" over "Net sales | 14,544 | 14,694", then a blank row, then "Twelve Months
    Ended June 30, | 2022 $ million 2023 $ million | Reported ∆%" over "Adjusted non-GAAP results": the columns
    of one are not the other's. A new table starts after a blank row, at rows without figures that head columns
    (a word past the first column: not a section's title, "Current assets:") over rows of figures."""
    texts = [[c[0].strip() if c else "" for c in row] for row in rows]
    figures = [any(_is_figure(t) for t in row[1:] if t) for row in texts]
    for i in range(header_rows + 2, len(rows) - 1):
        if any(texts[i - 1]) or not any(figures[header_rows : i - 1]):
            continue
        end = i
        while end < len(rows) and any(texts[end]) and not figures[end] and end - i < 4:
            end += 1
        heads = texts[i:end]
        if heads and end < len(rows) and figures[end] and any(t for row in heads for t in row[1:]):
            return [(rows[: i - 1], header_rows), *_stacked_tables(rows[i:], end - i)]
    return [(rows, header_rows)]


def _caption_above(found: list[RawTable], rows: list[list[Any]], header_rows: int) -> str:
    """The caption of the table printed just above on the page when this one has none of its own and the same
    columns and heading rows: the second of two tables under one caption ("Sales by Category" over the 13 weeks'
    table and the 52 weeks')."""
    if not found or not rows or not header_rows:
        return ""
    above = found[-1]
    if not above.header_rows or _texts(above.cells[above.header_rows - 1]) != _texts(rows[header_rows - 1]):
        return ""
    title = _texts(above.cells[0])
    titled = above.header_rows > 1 and title[0] and not any(title[1:])  # a title row over the whole table
    return above.caption or (title[0] if titled else "")


def _texts(row: list[Any]) -> list[str]:
    return [" ".join(c[0].split()) if c else "" for c in row]


_LEADER = re.compile(
    r"(?:\s+(?:\.\s?){2,}|\s*(?:\.\s?){3,})\s*$"
)  # "Stabilizer wiring change ........": dots leading to the figures


def _leader_rows(page: Any, row: list[Any]) -> list[list[Any]]:
    """One drawn row that holds several of the table's rows, its label cell a list of labels each led by dots
    to its figures ("Stabilizer wiring change .......\nAOA sensor system test ......."): split into those rows,
    each cell's lines going to the label whose line starts at or above them (a figure's wrapped line stays with
    it). A row whose label is one line, or whose label lines have no dots, is kept as it is."""
    first = row[0] if row else None
    if not first or not first[1]:
        return [row]
    lines = pw.cell_lines(page, first[1])
    texts = [" ".join(str(w[4]) for w in line) for line in lines]
    led = [i for i, text in enumerate(texts) if _LEADER.search(text)]
    if len(led) < 2:
        return [row]
    # a label may wrap: each label ends at a line led by dots; lines after the last such line are one more label
    starts = [0] + [i + 1 for i in led if i + 1 < len(lines)]
    tops = [lines[i][0][1] for i in starts]
    split: list[list[Any]] = [[] for _ in tops]
    for j, cell in enumerate(row):
        parts: list[list[Any]] = [[] for _ in tops]
        for line in lines if j == 0 else pw.cell_lines(page, cell[1]) if cell and cell[1] else []:
            at = max((i for i, top in enumerate(tops) if top <= line[0][1] + 2.0), default=0)
            parts[at].extend(line)
        for i, words in enumerate(parts):
            text = _LEADER.sub("", " ".join(str(w[4]) for w in words)).strip()
            if not words or not text:  # a cell with no words on this row's lines (a form's blank box)
                split[i].append(None)
                continue
            box = (
                min(w[0] for w in words),
                min(w[1] for w in words),
                max(w[2] for w in words),
                max(w[3] for w in words),
            )
            split[i].append((text, box))
    return split if all(r[0] for r in split) else [row]


def _without_prose_columns(rows: list[list[Any]], header_rows: int) -> list[list[Any]]:
    """The rows less a column at the table's edge that is the page's running prose, not the table's (the other
    column of a two-column paper read beside a table aligned by whitespace): its heading is a piece of a sentence
    (it starts in lower case or ends with a full stop, three words or more) and most of its cells are phrases of
    four words or more. A table's own column of descriptions is headed by a name ("Description") and kept."""
    width = max((len(r) for r in rows), default=0)
    if width < 3 or not header_rows:
        return rows
    for edge in (width - 1, 0):
        head = " ".join(r[edge][0] for r in rows[:header_rows] if edge < len(r) and r[edge]).strip()
        words = head.split()
        if len(words) < 3 or not (head[:1].islower() or head.endswith(".")):
            continue
        cells = [r[edge][0] for r in rows[header_rows:] if edge < len(r) and r[edge] and r[edge][0].strip()]
        if cells and sum(len(c.split()) >= 4 for c in cells) * 3 >= len(cells) * 2:
            rows = [[c for j, c in enumerate(r) if j != edge] for r in rows]
    return rows


def _whole_heading_words(page: Any, rows: list[list[Any]], header_rows: int) -> list[list[Any]]:
    """The heading rows with a word printed across several columns given whole to each of them.

    A heading centred over two columns ("Headcount" over "2022" and "2023") is cut where the columns meet
    when cells are read by their boxes ("Head" | "count"); the page's own words say where a word runs on."""
    heads = rows[:header_rows]  # the rows themselves: their cells are mended in place
    boxes = [c[1] for row in heads for c in row if c and c[1]]
    if not boxes:
        return rows
    top, bottom = min(b[1] for b in boxes), max(b[3] for b in boxes)
    for word in pw.page_words(page, (min(b[0] for b in boxes), top, max(b[2] for b in boxes), bottom)):
        x0, y0, x1, y1, text = word[0], word[1], word[2], word[3], str(word[4])
        for row in heads:
            crossed = [
                j
                for j, cell in enumerate(row)
                if cell
                and cell[1]
                and min(x1, cell[1][2]) - max(x0, cell[1][0]) > 1
                and cell[1][1] <= y0 + 1
                and cell[1][3] >= y1 - 1
            ]
            if len(crossed) < 2:
                continue
            for j in crossed:
                text_j, box = row[j]
                lines = text_j.split("\n")
                fixed = [text if line and line != text and line in text else line for line in lines]
                row[j] = ("\n".join(fixed), box)
    return rows


def _group_lines(page: Any, rows: list[list[Any]], header_rows: int) -> tuple[list[list[Any]], int]:
    """A group heading printed in the top line of one of the cells it heads, as a heading row of its own.

    Where the rules are drawn down through the whole heading, a heading over three columns stands in the
    middle one's cell, above that cell's own heading: "Plan" over "Revenue | Capital | Total", in the cell
    "Plan / Capital". It is told by its height: it stands above the line where the row's headings start, and
    the row repeats a heading ("Revenue" twice) that only the groups tell apart. Its line becomes a row of its
    own with its words' box, which :func:`frame_of` centres over the columns it heads."""
    if header_rows < 1 or header_rows > len(rows):
        return rows, header_rows
    row = rows[header_rows - 1]
    lines = [pw.cell_lines(page, cell[1]) if cell and cell[1] else [] for cell in row]
    tops = Counter(round(cell_lines[0][0][1]) for cell_lines in lines[1:] if cell_lines)
    if not tops or tops.most_common(1)[0][1] < 3:
        return rows, header_rows
    base = tops.most_common(1)[0][0]  # where the row's headings start
    above = {
        j: i
        for j, cell_lines in enumerate(lines)
        if j
        and (i := next((i for i, line in enumerate(cell_lines) if abs(line[0][1] - base) <= 2), 0))
        and all(line[0][1] < base - 2 for line in cell_lines[:i])
    }
    if not above:
        return rows, header_rows
    own = [
        " ".join(str(w[4]) for line in cell_lines[above.get(j, 0) :] for w in line)
        for j, cell_lines in enumerate(lines)
    ]
    said = [text for text in own[1:] if text]
    if len(set(said)) == len(said):
        return rows, header_rows  # nothing repeats: a heading wrapped over two lines, not a group's
    group: list[Any] = [None] * len(row)
    for j, i in above.items():
        words = [w for line in lines[j][:i] for w in line]
        group[j] = (" ".join(str(w[4]) for w in words), pw.box_of(words))
        row[j] = (own[j], (row[j][1][0], base, row[j][1][2], row[j][1][3]))
    return [*rows[: header_rows - 1], group, *rows[header_rows - 1 :]], header_rows + 1


def _split_figure_columns(page: Any, rows: list[list[Any]], header_rows: int) -> list[list[Any]]:
    """A column each of whose cells prints the same number of figures side by side ("3,393  3,540": two
    years' columns the alignment did not part, a heading "2022 $ million 2023 $ million" bridging their gap),
    split into that many columns by where the figures stand; each heading word over them goes to the column
    it stands over, and a heading over both is centred over them (:func:`frame_of` carries it)."""
    width = max((len(r) for r in rows), default=0)
    rows = [list(r) + [None] * (width - len(r)) for r in rows]
    for j in reversed(range(1, width)):
        body = [row[j] for row in rows[header_rows:] if row[j] and row[j][0].strip()]
        counts = {len(cell[0].split()) for cell in body}
        if len(body) < 2 or len(counts) != 1 or (k := counts.pop()) < 2:
            continue
        if not all(read_number(part) is not None for cell in body for part in cell[0].split()):
            continue
        words = [pw.words_in(page, cell[1]) if cell[1] else [] for cell in body]
        if any(len(w) != k for w in words):
            continue
        edges = [(min(w[i][0] for w in words), max(w[i][2] for w in words)) for i in range(k)]
        height = max(w[i][3] - w[i][1] for w in words for i in range(k))
        if any(edges[i + 1][0] - edges[i][1] < 2 * height for i in range(k - 1)):
            continue  # no gap of columns between them ("1 234" is one figure printed with a space)
        for r, row in enumerate(rows):
            parts: list[Any] = [None] * k
            cell = row[j]
            if cell and cell[1]:
                if r >= header_rows:
                    found = pw.words_in(page, cell[1])
                    parts = [(str(w[4]), tuple(w[:4])) for w in found] if len(found) == k else [cell] + [None] * (k - 1)
                else:
                    parts = _split_heading(page, cell, edges)
            elif cell:
                parts = [cell] + [None] * (k - 1)
            row[j : j + 1] = parts
    return rows


def _split_heading(page: Any, cell: Any, edges: list[tuple[float, float]]) -> list[Any]:
    """A heading cell over columns split by figures: each phrase to the column it stands over ("2022 $ million"
    | "2023 $ million"); a cell with a phrase across several ("Twelve Months Ended June 30,") stays whole in the
    first, with its words' box, to be centred over them."""
    phrases = [p for line in pw.cell_lines(page, cell[1]) for p in pw.phrases(line)]
    owners = [_owner_of(p, edges) for p in phrases]
    parts: list[Any] = [None] * len(edges)
    if phrases and None not in owners and len(set(owners)) > 1:
        for i in sorted(set(o for o in owners if o is not None)):
            mine = [p for p, o in zip(phrases, owners, strict=True) if o == i]
            parts[i] = (" ".join(p[4] for p in mine), pw.box_of(mine))
        return parts
    if phrases:
        parts[0] = (cell[0], pw.box_of(phrases))
    else:
        parts[0] = cell
    return parts


def _owner_of(phrase: Any, edges: list[tuple[float, float]]) -> int | None:
    """The column a heading phrase stands over alone: the one whose figures it overlaps, when it overlaps no
    other's (a heading is wider than its figures and aligned with them); None for a phrase across them."""
    over = [i for i, (a, b) in enumerate(edges) if min(phrase[2], b) - max(phrase[0], a) > 0]
    return over[0] if len(over) == 1 else None


def _split_spanning_headings(page: Any, rows: list[list[Any]], header_rows: int) -> list[list[Any]]:
    """Heading cells drawn across several columns split into the columns under them, by where their words stand.

    A ruled table's heading cell may span the columns it heads ("Pre-Pawn" over "Handgun | Long Gun | Other",
    one cell): a line of it whose words stand over two columns or more is split among them, and a line whose
    words stand over one column or across several ("Pre-Pawn") heads each of them. A cell is split only when
    every column under it gets a word of its own."""
    body = rows[header_rows:]
    width = max((len(r) for r in rows), default=0)
    spans = [_column_span(body, m, rows[:header_rows]) for m in range(width)]
    for row in rows[:header_rows]:
        for j, cell in enumerate(row):
            end = j + 1
            while end < len(row) and row[end] is None:
                end += 1
            if not cell or not cell[1] or end - j < 2 or any(spans[m] is None for m in range(j, end)):
                continue
            split = _split_cell(page, cell[1], [spans[m] for m in range(j, end)])  # type: ignore[misc]
            if split:
                top, bottom = cell[1][1], cell[1][3]
                for m, text in zip(range(j, end), split, strict=True):
                    x0, x1 = spans[m]  # type: ignore[misc]
                    row[m] = (text, (x0, top, x1, bottom))
    return rows


def _column_span(body: list[list[Any]], m: int, head: list[list[Any]]) -> tuple[float, float] | None:
    """Column ``m``'s left and right edges, from the first body cell that has a box there, widened to the heading
    cells over that column alone (a year "2023" printed wider than its figures "40%", right-aligned)."""
    edges = next(((row[m][1][0], row[m][1][2]) for row in body if m < len(row) and row[m] and row[m][1]), None)
    if edges is None:
        return None
    for row in head:
        alone = m < len(row) and row[m] and row[m][1] and (m + 1 == len(row) or row[m + 1] is not None)
        if alone:
            edges = (min(edges[0], row[m][1][0]), max(edges[1], row[m][1][2]))
    return edges


def _split_cell(page: Any, box: tuple[float, ...], columns: list[tuple[float, float]]) -> list[str] | None:
    """The texts of one spanning heading cell for each of ``columns``; None when it does not split."""
    lines = pw.cell_lines(page, box)
    texts: list[list[str]] = [[] for _ in columns]
    split_any = False
    for line in lines:
        phrases = pw.phrases(line)
        owners = [pw.owner(p, columns) for p in phrases]
        if None not in owners and len(set(owners)) >= 2:  # phrases standing over two columns or more: split
            split_any = True
            for phrase, owner in zip(phrases, owners, strict=True):
                texts[owner].append(str(phrase[4]))  # type: ignore[index]
        else:  # a group heading over all of them
            said = " ".join(str(p[4]) for p in phrases)
            for own in texts:
                own.append(said)
    if not split_any or not all(any(t for t in own) for own in texts):
        return None
    heads = [" ".join(own) for own in texts]
    return heads if len(set(heads)) == len(heads) else None


def _ruled_header_rows(texts: list[list[str]]) -> int:
    """How many of a ruled table's first rows are headings: none when the first row is figures (not years),
    else the first rows without a figure (a title row, heading lines), up to four, before the first figures;
    one when no row below holds a figure (a table of words: its rows look alike, only the first is known to head
    it — "Global variable | Type | Description" over "CLIENT_HOST | VARCHAR(255) | …"), two when that first row is
    a title over the whole table (its first cell alone filled: "Table 2-2 Comparison of …" over "User action |
    *JOBCTL | …" over rows of "X")."""
    if len(texts) < 2:
        return 0
    first = [t for t in texts[0][1:] if t]
    if first and sum(_is_figure(t) for t in first) * 2 > len(first) or _like_body(texts):
        return 0
    figures = [i for i, row in enumerate(texts) if i and any(_is_figure(t) for t in row[1:] if t)]
    if not figures:
        titled = len(texts) > 2 and len(texts[0]) > 2 and not first and sum(1 for t in texts[1] if t) > 1
        return 2 if titled else 1
    count = 1
    while count < min(len(texts) - 1, 4):
        row = texts[count]
        if not any(row) or count >= figures[0]:
            break
        count += 1
    return count if count < len(texts) else 1


def _like_body(texts: list[list[str]]) -> bool:
    """Whether the first row is a record like most rows below it (a page of a table whose heading was printed on
    an earlier page): a date or a figure in it, and in each column the same kind of text as those rows have."""
    shapes = [tuple(_shape(t) for t in row) for row in texts]
    common, count = Counter(shapes[1:]).most_common(1)[0]
    return shapes[0] == common and count * 2 >= len(shapes) - 1 and bool({"date", "figure"} & set(common))


_DATE = re.compile(r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d\d-\d\d")


def _shape(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    if _DATE.fullmatch(text):
        return "date"
    return "year" if is_year(text) else "figure" if _is_figure(text) else "text"


def _is_figure(text: str) -> bool:
    return read_number(text) is not None and not is_year(text)


def _caption(lines: list[tuple[float, float, str]], bbox: tuple[float, ...]) -> str:
    """A table's caption: the "Table 3: …" line above it (or below it, as a "Figure 13." line) with the lines that
    continue it, else the few short lines set just above it (a statement's title and its "(in thousands)")."""
    top, bottom = bbox[1], bbox[3]
    lines = sorted((line for line in lines if not _RUNNING.match(line[2])), key=lambda line: round(line[0]))
    above = [(y0, y1, text) for y0, y1, text in lines if y1 <= top + 2 and top - y1 < 60]
    starts = [line for line in above if _CAPTION.match(line[2])]
    if starts:
        first = starts[-1][0]
        return _joined([text for y0, _, text in above if y0 >= first - 1])
    below = [(y0, y1, text) for y0, y1, text in lines if y0 >= bottom - 2 and y0 - bottom < 30]
    starts = [line for line in below if _CAPTION.match(line[2]) or _FIGURE.match(line[2])]
    if starts:
        y0, y1, _ = starts[0]
        return _joined([text for a, b, text in below if abs(a - y0) < 1 or 0 <= a - y1 < (y1 - y0)])
    title: list[str] = []
    edge = top
    for y0, y1, text in reversed(above):
        if len(title) == 3 or edge - y1 > 2.5 * (y1 - y0) or len(text) > 90:
            break
        title.insert(0, text)
        edge = min(edge, y0)
    return _joined(title) if any(re.search(r"[A-Za-z]{3}", t) for t in title) else ""


def _joined(texts: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(dict.fromkeys(texts))).strip()
