"""Known frames for ``bench/tableqa.py`` and the small PDFs they are printed into (at bench time, never committed).

A frame's spec is in ``bench/tableqa/frames.json``; :func:`build_frame` makes the pandas frame from it with a seeded
generator, :func:`render_pdf` prints it with PyMuPDF in the spec's layout (ruled grid, rules above and below only, or
whitespace-aligned; one- or two-line headings; caption with the unit; text and footnotes around; the table on page
``table_page`` of ``pages``), and :func:`make_docs` does both for every spec into a folder.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pymupdf

__all__ = ["Doc", "load_specs", "build_frame", "format_value", "printed_cells", "render_pdf", "make_docs"]

FRAMES = Path(__file__).resolve().parent / "tableqa" / "frames.json"
FONT, BOLD = "helv", "hebo"
LEFT, RIGHT, TOP, BOTTOM = 56.0, 539.0, 64.0, 790.0
FILLER = [
    "This report is prepared for the board and published for the information of members and the public.",
    "The figures were compiled by the finance and statistics team from the records held at the end of the period.",
    "Definitions follow those used in earlier editions so that the tables can be compared across years.",
    "Where a figure has been revised since the last edition, the revised figure is used throughout.",
    "Comments on this edition are welcome and may be sent to the editorial office by post or by email.",
    "The methodology annex describes how the data were collected, checked and summarised.",
    "Readers should note that totals may not add because of rounding in the underlying records.",
]


@dataclass
class Doc:
    """One synthetic document: its spec, its frame (row labels as index), the PDF and the table's page (1-based)."""

    spec: dict[str, Any]
    frame: pd.DataFrame
    path: Path
    page: int

    @property
    def name(self) -> str:
        return str(self.spec["name"])

    def column(self, key: str) -> dict[str, Any]:
        return next(c for c in self.spec["columns"] if c["key"] == key)

    def cell(self, row: str, key: str) -> str:
        """The cell's text as printed."""
        return format_value(self.column(key), float(self.frame.at[row, key]))


def load_specs(path: Path = FRAMES) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text())["frames"])


def _draw(col: dict[str, Any], rng: random.Random, frame: dict[str, list[float]], n: int) -> list[float]:
    decimals = int(col.get("decimals", 0))
    for _ in range(200):
        if "like" in col:
            lo, hi = col["factor"]
            vals = [round(v * rng.uniform(lo, hi), decimals) for v in frame[col["like"]]]
        else:
            vals = [round(rng.uniform(col["low"], col["high"]), decimals) for _ in range(n)]
        if "max" in col:
            vals = [min(v, col["max"]) for v in vals]
        if len(set(vals)) == n:
            return vals
    raise ValueError(f"could not draw distinct values for {col['key']}")


def build_frame(spec: dict[str, Any], seed: int) -> pd.DataFrame:
    """The spec's frame: one row per row label (the index), the group column ``group``, one column per spec column."""
    rng = random.Random(f"{seed}-{spec['name']}")
    n = len(spec["rows"])
    made: dict[str, list[float]] = {}
    df = pd.DataFrame(index=pd.Index(spec["rows"], name=spec["label_header"]))
    for col in spec["columns"]:
        if "values" in col:
            made[col["key"]] = [float(v) for v in col["values"]]
        elif "derive" in col:
            values = pd.DataFrame(made).eval(col["derive"])
            made[col["key"]] = [round(float(v), int(col.get("decimals", 0))) for v in values]
        else:
            made[col["key"]] = _draw(col, rng, made, n)
    if "group" in spec:
        df["group"] = spec["group"]["values"]
    for key in [c["key"] for c in spec["columns"]]:
        df[key] = made[key]
    return df


def format_value(col: dict[str, Any], value: float) -> str:
    """How the column prints a value: thousands separators, decimals, %, and negatives as ``(x)`` or ``-x``."""
    decimals = int(col.get("decimals", 0))
    body = f"{abs(value):,.{decimals}f}" + ("%" if col.get("percent") else "")
    if value < 0 and round(abs(value), decimals) != 0:
        return f"({body})" if col.get("negative") == "paren" else f"-{body}"
    return body


