"""Tables of labels and their values read as records: one row a record, one column a label.

A filing prints each fund as a small ruled table, "Investment adviser | AlphaMark Advisors, LLC", "Monthly average
net assets (USD) | 1,914,223,938"; an invoice prints its number, date and total the same way. Read as a table of
two columns, the first label becomes a heading and the values a column of mixed things no program can compare
(q10: "which fund has the highest monthly average net assets" had no column to ask). Read as a record, each label
is a column and the record is named by the caption above it ("Item C.1 Fund: Ironwood Balanced Fund …"); the
records of one file with the same labels are one frame with a row each (:func:`joined_records`), and
:func:`~docpilot.understanding.frames.model.combine_files` joins those of several files.

A table is a record when it has two columns, three rows or more, a label in every row's first cell that is no
number and no other row's label, and values of both kinds in the second below the first row (names and figures),
or labels that each end in a colon as a form's do: a table of one kind of value under a heading ("Item | Cost")
stays a table. An invoice's totals under its lines are read as a record of their own (:func:`footer`).

A record that a page break cuts starts at the top of the next page without its first rows and its caption: they
are the lines at the foot of the page before that stand in its two columns, and the lines just above them
(:func:`carried_over`). Their cells are cited on the record's page, without a box.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from docpilot.understanding.frames.model import CellRef, Frame, RawTable, clean_text, value_kind
from docpilot.understanding.frames.values import read_number, read_scale

__all__ = ["RECORD", "carried_over", "footer", "is_record", "joined_records", "record_of", "title"]

RECORD = "Record"  # the column that names each record: the caption above its table

_MAX_LABEL_WORDS = 8


def record_of(raw: RawTable) -> Frame | None:
    """The table as a one-row frame of its labels' values, or None when it is not a table of labels and values."""
    pairs = _pairs(raw.cells)
    if pairs is None:
        return None
    import pandas as pd

    names: list[str] = []
    for label, _ in pairs:
        name, n = label, 2
        while name in names or name == RECORD:
            name, n = f"{label} ({n})", n + 1
        names.append(name)
    caption = clean_text(raw.caption)
    values: dict[str, list[Any]] = {RECORD: [caption]}
    kinds = {RECORD: "text"}
    for name, (_, (text, _box)) in zip(names, pairs, strict=True):
        number = read_number(text)
        if number is None:
            values[name], kinds[name] = [text], "text"
        else:
            values[name] = [float(number.value)]
            kinds[name] = value_kind([number])
    data = pd.DataFrame(values)
    for name, kind in kinds.items():
        data[name] = data[name].astype(object if kind == "text" else "float64")
    cells: list[CellRef | None] = [CellRef(raw.file, raw.page, caption, None) if caption else None]
    cells += [CellRef(raw.file, raw.page, text, box) for _, (text, box) in pairs]
    return Frame(
        data=data,
        cells=[cells],
        caption=caption,
        kinds=kinds,
        scale=read_scale(caption),
        label=RECORD,
        files=(raw.file,),
        pages=(raw.page,),
        key=f"{raw.file}:{raw.page}:{raw.index}",
    )


_SUMMED = re.compile(r"(?i)\b(?:total|sub-?total|tax|vat|tva|gst|discount|shipping|balance|amount due)\b")


def footer(cells: list[list[Any]], header_rows: int) -> tuple[list[list[Any]], list[list[Any]]]:
    """An invoice's lines and its totals under them, apart: (the rows above, the totals as rows of a label and
    its value). A total is a row at the foot with nothing in the first column, its label in a column to the
    right ("Total HT :", "TVA 20% :", "Total TTC :" under "P.U. HT") and its figure in the last; read as rows of the
    lines, its label was no row label and the lines' unit prices no figures (q10). Two such rows or more make
    the totals; else (rows, [])."""
    end = len(cells)
    pairs: list[list[Any]] = []
    while end > header_rows + 1:
        filled = [(j, c) for j, c in enumerate(cells[end - 1]) if c is not None and clean_text(c[0])]
        if len(filled) != 2 or filled[0][0] == 0:
            break
        (_, label), (_, value) = filled
        text = clean_text(label[0])
        if read_number(text) is not None or read_number(clean_text(value[0])) is None:
            break
        if not (text.endswith(":") or _SUMMED.search(text)):
            break
        pairs.insert(0, [(text if text.endswith(":") else f"{text}:", label[1]), value])
        end -= 1
    if len(pairs) < 2:
        return cells, []
    return cells[:end], pairs


