"""Run a program over frames: check it, run it in the sandbox with the frames as data, and return its value,
the cells that decided it as citations, and its plain-language reading.

``answer_with_program(program, frames)`` is the seam for the model's job loop: the model writes ``program``
from :func:`docpilot.understanding.frames.schema_text`; a refusal (:class:`ProgramRefused`) or a failure
(:class:`ProgramFailed`, including an empty result) carries a message written for the model, to revise once.
The program runs in the project's sandbox (:mod:`sandbox`): a warm :class:`sandbox.Sandbox` passed in makes a
run cost tens of milliseconds; without one a sandbox is started for the run (about a second).
"""

from __future__ import annotations

import ast
import difflib
import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from docpilot.errors import ProgramFailed
from docpilot.understanding.frames.checking import refuse_unless_allowed
from docpilot.understanding.frames.model import CellRef, Frame
from docpilot.understanding.frames.reading import read_program
from docpilot.understanding.frames.tracing import deciding_cells, instrument
from docpilot.understanding.frames.values import read_number
from docpilot.understanding.textnorm import format_number, norm, words
from sandbox import Limits, Sandbox, run_program
from sandbox.dataframes import pack_frame

__all__ = ["ProgramResult", "answer_with_program", "is_number", "LIMITS", "MAX_CITED_PAGES", "MAX_CITATIONS"]

LIMITS = Limits(timeout_seconds=20, cpu_seconds=10, memory_mb=2048, file_size_mb=1, output_mb=1, result_mb=8)
MAX_CITED_PAGES = 5
MAX_CITATIONS = 20
_NO_UNIT = frozenset({"count", "nunique", "len", "idxmax", "idxmin"})
_MASKS = frozenset({"isin", "notna", "isna", "contains", "startswith", "endswith"})


@dataclass
class ProgramResult:
    """What a program computed, the cells that decided it and how it reads."""

    value: Any  # a number, a text, a list, {row label: value} for a column, a list of row dicts for a table
    citations: list[dict[str, Any]]  # {"file", "page", "quote", "box"}: the deciding cells, at most 5 pages
    reading: str  # the program in plain language
    program: str
    text: str = ""  # the value as a person reads it ("3,226,773"; "West, East")
    unit: str = ""  # "$ (in thousands)", "%" … when the answer is an amount of one kind; "" when unsure
    frames: list[str] = field(default_factory=list)  # the names of the frames it used
    seconds: float = 0.0


def answer_with_program(
    program: str,
    frames: Sequence[Frame] | Mapping[str, Frame],
    *,
    sandbox: Sandbox | None = None,
    limits: Limits = LIMITS,
) -> ProgramResult:
    """Check ``program`` against the allow-list, run it over ``frames`` (named ``t1`` … by
    :func:`name_frames`) in the sandbox, and return its value with its deciding cells and reading.

    Raises:
        ProgramRefused: the program uses something the allow-list does not allow (nothing ran).
        ProgramFailed: it ran and failed, or its result is empty (no row matched, NaN).
    """
    started = time.perf_counter()
    by_name = dict(frames) if isinstance(frames, Mapping) else {f.name: f for f in frames}
    if not by_name or any(not name.isidentifier() for name in by_name):
        raise ValueError("frames must be named (name_frames) before a program can use them")
    columns = {c for f in by_name.values() for c in f.columns if c.isidentifier()}
    program = by_row_label(kinds_dropped(blanks_unmatched(bracketed(program)), by_name), by_name)
    tree = refuse_unless_allowed(program, by_name, columns)
    instrumented = instrument(tree)
    packed = {name: pack_frame(_blanks_missing(frame.data)) for name, frame in by_name.items()}
    run = run_program(instrumented.code, {}, limits=limits, sandbox=sandbox, frames=packed)
    try:
        if not run.ok or run.watched is None:
            if (run.error or {}).get("type") == "IndexError":  # .iloc[0] of no row: told as the empty result it is
                raise ProgramFailed(_empty_message("no row to take .iloc of", by_name) + _where_named(tree, by_name))
            raise ProgramFailed(_failure(run.error) + _where_named(tree, by_name))
        watched = run.watched
    finally:
        run.cleanup()
    answer = watched.get("0", {})
    if _empty(answer):
        empty = _empty_message("no rows" if answer.get("type") != "scalar" else "no value", by_name)
        raise ProgramFailed(empty + _where_named(tree, by_name))
    cells, used = deciding_cells(instrumented, watched, by_name)
    if not cells and not _counts(instrumented.tree):
        raise ProgramFailed(_empty_message("it used no cell of the tables", by_name))
    value = _value(answer, {n: by_name[n] for n in used}, instrumented.tree)
    if is_number(value) and not _counts(instrumented.tree) and not any(read_number(c.text) for c in cells):
        # a sum over rows whose figures are blank is 0, of nothing ("Bill to Address:" kept, 0 for the amount due)
        raise ProgramFailed(_empty_message("it read no figure, only labels", by_name))
    return ProgramResult(
        value=value,
        citations=[_citation(c) for c in _limited(cells)],
        reading=read_program(instrumented.tree, {n: by_name[n] for n in by_name}),
        program=program,
        text=_text(value),
        unit=_unit(instrumented.tree, cells, by_name, used) if _numeric(value) else "",
        frames=used,
        seconds=round(time.perf_counter() - started, 3),
    )


