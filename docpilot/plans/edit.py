"""The plan editor's table: a plan as rows ``Step | Tool | Parameter | Value`` and the rows back as a plan.

Values are shown as text: strings as they are, other values as JSON; passwords as a
mask that means "unchanged". Parsing goes by the tool's argument schema: JSON when
it gives an allowed type, else the raw text where a string is allowed, so ``3`` for
pages is the number 3 and ``123456`` for a password stays the string "123456".
An empty value means "not set" (the tool's default).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from docpilot.plans.plan import Plan
from pdftools import Tool
from pdftools.masking import MASK, is_secret

__all__ = ["parse_value", "plan_rows", "rows_to_plan", "schema_types", "show_value"]


def show_value(task: str, param: str, value: Any) -> str:
    """A cell's text: strings as they are, other values as JSON, a set secret as the mask."""
    if value is None:
        return ""
    if is_secret(task, param) and isinstance(value, str) and value:
        return MASK
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def schema_types(prop: dict[str, Any]) -> set[str]:
    """The JSON types an argument's schema allows ("null" too), through its anyOf/oneOf; an enum alone is a string."""
    found: set[str] = set()
    if "type" in prop:
        kinds = prop["type"]
        found.update(kinds if isinstance(kinds, list) else [kinds])
    for key in ("anyOf", "oneOf"):
        for sub in prop.get(key, []):
            found |= schema_types(sub)
    if "enum" in prop and not found:
        found.add("string")
    return found


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object", type(None): "null"}.get(type(value), "?")


def parse_value(text: Any, prop: dict[str, Any] | None) -> Any:
    """The argument value for a cell's text (None: leave the argument unset)."""
    if text is None:
        return None
    if not isinstance(text, str):
        return text
    raw = text.strip()
    if not raw:
        return None
    allowed = schema_types(prop or {})
    try:
        loaded = json.loads(raw)
    except json.JSONDecodeError:
        return raw
    kind = _json_type(loaded)
    if not allowed or kind in allowed or (kind == "integer" and "number" in allowed):
        return loaded
    return raw if "string" in allowed else loaded


def plan_rows(plan: Plan | None, tools: dict[str, Tool]) -> list[list[str]]:
    """One row per parameter of each step: the ones the plan sets first, then the tool's others (unset)."""
    if plan is None:
        return []
    rows: list[list[str]] = []
    for step in plan.steps:
        props = tools[step.task].schema().get("properties", {}) if step.task in tools else {}
        names = list(step.args) + [name for name in props if name not in step.args]
        for name in names:
            rows.append([str(step.id), step.task, name, show_value(step.task, name, step.args.get(name))])
    return rows


def _cell(row: Sequence[Any], index: int) -> Any:
    return row[index] if len(row) > index else None


def rows_to_plan(plan: Plan, rows: Sequence[Sequence[Any]] | None, tools: dict[str, Tool]) -> tuple[Plan, list[str]]:
    """The plan with the table's values applied, and a line per changed argument (passwords masked)."""
    data = plan.dump()
    by_id = {step["id"]: step for step in data["steps"]}
    changes: list[str] = []
    for row in rows or []:
        try:
            step_id = int(float(str(_cell(row, 0)).strip()))
        except ValueError:
            continue
        step, param = by_id.get(step_id), str(_cell(row, 2) or "").strip()
        if step is None or not param:
            continue
        props = tools[step["task"]].schema().get("properties", {}) if step["task"] in tools else {}
        old = step["args"].get(param)
        text = _cell(row, 3)
        if is_secret(step["task"], param) and text == MASK:
            continue
        if text == show_value(step["task"], param, old):
            continue
        new = parse_value(text, props.get(param))
        if new == old:
            continue
        if new is None:
            step["args"].pop(param, None)
        else:
            step["args"][param] = new
        shown_old = show_value(step["task"], param, old) or "(not set)"
        shown_new = show_value(step["task"], param, new) or "(not set)"
        changes.append(f"step {step_id} {step['task']}: {param} {shown_old} → {shown_new}")
    return Plan.model_validate(data), changes
