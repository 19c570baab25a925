"""Issue F item 7: follow-ups across turns refer to the previous plan or its results.

Driven through :class:`Conversation` (what the app's chat and the CLI prompt use) with the rules
planner and real runs in the sandbox: "now do the same for the invoice" plans the previous request on
the invoice only; "and on page 3 too" after a run marks page 3 of the result; "also lock it" locks
the last result, not the upload.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from docpilot.conversation import Conversation
from docpilot.files import FileInfo, inspect_files
from docpilot.planning.followup import follow_up
from docpilot.planning.planner import make_planner
from docpilot.running.executor import Executor
from docpilot.service import DocPilot


@pytest.fixture
def two_files(make_pdf: Callable[..., str]) -> dict[str, FileInfo]:
    return inspect_files(
        [
            make_pdf(["ACME contract, page one.", "ACME page two.", "ACME page three."], name="contract.pdf"),
            make_pdf(["Invoice 1002 from ACME."], name="invoice.pdf"),
        ]
    )


@pytest.fixture
def pilot(tmp_path: Path) -> DocPilot:
    return DocPilot(make_planner("rules", {}), Executor(records=tmp_path / "records"))


def _files_touched(outcome) -> set[str]:
    return {s.args["file"] for s in outcome.plan.steps if not str(s.args.get("file", "$")).startswith("$")}


def test_the_same_for_another_file(two_files: dict[str, FileInfo], pilot: DocPilot, tmp_path: Path) -> None:
    talk = Conversation(two_files)
    first = talk.request(pilot, "add a DRAFT watermark to the contract")
    assert first.ok and _files_touched(first) == {"contract.pdf"}
    assert talk.approve(pilot, tmp_path / "out1").ok
    again = talk.request(pilot, "now do the same for the invoice")
    assert again.ok, again.error or again.question
    assert _files_touched(again) == {"invoice.pdf"}
    assert [s.task for s in again.plan.steps] == ["add_watermark"]
    assert again.plan.steps[0].args["text"] == "DRAFT"
    other = talk.request(pilot, "repeat that for the other file")
    assert other.ok and _files_touched(other) == {"contract.pdf"}  # the other one than the last plan's


def test_on_page_3_too_marks_the_result(two_files: dict[str, FileInfo], pilot: DocPilot, tmp_path: Path) -> None:
    talk = Conversation(two_files)
    first = talk.request(pilot, "highlight 'ACME' on page 1 of the contract")
    assert first.ok
    run = talk.approve(pilot, tmp_path / "out1")
    assert run.ok
    more = talk.request(pilot, "and on page 3 too")
    assert more.ok, more.error or more.question
    step = more.plan.steps[0]
    assert step.task == "highlight_text" and step.args["pages"] == "3" and step.args["terms"] == ["ACME"]
    assert step.args["file"] != "contract.pdf" and step.args["file"] in talk.acting_on  # the result, not the upload
    done = talk.approve(pilot, tmp_path / "out2")
    assert done.ok
    with pymupdf.open(done.outputs[0]) as doc:
        marked = [sum(1 for a in page.annots() if a.type[1] == "Highlight") for page in doc]
    assert marked == [1, 0, 1]  # page 1 from the first run, page 3 from the follow-up


def test_also_lock_it_locks_the_last_result(two_files: dict[str, FileInfo], pilot: DocPilot, tmp_path: Path) -> None:
    talk = Conversation(two_files)
    assert talk.request(pilot, "rotate page 2 of the contract by 90 degrees").ok
    assert talk.approve(pilot, tmp_path / "out1").ok
    lock = talk.request(pilot, "also lock it with the password Budget2025")
    assert lock.ok, lock.error or lock.question
    assert [s.task for s in lock.plan.steps] == ["add_password"]
    assert lock.plan.steps[0].args["file"] != "contract.pdf"
    done = talk.approve(pilot, tmp_path / "out2")
    assert done.ok
    with pymupdf.open(done.outputs[0]) as doc:
        assert doc.needs_pass
        assert doc.authenticate("Budget2025")
        assert doc[1].rotation == 90  # the rotated result was locked, not the upload


def test_a_new_request_is_not_a_follow_up(two_files: dict[str, FileInfo]) -> None:
    assert follow_up("add page numbers to the invoice", "add a DRAFT watermark", two_files, None) is None
    assert follow_up("lock it with password x", "rotate page 2", two_files, None) is None  # no run: no result
    assert follow_up("do the same", "rotate page 2", two_files, None) is None  # which file? the planner asks


def test_cli_follow_up_with_continue(two_files: dict[str, FileInfo], tmp_path: Path) -> None:
    """`run REQUEST FILES`, then `run "also lock it …" --continue RECORD`: the rotated result is locked."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "DOCPILOT_BACKEND": "rules"}
    paths = [i.path for i in two_files.values()]

    def run(*args: str) -> dict:
        proc = subprocess.run(
            [sys.executable, "-m", "docpilot", "run", *args, "--yes", "--json"], capture_output=True, text=True, env=env
        )
        return json.loads(proc.stdout.strip().splitlines()[-1])

    first = run("rotate page 2 of the contract by 90 degrees", *paths, "--out", str(tmp_path / "o1"))
    assert first["ok"], first
    second = run(
        "also lock it with the password Budget2025", "--continue", first["record"], "--out", str(tmp_path / "o2")
    )
    assert second["ok"], second
    assert [s["task"] for s in second["plan"]["steps"]] == ["add_password"]
    with pymupdf.open(second["outputs"][0]) as doc:
        assert doc.authenticate("Budget2025") and doc[1].rotation == 90
    assert "Budget2025" not in (Path(first["record"]) / "conversation.json").read_text()


def test_the_service_mask_is_the_tools_mask() -> None:
    from docpilot import service
    from pdftools.masking import MASK

    assert service.MASK == MASK
