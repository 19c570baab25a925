"""Compile a verified plan into a straight-line Python program over the PDFTools API.

Zero LLM calls: each step in topological order becomes
``v_<return> = tools.run(<id>, "<task>", arg=value, ...)``; uploaded files are read
from ``FILES["name"]`` (bound to real paths only inside the sandbox) and ``"$name"``
references become the variables of earlier steps.
"""

from __future__ import annotations

import re
from typing import Any

from docpilot.plans.plan import REF, Plan

__all__ = ["compile_plan", "var_name"]


def var_name(returns: str) -> str:
    """A safe Python identifier for a step's return name."""
    return "v_" + re.sub(r"\W", "_", returns)


def _literal(value: Any, uploaded: set[str]) -> str:
    if isinstance(value, str):
        match = REF.match(value.strip())
        if match:
            return var_name(match.group(1))
        if value in uploaded:
            return f"FILES[{value!r}]"
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v, uploaded) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_literal(v, uploaded)}" for k, v in value.items()) + "}"
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    raise TypeError(f"cannot compile argument value {value!r}")


def compile_plan(plan: Plan, order: list[int], uploaded: set[str]) -> str:
    """The program for ``plan`` (steps in ``order``), reading uploaded files from FILES."""
    lines = ["# Compiled by DocPilot from a verified plan: one tool call per step.", ""]
    for step_id in order or [s.id for s in plan.steps]:
        step = plan.step(step_id)
        args = ", ".join(f"{k}={_literal(v, uploaded)}" for k, v in step.args.items())
        sep = ", " if args else ""
        lines.append(f"{var_name(step.returns)} = tools.run({step.id}, {step.task!r}{sep}{args})")
    return "\n".join(lines) + "\n"
