"""Which cells decided a program's answer.

How: the checked program is instrumented before it runs — every sub-expression that can hold a frame, a
column or a value is wrapped as ``_watch(k, …)`` (:mod:`sandbox.dataframes`), which returns the value
unchanged and reports what it was: a DataFrame's row labels and columns, a Series' row labels and values,
a scalar's value. Frames are handed to the sandbox with the row labels 0..n-1 of their :class:`Frame`, and
the allow-list has no operation that renames rows (no ``reset_index``, ``set_index``, ``groupby``), so a
label seen anywhere in the program is a row of the frame it came from. After the run the program's syntax
tree is read again, here, with those reports: each node gets the columns it draws on (statically: ``t1["Sales"]``
is Sales of t1; ``t1.loc[r, "Region"]`` is Region of t1), the rows it holds (from its report), the columns
that selected those rows (a mask's columns: ``t1[t1.Region == "West"]`` was selected by Region), and, once it
is reduced to a value, the cells that decided it:

- a sum, mean, median, count or len: every cell it took in (and the cells that selected its rows);
- a max or min: the cells holding the extreme value; idxmax/idxmin: the cells of the winning row;
- a cell read by ``.loc``/``.iloc``/``.at``/``.iat``: that cell, and what chose its row (an idxmax's cells);
- arithmetic and comparisons of values: the cells of both sides;
- a frame or column as the answer: its cells, row by row.

Each chosen row also cites its row label. Nothing is evaluated twice and nothing is recomputed outside the
sandbox: the analysis reads only the program's text and the reports. A construction the analysis does not
know (it knows everything the allow-list allows) cites the cells of the columns it draws on, row by row.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field, replace
from typing import Any

from docpilot.understanding.frames.model import CellRef, Frame
from sandbox.dataframes import WATCH

__all__ = ["instrument", "deciding_cells", "Instrumented"]

Cell = tuple[str, int, str]  # (frame name, row label, column)
_WATCHED = (
    ast.Name,
    ast.Attribute,
    ast.Subscript,
    ast.Call,
    ast.BinOp,
    ast.UnaryOp,
    ast.Compare,
    ast.BoolOp,
    ast.IfExp,
)
_NOT_VALUES = frozenset({"loc", "iloc", "at", "iat", "str"})  # attributes that give an indexer, not a value
_SUMS = frozenset({"sum", "mean", "median", "count", "nunique", "unique", "tolist"})
_EXTREMES = frozenset({"max", "min"})
_ARG_EXTREMES = frozenset({"idxmax", "idxmin"})
_MASKS = frozenset({"isin", "notna", "isna", "contains", "startswith", "endswith"})


@dataclass
class Instrumented:
    """A program ready to run with its watch calls, and what the analysis needs to read the reports."""

    code: str
    tree: ast.Module  # the program as checked (no watch calls)
    ids: dict[int, int]  # id(node of tree) → its watch key


def instrument(tree: ast.Module) -> Instrumented:
    """The program with every value-holding sub-expression wrapped in ``_watch(k, …)``; the answer is key 0."""
    clean = copy.deepcopy(tree)
    wrapped = copy.deepcopy(tree)
    callees = {id(n.func) for n in ast.walk(clean) if isinstance(n, ast.Call)}
    ids: dict[int, int] = {}
    by_copy: dict[int, int] = {}
    for original, twin in zip(ast.walk(clean), ast.walk(wrapped), strict=True):
        if not isinstance(original, _WATCHED) or id(original) in callees:
            continue
        if isinstance(original, ast.Attribute) and original.attr in _NOT_VALUES:
            continue
        if isinstance(getattr(original, "ctx", None), ast.Store):
            continue
        ids[id(original)] = by_copy[id(twin)] = len(ids) + 1

    class Wrap(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> Any:
            key = by_copy.get(id(node))
            node = self.generic_visit(node)
            if key is None or not isinstance(node, ast.expr):
                return node
            return ast.Call(ast.Name(WATCH, ast.Load()), [ast.Constant(key), node], [])

    body = Wrap().visit(wrapped)
    last = body.body[-1]
    if isinstance(last, ast.Expr):
        last.value = ast.Call(ast.Name(WATCH, ast.Load()), [ast.Constant(0), last.value], [])
    return Instrumented(ast.unparse(ast.fix_missing_locations(body)), clean, ids)


@dataclass
class _Info:
    """What the analysis knows of one node's value."""

    kind: str  # "frame" | "series" | "value" | "indexer" | "const" | "other"
    columns: list[tuple[str, str]] = field(default_factory=list)  # (frame, column) its cells are in
    selected_by: set[tuple[str, str]] = field(default_factory=set)  # columns whose cells chose its rows
    rows: list[Any] | None = None  # row labels, from the report
    values: list[Any] | None = None  # a Series' values, from the report
    cells: set[Cell] = field(default_factory=set)  # a value's deciding cells (and cells carried along)
    value: Any = None  # a value's value, from the report (or a constant's)
    accessor: str = ""  # an indexer's kind: loc, iloc, at, iat, str
    base: _Info | None = None  # what an indexer indexes
    one_row: bool = False  # a single row read as a Series (its report's labels are column names, not rows)