def title(cells: list[list[Any]]) -> str:
    """The text of the rows of one cell that head a record's grid (its caption, drawn inside the rules)."""
    found = []
    for row in cells:
        texts = [clean_text(c[0]) for c in row if c is not None and clean_text(c[0])]
        if len(texts) != 1:
            break
        found.append(texts[0])
    return " ".join(found)


def is_record(rows: list[list[Any]]) -> bool:
    """Whether a table's rows (cells of (text, box) or None) are labels and their values."""
    return _pairs(rows) is not None


def _pairs(cells: list[list[Any]], kinds: bool = True) -> list[tuple[str, tuple[str, Any]]] | None:
    """(label, (value, box)) for each row of a table of labels and values; None for any other table. Without
    ``kinds``, the values may be of one kind (a record's last rows)."""
    rows = [[c for c in row if c is not None and clean_text(c[0])] for row in cells]
    rows = [row for row in rows if row]
    while rows and len(rows[0]) == 1:  # its title in the grid ("Item C.1 Fund: …"): see title()
        rows = rows[1:]
    if len(rows) < 3 or any(len(row) != 2 for row in rows):
        return None
    labels = [clean_text(row[0][0]).rstrip(":").strip() for row in rows]
    values = [(clean_text(row[1][0]), row[1][1]) for row in rows]
    if len(set(labels)) < len(labels) or any(
        not label or read_number(label) is not None or len(label.split()) > _MAX_LABEL_WORDS for label in labels
    ):
        return None
    numbers = sum(read_number(text) is not None for text, _ in values[1:])
    if not kinds or all(clean_text(row[0][0]).endswith(":") for row in rows):  # "Total TTC :": labels as a form's
        return list(zip(labels, values, strict=True))
    if not numbers or numbers == len(values) - 1:  # one kind of value under the first row: a table and its heading
        return None
    return list(zip(labels, values, strict=True))


def carried_over(doc: Any, page_number: int, cells: list[list[Any]]) -> tuple[list[list[Any]], str] | None:
    """The rows and caption of a record cut by a page break, when ``cells`` (the first table of its page, two
    columns of labels and values) continue the rows at the foot of the page before, set in its two columns;
    None otherwise."""
    if page_number < 2 or _pairs(cells, kinds=False) is None:
        return None
    rows_of_two = [row for row in cells if len(row) == 2 and row[0] and row[1] and row[0][1] and row[1][1]]
    if not rows_of_two:
        return None
    left, gap = min(row[0][1][0] for row in rows_of_two), min(row[1][1][0] for row in rows_of_two)
    lines = _lines(doc[page_number - 2])
    rows: list[list[Any]] = []
    while lines:
        y = lines[-1][1]
        row = [line for line in lines if abs(line[1] - y) < 2]
        labels = [t for x0, _, x1, t in row if left - 5 <= x0 and x1 < gap - 2]
        said = [t for x0, _, x1, t in row if x0 >= gap - 5]
        if not labels or not said or len(labels) + len(said) != len(row):
            break
        rows.insert(0, [(" ".join(labels), None), (" ".join(said), None)])
        lines = lines[: len(lines) - len(row)]
    if not rows or _pairs(rows + cells) is None:
        return None
    caption = [text for _, _, _, text in lines[-3:] if len(text) <= 90]
    return rows + cells, clean_text(" ".join(caption))


