"""One question's model time: the ways before the passages share part of it, and a question that used all of it
is told so plainly (``answered`` false), never left running for minutes.

The scripted model only drives the loop (each reply says how long it took); the table and its program run for
real over a drawn PDF. A model that works until it is told to stop stands in for a long call.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fakes import ScriptedLLM
from table_pdfs import DrawnTable, draw_pdf

from docpilot.errors import Stopped
from docpilot.llm.base import Reply, metered
from docpilot.llm.stopping import Stop
from docpilot.understanding.answer import answer_question
from docpilot.understanding.cache import StructureCache
from docpilot.understanding.document import Document, open_documents
from docpilot.understanding.modeltime import FIRST_SECONDS, MODEL_SECONDS, QuestionModel
from docpilot.understanding.programs import program_job

SALES = [
    ["Region", "Sales 2023", "Units"],
    ["North", "1,200", "14"],
    ["South", "300", "3"],
    ["West", "4,500", "40"],
]


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> list[Document]:
    folder = tmp_path_factory.mktemp("modeltime")
    path = draw_pdf(folder / "sales.pdf", ["Our sales report for 2023.", [DrawnTable(SALES, caption="Table 1: Sales")]])
    return open_documents({"sales.pdf": path}, StructureCache(None))


@pytest.fixture(autouse=True)
def model_programs_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The question goes to the model's program job (the program composed from its words is switched off)."""
    monkeypatch.setattr("docpilot.understanding.programs.compose_program", lambda *args, **kwargs: None)


class Working:
    """A model that works until it is told to stop (a long call), then raises as a backend does."""

    name = "working"

    def __init__(self) -> None:
        self.calls = 0

    def chat(self, messages: list[dict], should_stop: Callable[[], bool] | None = None, **kwargs: object) -> Reply:
        self.calls += 1
        assert should_stop is not None
        while not should_stop():
            time.sleep(0.01)
        raise Stopped("The model was stopped.", cancelled=False)


def test_a_long_first_way_leaves_the_passages_the_rest_then_out_of_time_is_said(documents: list[Document]) -> None:
    slow = FIRST_SECONDS + 1  # each reply took longer than the ways before the passages may use together
    failing = 't1["Revenue"].sum()'  # would go back to the model once, were there time
    invented = '{"answer": "9,999", "evidence": [1]}'  # a figure no passage holds: sent back, were there time
    llm = ScriptedLLM([failing, invented, invented], seconds=slow)
    answer = answer_question(documents, "What were the total sales of all regions?", llm, embed=None)
    programs = [c for c in llm.calls if c.messages[0]["content"] == program_job().system]
    assert len(programs) == 1  # no retry past the share: the passages were asked next
    assert len(llm.calls) == 2 and llm.calls[1].messages[0]["content"] != program_job().system
    # the passages' answer is not supported and asking again would pass the question's limit: said so
    assert 2 * slow > MODEL_SECONDS
    assert not answer.found and answer.answer.startswith(f"I could not answer within {MODEL_SECONDS:.0f} s")
    assert answer.to_dict()["answered"] is False
    assert answer.citations and all(c["file"].endswith("sales.pdf") for c in answer.citations)  # where to read


def test_a_long_call_is_stopped_at_the_share_and_at_the_limit() -> None:
    model = QuestionModel(Working(), limit=0.4)
    with model.within(0.1), pytest.raises(Stopped) as first:
        model.chat([{"role": "user", "content": "x"}])
    assert model.ran_out(first.value) and 0.1 <= model.seconds < 0.4
    with pytest.raises(Stopped) as second:  # outside the share: the call runs on to the question's limit
        model.chat([{"role": "user", "content": "x"}])
    assert model.ran_out(second.value) and model.seconds >= 0.4
    with pytest.raises(Stopped):  # spent: the next call is not started
        model.chat([{"role": "user", "content": "x"}])
    assert model.calls == 2 and model.llm.calls == 2


def test_a_cancel_is_not_taken_for_time_run_out(documents: list[Document]) -> None:
    stop = Stop()
    stop.cancel()
    llm = metered(ScriptedLLM(["NOT IN TABLES"] * 4), stop=stop)
    with pytest.raises(Stopped) as raised:
        answer_question(documents, "What were the total sales of all regions?", llm, embed=None)
    assert raised.value.cancelled


def test_ask_files_counts_the_questions_calls(documents: list[Document], tmp_path: Path) -> None:
    from docpilot.understanding.answer import ask_files

    llm = ScriptedLLM(['t1["Sales 2023"].sum()'])
    answer = ask_files("What were the total sales of all regions?", {"sales.pdf": documents[0].path}, llm)
    assert answer.found and answer.answer.startswith("6,000") and answer.llm_calls == 1


def test_the_requests_own_limit_firing_first_is_time_run_out_too() -> None:
    # the app's Stop (the same model time) is checked before the question's own: still "out of time", not a cancel
    model = QuestionModel(metered(Working(), stop=Stop(limit=0.2)), limit=0.2)
    with pytest.raises(Stopped) as raised:
        model.chat([{"role": "user", "content": "x"}])
    assert not raised.value.cancelled and model.ran_out(raised.value)
