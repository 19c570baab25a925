"""The plan editor's table: a plan as rows and the rows back, values parsed by the tool's schema."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from docpilot.files import inspect_files
from docpilot.planning.planner import Planner
from docpilot.plans.edit import parse_value, plan_rows, rows_to_plan
from pdftools import all_tools
from pdftools.masking import MASK


def edit(rows: list[list[str]], param: str, value: str, step: str = "1") -> list[list[str]]:
    out = [list(r) for r in rows]
    for row in out:
        if row[0] == step and row[2] == param:
            row[3] = value
            return out
    raise AssertionError(f"no row for step {step} {param}: {rows}")


# --- plan editor table ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, prop, value",
    [
        ("3", {"anyOf": [{"type": "string"}, {"type": "integer"}]}, 3),
        ("1-3,5", {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "1-3,5"),
        ("123456", {"type": "string"}, "123456"),
        ('"quoted"', {"type": "string"}, "quoted"),
        ('["ACME", "Bob"]', {"anyOf": [{"type": "string"}, {"type": "array"}]}, ["ACME", "Bob"]),
        ("0.5", {"type": "number"}, 0.5),
        ("90", {"type": "number"}, 90),
        ("true", {"type": "boolean"}, True),
        ("", {"type": "string"}, None),
        ("center", {"enum": ["center", "top"], "type": "string"}, "center"),
    ],
)
def test_parse_value(text, prop, value):
    assert parse_value(text, prop) == value


def test_rows_round_trip_and_clearing(make_pdf: Callable[..., str]) -> None:
    tools = all_tools()
    plan = Planner().plan("add a DRAFT watermark", inspect_files([make_pdf(["a"], name="c.pdf")])).plan
    rows = plan_rows(plan, tools)
    same, changes = rows_to_plan(plan, rows, tools)
    assert same.dump() == plan.dump() and changes == []
    cleared, changes = rows_to_plan(plan, edit(rows, "pages", ""), tools)
    assert "pages" not in cleared.steps[0].args and changes == ["step 1 add_watermark: pages all → (not set)"]


def test_a_set_password_shows_as_the_mask_and_an_unchanged_mask_keeps_it(make_pdf: Callable[..., str]) -> None:
    tools = all_tools()
    plan = Planner().plan("encrypt with password abc123", inspect_files([make_pdf(["a"], name="c.pdf")])).plan
    rows = plan_rows(plan, tools)
    assert ["1", "add_password", "password", MASK] in rows and "abc123" not in str(rows)
    same, changes = rows_to_plan(plan, rows, tools)
    assert same.steps[0].args["password"] == "abc123" and changes == []
