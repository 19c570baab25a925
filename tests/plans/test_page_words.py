"""Words a page argument accepts besides page numbers are declared on the tool, so the verifier and
the tool agree: every spelling reorder_pages accepts for "last page first" verifies and runs."""

from __future__ import annotations

from collections.abc import Callable

import pymupdf
import pytest

from docpilot.files import inspect_files
from docpilot.plans.plan import Plan
from docpilot.plans.verify import verify_plan
from pdftools import all_tools, call_tool, get_tool


@pytest.mark.parametrize("word", get_tool("reorder_pages").page_words["order"])
def test_every_reverse_spelling_verifies_and_runs(word: str, make_pdf: Callable[..., str]) -> None:
    path = make_pdf(["one", "two", "three"], name="deck.pdf")
    plan = Plan.model_validate(
        {
            "steps": [
                {
                    "id": 1,
                    "task": "reorder_pages",
                    "dep": [],
                    "return": "reordered",
                    "args": {"file": "deck.pdf", "order": word},
                }
            ]
        }
    )
    verdict = verify_plan(plan, all_tools(), inspect_files([path]))
    assert verdict.ok, verdict.report()
    out = call_tool("reorder_pages", {"file": path, "order": word})
    with pymupdf.open(out) as doc:
        assert [page.get_text().strip() for page in doc] == ["three", "two", "one"]


def test_insert_blank_pages_at_the_start_verifies(make_pdf: Callable[..., str]) -> None:
    path = make_pdf(["one", "two"], name="deck.pdf")
    for after in get_tool("insert_blank_pages").page_words["after"]:
        plan = Plan.model_validate(
            {
                "steps": [
                    {
                        "id": 1,
                        "task": "insert_blank_pages",
                        "dep": [],
                        "return": "padded",
                        "args": {"file": "deck.pdf", "after": after},
                    }
                ]
            }
        )
        assert verify_plan(plan, all_tools(), inspect_files([path])).ok, after


def test_a_word_that_is_not_declared_is_still_refused(make_pdf: Callable[..., str]) -> None:
    path = make_pdf(["one", "two"], name="deck.pdf")
    plan = Plan.model_validate(
        {
            "steps": [
                {
                    "id": 1,
                    "task": "reorder_pages",
                    "dep": [],
                    "return": "reordered",
                    "args": {"file": "deck.pdf", "order": "sideways"},
                }
            ]
        }
    )
    assert not verify_plan(plan, all_tools(), inspect_files([path])).ok


def test_a_markdown_result_cannot_feed_a_pdf_tool(make_pdf: Callable[..., str]) -> None:
    """File kinds between steps come from the tools' declarations (convert_to_markdown makes text)."""
    path = make_pdf(["one", "two"], name="deck.pdf")
    plan = Plan.model_validate(
        {
            "steps": [
                {
                    "id": 1,
                    "task": "convert_to_markdown",
                    "dep": [],
                    "return": "markdown_file",
                    "args": {"file": "deck.pdf"},
                },
                {
                    "id": 2,
                    "task": "add_page_with_text",
                    "dep": [1],
                    "return": "extended",
                    "args": {"file": "$markdown_file", "text": "Summary"},
                },
            ]
        }
    )
    verdict = verify_plan(plan, all_tools(), inspect_files([path]))
    assert not verdict.ok
    assert "a text/Markdown file" in verdict.problems[0].message and "needs a PDF" in verdict.problems[0].message
