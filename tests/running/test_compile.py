"""compile_plan: a verified plan becomes a straight-line program over the PDFTools API."""

from __future__ import annotations

import ast

from docpilot.plans.plan import Plan
from docpilot.running.compile import compile_plan, var_name
from sandbox.checks import check_program, tools_used

PLAN = Plan.model_validate(
    {
        "steps": [
            {
                "id": 1,
                "task": "redact_text",
                "dep": [],
                "return": "redacted",
                "args": {"file": "contract.pdf", "terms": ["ACME", "Bob's"], "pages": "1-2"},
            },
            {"id": 3, "task": "convert_to_pptx", "dep": [2], "return": "slides", "args": {"file": "$watermarked"}},
            {
                "id": 2,
                "task": "add_watermark",
                "dep": [1],
                "return": "watermarked",
                "args": {"file": "$redacted", "text": "DRAFT", "opacity": 0.3, "rotate": True},
            },
        ]
    }
)


def test_steps_run_in_the_given_order_with_references_as_variables() -> None:
    code = compile_plan(PLAN, [1, 2, 3], {"contract.pdf"})
    calls = [line for line in code.splitlines() if "tools.run(" in line]
    assert calls == [
        "v_redacted = tools.run(1, 'redact_text', file=FILES['contract.pdf'], terms=['ACME', \"Bob's\"], pages='1-2')",
        "v_watermarked = tools.run(2, 'add_watermark', file=v_redacted, text='DRAFT', opacity=0.3, rotate=True)",
        "v_slides = tools.run(3, 'convert_to_pptx', file=v_watermarked)",
    ]


def test_without_an_order_the_written_order_is_used() -> None:
    code = compile_plan(PLAN, [], {"contract.pdf"})
    assert [n.args[0].value for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call)] == [1, 3, 2]


def test_a_name_that_is_not_an_upload_stays_a_string() -> None:
    code = compile_plan(PLAN, [1, 2, 3], set())
    assert "file='contract.pdf'" in code and "FILES[" not in code


def test_the_program_passes_the_sandbox_checks() -> None:
    code = compile_plan(PLAN, [1, 2, 3], {"contract.pdf"})
    assert check_program(code) == []
    assert sorted(tools_used(code)) == ["add_watermark", "convert_to_pptx", "redact_text"]


def test_return_names_become_safe_identifiers() -> None:
    assert var_name("page-count 2") == "v_page_count_2"
