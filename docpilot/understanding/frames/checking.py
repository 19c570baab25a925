"""The allow-list a program over frames must keep to, checked on its syntax tree before it runs.

A program is one pandas expression, or a few assignments to plain names followed by one expression (the
answer). Everything not listed here is refused, each problem with a message for the model that wrote it
(what was wrong, what is allowed instead), all of them at once:

- names: the frames (``t1``, ``t2`` …), the names the program assigns, and ``len abs round sum min max float
  int``;
- attributes: a frame's columns (``t1.Region``), ``loc iloc at iat str``, ``index columns values shape empty``;
- calls: the methods in :data:`METHODS` on any value, ``contains startswith endswith`` only after ``.str``,
  the builtins above, keyword arguments in :data:`KEYWORDS`;
- operators: indexing and slices, comparisons (not ``in``), arithmetic (``**`` only by a small constant),
  ``& | ~`` for masks, ``and or not``, ``x if c else y``, literals and lists of them.

Refused with their own reasons: imports; ``eval exec query apply getattr open`` and the like; ``read_*`` and
``to_*`` (files); private and dunder attributes and names; lambdas, comprehensions, functions, classes,
loops, f-strings. The sandbox the program then runs in has its own checks and layers: this list is what a
program may mean, the sandbox what it can do.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from docpilot.errors import ProgramRefused
from sandbox import Problem, format_problems

__all__ = ["check_frame_program", "refuse_unless_allowed", "METHODS", "BUILTINS", "KEYWORDS", "MAX_STATEMENTS"]

METHODS = frozenset(
    {
        "sum", "mean", "median", "max", "min", "idxmax", "idxmin", "sort_values", "head", "tail", "nlargest",
        "nsmallest", "count", "abs", "round", "isin", "unique", "nunique", "tolist", "notna", "isna", "item",
    }
)  # fmt: skip
STR_METHODS = frozenset({"contains", "startswith", "endswith"})
ACCESSORS = frozenset({"loc", "iloc", "at", "iat", "str"})
PROPERTIES = frozenset({"index", "columns", "values", "shape", "empty"})
BUILTINS = frozenset({"len", "abs", "round", "sum", "min", "max", "float", "int"})
KEYWORDS = frozenset(
    {"ascending", "n", "by", "keep", "case", "na", "regex", "ndigits", "decimals", "skipna", "axis", "columns"}
)
MAX_STATEMENTS = 8
MAX_CHARACTERS = 1200
MAX_POWER = 4  # x ** n only for a constant n up to this
# Refused by name, with the reason (an attribute or a name).
_DANGEROUS = {
    **dict.fromkeys(("eval", "exec", "compile", "query", "apply", "applymap", "map", "pipe", "agg", "aggregate",
                     "transform", "transform", "rolling", "expanding", "groupby", "resample", "style", "plot"),
                    "runs code or functions"),
    **dict.fromkeys(("getattr", "setattr", "delattr", "hasattr", "globals", "locals", "vars", "dir", "type",
                     "object", "super", "breakpoint", "input", "help", "memoryview", "__import__"),
                    "reaches into Python itself"),
    **dict.fromkeys(("open", "file", "print", "exit", "quit", "os", "sys", "subprocess", "pd", "pandas",
                     "np", "numpy", "io", "pathlib", "shutil"), "reaches outside the frames"),
}  # fmt: skip
_ALLOWED_LIST = (
    f"Allowed: the frames, indexing, .loc/.iloc/.at/.iat, comparisons, arithmetic, & | ~, "
    f"the methods {', '.join(sorted(METHODS))}, .str.contains/startswith/endswith, and {', '.join(sorted(BUILTINS))}()."
)
_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd, ast.BitOr)
_CMPOPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot)
_UNARY = (ast.UAdd, ast.USub, ast.Not, ast.Invert)


def refuse_unless_allowed(program: str, frames: Iterable[str], columns: Iterable[str] = ()) -> ast.Module:
    """The program's syntax tree, or :class:`ProgramRefused` with every problem found."""
    problems, tree = _check(program, frozenset(frames), frozenset(columns))
    if problems or tree is None:
        raise ProgramRefused("The program was refused:\n" + format_problems(problems), problems)
    return tree


def check_frame_program(program: str, frames: Iterable[str], columns: Iterable[str] = ()) -> list[Problem]:
    """Every problem with ``program`` over the frames named ``frames`` (whose columns are ``columns``, for
    ``t1.Region``-style access); an empty list means it may run."""
    return _check(program, frozenset(frames), frozenset(columns))[0]


