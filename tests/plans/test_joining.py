"""Steps that say one action in two are joined (docpilot/plans/joining.py); every other pair stays two steps."""

from __future__ import annotations

from typing import Any

import pytest

from docpilot.plans.joining import join_repeated
from docpilot.plans.plan import Plan
from pdftools import all_tools


def _chain(*steps: tuple[str, dict[str, Any]]) -> Plan:
    """Each step on the result of the one before it (the first on the upload)."""
    out = []
    for i, (task, args) in enumerate(steps, 1):
        source = {"file": "memo.pdf"} if i == 1 else {"file": f"$r{i - 1}"}
        out.append(
            {"id": i, "task": task, "dep": [i - 1] if i > 1 else [], "args": {**source, **args}, "return": f"r{i}"}
        )
    return Plan.model_validate({"steps": out})


def test_two_redactions_of_two_kinds_on_the_same_pages_are_one() -> None:
    """ "redact the email addresses and phone numbers in the Contacts block" read as two steps (blind batch i4)."""
    plan = _chain(
        ("redact_text", {"categories": ["email"], "pages": "6"}),
        ("redact_text", {"categories": ["phone"], "pages": "6"}),
        ("add_password", {"password": "x"}),
    )
    joined = join_repeated(plan, all_tools()).dump()["steps"]
    assert [(s["id"], s["task"]) for s in joined] == [(1, "redact_text"), (2, "add_password")]
    assert joined[0]["args"] == {"file": "memo.pdf", "categories": ["email", "phone"], "pages": "6"}
    assert joined[1]["args"]["file"] == "$r1" and joined[1]["dep"] == [1]  # it reads the step joined into


@pytest.mark.parametrize(
    "steps",
    [
        # another colour, other pages, a value that is no list: each a step of its own
        [
            ("highlight_text", {"terms": ["a"], "color": "yellow"}),
            ("highlight_text", {"terms": ["b"], "color": "green"}),
        ],
        [
            ("redact_text", {"categories": ["email"], "pages": "1"}),
            ("redact_text", {"categories": ["phone"], "pages": "2"}),
        ],
        [("rotate_pages", {"pages": "2", "degrees": 90}), ("rotate_pages", {"pages": "2", "degrees": 90})],
        [("redact_text", {"terms": ["a"]}), ("highlight_text", {"terms": ["b"]})],
    ],
)
def test_steps_that_differ_in_more_than_a_list_stay_apart(steps: list[tuple[str, dict[str, Any]]]) -> None:
    plan = _chain(*steps)
    assert join_repeated(plan, all_tools()) == plan


def test_steps_on_two_files_stay_apart() -> None:
    plan = Plan.model_validate(
        {
            "steps": [
                {"id": 1, "task": "redact_text", "args": {"file": "a.pdf", "categories": ["email"]}, "return": "r1"},
                {"id": 2, "task": "redact_text", "args": {"file": "b.pdf", "categories": ["phone"]}, "return": "r2"},
            ]
        }
    )
    assert join_repeated(plan, all_tools()) == plan
