"""`docpilot run` of a request the model answered with a written program (conditions, loops) keeps its record
for a follow-up like any plan: it used to stop with a traceback from Conversation.save_turn ("nothing was
planned yet"), since only step plans were remembered.

The pilot here is scripted (its plan is a program, its run a delivered file): this drives the CLI's loop, not
the model; the model's own programs are tested in tests/planning/test_llm_real.py.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from docpilot.cli.run import _plan_and_run
from docpilot.conversation import Conversation
from docpilot.planning.codegen import Draft
from docpilot.planning.outcome import PlanOutcome
from docpilot.running.executor import RunOutcome


class ProgramPilot:
    """Plans every request as a written program and 'runs' it by saving a numbered copy."""

    def __init__(self, records: Path) -> None:
        self.records = records

    def plan(self, request: str, files: dict[str, Any], stop: Any = None) -> PlanOutcome:
        outcome = PlanOutcome(request, "local")
        outcome.set_program(Draft("pages = count_pages(file=FILES[0])\n"), "1. Count the pages, then …")
        return outcome

    def run(self, outcome: PlanOutcome, files: dict[str, Any], out_dir: str | Path, stop: Any = None) -> RunOutcome:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        result = out / "deal_numbered.pdf"
        with pymupdf.open(next(iter(files.values())).path) as doc:
            doc.save(result)
        record = self.records / "run-1"
        record.mkdir(parents=True)
        return RunOutcome(True, outputs=[str(result)], message="Numbered 2 pages.", record=str(record))


def test_a_written_program_run_keeps_its_record(
    make_pdf: Callable[..., str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deal = make_pdf(["one", "two"], name="deal.pdf")
    request = "If it has more than 1 page add page numbers, otherwise compress it"
    args = argparse.Namespace(request=request, files=[deal], resume=None, yes=True, json=True)
    code = _plan_and_run(args, input, ProgramPilot(tmp_path / "runs"), tmp_path / "out")
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0 and result["ok"] is True and result["error"] is None
    talk = Conversation.resume(Path(result["record"]))  # "also lock it" --continue RECORD goes on from here
    assert talk.earlier is not None and talk.earlier.request == request
    assert [Path(p).name for p in talk.earlier.results] == ["deal_numbered.pdf"]