def _check(program: str, frames: frozenset[str], columns: frozenset[str]) -> tuple[list[Problem], ast.Module | None]:
    if len(program) > MAX_CHARACTERS:
        return [Problem(1, f"The program is {len(program)} characters long; write at most {MAX_CHARACTERS}.")], None
    try:
        tree = ast.parse(program, mode="exec")
    except SyntaxError as exc:
        return [Problem(exc.lineno or 0, f"Syntax error: {exc.msg}. Write one pandas expression.")], None
    checker = _Checker(frames, columns)
    checker.module(tree)
    problems = sorted(dict.fromkeys(checker.problems), key=lambda p: p.line)
    return problems, tree


class _Checker:
    def __init__(self, frames: frozenset[str], columns: frozenset[str]) -> None:
        self.frames = frames
        self.columns = columns
        self.assigned: set[str] = set()
        self.problems: list[Problem] = []

    def add(self, node: ast.AST, message: str) -> None:
        self.problems.append(Problem(getattr(node, "lineno", 1), message))

    # ---- statements --------------------------------------------------------------------------------
    def module(self, tree: ast.Module) -> None:
        body = tree.body
        if not body:
            self.add(tree, "The program is empty: write one pandas expression over the frames.")
            return
        if len(body) > MAX_STATEMENTS:
            self.add(body[MAX_STATEMENTS], f"Write at most {MAX_STATEMENTS} lines: a few assignments and the answer.")
        for index, statement in enumerate(body):
            last = index == len(body) - 1
            if isinstance(statement, ast.Assign) and not last:
                self.assign(statement)
            elif isinstance(statement, ast.Expr) and last:
                self.expr(statement.value)
            elif isinstance(statement, (ast.Import, ast.ImportFrom)):
                self.add(statement, "Imports are not allowed: the frames are already there; use their methods.")
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.add(statement, "Defining functions or classes is not allowed: write one pandas expression.")
            elif isinstance(statement, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)):
                self.add(statement, "Loops and blocks are not allowed: select rows with a mask, e.g. t1[t1['x'] > 3].")
            elif last:
                self.add(statement, "The last line must be the answer: an expression, not an assignment.")
            else:
                self.add(statement, f"Only assignments 'name = expression' may come before the answer. {_ALLOWED_LIST}")

    def assign(self, node: ast.Assign) -> None:
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            self.add(node, "Assign to one plain name only (no item, attribute or tuple assignment).")
        else:
            name = node.targets[0].id
            if name.startswith("_"):
                self.add(node, f"The name {name} is not allowed: names may not start with '_'.")
            elif name in self.frames or name in BUILTINS or name in _DANGEROUS:
                self.add(node, f"Do not assign to {name}: it is already a frame or a function; pick a new name.")
        self.expr(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.assigned.add(target.id)

    # ---- expressions -------------------------------------------------------------------------------
    def expr(self, node: ast.expr) -> None:  # noqa: C901 - one branch per kind of node, flat on purpose
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str) and node.value.startswith("__"):
                self.add(node, "Strings that look like dunder names are not allowed.")
            elif not isinstance(node.value, (str, int, float, bool, type(None))):
                self.add(node, "Only numbers, strings, True, False and None may be written as values.")
        elif isinstance(node, ast.Name):
            self.name(node)
        elif isinstance(node, ast.Attribute):
            self.attribute(node, called=False)
        elif isinstance(node, ast.Subscript):
            self.expr(node.value)
            self.expr(node.slice)
        elif isinstance(node, ast.Slice):
            for part in (node.lower, node.upper, node.step):
                if part is not None:
                    self.expr(part)
        elif isinstance(node, ast.Call):
            self.call(node)
        elif isinstance(node, ast.BinOp):
            if not isinstance(node.op, _BINOPS):
                self.add(node, f"The operator {type(node.op).__name__} is not allowed. {_ALLOWED_LIST}")
            elif isinstance(node.op, ast.Pow) and not _small_constant(node.right):
                self.add(node, f"'**' is allowed only with a constant exponent up to {MAX_POWER}.")
            self.expr(node.left)
            self.expr(node.right)
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, _UNARY):
                self.add(node, f"The operator {type(node.op).__name__} is not allowed.")
            self.expr(node.operand)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                self.expr(value)
        elif isinstance(node, ast.Compare):
            for op in node.ops:
                if isinstance(op, (ast.In, ast.NotIn)):
                    self.add(node, "'in' is not allowed: use .isin([...]) or .str.contains('...').")
                elif not isinstance(op, _CMPOPS):
                    self.add(node, f"The comparison {type(op).__name__} is not allowed.")
            self.expr(node.left)
            for value in node.comparators:
                self.expr(value)
        elif isinstance(node, ast.IfExp):
            for part in (node.test, node.body, node.orelse):
                self.expr(part)
        elif isinstance(node, (ast.List, ast.Tuple)):
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    self.add(element, "'*' unpacking is not allowed.")
                else:
                    self.expr(element)
        elif isinstance(node, ast.Lambda):
            self.add(node, "lambda is not allowed: write the computation with column arithmetic and the methods.")
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            self.add(node, "Comprehensions are not allowed: select rows with a mask, e.g. t1[t1['x'] > 3]['y'].")
        elif isinstance(node, ast.JoinedStr):
            self.add(node, "f-strings are not allowed: return the value itself; it is formatted for you.")
        elif isinstance(node, ast.NamedExpr):
            self.add(node, "':=' is not allowed: assign on a line of its own.")
        else:
            self.add(node, f"{type(node).__name__} is not allowed. {_ALLOWED_LIST}")

    def name(self, node: ast.Name) -> None:
        name = node.id
        if name.startswith("_"):
            self.add(node, f"The name {name} is not allowed: no private or dunder names.")
        elif name in _DANGEROUS:
            self.add(node, f"{name} is not allowed: it {_DANGEROUS[name]}. {_ALLOWED_LIST}")
        elif name not in self.frames and name not in self.assigned and name not in BUILTINS:
            known = ", ".join(sorted(self.frames)) or "none"
            self.add(node, f"Unknown name {name}. The frames are: {known}; use them and names you assigned above.")

    def attribute(self, node: ast.Attribute, called: bool) -> None:
        attr = node.attr
        self.expr(node.value)
        if attr.startswith("_"):
            self.add(node, f"The attribute .{attr} is not allowed: no private or dunder attributes.")
        elif attr.startswith(("read_", "to_")) or attr in ("from_csv", "from_records", "from_dict"):
            self.add(node, f".{attr} is not allowed: programs do not read or write files or convert frames.")
        elif attr in _DANGEROUS:
            self.add(node, f".{attr} is not allowed: it {_DANGEROUS[attr]}. {_ALLOWED_LIST}")
        elif called:
            if attr in STR_METHODS:
                if not (isinstance(node.value, ast.Attribute) and node.value.attr == "str"):
                    self.add(node, f".{attr}(...) is allowed only on text: write .str.{attr}(...).")
            elif attr not in METHODS:
                self.add(node, f"The method .{attr}() is not allowed. {_ALLOWED_LIST}")
            elif isinstance(node.value, ast.Attribute) and node.value.attr == "str":
                self.add(node, f".str.{attr} is not allowed; on text use .str.contains/startswith/endswith.")
        elif attr == "str":
            pass  # checked where it is called
        elif attr not in ACCESSORS and attr not in PROPERTIES and attr not in self.columns:
            self.add(node, f"The attribute .{attr} is not a column or an allowed property. {_ALLOWED_LIST}")

    def call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            self.attribute(func, called=True)
        elif isinstance(func, ast.Name):
            if func.id in BUILTINS:
                pass
            elif func.id in _DANGEROUS:
                self.add(func, f"{func.id}() is not allowed: it {_DANGEROUS[func.id]}. {_ALLOWED_LIST}")
            elif func.id.startswith("_"):
                self.add(func, f"The name {func.id} is not allowed: no private or dunder names.")
            else:
                self.add(func, f"Calling {func.id}() is not allowed. {_ALLOWED_LIST}")
        else:
            self.add(
                node,
                "Only methods of frames and columns, and len/abs/round/sum/min/max/float/int, may be called.",
            )
            self.expr(func)
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                self.add(arg, "'*' unpacking is not allowed.")
            else:
                self.expr(arg)
        for keyword in node.keywords:
            if keyword.arg is None:
                self.add(keyword.value, "'**' unpacking of keyword arguments is not allowed.")
            elif keyword.arg not in KEYWORDS:
                self.add(keyword.value, f"The keyword argument {keyword.arg}= is not allowed here.")
            self.expr(keyword.value)


def _small_constant(node: ast.expr) -> bool:
    value = node.operand.value if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant) else None
    value = node.value if isinstance(node, ast.Constant) else value
    return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) <= MAX_POWER
