"""A new tool is one function with ``@tool(...)`` metadata: every part of DocPilot that needs a fact
about it (the verifier, page counts, the explanation, masking, result naming, the catalogue) reads it
from the registry, with no other edit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from docpilot.files import inspect_files
from docpilot.planning.fastpath.build import result_name
from docpilot.plans.explain import explain_plan
from docpilot.plans.plan import Plan
from docpilot.plans.verify import verify_plan
from docpilot.running.messages import answer_text
from pdftools import all_tools, call_tool, get_tool
from pdftools.effects import added
from pdftools.masking import MASK, mask_args, mask_text
from pdftools.pages import Pages, parse_pages
from pdftools.registry import tool, unregister

SECRET = "Kestrel-4471"


@pytest.fixture
def new_tool() -> Iterator[str]:
    """Registers ``append_note_page`` for one test, then forgets it."""

    @tool(
        kind="pdf",
        category="pages",
        explain="Add a note page after {pages} of {file}[ locked with {password}]",
        result_name="annotated_copy",
        page_effect=added(1),
        secrets=("password",),
        answer=lambda value: f"Noted {value}.",
    )
    def append_note_page(
        file: str, pages: Pages = "all", password: str | None = None, output: str | None = None
    ) -> str:
        """Append one page that notes which pages were reviewed.

        Args:
            file: The PDF to add the note page to.
            pages: The pages the note names.
            password: A password to open the result with.
            output: File name for the result.

        Returns:
            Path of the new PDF.
        """
        with pymupdf.open(file) as doc:
            chosen = parse_pages(pages, doc.page_count)
            doc.new_page().insert_text((72, 72), f"Reviewed: {[i + 1 for i in chosen]}")
            target = output or "noted.pdf"
            doc.save(target)
        return target

    yield "append_note_page"
    unregister("append_note_page")


def _plan(*steps: dict[str, Any]) -> Plan:
    return Plan.model_validate({"steps": list(steps)})


def _note(pages: str = "1-2", **args: Any) -> dict[str, Any]:
    return {
        "id": 1,
        "task": "append_note_page",
        "dep": [],
        "return": "annotated_copy",
        "args": {"file": "doc.pdf", "pages": pages, **args},
    }


def _delete(pages: str) -> dict[str, Any]:
    return {
        "id": 2,
        "task": "delete_pages",
        "dep": [1],
        "return": "shortened",
        "args": {"file": "$annotated_copy", "pages": pages},
    }


def test_the_catalogue_lists_it_with_its_schema(new_tool: str) -> None:
    tools = all_tools()
    assert new_tool in tools
    entry = tools[new_tool].catalogue_entry()
    assert entry["category"] == "pages" and set(entry["parameters"]["properties"]) == {
        "file",
        "pages",
        "password",
        "output",
    }
    assert get_tool(new_tool).answer_text(3) == "Noted 3." and answer_text(new_tool, 3) == "Noted 3."


def test_the_verifier_checks_its_pages(new_tool: str, make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["a", "b", "c"], name="doc.pdf")])
    assert verify_plan(_plan(_note("1-3")), all_tools(), files).ok
    verdict = verify_plan(_plan(_note("4")), all_tools(), files)
    assert not verdict.ok and verdict.problems[0].code == "pages"


def test_its_page_count_feeds_later_steps(new_tool: str, make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["a", "b", "c"], name="doc.pdf")])
    assert verify_plan(_plan(_note(), _delete("4")), all_tools(), files).ok  # its new last page
    verdict = verify_plan(_plan(_note(), _delete("5")), all_tools(), files)
    assert not verdict.ok and "valid pages are 1-4" in verdict.problems[0].message


def test_its_explanation_and_masking(new_tool: str, make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["a", "b"], name="doc.pdf")])
    verdict = verify_plan(_plan(_note(password=SECRET)), all_tools(), files)
    assert verdict.ok and verdict.plan is not None
    text = explain_plan(verdict.plan, all_tools(), verdict.order)
    assert text.startswith("1. Add a note page after pages 1-2 of doc.pdf locked with") and SECRET not in text
    assert MASK in text
    assert mask_args(new_tool, {"password": SECRET, "pages": "1"}) == {"password": MASK, "pages": "1"}
    assert SECRET not in mask_text(f"ran with {SECRET}", verdict.plan)


def test_it_runs_and_adds_the_page_it_declares(new_tool: str, make_pdf: Callable[..., str], tmp_path: Path) -> None:
    path = make_pdf(["a", "b", "c"], name="doc.pdf")
    out = call_tool(new_tool, {"file": path, "pages": "1-2", "output": str(tmp_path / "noted.pdf")})
    with pymupdf.open(out) as doc:
        assert doc.page_count == get_tool(new_tool).pages_after({"pages": "1-2"}, 3, None) == 4
        assert "Reviewed: [1, 2]" in doc[-1].get_text()


def test_its_result_is_named_as_declared(new_tool: str) -> None:
    used: set[str] = set()
    assert result_name(new_tool, used) == "annotated_copy"
    assert result_name(new_tool, used) == "annotated_copy_2"


def test_a_page_word_that_could_never_match_is_refused_at_registration() -> None:
    with pytest.raises(TypeError, match="never match"):

        @tool(kind="pdf", category="pages", explain="Flip {file}", page_words={"order": ("Reverse",)})
        def flip(file: str, order: Pages = "all") -> str:
            """Flip.

            Args:
                file: The PDF.
                order: The order.
            """
            return file


def test_undeclared_secret_is_refused_at_registration() -> None:
    with pytest.raises(TypeError, match="look secret"):

        @tool(kind="value", category="files", explain="Peek at {file}")
        def peek(file: str, password: str | None = None) -> int:
            """Peek.

            Args:
                file: The PDF.
                password: Its password.
            """
            return 0
