"""An answer shown while the model writes it: readable text from partial JSON, and never trusted as the answer."""

from __future__ import annotations

import pytest

from docpilot.understanding.answer import NOT_SAID, ask_files
from docpilot.understanding.drafts import drafting, partial_strings
from tests.fakes import ScriptedLLM


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"answer": "Febr', ["Febr"]),
        ('{"answer": "Feb 3", "evidence": [', ["Feb 3"]),
        ('{"answer": "a \\"quoted\\" wo', ['a "quoted" wo']),
        ('{"answer": "caf\\u00', ["caf"]),  # an escape cut in half waits for its end
        ('{"answer": "cut \\', ["cut "]),
        ('{"evid', []),
    ],
)
def test_partial_json_strings(text: str, expected: list[str]) -> None:
    assert partial_strings(text, "answer") == expected


def test_bullets_are_shown_as_a_list_and_repeats_are_not_told() -> None:
    told: list[str] = []
    listen = drafting(told.append, "text", bullets=True)
    assert listen is not None
    for text in [
        '{"bullets": [{"text": "One',
        '{"bullets": [{"text": "One',
        '{"bullets": [{"text": "One"}, {"text": "Tw',
    ]:
        listen(text)
    assert told == ["- One", "- One\n- Tw"]
    assert drafting(None, "answer") is None  # nobody listening: the model is not asked to stream


def test_the_answer_streams_then_is_checked(synthetic, tmp_path) -> None:
    told: list[str] = []
    llm = ScriptedLLM(['{"answer": "David Chen", "evidence": [1]}'])
    files = {"contract.pdf": synthetic("contract.pdf")}
    answer = ask_files("Who represents the Consultant?", files, llm, tmp_path / "c", on_draft=told.append)
    assert answer.answer == "David Chen" and answer.citations
    assert len(told) >= 2 and told[-1] == "David Chen" and all("David Chen".startswith(t) for t in told)


def test_a_streamed_draft_that_the_pages_do_not_support_is_not_the_answer(synthetic, tmp_path) -> None:
    told: list[str] = []
    llm = ScriptedLLM(['{"answer": "42", "evidence": [1]}', '{"answer": "42", "evidence": [1]}'])
    files = {"contract.pdf": synthetic("contract.pdf")}
    answer = ask_files("Who represents the Consultant?", files, llm, tmp_path / "c", on_draft=told.append)
    assert told and told[-1] == "42"  # it was shown being written …
    assert answer.answer == NOT_SAID and "42" not in answer.answer  # … and is not what the person gets
