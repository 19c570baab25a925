"""Static checks on a generated program, before it runs.

Every problem is collected as a :class:`Problem` (line, message) so one
self-revision round can fix them together. Messages are written for the LLM
that wrote the program: what is wrong, what is allowed instead.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

__all__ = [
    "ALLOWED_IMPORTS",
    "FORBIDDEN_ATTRIBUTES",
    "FORBIDDEN_CALLS",
    "FORBIDDEN_NAMES",
    "SAFE_BUILTINS",
    "Problem",
    "check_program",
    "format_problems",
    "tools_used",
]

# Modules a program may import (top-level names; submodules of these are allowed too).
ALLOWED_IMPORTS = (
    "re",
    "math",
    "json",
    "datetime",
    "statistics",
    "itertools",
    "collections",
    "string",
    "textwrap",
    "decimal",
    "fractions",
)

# Builtins a program can use. The runtime gives programs exactly these (plus a guarded __import__).
SAFE_BUILTINS = (
    "abs",
    "all",
    "any",
    "bool",
    "chr",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "format",
    "frozenset",
    "hash",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "ord",
    "pow",
    "print",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "str",
    "sum",
    "tuple",
    "zip",
    "True",
    "False",
    "None",
    "Exception",
    "ArithmeticError",
    "AssertionError",
    "IndexError",
    "KeyError",
    "LookupError",
    "NameError",
    "RuntimeError",
    "StopIteration",
    "TypeError",
    "ValueError",
    "ZeroDivisionError",
)

FORBIDDEN_CALLS = (
    "eval",
    "exec",
    "compile",
    "open",
    "__import__",
    "globals",
    "locals",
    "vars",
    "getattr",
    "setattr",
    "delattr",
    "hasattr",
    "breakpoint",
    "input",
    "memoryview",
    "help",
    "dir",
    "exit",
    "quit",
    "type",
    "object",
    "super",
    "classmethod",
    "staticmethod",
    "property",
)

# getattr by other names: string.Formatter().get_field("0.__class__", ...) hands back the object itself.
FORBIDDEN_ATTRIBUTES = ("Formatter", "get_field", "vformat")

# A format field that reads a private attribute: "{0.__class__.__mro__}".format(x), "{x._secret}".
PRIVATE_FORMAT_FIELD = re.compile(r"\{[^{}]*\._")

FORBIDDEN_NAMES = (
    "os",
    "sys",
    "subprocess",
    "socket",
    "shutil",
    "pathlib",
    "ctypes",
    "importlib",
    "builtins",
    "io",
    "posix",
    "pty",
    "signal",
    "resource",
    "gc",
    "inspect",
    "threading",
    "multiprocessing",
    "urllib",
    "http",
    "pickle",
    "marshal",
    "mmap",
    "tempfile",
    "glob",
)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a program: where, and what to do about it."""

    line: int
    message: str

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def format_problems(problems: Iterable[Problem]) -> str:
    """All problems as lines, for an error log fed back to the LLM."""
    return "\n".join(str(p) for p in problems)


def _allowed_module(name: str) -> bool:
    return name.split(".")[0] in ALLOWED_IMPORTS


def check_program(code: str, tool_names: Iterable[str] | None = None) -> list[Problem]:
    """Check a program statically; an empty list means it may run.

    Args:
        code: The program's Python source.
        tool_names: Names callable as ``tools.<name>(...)``; default: every registered tool.
    """
    try:
        tree = ast.parse(code, filename="<program>")
    except SyntaxError as exc:
        where = f" (at: {exc.text.strip()!r})" if exc.text else ""
        return [Problem(exc.lineno or 0, f"Syntax error: {exc.msg}{where}. Fix the Python syntax.")]
    if tool_names is None:
        from pdftools import all_tools

        tool_names = all_tools()
    names = frozenset(tool_names)
    problems: list[Problem] = []
    allowed = ", ".join(ALLOWED_IMPORTS)

    def add(node: ast.AST, message: str) -> None:
        problems.append(Problem(getattr(node, "lineno", 0), message))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _allowed_module(alias.name):
                    add(
                        node,
                        f"Import of {alias.name} is not allowed. Authorized imports are: {allowed}. "
                        "Work on files only through `tools`.",
                    )
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or not _allowed_module(module):
                add(node, f"Import from {module or '.'} is not allowed. Authorized imports are: {allowed}.")
            for alias in node.names:
                if alias.name.startswith("_"):
                    add(node, f"Importing the private name {alias.name} is not allowed.")
                elif alias.name in FORBIDDEN_ATTRIBUTES:
                    add(node, f"Importing {alias.name} is not allowed; format values with f-strings.")
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                add(
                    node,
                    f"Access to the private attribute .{node.attr} is not allowed; "
                    "use only public attributes and the `tools` methods.",
                )
            elif node.attr in FORBIDDEN_ATTRIBUTES:
                add(node, f"{node.attr} is not allowed in programs; format values with f-strings.")
            elif (
                isinstance(node.value, ast.Name)
                and node.value.id == "tools"
                and node.attr != "run"
                and node.attr not in names
            ):
                close = [n for n in sorted(names) if node.attr.split("_")[0] in n][:5]
                hint = f" Similar tools: {', '.join(close)}." if close else ""
                add(
                    node,
                    f"tools.{node.attr} is not a tool.{hint} Call only registered tools, "
                    'as tools.<tool_name>(...) or tools.run(step_id, "<tool_name>", ...).',
                )
        elif isinstance(node, ast.Name):
            if node.id.startswith("__"):
                add(node, f"The name {node.id} is not allowed (no dunder names).")
            elif node.id in FORBIDDEN_CALLS:
                add(node, f"{node.id} is not allowed in programs. Use plain Python and the `tools` methods.")
            elif node.id in FORBIDDEN_NAMES:
                add(
                    node,
                    f"The name {node.id} is not allowed: programs have no file, network or process "
                    "access except through `tools`.",
                )
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name.startswith("__"):
                add(node, f"Defining {node.name} is not allowed (no dunder names).")
            if isinstance(node, ast.AsyncFunctionDef):
                add(node, "async functions are not allowed; write plain sequential code.")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            func = node.func
            if isinstance(func.value, ast.Name) and func.value.id == "tools" and func.attr == "run":
                _check_run_call(node, names, add)
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.startswith("__")
            and node.value.endswith("__")
            and len(node.value) > 4
        ):
            add(node, f"The string {node.value!r} looks like a dunder name; that is not allowed.")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and PRIVATE_FORMAT_FIELD.search(node.value):
            add(node, "A format string may not read private attributes ({0._x} / {0.__class__}); format plain values.")
    problems.sort(key=lambda p: p.line)
    return list(dict.fromkeys(problems))


def _check_run_call(node: ast.Call, names: frozenset[str], add: Callable[..., None]) -> None:
    if len(node.args) < 2:
        add(node, 'tools.run needs a step id and a tool name: tools.run(1, "count_pages", file=...).')
        return
    task = node.args[1]
    if isinstance(task, ast.Constant) and isinstance(task.value, str) and task.value not in names:
        add(node, f"tools.run: there is no tool named {task.value!r}. Use a registered tool name.")


def tools_used(code: str) -> list[str]:
    """Tools a program names: ``tools.<name>(...)`` and ``tools.run(step, "<name>", ...)`` ([] if unparsable)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    names: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "tools"
            and node.attr != "run"
        ):
            names.add(node.attr)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "run":
            names.update(arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str))
    return sorted(names)