def _blanks_missing(data: Any) -> Any:
    """The frame as a program sees it: a blank cell of a text column is a missing value, as pandas reads one, so
    ``.notna()``, ``.count()`` and ``.dropna()`` pass over it ("how many actions need No Authority": the rows with
    an "X" there, not every row)."""
    return data.mask(data.eq(""))


def bracketed(program: str) -> str:
    """``program`` with each condition of a mask joined by ``&`` or ``|`` in brackets, when it was written without
    them: ``t1["City"] == "Torrance" & t1["Company"] == "X"`` is parsed by Python as one chained comparison around
    ``"Torrance" & t1["Company"]`` (a TypeError in pandas) but can only mean ``(… == "Torrance") & (… == "X")``.
    Any other program is returned as it is."""
    try:
        tree = ast.parse(program, mode="exec")
    except SyntaxError:
        return program
    bracketing = _Bracketing()
    fixed = bracketing.visit(tree)
    return ast.unparse(fixed) if bracketing.changed else program


def blanks_unmatched(program: str) -> str:
    """``program`` with ``na=False`` given to each ``.str.contains`` / ``.startswith`` / ``.endswith`` / ``.match``
    that does not say: a blank cell is a missing value here, for which pandas' test gives NaN, and a mask holding NaN
    fails ("Cannot mask with non-boolean array containing NA"; q9: three questions over invoices). A blank cell
    does not contain the text. Any other program is returned as it is."""
    try:
        tree = ast.parse(program, mode="exec")
    except SyntaxError:
        return program
    changed = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner = node.func.value
        if node.func.attr not in _TESTS or not (isinstance(owner, ast.Attribute) and owner.attr == "str"):
            continue
        if not any(k.arg == "na" for k in node.keywords):
            node.keywords.append(ast.keyword(arg="na", value=ast.Constant(value=False)))
            changed = True
    return ast.unparse(tree) if changed else program


def by_row_label(program: str, frames: Mapping[str, Frame]) -> str:
    """``program`` with each ``t1.loc["Net sales", "2023"]`` (``.at`` too) whose row key is the row label of one row
    of ``t1`` read as the selection it can only mean, ``t1.loc[t1["label"] == "Net sales", "2023"].iloc[0]``: a
    frame's rows are numbered 0..n-1 (its cells are traced by them), so a label as a row key is a KeyError the model
    repeats on its retry (q11, q12: a current ratio, a change in points). The label is matched as written, or
    ignoring case and spaces and a closing ":"; a key that no row, or several rows, bear is left for the KeyError."""
    try:
        tree = ast.parse(program, mode="exec")
    except SyntaxError:
        return program
    keys = _RowLabelKeys(frames)
    fixed = keys.visit(tree)
    return ast.unparse(fixed) if keys.changed else program


def kinds_dropped(program: str, frames: Mapping[str, Frame]) -> str:
    """``program`` with each text that is no column, row label or cell of ``frames`` but is a column's name
    followed by the kind the schema prints after it (``"Three Months Ended July 29, 2023 %"`` for the column
    ``'Three Months Ended July 29, 2023' %``) written as that column's name; any other program as it is."""
    try:
        tree = ast.parse(program, mode="exec")
    except SyntaxError:
        return program
    columns = {c for f in frames.values() for c in f.columns}
    changed = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or node.value in columns:
            continue
        bare = _KIND_SUFFIX.sub("", node.value)
        if bare != node.value and bare in columns and not _a_cell(node.value, frames):
            node.value = bare
            changed = True
    return ast.unparse(tree) if changed else program


def _a_cell(text: str, frames: Mapping[str, Frame]) -> bool:
    """Whether some cell of ``frames`` holds ``text`` as it is (a value the program compares with, not a name)."""
    return any(f.data[c].eq(text).any() for f in frames.values() for c in f.columns)


