"""Explanations in plain language, from the tools' templates: plans in execution order, programs step by step."""

from __future__ import annotations

from docpilot.plans.explain import explain_plan
from docpilot.plans.explain_program import explain_program
from docpilot.plans.plan import Plan
from pdftools import all_tools
from pdftools.masking import MASK


def _plan(*steps: dict) -> Plan:
    return Plan.model_validate({"steps": list(steps)})


def test_numbered_lines_in_execution_order_with_references() -> None:
    plan = _plan(
        {
            "id": 2,
            "task": "add_password",
            "dep": [1],
            "return": "protected",
            "args": {"file": "$rotated", "password": "Sesame-77"},
        },
        {
            "id": 1,
            "task": "rotate_pages",
            "dep": [],
            "return": "rotated",
            "args": {"file": "report.pdf", "pages": "2", "degrees": 180},
        },
    )
    text = explain_plan(plan, all_tools(), [1, 2])
    lines = text.splitlines()
    assert lines[0] == "1. Rotate page 2 of report.pdf by 180 degrees (clockwise)."
    assert lines[1].startswith("2. ") and "the result of step 1" in lines[1]
    assert "Sesame-77" not in text and MASK in text


def test_optional_segments_are_dropped_when_empty() -> None:
    plain = _plan({"id": 1, "task": "convert_to_png", "dep": [], "return": "png_images", "args": {"file": "a.pdf"}})
    sharp = _plan(
        {"id": 1, "task": "convert_to_png", "dep": [], "return": "png_images", "args": {"file": "a.pdf", "dpi": 300}}
    )
    tools = all_tools()
    assert "dpi" in explain_plan(sharp, tools) and "300" in explain_plan(sharp, tools)
    plain_text = explain_plan(plain, tools)
    assert "[" not in plain_text and "{" not in plain_text and plain_text.startswith("1. Save")


def test_a_named_output_is_mentioned() -> None:
    plan = _plan(
        {
            "id": 1,
            "task": "delete_pages",
            "dep": [],
            "return": "shortened",
            "args": {"file": "a.pdf", "pages": "last", "output": "short.pdf"},
        }
    )
    assert explain_plan(plan, all_tools()) == '1. Delete the last page from a.pdf, saved as "short.pdf".'


def test_programs_are_explained_with_their_conditions_and_loops() -> None:
    code = (
        "n = tools.count_pages(file=FILES['big.pdf'])\n"
        "if n > 10:\n"
        "    out = tools.compress(file=FILES['big.pdf'])\n"
        "else:\n"
        "    out = tools.add_page_numbers(file=FILES['big.pdf'])\n"
        "for p in [1, 2]:\n"
        "    tools.add_password(file=out, password='Hush-1')\n"
    )
    text = explain_program(code, all_tools())
    lines = text.splitlines()
    assert lines[1] == "- Count the pages of big.pdf."
    assert lines[2] == "- If n > 10:" and lines[3].startswith("   - Compress big.pdf")
    assert lines[4] == "- Otherwise:" and lines[5] == "   - Number all pages of big.pdf at the bottom-center."
    assert lines[6] == "- For each p in [1, 2]:" and "Hush-1" not in text


def test_an_unreadable_program_says_so() -> None:
    assert explain_program("def (:", all_tools()) == "A program that could not be read."