def _lines(page: Any) -> list[tuple[float, float, float, str]]:
    """The page's text lines as (left, baseline, right, text), top to bottom."""
    lines = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = clean_text("".join(span["text"] for span in line["spans"]))
            if text:
                x0, _, x1, y1 = line["bbox"]
                lines.append((x0, y1, x1, text))
    return sorted(lines, key=lambda line: (round(line[1]), line[0]))


def joined_records(frames: list[Frame]) -> list[Frame]:
    """The record frames of one file with the same labels as one frame with a row each, where the first of them
    stood; other frames as they are."""
    import pandas as pd

    groups: dict[tuple[Any, ...], list[Frame]] = {}
    for frame in frames:
        if frame.label == RECORD:
            groups.setdefault((frame.files, tuple(frame.columns), tuple(sorted(frame.kinds.items()))), []).append(frame)
    out: list[Frame] = []
    for frame in frames:
        group = groups.get((frame.files, tuple(frame.columns), tuple(sorted(frame.kinds.items())))) or [frame]
        if frame.label != RECORD or len(group) < 2:
            out.append(frame)
        elif frame is group[0]:
            caption, names = _names([f.caption for f in group])
            data = pd.concat([f.data for f in group], ignore_index=True)
            data[RECORD] = names
            cells = [
                [_renamed(row[0], name), *row[1:]] for f, name in zip(group, names, strict=True) for row in f.cells
            ]
            out.append(
                replace(
                    frame,
                    data=data,
                    cells=cells,
                    caption=caption or "Records",
                    scale=read_scale(caption),
                    pages=tuple(dict.fromkeys(p for f in group for p in f.pages)),
                )
            )
    return out


def _renamed(cell: CellRef | None, name: str) -> CellRef | None:
    return replace(cell, text=name) if cell is not None and name else cell


def _names(captions: list[str]) -> tuple[str, list[str]]:
    """The records' caption and each one's name, from the captions above them: each from the sentence that starts
    as most of theirs do (not the closing line of the record above, "The fund did not engage in …"), to its
    first full stop, less the label all of them start with ("Item C.1 Fund:", the caption) and the label after
    the name ("Series identifier: …")."""
    split = [c.split() for c in captions]
    starts = [[0, *(i + 1 for i, w in enumerate(words[:-1]) if w.endswith("."))] for words in split]
    counts = Counter(
        key for words, found in zip(split, starts, strict=True) for key in {tuple(words[i : i + 2]) for i in found}
    )
    names = []
    for words, found in zip(split, starts, strict=True):
        best = max(found, key=lambda i: (counts[tuple(words[i : i + 2])], -i))
        rest = words[best:]
        end = next((k + 1 for k, w in enumerate(rest) if w.endswith(".") and k >= 1), len(rest))
        names.append(rest[:end])
    common: list[str] = []
    for alike in zip(*names, strict=False):
        if len(set(alike)) != 1:
            break
        common.append(alike[0])
    # up to a label's colon: "Item C.1 Fund:" names what they are, "Ironwood" after it is part of each name
    common = common[: next((k + 1 for k in range(len(common) - 1, -1, -1) if common[k].endswith(":")), 0)]
    if len(common) == min(len(n) for n in names):  # no word of its own left to one of them
        common = []
    return " ".join(common), [" ".join(_before_label(n[len(common) :])) for n in names]


def _before_label(words: list[str]) -> list[str]:
    """A name's words before the label that follows it: "Ironwood Balanced Fund" of "Ironwood Balanced Fund Series
    identifier: S000047010." (a label: a capitalised word, then words in lower case, the last ending in a colon)."""
    colon = next((k for k, w in enumerate(words) if w.endswith(":")), None)
    if colon is None:
        return words
    start = colon
    while start > 0 and words[start][:1].islower():
        start -= 1
    return words[:start] if start > 0 else words
