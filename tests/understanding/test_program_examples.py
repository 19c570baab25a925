"""The question → program examples of the program job (fewshot/table_programs.jsonl) are data the model copies:
each program is checked by the allow-list and run in the sandbox over its table, and gives the answer written
beside it; an example the tables cannot answer says so the way the job reads it."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

from docpilot.understanding.frames import answer_with_program
from docpilot.understanding.programs import CANNOT, example_frames, examples, program_job, program_of
from sandbox import Sandbox

CASES = [(example, pair) for example in examples() for pair in example["questions"]]


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    with Sandbox(lean=True) as sandbox:
        yield sandbox


def same(got: Any, want: Any) -> bool:
    if isinstance(want, float) and isinstance(got, (int, float)):
        return math.isclose(got, want, rel_tol=1e-3)
    return bool(got == want)


@pytest.mark.parametrize(("example", "pair"), CASES, ids=[pair["question"][:40] for _, pair in CASES])
def test_each_example_program_gives_its_answer(example: dict, pair: dict, box: Sandbox) -> None:
    if pair["program"] == CANNOT:
        assert program_of(pair["program"]) is None and pair["answer"] is None
        return
    result = answer_with_program(pair["program"], example_frames(example), sandbox=box)
    assert same(result.value, pair["answer"]), (pair["question"], result.value)
    assert result.citations  # every example answer cites the cells it came from


def test_the_examples_cover_the_operations_and_are_in_the_prompt() -> None:
    programs = " ".join(pair["program"] for _, pair in CASES)
    for method in ("idxmax", "idxmin", ".iloc[0]", "isin", ".sum()", ".mean()", "tolist", "len(", "* 100", CANNOT):
        assert method in programs
    system = program_job().system
    assert all(pair["program"] in system and pair["question"] in system for _, pair in CASES)
