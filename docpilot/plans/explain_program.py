"""Plain-language summary of an LLM-written program, shown for feedback.

The workflow summary of "FlowMind: Automatic Workflow Generation with LLMs".

Walks the program's syntax tree: each ``tools.<name>(...)`` call is rendered with the
tool's explanation template; ``if`` and ``for`` become "If …" / "For each …" lines.
"""

from __future__ import annotations

import ast
from typing import Any

from docpilot.plans.explain import render
from pdftools import Tool
from pdftools.masking import mask_args

__all__ = ["explain_program"]


def _arg(name: str, node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "FILES":
            try:
                return ast.literal_eval(node.slice)
            except (ValueError, SyntaxError):
                pass
        if isinstance(node, ast.Name) and name in ("file", "files"):
            return "the document so far"
        return ast.unparse(node)


def _call_text(call: ast.Call, tools: dict[str, Tool]) -> str | None:
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "tools"):
        return None
    tool = tools.get(func.attr)
    if tool is None:
        return f"call {func.attr}"
    args = mask_args(
        tool.name, {**tool.defaults(), **{kw.arg: _arg(kw.arg, kw.value) for kw in call.keywords if kw.arg}}
    )
    text = render(tool.explain, args, {})
    return text[0].lower() + text[1:] if text else tool.summary


def _lines(body: list[ast.stmt], tools: dict[str, Tool], depth: int, out: list[str]) -> None:
    pad = "   " * depth
    for stmt in body:
        if isinstance(stmt, ast.If):
            out.append(f"{pad}- If {ast.unparse(stmt.test)}:")
            _lines(stmt.body, tools, depth + 1, out)
            if stmt.orelse:
                out.append(f"{pad}- Otherwise:")
                _lines(stmt.orelse, tools, depth + 1, out)
        elif isinstance(stmt, (ast.For, ast.While)):
            head = (
                f"For each {ast.unparse(stmt.target)} in {ast.unparse(stmt.iter)}"
                if isinstance(stmt, ast.For)
                else f"While {ast.unparse(stmt.test)}"
            )
            out.append(f"{pad}- {head}:")
            _lines(stmt.body, tools, depth + 1, out)
        else:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call):
                    text = _call_text(node, tools)
                    if text:
                        out.append(f"{pad}- {text[0].upper() + text[1:]}.")


def explain_program(code: str, tools: dict[str, Tool]) -> str:
    """What the program will do, step by step, including its conditions and loops."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return "A program that could not be read."
    out: list[str] = ["This request needs some logic, so DocPilot wrote a short program. It will:"]
    _lines(tree.body, tools, 0, out)
    return "\n".join(out)