_KIND_SUFFIX = re.compile(r"\s*(?:%|\(%\)|number|text|\$|€|£)\s*$")


def _one_label(frame: Frame, key: str) -> str | None:
    """The row label of ``frame`` that ``key`` names (as written, else ignoring case, spaces and a closing ":"),
    when one row bears it; None otherwise."""
    labels = frame.row_labels()
    if key not in labels:
        loose = [label for label in labels if norm(label).rstrip(":").strip() == norm(key).rstrip(":").strip()]
        key = loose[0] if len(set(loose)) == 1 else ""
    return key if key and labels.count(key) == 1 else None


class _RowLabelKeys(ast.NodeTransformer):
    def __init__(self, frames: Mapping[str, Frame]) -> None:
        self.frames = frames
        self.changed = False

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:  # noqa: N802 (ast's name)
        self.generic_visit(node)
        indexer = node.value
        if (
            isinstance(indexer, ast.Attribute)
            and indexer.attr in ("iloc", "iat")
            and getattr(indexer.value, "made", False)
        ):
            return indexer.value  # the model's own .iloc[0] after the key: the cell is already taken
        if not (
            isinstance(indexer, ast.Attribute)
            and indexer.attr in ("loc", "at")
            and isinstance(indexer.value, ast.Name)
            and isinstance(node.slice, ast.Tuple)
            and len(node.slice.elts) == 2
            and isinstance(key := node.slice.elts[0], ast.Constant)
            and isinstance(key.value, str)
        ):
            return node
        name = indexer.value.id
        frame = self.frames.get(name)
        if frame is None or frame.label is None or (label := _one_label(frame, key.value)) is None:
            return node
        test = ast.Compare(
            left=ast.Subscript(value=ast.Name(id=name, ctx=ast.Load()), slice=ast.Constant(value=frame.label)),
            ops=[ast.Eq()],
            comparators=[ast.Constant(value=label)],
        )
        selected = ast.Subscript(
            value=ast.Attribute(value=ast.Name(id=name, ctx=ast.Load()), attr="loc", ctx=ast.Load()),
            slice=ast.Tuple(elts=[test, node.slice.elts[1]], ctx=ast.Load()),
            ctx=ast.Load(),
        )
        self.changed = True
        first = ast.Attribute(value=selected, attr="iloc", ctx=ast.Load())
        cell = ast.Subscript(value=first, slice=ast.Constant(value=0), ctx=ast.Load())
        cell.made = True  # type: ignore[attr-defined]  # (marked for the .iloc[0] the model may write after it)
        return ast.copy_location(cell, node)


_TESTS = frozenset({"contains", "startswith", "endswith", "match", "fullmatch"})


class _Bracketing(ast.NodeTransformer):
    changed = False

    def visit_Compare(self, node: ast.Compare) -> ast.AST:  # noqa: N802 (ast's name)
        self.generic_visit(node)
        joins = node.comparators[:-1]
        kinds = {type(j.op) for j in joins if isinstance(j, ast.BinOp)}
        if not joins or not all(isinstance(j, ast.BinOp) for j in joins) or kinds not in ({ast.BitAnd}, {ast.BitOr}):
            return node  # (mixed & and | would need their precedence: left to the model)
        left: ast.expr = node.left
        tests: list[ast.expr] = []
        for op, join in zip(node.ops[:-1], joins, strict=True):
            assert isinstance(join, ast.BinOp)
            tests.append(ast.Compare(left=left, ops=[op], comparators=[join.left]))
            left = join.right
        tests.append(ast.Compare(left=left, ops=[node.ops[-1]], comparators=[node.comparators[-1]]))
        result = tests[0]
        for join, test in zip(joins, tests[1:], strict=True):
            assert isinstance(join, ast.BinOp)
            result = ast.BinOp(left=result, op=join.op, right=test)
        self.changed = True
        return ast.copy_location(result, node)


def _failure(error: dict[str, Any] | None) -> str:
    if not error:
        return "The program did not return a value."
    kind, message = error.get("type") or "Error", error.get("message") or ""
    if kind == "KeyError":
        return f"KeyError: {message} is not a column or row label of the frame; use the names the schema shows."
    if kind == "StaticCheckError":
        return f"The sandbox refused the program: {message}"
    return f"{kind}: {message}"


