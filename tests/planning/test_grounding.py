"""A plan means the files the person means: named, by order, by kind, or all of them; with several
files and no mention, a question instead of a guess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from docpilot.conversation import Conversation
from docpilot.files import FileInfo, inspect_files
from docpilot.planning.fastpath.grounding import ground_files
from docpilot.planning.planner import Planner, make_planner
from docpilot.running.executor import Executor
from docpilot.service import DocPilot


def _names(*names: str) -> dict[str, FileInfo]:
    return {n: FileInfo(n, f"/x/{n}", "pdf", 3) for n in names}


TWO = ("contract.pdf", "annual_report.pdf")
THREE = ("paper.pdf", "invoice_1001.pdf", "invoice_1002.pdf")


@pytest.mark.parametrize(
    "text, names, meant",
    [
        (
            "Please hide the email addresses and phone numbers in the contract, and stamp it CONFIDENTIAL",
            TWO,
            ["contract.pdf"],
        ),
        ("Make the annual report smaller and put page numbers at the bottom right", TWO, ["annual_report.pdf"]),
        ("keep only the first two pages of paper.pdf", THREE, ["paper.pdf"]),
        ("merge the invoices into one file called all_invoices.pdf", THREE, ["invoice_1001.pdf", "invoice_1002.pdf"]),
        ("rotate invoice 1002 by 90 degrees", THREE, ["invoice_1002.pdf"]),
        ("rotate the second file", THREE, ["invoice_1001.pdf"]),
        ("rotate the last one", THREE, ["invoice_1002.pdf"]),
        ("add page numbers to both", TWO, list(TWO)),
        ("compress each file", TWO, list(TWO)),
    ],
)
def test_mentions_pick_the_files_meant(text: str, names: tuple[str, ...], meant: list[str]) -> None:
    grounding = ground_files(text, _names(*names))
    assert grounding.mentioned and grounding.pdfs == meant


@pytest.mark.parametrize("text", ["add page numbers", "add a DRAFT watermark"])
def test_no_mention_is_no_mention(text: str) -> None:
    grounding = ground_files(text, _names("draft.pdf", "memo.pdf"))
    assert not grounding.mentioned and grounding.ambiguous is None


def test_a_mention_that_fits_several_is_ambiguous() -> None:
    assert ground_files("rotate the invoice", _names(*THREE)).ambiguous == ["invoice_1001.pdf", "invoice_1002.pdf"]


@pytest.fixture
def two_files(make_pdf: Callable[..., str]) -> dict[str, FileInfo]:
    return inspect_files(
        [
            make_pdf(["Contract page one.", "two"], name="contract.pdf"),
            make_pdf(["Annual report.", "two", "three"], name="annual_report.pdf"),
        ]
    )


def _files_touched(outcome) -> set[str]:
    return {
        s.args["file"]
        for s in outcome.plan.steps
        if isinstance(s.args.get("file"), str) and not s.args["file"].startswith("$")
    }


def test_only_the_file_named_is_changed(two_files: dict[str, FileInfo]) -> None:
    planner = Planner()
    outcome = planner.plan(
        "Please hide the email addresses and phone numbers in the contract, and stamp it CONFIDENTIAL", two_files
    )
    assert outcome.ok, outcome.error or outcome.question
    assert _files_touched(outcome) == {"contract.pdf"}
    outcome = planner.plan("Make the annual report smaller and put page numbers at the bottom right", two_files)
    assert outcome.ok and _files_touched(outcome) == {"annual_report.pdf"}


def test_no_mention_with_two_files_asks_which(two_files: dict[str, FileInfo]) -> None:
    outcome = Planner().plan("add page numbers", two_files)
    assert not outcome.ok and outcome.error is None and outcome.plan is None
    assert outcome.question is not None and "contract.pdf" in outcome.question.text
    assert outcome.question.choices == ["contract.pdf", "annual_report.pdf", "all of them"]
    assert outcome.to_json()["question"]["choices"][-1] == "all of them"


def test_the_answer_completes_the_request(two_files: dict[str, FileInfo], tmp_path: Path) -> None:
    pilot = DocPilot(make_planner("rules", {}), Executor(records=tmp_path / "records"))
    talk = Conversation(two_files)
    assert talk.request(pilot, "add page numbers").question is not None
    answered = talk.request(pilot, "annual_report.pdf")
    assert answered.ok and _files_touched(answered) == {"annual_report.pdf"}
    talk.cancel()
    assert talk.request(pilot, "rotate page 1 by 90 degrees").question is not None
    both = talk.request(pilot, "all of them")
    assert both.ok and _files_touched(both) == {"contract.pdf", "annual_report.pdf"}


def test_cli_question_is_exit_code_3_and_writes_nothing(two_files: dict[str, FileInfo], tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "DOCPILOT_BACKEND": "rules"}
    paths = [info.path for info in two_files.values()]
    proc = subprocess.run(
        [sys.executable, "-m", "docpilot", "run", "add page numbers", *paths, "--out", str(out), "--yes", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 3, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result["ok"] is False and result["error"] is None
    assert result["question"]["choices"] == ["contract.pdf", "annual_report.pdf", "all of them"]
    assert not out.exists() or not any(out.iterdir())

    # The reply continues from the run's record: the files and the request come from there.
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "docpilot",
            "run",
            "annual_report.pdf",
            "--continue",
            result["record"],
            "--out",
            str(out),
            "--yes",
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    done = json.loads(proc.stdout.splitlines()[-1])
    assert [Path(p).name for p in done["outputs"]] == ["annual_report_numbered.pdf"]
    assert [s["args"]["file"] for s in done["plan"]["steps"]] == ["annual_report.pdf"]