def _derive(base: _Info, **changes: Any) -> _Info:
    """An info made from ``base`` (its columns, rows and carried cells), with ``changes``."""
    out = replace(base, selected_by=set(base.selected_by), cells=set(base.cells))
    return replace(out, **changes)


def deciding_cells(
    instrumented: Instrumented, watched: dict[str, Any], frames: dict[str, Frame]
) -> tuple[list[CellRef], list[str]]:
    """The cells that decided the program's answer, in reading order, and the frames it used (by name)."""
    reader = _Reader(instrumented, watched, frames)
    body = instrumented.tree.body
    for statement in body[:-1]:
        if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
            reader.env[statement.targets[0].id] = reader.info(statement.value)
    last = body[-1]
    answer = reader.info(last.value) if isinstance(last, ast.Expr) else _Info("other")
    chosen = reader.cells_of(answer)
    refs = []
    seen: set[tuple[str, int, str]] = set()
    order = {name: i for i, name in enumerate(frames)}
    for name, row, column in sorted(chosen, key=lambda c: (order.get(c[0], 0), c[1], _col(frames, c))):
        frame = frames.get(name)
        ref = frame.cell(row, column) if frame is not None and isinstance(row, int) else None
        if ref is not None and (name, row, column) not in seen:
            seen.add((name, row, column))
            refs.append(ref)
    return refs, sorted(reader.used, key=lambda n: order.get(n, 0))


def _col(frames: dict[str, Frame], cell: Cell) -> int:
    frame = frames.get(cell[0])
    return frame.columns.index(cell[2]) if frame is not None and cell[2] in frame.columns else 0