def printed_cells(doc: Doc) -> list[str]:
    """Every cell text the table prints (labels, groups, values and the total row), for checking a PDF."""
    texts = [str(r) for r in doc.frame.index] + [str(g) for g in doc.frame.get("group", [])]
    texts += [doc.cell(r, c["key"]) for r in doc.frame.index for c in doc.spec["columns"]]
    return texts + [v for v in _total_row(doc) if v]


def _total_row(doc: Doc) -> list[str]:
    if not doc.spec.get("total_row"):
        return []
    cols = _printed_columns(doc.spec)
    return [format_value(c, float(doc.frame[c["key"]].sum())) if c.get("sum") else "" for c in cols]


def _printed_columns(spec: dict[str, Any]) -> list[dict[str, Any]]:
    order = spec.get("order") or [c["key"] for c in spec["columns"]]
    return [next(c for c in spec["columns"] if c["key"] == k) for k in order]


def _width(text: str, size: float, bold: bool = False) -> float:
    return float(pymupdf.get_text_length(text, fontname=BOLD if bold else FONT, fontsize=size))


def _paragraph(
    page: pymupdf.Page, y: float, text: str, size: float = 10.0, bold: bool = False, gap: float = 8
) -> float:
    """Print a wrapped paragraph from ``y``; the y below it."""
    rect = pymupdf.Rect(LEFT, y, RIGHT, BOTTOM)
    left = page.insert_textbox(rect, text, fontsize=size, fontname=BOLD if bold else FONT)
    if left < 0:
        raise ValueError(f"the page has no room for {text[:40]!r}")
    return BOTTOM - left + gap


def _table(page: pymupdf.Page, doc: Doc, y: float) -> float:
    """Print the table from ``y`` in the spec's layout; the y below it."""
    spec, df = doc.spec, doc.frame
    ruling = spec["layout"].get("ruling", "none")
    cols = _printed_columns(spec)
    marks = spec.get("marks", {})
    labels = [f"{r}{marks.get(r, '')}" for r in df.index]
    heads = [c["header"] if isinstance(c["header"], list) else ["", c["header"]] for c in cols]
    two_lines = any(h[0] for h in heads)
    text_cols: list[tuple[str, list[str]]] = [(spec["label_header"], labels)]
    if "group" in spec:
        text_cols.append((spec["group"]["header"], [str(g) for g in df["group"]]))
    total = _total_row(doc)
    size = 9.0
    while True:
        widths = [max(_width(h, size, True), *(_width(v, size) for v in vals)) + 14 for h, vals in text_cols]
        if spec.get("total_row"):
            widths[0] = max(widths[0], _width(spec["total_row"], size, True) + 14)
        for c, h in zip(cols, heads, strict=True):
            cells = [doc.cell(r, c["key"]) for r in df.index] + [t for t in total if t]
            top = 0.0 if c.get("span") else _width(h[0], size, True)
            widths.append(max(top, _width(h[1], size, True), *(_width(v, size) for v in cells)) + 16)
        if LEFT + sum(widths) <= RIGHT or size <= 6.5:
            break
        size -= 0.5
    xs = [LEFT]
    for w in widths:
        xs.append(xs[-1] + w)
    row_h = size * 1.9
    n_text = len(text_cols)
    x_end = xs[-1]

    def hline(yy: float, width: float = 0.6) -> None:
        page.draw_line((LEFT, yy), (x_end, yy), width=width)

    def put(text: str, i: int, yy: float, bold: bool = False, right: bool = False) -> None:
        x = xs[i + 1] - 6 - _width(text, size, bold) if right else xs[i] + 5
        page.insert_text((x, yy + row_h * 0.68), text, fontsize=size, fontname=BOLD if bold else FONT)

    y0 = y
    if ruling == "booktabs":
        hline(y, 1.2)
    head_rows = 2 if two_lines else 1
    for j, (title, _) in enumerate(text_cols):
        put(title, j, y + (head_rows - 1) * row_h, bold=True)
    done_spans: set[str] = set()
    for j, (c, h) in enumerate(zip(cols, heads, strict=True)):
        i = n_text + j
        if h[0] and c.get("span"):
            if h[0] not in done_spans:
                done_spans.add(h[0])
                span = [n_text + k for k, cc in enumerate(cols) if cc.get("span") and heads[k][0] == h[0]]
                x_a, x_b = xs[span[0]], xs[span[-1] + 1]
                tx = (x_a + x_b - _width(h[0], size, True)) / 2
                page.insert_text((tx, y + row_h * 0.68), h[0], fontsize=size, fontname=BOLD)
                if ruling != "none":
                    page.draw_line((x_a + 4, y + row_h - 1), (x_b - 4, y + row_h - 1), width=0.4)
        elif h[0]:
            put(h[0], i, y, bold=True, right=True)
        put(h[1], i, y + (head_rows - 1) * row_h, bold=True, right=True)
    y += head_rows * row_h
    if ruling != "none":
        hline(y)
    for k, r in enumerate(df.index):
        for j, (_, vals) in enumerate(text_cols):
            put(vals[k], j, y)
        for j, c in enumerate(cols):
            put(doc.cell(r, c["key"]), n_text + j, y, right=True)
        y += row_h
        if ruling == "grid":
            hline(y, 0.3)
    if spec.get("total_row"):
        if ruling == "booktabs":
            hline(y, 0.6)
        put(spec["total_row"], 0, y, bold=True)
        for j, t in enumerate(total):
            if t:
                put(t, n_text + j, y, bold=True, right=True)
        y += row_h
        if ruling == "grid":
            hline(y, 0.3)
    if ruling == "booktabs":
        hline(y, 1.2)
    if ruling == "grid":
        for x in xs:
            page.draw_line((x, y0), (x, y), width=0.3)
        hline(y0, 0.3)
    return y + 6


