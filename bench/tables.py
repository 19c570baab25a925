"""Table bench (issue J item 5): cell accuracy of table finders against hand-checked truths.

    .venv/bin/python bench/tables.py [--methods ours,pymupdf-text,pdfplumber-text,camelot-stream] [TRUTH.json ...]

Each ``tests/data/tables/*.json`` names a corpus file (under ../shared/corpus), a page and the cells of
one table as a person typed them from the rendered page ("scope" says when only part of a table is
written down). A finder's tables on that page are compared with it:

Normalising. Cells are NFKC-normalised and their runs of whitespace made one space; a currency sign
set apart from its figure ("$" | "9,583", or "$ 9,583") is joined to it ("$9,583"); rows and columns
that are empty throughout are dropped from the found table (they hold nothing a reader could miss).

Score. The truth is laid over the found table at every row and column offset; a truth cell counts as
right when the found cell under it is equal after normalising. A table's accuracy is the best count
over offsets and over the page's tables, divided by the truth's cells. A finder that splits a row or
a column in two loses every cell after the split, as a reader of its workbook would.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
from results import write_result  # noqa: E402

import pdftools  # noqa: E402,F401 - PyMuPDF loads as the tools load it (its layout analyser off)

TRUTHS = ROOT / "tests" / "data" / "tables"
CORPUS = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared")) / "corpus"

Grid = list[list[str]]
_CURRENCY = "$€£¥"


def normalise_cell(text: Any) -> str:
    """A cell as compared: NFKC, one space between words, a currency sign joined to its figure."""
    clean = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", str(text or ""))).strip()
    return re.sub(rf"^([{_CURRENCY}]) (?=[\d(.-])", r"\1", clean)


def normalise_grid(rows: Sequence[Sequence[Any]]) -> Grid:
    """Cells normalised, lone currency signs joined to the next cell, empty rows and columns dropped."""
    grid: Grid = []
    for row in rows:
        cells = [normalise_cell(c) for c in row]
        for i, cell in enumerate(cells[:-1]):
            if cell and all(ch in _CURRENCY for ch in cell):
                nxt = next((j for j in range(i + 1, len(cells)) if cells[j]), None)
                if nxt is not None:
                    cells[nxt] = normalise_cell(cell + " " + cells[nxt])
                    cells[i] = ""
        grid.append(cells)
    grid = [r for r in grid if any(r)]
    if not grid:
        return []
    width = max(len(r) for r in grid)
    grid = [r + [""] * (width - len(r)) for r in grid]
    keep = [c for c in range(width) if any(r[c] for r in grid)]
    return [[r[c] for c in keep] for r in grid]


def score(truth: Sequence[Sequence[str]], tables: Sequence[Sequence[Sequence[Any]]]) -> tuple[int, int, int]:
    """(right cells, truth cells, index of the best table or -1) of ``tables`` against ``truth``."""
    want = [[normalise_cell(c) for c in row] for row in truth]
    total = sum(len(r) for r in want)
    best, best_index = 0, -1
    for index, table in enumerate(tables):
        got = normalise_grid(table)
        if not got:
            continue
        height, width = len(got), len(got[0])
        for dr in range(-len(want) + 1, height):
            for dc in range(-len(want[0]) + 1, width):
                right = 0
                for r, row in enumerate(want):
                    gr = r + dr
                    if not 0 <= gr < height:
                        continue
                    for c, cell in enumerate(row):
                        gc = c + dc
                        if 0 <= gc < width and got[gr][gc] == cell:
                            right += 1
                if right > best:
                    best, best_index = right, index
    return best, total, best_index


def load_truths(paths: Sequence[Path] = ()) -> list[tuple[Path, dict[str, Any]]]:
    files = list(paths) or sorted(TRUTHS.glob("*.json"))
    return [(p, json.loads(p.read_text(encoding="utf-8"))) for p in files]


# ---------------------------------------------------------------- the finders measured


def ours(path: Path, page: int) -> list[Grid]:
    """What extract_tables gives (ruled tables, else text alignment)."""
    from pdftools.tools_extract import extract_tables

    return [t["rows"] for t in extract_tables(str(path), pages=str(page))]


def pymupdf_text(path: Path, page: int) -> list[Grid]:
    """PyMuPDF's find_tables(strategy="text") as it comes."""
    import pymupdf

    with pymupdf.open(path) as doc:
        return [t.extract() for t in doc[page - 1].find_tables(strategy="text").tables]


def pdfplumber_text(path: Path, page: int) -> list[Grid]:
    """pdfplumber's find_tables with the text strategy for both directions."""
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        settings = {"vertical_strategy": "text", "horizontal_strategy": "text"}
        return pdf.pages[page - 1].extract_tables(settings)


def camelot_stream(path: Path, page: int) -> list[Grid]:
    """camelot's stream flavour (text alignment, several tables a page)."""
    import camelot

    tables = camelot.read_pdf(str(path), pages=str(page), flavor="stream")
    return [t.df.values.tolist() for t in tables]


METHODS: dict[str, Callable[[Path, int], list[Grid]]] = {
    "ours": ours,
    "pymupdf-text": pymupdf_text,
    "pdfplumber-text": pdfplumber_text,
    "camelot-stream": camelot_stream,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("truths", nargs="*", type=Path)
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--show", action="store_true", help="print the best-matching table found")
    args = parser.parse_args(argv)
    methods = args.methods.split(",")
    sums = {m: [0, 0] for m in methods}
    figures: dict[str, dict[str, Any]] = {}
    print(f"{'truth':32} " + " ".join(f"{m:>18}" for m in methods))
    for path, truth in load_truths(args.truths):
        source = CORPUS / truth["file"]
        if not source.exists():
            print(f"{path.stem:32} corpus file absent")
            continue
        line = []
        for method in methods:
            start = time.perf_counter()
            try:
                tables = METHODS[method](source, truth["page"])
            except Exception as exc:  # noqa: BLE001 - a bench reports a finder's crash and goes on
                line.append(f"{'error':>18}")
                print(f"  {method}: {type(exc).__name__}: {exc}", file=sys.stderr)
                continue
            seconds = time.perf_counter() - start
            right, total, index = score(truth["rows"], tables)
            sums[method][0] += right
            sums[method][1] += total
            figures.setdefault(path.stem, {})[method] = round(100 * right / total, 1)
            line.append(f"{right:>4}/{total:<4}{100 * right / total:5.1f}% {seconds:4.1f}s")
            if args.show and index >= 0:
                print(f"--- {method} table {index + 1} of {len(tables)}", file=sys.stderr)
                for row in normalise_grid(tables[index]):
                    print("   ", row, file=sys.stderr)
        print(f"{path.stem:32} " + " ".join(line))
    print(f"{'all cells':32} " + " ".join(f"{100 * r / max(t, 1):17.1f}%" for r, t in sums.values()))
    figures["all_cells"] = {m: round(100 * r / max(t, 1), 1) for m, (r, t) in sums.items()}
    if not args.truths:
        write_result(
            "tables",
            figures,
            label="tuning",
            notes="six truths typed before tuning, two after as a held-out check that then led to fixes",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
