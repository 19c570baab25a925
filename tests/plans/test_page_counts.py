"""The page count after each tool that changes it (declared with @tool(page_effect=...)), and how the
verifier uses it to check a later step's pages."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from docpilot.files import inspect_files
from docpilot.plans.plan import Plan
from docpilot.plans.verify import verify_plan
from pdftools import all_tools, get_tool


@pytest.mark.parametrize(
    "task, values, pages_in, files_sum, expected",
    [
        ("extract_pages", {"pages": "1-3,5"}, 10, None, 4),
        ("extract_pages", {"pages": "last"}, 10, None, 1),
        ("delete_pages", {"pages": "2-4"}, 10, None, 7),
        ("insert_blank_pages", {"after": "2", "count": 3}, 10, None, 13),
        ("insert_blank_pages", {"after": "start", "count": 1}, 10, None, 11),
        ("insert_blank_pages", {"after": "1,5", "count": 2}, 10, None, 14),
        ("add_page_with_text", {"text": "x"}, 10, None, 11),
        ("combine_files", {"files": ["a.pdf", "b.pdf"]}, None, 7, 7),
        ("remove_blank_pages", {}, 10, None, None),
        ("split_pdf", {"every": 2}, 10, None, None),
        ("rotate_pages", {"pages": "1", "degrees": 90}, 10, None, 10),
        ("add_watermark", {"text": "DRAFT"}, 10, None, 10),
        ("convert_to_png", {}, 10, None, None),  # not a PDF
        ("extract_pages", {"pages": "1-3"}, None, None, None),  # unknown input: unknown result
    ],
)
def test_pages_after_each_tool(task, values, pages_in, files_sum, expected) -> None:
    assert get_tool(task).pages_after(values, pages_in, files_sum) == expected


def test_the_verifier_checks_later_steps_against_the_new_count(make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["1", "2", "3", "4", "5"], name="five.pdf")])

    def plan(delete: str) -> Plan:
        return Plan.model_validate(
            {
                "steps": [
                    {
                        "id": 1,
                        "task": "extract_pages",
                        "dep": [],
                        "return": "extracted",
                        "args": {"file": "five.pdf", "pages": "1-2"},
                    },
                    {
                        "id": 2,
                        "task": "delete_pages",
                        "dep": [1],
                        "return": "shortened",
                        "args": {"file": "$extracted", "pages": delete},
                    },
                ]
            }
        )

    assert verify_plan(plan("2"), all_tools(), files).ok
    verdict = verify_plan(plan("3"), all_tools(), files)
    assert not verdict.ok and verdict.problems[0].code == "pages" and verdict.problems[0].step == 2
