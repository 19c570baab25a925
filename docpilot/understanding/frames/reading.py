"""A program over frames read back in plain language (FlowMind's workflow summary), shown with the answer so a
person can see what was computed and say what to change ("use net sales, not revenue").

"From the table 'Sales by region' on page 4: the mean of Sales, over the rows where Region is 'West'."

The reading is made from the program's syntax tree (the same tree that was checked and run), one phrase per
operation the allow-list allows; names the program assigned are read as what they stand for.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from docpilot.understanding.frames.model import Frame

__all__ = ["read_program"]

_COMPARE = {
    ast.Eq: "is",
    ast.NotEq: "is not",
    ast.Lt: "is less than",
    ast.LtE: "is at most",
    ast.Gt: "is more than",
    ast.GtE: "is at least",
    ast.Is: "is",
    ast.IsNot: "is not",
}
_ARITHMETIC = {
    ast.Add: "plus",
    ast.Sub: "minus",
    ast.Mult: "times",
    ast.Div: "divided by",
    ast.FloorDiv: "divided (whole) by",
    ast.Mod: "modulo",
    ast.Pow: "to the power",
}
_REDUCE = {
    "sum": "the total of",
    "mean": "the mean of",
    "median": "the median of",
    "max": "the largest value of",
    "min": "the smallest value of",
    "count": "the number of filled values of",
    "nunique": "the number of distinct values of",
    "unique": "the distinct values of",
    "tolist": "the values of",
    "abs": "the absolute value of",
}


def read_program(tree: ast.Module | str, frames: Mapping[str, Frame]) -> str:
    """The program in plain language: where its data comes from, then what it computes."""
    if isinstance(tree, str):
        tree = ast.parse(tree)
    named = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in frames}
    reader = _Reader(frames, several=len(named) > 1)
    body = tree.body
    for statement in body[:-1]:
        if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
            reader.names[statement.targets[0].id] = statement.value
    last = body[-1] if body else None
    what = reader.phrase(last.value) if isinstance(last, ast.Expr) else "nothing"
    used = [frames[name] for name in frames if name in reader.used]
    sources = "; ".join(f.describe() + (f" ({f.name})" if reader.several else "") for f in used) or "the tables"
    return f"From {sources}: {what}."


class _Reader:
    def __init__(self, frames: Mapping[str, Frame], several: bool) -> None:
        self.frames = frames
        self.several = several  # the program uses several frames: say which one each column is of
        self.names: dict[str, ast.expr] = {}
        self.used: set[str] = set()
        self.depth = 0

    def phrase(self, node: ast.expr) -> str:  # noqa: C901 - one branch per kind of node
        if _constant(node) is not None:
            return repr(_constant(node))
        if isinstance(node, (ast.List, ast.Tuple)):
            return ", ".join(self.phrase(e) for e in node.elts)
        if isinstance(node, ast.Name):
            if node.id in self.names and self.depth < 20:
                self.depth += 1
                try:
                    return self.phrase(self.names[node.id])
                finally:
                    self.depth -= 1
            if node.id in self.frames:
                self.used.add(node.id)
                return f"all rows of {node.id}" if self.several else "all rows"
            return node.id
        if isinstance(node, ast.Attribute):
            if node.attr in ("index", "values", "columns", "shape", "empty"):
                return f"the {node.attr} of {self.phrase(node.value)}"
            return self.column(node.value, repr(node.attr).strip("'"))
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Compare):
            parts = [self.phrase(node.left)]
            for op, right in zip(node.ops, node.comparators, strict=True):
                parts += [_COMPARE.get(type(op), "compares to"), self.phrase(right)]
            return " ".join(parts)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.BitAnd):
                return f"{self.phrase(node.left)} and {self.phrase(node.right)}"
            if isinstance(node.op, ast.BitOr):
                return f"{self.phrase(node.left)} or {self.phrase(node.right)}"
            return f"({self.phrase(node.left)}) {_ARITHMETIC.get(type(node.op), 'with')} ({self.phrase(node.right)})"
        if isinstance(node, ast.BoolOp):
            word = " and " if isinstance(node.op, ast.And) else " or "
            return word.join(self.phrase(v) for v in node.values)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, (ast.Not, ast.Invert)):
                return f"not ({self.phrase(node.operand)})"
            if isinstance(node.op, ast.USub):
                return f"minus {self.phrase(node.operand)}"
            return self.phrase(node.operand)
        if isinstance(node, ast.IfExp):
            return f"{self.phrase(node.body)} if {self.phrase(node.test)}, else {self.phrase(node.orelse)}"
        return "a computation"

    def column(self, base: ast.expr, name: str) -> str:
        """A column of ``base``: "Sales", or "Sales, over the rows where …" when rows were chosen."""
        where = self.rows(base)
        return f"{name}{where}"

    def rows(self, node: ast.expr) -> str:
        """The rows part of a phrase: ", over the rows where …" for a selection of rows, "" for a whole frame."""
        text = self.phrase(node)
        if text == "all rows":
            return ""
        if text.startswith("all rows of "):
            return f" of {text[len('all rows of ') :]}"
        if text.startswith("all rows, "):  # "all rows, sorted by Sales (descending)"
            return f" of the rows{text[len('all rows') :]}"
        return f", over {text}"

    def subscript(self, node: ast.Subscript) -> str:
        base, key = node.value, node.slice
        if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc", "at", "iat"):
            return self.indexed(base, key)
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return self.column(base, key.value)
        if isinstance(key, ast.List):
            return self.column(base, self.column_names(key))
        if isinstance(key, ast.Slice):
            return f"rows {self.slice(key)} of {self.phrase(base)}"
        if isinstance(key, ast.Constant):
            return f"the value at {key.value!r} of {self.phrase(base)}"
        return self.where(base, key)

    def where(self, base: ast.expr, mask: ast.expr) -> str:
        inner = self.phrase(base)
        condition = self.phrase(mask)
        if inner.startswith("all rows"):
            return f"the rows where {condition}" + inner[len("all rows") :]
        return f"{inner}, where {condition}"

    def indexed(self, accessor: ast.Attribute, key: ast.expr) -> str:
        rows, columns = (key.elts[0], key.elts[1]) if isinstance(key, ast.Tuple) and len(key.elts) == 2 else (key, None)
        base = accessor.value
        positional = accessor.attr in ("iloc", "iat")
        if isinstance(rows, ast.Slice) and columns is not None:
            return self.column(base, self.column_names(columns))
        source = self.phrase(base)
        whole = source == "all rows" or source.startswith("all rows of ")
        at = _constant(rows)
        if at is not None and positional and columns is None and not whole:
            return f"the {_ordinal(at)} entry of {source}"
        if at is not None and positional:
            row = f"the {_ordinal(at)} row"
        elif at is not None:
            row = f"the row labelled {at!r}"
        elif (
            isinstance(rows, ast.Call)
            and isinstance(rows.func, ast.Attribute)
            and rows.func.attr in ("idxmax", "idxmin")
        ):
            row = self.phrase(rows)
        else:
            row = f"the rows where {self.phrase(rows)}"
        tail = "" if source == "all rows" else f" of {source[len('all rows of ') :]}" if whole else f" ({source})"
        if columns is None:
            return f"{row}{tail}"
        column = _constant(columns)
        if column is not None and positional:
            number = column + 1 if isinstance(column, int) and column >= 0 else repr(column)
            return f"column {number} of {row}{tail}"
        return f"{self.column_names(columns)} of {row}{tail}"

    def column_names(self, node: ast.expr) -> str:
        """Column names as a person reads them: "Sales", "Sales and Units"."""
        items = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
        texts = [str(_constant(e)) if _constant(e) is not None else self.phrase(e) for e in items]
        return ", ".join(texts[:-1]) + " and " + texts[-1] if len(texts) > 1 else "".join(texts)

    def call(self, node: ast.Call) -> str:
        func = node.func
        args = [self.phrase(a) for a in node.args]
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if isinstance(func, ast.Name):
            target = args[0] if args else ""
            if func.id == "len":
                if target == "all rows":
                    return "the number of rows"
                return f"the number of {target}" if target.startswith("the rows") else f"the number of rows of {target}"
            if func.id in ("float", "int"):
                return target
            if func.id == "round":
                return f"{target}, rounded" + (f" to {args[1]} places" if len(args) > 1 else "")
            return f"{_REDUCE.get(func.id, func.id)} {', '.join(args)}"
        if not isinstance(func, ast.Attribute):
            return "a computation"
        method, receiver = func.attr, func.value
        if isinstance(receiver, ast.Attribute) and receiver.attr == "str":
            column = self.phrase(receiver.value)
            verb = {"contains": "contains", "startswith": "starts with", "endswith": "ends with"}[method]
            return f"{column} {verb} {args[0] if args else ''}".rstrip()
        inner = self.phrase(receiver)
        if method in _REDUCE:
            return f"{_REDUCE[method]} {inner}"
        if method in ("idxmax", "idxmin"):
            return f"the row with the {'largest' if method == 'idxmax' else 'smallest'} {inner}"
        if method in ("nlargest", "nsmallest"):
            n = args[0] if args else _keyword(keywords, "n", "5")
            by = f" by {args[1].strip(chr(39))}" if len(args) > 1 else ""
            return f"the {n} {'largest' if method == 'nlargest' else 'smallest'}{by} of {inner}"
        if method == "sort_values":
            by = args[0].strip("'") if args else _keyword(keywords, "by", "").strip("'")
            order = "descending" if _keyword(keywords, "ascending", "True") == "False" else "ascending"
            return f"{inner}, sorted by {by} ({order})" if by else f"{inner}, sorted ({order})"
        if method in ("head", "tail"):
            n = args[0] if args else _keyword(keywords, "n", "5")
            return f"the {'first' if method == 'head' else 'last'} {n} of {inner}"
        if method == "isin":
            return f"{inner} is one of {args[0] if args else ''}"
        if method in ("notna", "isna"):
            return f"{inner} is {'filled' if method == 'notna' else 'blank'}"
        if method == "round":
            return f"{inner}, rounded" + (f" to {args[0]} places" if args else "")
        return f"{method} of {inner}"

    def slice(self, node: ast.Slice) -> str:
        lower = self.phrase(node.lower) if node.lower else "the start"
        upper = self.phrase(node.upper) if node.upper else "the end"
        return f"from {lower} to {upper}"


def _constant(node: ast.expr | None) -> Any:
    """The value of a constant (a negative number too), else None."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        return -value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    return None


def _ordinal(value: object) -> str:
    named = {0: "first", 1: "second", 2: "third", -1: "last"}
    return named.get(value, f"#{value + 1}") if isinstance(value, int) else repr(value)


def _keyword(keywords: dict[str, ast.expr], name: str, default: str) -> str:
    value = keywords.get(name)
    return repr(value.value) if isinstance(value, ast.Constant) else default