def _where_named(tree: ast.Module, frames: Mapping[str, Frame]) -> str:
    """Where the program's quoted names stand when it read them from the wrong frame: a small model that
    picks ``t2`` for a row of ``t1`` is told so on its retry (" 'Yardbird' is a row label of t1.")."""
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in frames}
    said = []
    for text in dict.fromkeys(
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ):
        rows = [name for name, frame in frames.items() if text in frame.row_labels()]
        columns = [name for name, frame in frames.items() if text in frame.columns]
        if rows and not set(rows) & used:
            said.append(f" {text!r} is a row label of {', '.join(rows)}.")
        elif rows and not columns and _read_as_column(tree, text):
            name = next(r for r in rows if r in used)
            frame = frames[name]
            values = frame.figure_columns()[:1] or ["<column>"]
            said.append(
                f" {text!r} is a row label of {name} (in its column {frame.label!r}), not a column: read its row "
                f"with {name}.loc[{name}[{frame.label!r}] == {text!r}, {values[0]!r}]."
            )
        if columns and not set(columns) & used:
            said.append(f" {text!r} is a column of {', '.join(columns)}.")
        if not rows and not columns and (near := _nearest(text, frames)):
            said.append(f" {text!r} is no row label or column; the closest: {near}.")
    return "".join(said[:3])


def _read_as_column(tree: ast.Module, text: str) -> bool:
    """Whether the program reads ``text`` where a column goes: ``t1["X"]`` or ``t1.loc[rows, "X"]`` (a model that
    takes a row label for a column and writes the same program again when told only of a KeyError; q10)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript):
            continue
        key = node.slice.elts[-1] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
        if isinstance(key, ast.Constant) and key.value == text:
            return True
    return False


def _nearest(text: str, frames: Mapping[str, Frame]) -> str:
    """The row labels and columns of ``frames`` closest to ``text`` (a name the program quoted that none of them
    is: "Department of Fertilisers" for the row "7. Department of Fertilisers"), said with where each stands."""
    names = {
        (name, kind, x): x.casefold()
        for name, frame in frames.items()
        for kind, among in (("row label", frame.row_labels()), ("column", frame.columns))
        for x in among
    }
    key = text.casefold().strip()
    if len(key) < 2:
        return ""
    found = [n for n, folded in names.items() if key in folded or (len(folded) > 3 and folded in key)]
    if not found:  # else a spelling of its own
        close = difflib.get_close_matches(key, list(dict.fromkeys(names.values())), n=3, cutoff=0.6)
        found = [n for c in close for n, folded in names.items() if folded == c]
    if not found:  # else a cell that holds its words in another order ("Payton Englert": "ENGLERT, PAYTON A")
        found = _cells_with_words(key, frames)
    return ", ".join(f"{x!r} ({kind} of {name})" for name, kind, x in found[:3])


def _cells_with_words(key: str, frames: Mapping[str, Frame]) -> list[tuple[str, str, str]]:
    """(frame, "a cell of column C", text) for the text cells holding every word of ``key``, whatever their order
    and case; none when ``key`` has fewer than two words or over three cells hold them."""
    wanted = set(words(key))
    if len(wanted) < 2:
        return []
    found = []
    for name, frame in frames.items():
        for column in frame.columns:
            if frame.kinds.get(column) != "text":
                continue
            for text in dict.fromkeys(v for v in frame.data[column] if isinstance(v, str)):
                if wanted <= set(words(text)):
                    found.append((name, f"a cell of column {column!r}", text))
    return found if len(found) <= 3 else []


def _empty(answer: dict[str, Any]) -> bool:
    kind = answer.get("type")
    if kind == "scalar":
        return _missing(answer.get("value"))
    if kind in ("series", "list"):  # a row picked whose cell is blank ("First Name": NaN) holds no answer
        return not answer.get("count") or all(_missing(v) for v in answer.get("values", []))
    if kind == "frame":
        return not answer.get("count")
    return kind != "scalar"


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value == ""


def _empty_message(what: str, frames: Mapping[str, Frame]) -> str:
    labels = "; ".join(
        f"{name} row labels: " + ", ".join(repr(label) for label in frame.row_labels()[:8])
        for name, frame in frames.items()
        if frame.label
    )
    return (
        f"The program's result is empty ({what}): no row matched. Check the column names and the values "
        f"compared; match text with .str.contains('...', case=False). {labels}".strip()
    )


def _value(answer: dict[str, Any], frames: Mapping[str, Frame], tree: ast.Module) -> Any:
    """The answer as plain Python: row labels of a single frame become its row-label texts."""
    kind = answer.get("type")
    if kind == "scalar":
        value = answer.get("value")
        label = _row_label_text(value, frames) if _is_row_pick(tree) else None
        return label if label is not None else value
    if kind == "list":
        return answer.get("values", [])
    if kind == "series":
        labels = [_row_label_text(r, frames) or r for r in answer.get("rows", [])]
        return dict(zip([str(x) for x in labels], answer.get("values", []), strict=False))
    if kind == "frame":
        columns = answer.get("columns", [])
        return [dict(zip(columns, row, strict=False)) for row in answer.get("values", [])]
    return None


def _counts(tree: ast.Module) -> bool:
    """Whether the answer counts rows (a count of none is an answer, and cites no cell)."""
    last = tree.body[-1]
    value = last.value if isinstance(last, ast.Expr) else None
    if not isinstance(value, ast.Call):
        return False
    if isinstance(value.func, ast.Name):
        return value.func.id == "len"
    if isinstance(value.func, ast.Attribute):
        if value.func.attr in ("count", "nunique"):
            return True
        mask = value.func.value  # (t1["x"] > 3).sum(): a count of the rows a mask holds
        return value.func.attr == "sum" and (
            isinstance(mask, (ast.Compare, ast.UnaryOp))
            or (isinstance(mask, ast.BinOp) and isinstance(mask.op, (ast.BitAnd, ast.BitOr)))
            or (isinstance(mask, ast.Call) and isinstance(mask.func, ast.Attribute) and mask.func.attr in _MASKS)
        )
    return False


def _is_row_pick(tree: ast.Module) -> bool:
    """Whether the answer is an idxmax/idxmin (a row label, read as the row's label text)."""
    last = tree.body[-1]
    return (
        isinstance(last, ast.Expr)
        and isinstance(last.value, ast.Call)
        and isinstance(last.value.func, ast.Attribute)
        and last.value.func.attr in ("idxmax", "idxmin")
    )


def _row_label_text(row: Any, frames: Mapping[str, Frame]) -> str | None:
    labelled = [f for f in frames.values() if f.label]
    if len(labelled) != 1 or not isinstance(row, int) or isinstance(row, bool):
        return None
    labels = labelled[0].row_labels()
    return labels[row] if 0 <= row < len(labels) else None


def _limited(cells: list[CellRef]) -> list[CellRef]:
    pages: list[tuple[str, int]] = []
    out = []
    for cell in cells:
        where = (cell.file, cell.page)
        if where not in pages:
            if len(pages) == MAX_CITED_PAGES:
                continue
            pages.append(where)
        out.append(cell)
        if len(out) == MAX_CITATIONS:
            break
    return out


def _citation(cell: CellRef) -> dict[str, Any]:
    return {"file": cell.file, "page": cell.page, "quote": cell.text, "box": list(cell.box) if cell.box else None}


def is_number(value: Any) -> bool:
    """Whether a program's value is one number (not a truth value)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _numeric(value: Any) -> bool:
    """Whether a value is an amount (a number, or numbers by row) that a unit can describe."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return bool(value) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return format_number(float(value))
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_text(v) if not isinstance(v, dict) else str(v) for v in value)
    return "" if value is None else str(value)


