"""One line for the user about what a run did, with the answer to their question when there is one."""

from __future__ import annotations

import os
from typing import Any

from pdftools import get_tool
from pdftools.errors import PdfToolError
from pdftools.registry import generic_answer

__all__ = ["run_message", "answer_text"]


def answer_text(task: str, value: Any) -> str:
    """A sentence for a value a step returned, as its tool declares it (``@tool(answer=...)``)."""
    try:
        tool = get_tool(task)
    except PdfToolError:
        return generic_answer(value)
    return tool.answer_text(value)


def run_message(outputs: list[str], answers: list[dict[str, Any]], steps: int) -> str:
    parts = []
    if answers:
        last = answers[-1]
        parts.append(answer_text(last["task"], last["value"]))
    if outputs:
        names = [os.path.basename(p) for p in outputs]
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        parts.append(f"Done in {steps} step{'s' if steps != 1 else ''}: wrote {shown}.")
    elif not answers:
        parts.append(f"Done in {steps} step{'s' if steps != 1 else ''}.")
    return " ".join(parts)