class _Reader:
    def __init__(self, instrumented: Instrumented, watched: dict[str, Any], frames: dict[str, Frame]) -> None:
        self.ids = instrumented.ids
        self.watched = watched
        self.frames = frames
        self.env: dict[str, _Info] = {}
        self.used: set[str] = set()

    def report(self, node: ast.AST) -> dict[str, Any]:
        key = self.ids.get(id(node))
        return self.watched.get(str(key), {}) if key is not None else {}

    # ---- the cells an info stands for ----------------------------------------------------------------
    def cells_of(self, info: _Info, wide: bool = True) -> set[Cell]:
        """The cells of a value (its deciding cells), or of a frame or column (row by row: its columns when
        ``wide``, the columns that chose its rows, and each row's label)."""
        cells = set(info.cells)
        if info.kind in ("frame", "series") and info.rows is not None:
            columns = list(info.columns) if wide or info.kind == "series" else []
            columns += sorted(info.selected_by)
            for row in info.rows:
                for frame, column in columns:
                    cells.add((frame, row, column))
                cells |= self.label_cells(columns, [row])
        return cells

    def label_cells(self, columns: list[tuple[str, str]], rows: list[Any]) -> set[Cell]:
        out = set()
        for frame in {f for f, _ in columns}:
            label = self.frames[frame].label if frame in self.frames else None
            if label:
                out |= {(frame, row, label) for row in rows}
        return out

    # ---- reading nodes ---------------------------------------------------------------------------
    def info(self, node: ast.expr) -> _Info:
        found = self._info(node)
        report = self.report(node)
        kind = report.get("type")
        if found.one_row:
            return found
        if kind in ("frame", "series"):
            found.rows = report.get("rows")
            found.values = report.get("values") if kind == "series" else None
            if found.kind not in ("frame", "series"):
                found = _Info(kind, found.columns, found.selected_by, found.rows, found.values, found.cells)
            found.kind = kind
            if kind == "frame" and report.get("columns") is not None and found.columns:
                shown = set(report["columns"])
                found.columns = [c for c in found.columns if c[1] in shown] or found.columns
        elif kind in ("scalar", "list"):
            if found.kind in ("frame", "series"):  # reduced to a value: its cells decided it
                found = _Info("value", cells=self.cells_of(found))
            found.kind = "value" if found.kind != "const" else "const"
            found.value = report.get("value", report.get("values"))
        return found

    def _info(self, node: ast.expr) -> _Info:  # noqa: C901 - one branch per kind of node
        if isinstance(node, ast.Constant):
            return _Info("const", value=node.value)
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.info(e) for e in node.elts]
            return _Info("const", value=[i.value for i in items], cells=set().union(set(), *(i.cells for i in items)))
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return _derive(self.env[node.id])
            if node.id in self.frames:
                self.used.add(node.id)
                return _Info("frame", columns=[(node.id, c) for c in self.frames[node.id].columns])
            return _Info("other")
        if isinstance(node, ast.Attribute):
            base = self.info(node.value)
            if node.attr in _NOT_VALUES:
                return _Info("indexer", accessor=node.attr, base=base)
            columns = [c for c in base.columns if c[1] == node.attr]
            if columns and base.one_row:
                return self.pick(base, columns[:1], single=True)
            if columns:
                return _derive(base, kind="series", columns=columns[:1])
            return _derive(base)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
            parts = (
                [node.left, node.right]
                if isinstance(node, ast.BinOp)
                else [node.left, *node.comparators]
                if isinstance(node, ast.Compare)
                else list(node.values)
            )
            return self.combine([self.info(p) for p in parts])
        if isinstance(node, ast.UnaryOp):
            return self.info(node.operand)
        if isinstance(node, ast.IfExp):
            return self.combine([self.info(node.test), self.info(node.body), self.info(node.orelse)])
        return _Info("other")

    def combine(self, parts: list[_Info]) -> _Info:
        """Arithmetic or a comparison: a Series when a side is one (columns joined), else a value (cells joined)."""
        series = [p for p in parts if p.kind in ("frame", "series")]
        carried: set[Cell] = set()
        for part in parts:
            carried |= part.cells if part.kind not in ("frame", "series") else set()
        if series:
            columns = list(dict.fromkeys(c for p in series for c in p.columns))
            selected = set().union(*(p.selected_by for p in series))
            return _Info("series", columns=columns, selected_by=selected, cells=carried)
        return _Info("value", cells=carried)

    def subscript(self, node: ast.Subscript) -> _Info:
        base = self.info(node.value)
        if base.kind == "indexer" and base.base is not None:
            return self.indexed(node, base)
        key = self.info(node.slice)
        if key.kind == "const":
            names = key.value if isinstance(key.value, list) else [key.value]
            columns = [c for c in base.columns if c[1] in [str(n) for n in names]]
            if columns:  # a column or a list of columns (of a frame, or of one row)
                single = not isinstance(key.value, list)
                if base.one_row:
                    return self.pick(base, columns, single)
                return _derive(base, kind="series" if single else "frame", columns=columns)
            if base.kind == "series" and _is_label(key.value):  # a Series' value by its row label
                return _Info("value", cells=self.row_cells(base, [key.value]))
            return _derive(base)
        if key.kind in ("series", "frame"):  # rows chosen by a mask
            selected = set(base.selected_by) | set(key.columns) | key.selected_by
            return _derive(base, selected_by=selected, cells=base.cells | key.cells)
        return _derive(base, cells=base.cells | key.cells)

    def pick(self, row: _Info, columns: list[tuple[str, str]], single: bool) -> _Info:
        """Columns of one row read as a Series: a value (one column) or a smaller row."""
        if single:
            return _Info("value", cells=self.row_cells(_derive(row, columns=columns), row.rows or []))
        return _derive(row, columns=columns)

    def indexed(self, node: ast.Subscript, indexer: _Info) -> _Info:
        """``.loc``/``.iloc``/``.at``/``.iat`` [rows, columns]."""
        base = indexer.base
        assert base is not None
        key = node.slice
        row_node, col_node = (
            (key.elts[0], key.elts[1]) if isinstance(key, ast.Tuple) and len(key.elts) == 2 else (key, None)
        )
        rows = self.info(row_node)
        positional = indexer.accessor in ("iloc", "iat")
        columns = list(base.columns)
        if col_node is not None:
            cols = self.info(col_node)
            wanted = cols.value if isinstance(cols.value, list) else [cols.value]
            if positional:
                picked = [columns[i] for i in wanted if isinstance(i, int) and -len(columns) <= i < len(columns)]
            elif base.kind == "series":
                picked = columns
            else:
                picked = [c for c in columns if c[1] in [str(w) for w in wanted]]
            if isinstance(col_node, ast.Slice):
                picked = columns
            columns = picked or columns
        selected = set(base.selected_by) | (set(rows.columns) | rows.selected_by if rows.kind == "series" else set())
        carried = set(base.cells) | rows.cells
        report = self.report(node)
        labels = self.row_labels(rows, base, positional)
        if report.get("type") == "series" and rows.kind != "series" and len(labels) == 1 and col_node is None:
            return _Info("frame", columns, selected, rows=labels, cells=carried, one_row=True)
        if report.get("type") in ("frame", "series"):
            return _Info(report["type"], columns, selected, cells=carried)
        info = _Info("value", columns=columns)
        read = columns + sorted(selected)  # the cell, and the cells of its row that chose it (a sort's, a mask's)
        info.cells = carried | {(f, r, c) for r in labels for f, c in read} | self.label_cells(columns, labels)
        return info

    def row_labels(self, rows: _Info, base: _Info, positional: bool) -> list[Any]:
        """The row labels a ``.loc``/``.iloc`` row key stands for (a label, a position, a list of them)."""
        values = rows.value if isinstance(rows.value, list) else [rows.value]
        if rows.kind == "series" and rows.rows is not None:
            return [r for r, v in zip(rows.rows, rows.values or [], strict=False) if v is True]
        if not positional:
            return [v for v in values if _is_label(v)]
        known = base.rows if base.rows is not None else self.all_rows(base)
        return [known[v] for v in values if _is_label(v) and -len(known) <= v < len(known)]

    def all_rows(self, info: _Info) -> list[int]:
        frames = {f for f, _ in info.columns}
        return list(range(len(self.frames[next(iter(frames))].data))) if len(frames) == 1 else []

    def row_cells(self, info: _Info, rows: list[Any]) -> set[Cell]:
        cells = {(f, r, c) for r in rows for f, c in list(info.columns) + sorted(info.selected_by)}
        return cells | self.label_cells(info.columns, rows) | info.cells

    def call(self, node: ast.Call) -> _Info:
        func = node.func
        args = [self.info(a) for a in node.args] + [self.info(k.value) for k in node.keywords]
        if isinstance(func, ast.Name):  # len abs round sum min max
            target = args[0] if args else _Info("other")
            if func.id == "len":
                return _Info("value", cells=self.cells_of(target, wide=target.kind == "series"))
            if func.id in ("min", "max") and target.kind in ("frame", "series"):
                return self.extreme(node, target)
            if func.id == "sum" and target.kind in ("frame", "series"):
                return _Info("value", cells=self.cells_of(target))
            return self.combine(args) if func.id in ("min", "max") else _derive(target)
        if not isinstance(func, ast.Attribute):
            return _Info("other")
        receiver = func.value
        if isinstance(receiver, ast.Attribute) and receiver.attr == "str":
            receiver = receiver.value
        base = self.info(receiver)
        method = func.attr
        extra: set[Cell] = set().union(set(), *(a.cells for a in args))
        if base.kind not in ("frame", "series"):
            return _derive(base, cells=base.cells | extra)
        if method in _SUMS:
            wide = method != "count" or base.kind == "series"
            return _Info("value", cells=self.cells_of(base, wide=wide) | extra)
        if method in _EXTREMES:
            return self.extreme(node, base)
        if method in _ARG_EXTREMES:
            label = self.report(node).get("value")
            return _Info("value", cells=self.row_cells(base, [label]) | extra)
        if method in _MASKS:
            return _derive(base, kind="series", cells=extra)
        by = [a.value for a in args if a.kind == "const" and isinstance(a.value, str)]
        if method in ("nlargest", "nsmallest", "sort_values") and by and base.kind == "frame":
            chosen = [c for c in base.columns if c[1] in by]
            return _derive(base, selected_by=base.selected_by | set(chosen), cells=base.cells | extra)
        return _derive(base, cells=base.cells | extra)

    def extreme(self, node: ast.Call, base: _Info) -> _Info:
        """A max or min: the cells holding the extreme value (and their rows' labels)."""
        value = self.report(node).get("value")
        if base.kind == "series" and base.rows is not None and base.values is not None and value is not None:
            rows = [r for r, v in zip(base.rows, base.values, strict=False) if v == value]
            return _Info("value", cells=self.row_cells(base, rows))
        if base.kind == "frame" and base.rows is not None and value is not None:
            cells = set()
            for frame, column in base.columns:
                data = self.frames[frame].data[column] if frame in self.frames else None
                if data is None:
                    continue
                for row in base.rows:
                    if isinstance(row, int) and row < len(data) and data.iloc[row] == value:
                        cells |= {(frame, row, column)} | self.label_cells([(frame, column)], [row])
            return _Info("value", cells=cells | base.cells)
        return _Info("value", cells=self.cells_of(base))


def _is_label(value: Any) -> bool:
    """A row label of a frame here: an int (never a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)