def _kind_printed(kind: str, read: list[CellRef]) -> str:
    """A column's kind as the cells read of it print it: a column of percents whose read figures print no "%" is
    of numbers there (a statement's column holds "Revenue % change" rows among amounts: q12, the gross profit
    168 of such a column answered "168%")."""
    if kind != "percent":
        return kind
    numbers = [n for c in read if (n := read_number(c.text)) is not None]
    return "percent" if all(n.percent for n in numbers) else "number"


def _unit(tree: ast.Module, cells: list[CellRef], frames: Mapping[str, Frame], used: list[str]) -> str:
    """The answer's unit when it is an amount read, totalled, averaged or compared in columns of one kind
    (never for counts, row picks, products or ratios)."""
    if _counts(tree):
        return ""
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and not isinstance(node.op, (ast.Add, ast.Sub, ast.BitAnd, ast.BitOr)):
            return ""
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in _NO_UNIT:
                return ""
    cited = set(cells)
    kinds, scales = set(), set()
    for name in used:
        frame = frames[name]
        for j, column in enumerate(frame.columns):
            if column == frame.label or frame.kinds.get(column) == "text":
                continue
            read = [cell for row in frame.cells if (cell := row[j]) is not None and cell in cited]
            if read:
                kinds.add(_kind_printed(frame.kinds[column], read))
                scales.add(frame.scale)
    if len(kinds) != 1 or len(scales) != 1:
        return ""
    kind, scale = kinds.pop(), scales.pop()
    unit = "%" if kind == "percent" else kind.removeprefix("money ") if kind.startswith("money") else ""
    if scale and kind != "percent":
        unit = f"{unit} (in {scale}s)".strip()
    return unit
