"""When the first evidence does not hold the answer, the model may fetch one part of the document by its
outline (PDFTriage): code offers the parts, fetches the one picked, and the answer is checked as before.
A scripted model drives the loop (how many calls, what is offered); the parts are a real PDF's."""

from __future__ import annotations

import json

from docpilot.understanding.answer import _Evidence, _fetched
from docpilot.understanding.cache import StructureCache
from docpilot.understanding.document import Unit, open_documents
from docpilot.understanding.fetch import fetch_target, targets
from tests.fakes import ScriptedLLM

QUESTION = "What revenue does the outlook section expect for next year?"


def _report(synthetic):
    return open_documents({"annual_report.pdf": synthetic("annual_report.pdf")}, StructureCache(None))


def _seen(docs, page: int) -> list[_Evidence]:
    return [_Evidence(Unit("annual_report.pdf", page, docs[0].page_text(page)[:400], "chunk"), "")]


def test_the_outline_offers_the_parts_the_first_evidence_did_not_show(synthetic) -> None:
    docs = _report(synthetic)
    offered = targets(docs, QUESTION, {("annual_report.pdf", 1)})
    outlook = next(t for t in offered if t.kind == "section" and t.title == "4 Outlook")
    assert outlook.page == 2 and all(t.page != 1 for t in offered)  # page 1 was read already
    fetched = fetch_target(docs, outlook)
    assert fetched and fetched[0].text.startswith("4 Outlook For 2024 management expects revenue between 56 and 60")
    assert sum(len(u.text.split()) for u in fetched) <= 850


def test_one_fetch_then_an_answer_checked_against_what_was_fetched(synthetic) -> None:
    docs = _report(synthetic)
    answer = json.dumps({"answer": "between 56 and 60 million USD", "evidence": [1]})
    offered = targets(docs, QUESTION, {("annual_report.pdf", 1)})
    pick = 1 + next(i for i, t in enumerate(offered) if t.title == "4 Outlook")
    llm = ScriptedLLM([json.dumps({"choice": pick}), answer])
    found = _fetched(llm, QUESTION, docs, _seen(docs, 1), None)
    assert found is not None and found.answer == "between 56 and 60 million USD"
    assert found.citations[0]["page"] in (2, 3) and "section '4 Outlook'" in found.workflow[0]
    assert len(llm.calls) == 2  # one pick, one answer: bounded
    assert f"[{pick}] section '4 Outlook'" in llm.calls[0].messages[-1]["content"]  # the outline it picked from
    assert llm.calls[0].schema["properties"]["choice"]["maximum"] == len(offered)


def test_an_answer_the_fetched_part_does_not_hold_is_no_answer(synthetic) -> None:
    docs = _report(synthetic)
    invented = json.dumps({"answer": "75 million USD", "evidence": [1]})
    offered = targets(docs, QUESTION, {("annual_report.pdf", 1)})
    pick = 1 + next(i for i, t in enumerate(offered) if t.title == "4 Outlook")
    llm = ScriptedLLM([json.dumps({"choice": pick}), invented, invented])  # the retry says the same: still not there
    assert _fetched(llm, QUESTION, docs, _seen(docs, 1), None) is None
    nothing = ScriptedLLM(['{"choice": 0}'])  # the model sees nothing likely: no fetch, no second call
    assert _fetched(nothing, QUESTION, docs, _seen(docs, 1), None) is None and len(nothing.calls) == 1
