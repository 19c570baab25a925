"""The embedded model writes the programs: a question over a small table's values is answered by a program it
wrote, run in the sandbox, with the deciding cells cited (an argmax and a sum of named rows)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_pdfs import DrawnTable, draw_pdf

from docpilot.understanding.answer import ask_files

pytestmark = [pytest.mark.llm, pytest.mark.slow]

HARVEST = [
    ["Farm", "County", "Apples", "Pears"],
    ["Hillcrest", "Kent", "1,240", "310"],
    ["Brookside", "Kent", "860", "455"],
    ["Marsh End", "Essex", "2,015", "120"],
    ["Oakley", "Essex", "1,530", "290"],
    ["Total", "", "5,645", "1,175"],
]


@pytest.fixture(scope="module")
def harvest(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("harvest")
    pages: list = [
        "Orchard report 2024. The harvest was weighed at each farm in October; the figures follow.",
        [DrawnTable(HARVEST, caption="Table 2: Fruit harvested by farm, 2024 (tonnes)")],
    ]
    return draw_pdf(folder / "orchards.pdf", pages)


@pytest.fixture(autouse=True)
def model_programs_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model's program job is what these tests drive: the program composed from the question's words
    (:func:`docpilot.understanding.frames.compose_program`, tested in test_composed_programs.py) is switched off."""
    monkeypatch.setattr("docpilot.understanding.programs.compose_program", lambda *args, **kwargs: None)


def ask(question: str, path: str, llm: Any, cache: Path) -> Any:
    answer = ask_files(question, {"orchards.pdf": path}, llm, cache)
    print(f"\n{question} -> {answer.answer!r} {answer.workflow} {answer.llm_calls} calls {answer.seconds:.0f} s")
    return answer


def quotes(answer: Any) -> set[str]:
    return {c["quote"] for c in answer.citations}


def test_the_model_writes_an_argmax_and_a_sum(llm: Any, harvest: str, tmp_path: Path) -> None:
    most = ask("Which farm harvested the most apples?", harvest, llm, tmp_path / "cache")
    assert most.found and most.answer == "Marsh End"
    assert any(step.startswith("The program:") for step in most.workflow) and most.llm_calls >= 1
    assert {"Marsh End", "2,015"} <= quotes(most) and {c["page"] for c in most.citations} == {2}

    both = ask(
        "How many tonnes of pears did Hillcrest and Brookside harvest between them?", harvest, llm, tmp_path / "cache"
    )
    assert both.found and both.answer.split()[0] == "765"
    assert any(step.startswith("The program:") for step in both.workflow)
    assert {"Hillcrest", "310", "Brookside", "455"} <= quotes(both) and "5,645" not in quotes(both)


def test_under_the_frames_grammar_the_model_writes_a_program_that_runs(llm: Any, harvest: str) -> None:
    # the retry's constrained decoding (llama.cpp parses the grammar made from the frames, and the program decoded
    # under it reads the farm the question names by the label the table prints)
    from docpilot.llm.prompting import render
    from docpilot.llm.untrusted import data_block
    from docpilot.understanding.cache import StructureCache
    from docpilot.understanding.document import open_documents
    from docpilot.understanding.frames import answer_with_program, schema_text
    from docpilot.understanding.frames.grammar import program_grammar
    from docpilot.understanding.programs import data_frames, program_job

    question = "How many tonnes of pears came from Brook Side farm?"
    frames, _ = data_frames(open_documents({"orchards.pdf": harvest}, StructureCache(None)), question, None)
    schema = data_block(schema_text(frames, question=question))
    user = render("program_user.j2", schema=schema, question=question, feedback="")
    messages = [{"role": "system", "content": program_job().system}, {"role": "user", "content": user}]
    reply = llm.chat(messages, max_tokens=160, grammar=program_grammar(frames))
    result = answer_with_program(reply.text, frames)
    assert '"Brookside"' in reply.text and result.value == 455