def render_pdf(doc: Doc) -> None:
    """Print ``doc`` into ``doc.path``: title, filler pages, and on page ``doc.page`` the text, caption and table."""
    spec, layout = doc.spec, doc.spec["layout"]
    pages = int(spec.get("pages", 1))
    rng = random.Random(spec["name"])
    pdf = pymupdf.open()
    for number in range(1, pages + 1):
        page = pdf.new_page(width=595, height=842)
        y = TOP
        if number == 1:
            page.insert_text((LEFT, y), spec["title"], fontsize=14, fontname=BOLD)
            y += 26
        if number != doc.page:
            for _ in range(3):
                y = _paragraph(page, y, " ".join(rng.sample(FILLER, 4)))
        else:
            for text in layout.get("before", []):
                y = _paragraph(page, y, text)
            y += 4
            if not layout.get("caption_below"):
                y = _paragraph(page, y, spec["caption"], bold=True, gap=4)
            y = _table(page, doc, y)
            if layout.get("caption_below"):
                y = _paragraph(page, y, spec["caption"], bold=True, gap=4)
            for note in layout.get("footnotes", []):
                y = _paragraph(page, y, note, size=7.5, gap=1)
            y += 10
            for text in layout.get("after", []):
                y = _paragraph(page, y, text)
        page.insert_text((RIGHT - 60, 815), f"Page {number} of {pages}", fontsize=8, fontname=FONT)
    pdf.set_metadata({"title": spec["title"], "creationDate": "D:20240101000000", "modDate": "D:20240101000000"})
    pdf.save(doc.path, garbage=3, deflate=True)
    pdf.close()


def make_docs(folder: Path, seed: int, specs: list[dict[str, Any]] | None = None) -> dict[str, Doc]:
    """Build every frame and print its PDF into ``folder``: ``{name: Doc}``."""
    docs: dict[str, Doc] = {}
    for spec in specs if specs is not None else load_specs():
        doc = Doc(spec, build_frame(spec, seed), folder / f"{spec['name']}.pdf", int(spec.get("table_page", 1)))
        render_pdf(doc)
        docs[doc.name] = doc
    return docs
