"""Open questions about the content and vague requests are answered in under a second, never planned."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from fakes import ScriptedLLM

from docpilot.files import inspect_files
from docpilot.planning.planner import Planner
from docpilot.planning.triage import is_content_question

BOOK = Path(os.environ.get("DOCPILOT_SHARED", Path(__file__).resolve().parents[3] / "shared")) / (
    "corpus/real/pdfjs__freeculture.pdf"
)


@pytest.mark.parametrize(
    "text, question",
    [
        ("Which year had the highest revenue in table 2?", True),
        ("who is the client?", True),
        ("what does the report say about risks", True),
        ("Summarize the contract in three bullet points", True),
        ("summarize pages 1-2 and add the summary as a new first page", False),
        ("Can you redact the client names?", False),
        ("could you make it smaller?", False),
        ("rotate page 2", False),
        # put as a question, asking for an action a tool's registry verb names (blind batch i7, tuning)
        ("can u pull chapter 3 (Catalogs) out as its own pdf", False),
        ("could you please ditch the cover page?", False),
        ("can you tell me who signed it?", True),
        ("could you summarize the findings?", True),
    ],
)
def test_content_questions(text: str, question: bool) -> None:
    assert is_content_question(text) is question


def test_a_content_question_never_reaches_the_model(make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["Revenue table", "two"], name="annual_report.pdf")])
    llm = ScriptedLLM([])  # any call would fail the test
    started = time.perf_counter()
    outcome = Planner(llm=llm).plan("Which year had the highest revenue in table 2?", files)
    assert time.perf_counter() - started < 1.0
    assert not outcome.ok and outcome.content_question and outcome.plan is None and not llm.calls


def test_a_count_question_stays_a_tool_plan(make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["a", "b"], name="deck.pdf")])
    outcome = Planner().plan("how many pages does it have?", files)
    assert outcome.ok and [s.task for s in outcome.plan.steps] == ["count_pages"]


def test_a_vague_request_gets_suggestions_from_the_document(tmp_path, guard) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Title page")
    doc.new_page()  # blank
    page = doc.new_page()
    page.insert_text((72, 72), "Body")
    page.set_rotation(90)
    path = tmp_path / "draft.pdf"
    doc.save(path)
    files = inspect_files([guard(path)])
    llm = ScriptedLLM([])
    started = time.perf_counter()
    outcome = Planner(llm=llm).plan("make it nicer", files)
    assert time.perf_counter() - started < 1.0 and not llm.calls
    assert outcome.question is not None and outcome.plan is None
    text = outcome.question.text
    assert "blank page of draft.pdf (2)" in text and "rotated page" in text and "page numbers" in text
    assert 3 <= len(outcome.question.choices) <= 4


@pytest.mark.skipif(not BOOK.is_file(), reason="needs ../shared/corpus")
@pytest.mark.parametrize(
    ("request_", "steps"),
    [  # blind batch i6 (tuning): requests put as questions, naming parts by the book's structure
        ("can I have the table of contents pages as PNG pictures, 200 dpi", [("convert_to_png", "9-11")]),
        ("Can I get chapter 2 on its own?", [("extract_pages", "45-61")]),
    ],
)
def test_a_request_put_as_a_question_about_a_part_is_planned(request_: str, steps: list[tuple[str, str]]) -> None:
    outcome = Planner(llm=ScriptedLLM([])).plan(request_, inspect_files([BOOK]))
    assert outcome.ok and not outcome.content_question
    assert [(s.task, s.args.get("pages")) for s in outcome.plan.steps] == steps
