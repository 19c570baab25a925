"""A password typed in a request reaches the file that needs it and nothing else: not the CLI's output,
not the run record, not the app's chat, logs, plan view or editor, not an explanation, and not the text
given to a model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from fakes import ScriptedLLM

from docpilot.files import inspect_files
from docpilot.planning.planner import Planner, make_planner
from docpilot.running.executor import Executor
from docpilot.service import DocPilot, exact_plan
from docpilot.ui.actions import SharedPilot, approve, handle_message, handle_revise, handle_upload
from docpilot.ui.panels import render
from docpilot.ui.session import SessionStore

SECRET = "Zebra-9931"
PAGES = ["Page one.", "Page two.", "Page three."]


def _everything_under(folder: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file())


def _needs(path: str, password: str) -> None:
    with pymupdf.open(path) as doc:
        assert doc.needs_pass and doc.authenticate(password), f"{path} is not protected by the password"


def _cli(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "DOCPILOT_BACKEND": "rules"}
    return subprocess.run(
        [sys.executable, "-m", "docpilot", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_cli_run_json_and_its_record(make_pdf: Callable[..., str], tmp_path: Path) -> None:
    src = make_pdf(PAGES, name="memo.pdf")
    proc = _cli(
        "run",
        f"add a DRAFT watermark and protect it with the password {SECRET}",
        src,
        "--out",
        str(tmp_path / "out"),
        "--yes",
        "--json",
        cache=tmp_path / "cache",
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    assert SECRET not in proc.stdout and SECRET not in proc.stderr
    record = Path(result["record"])
    assert record.is_dir() and (record / "record.json").is_file()
    assert SECRET not in _everything_under(tmp_path / "cache"), "the run record holds no password"
    _needs(result["outputs"][-1], SECRET)


def test_cli_plan_json_and_the_explanation(make_pdf: Callable[..., str], tmp_path: Path) -> None:
    src = make_pdf(PAGES, name="memo.pdf")
    proc = _cli("plan", f"encrypt it with password {SECRET}", src, "--json", cache=tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result["plan"]["steps"][0]["task"] == "add_password"
    assert SECRET not in result["explanation"]
    # the plan's arguments carry it (the plan is what runs); every text for people is masked
    proc = _cli("plan", f"encrypt it with password {SECRET}", src, cache=tmp_path / "cache")
    assert SECRET not in proc.stdout and SECRET not in proc.stderr


def test_the_app_chat_logs_plan_view_and_editor(make_pdf: Callable[..., str], tmp_path: Path) -> None:
    pilot = SharedPilot(DocPilot(make_planner("rules", {}), Executor(records=tmp_path / "records")))
    store = SessionStore(tmp_path / "sessions", idle_timeout=60)
    try:
        session = store.create()
        handle_upload(session, [make_pdf(PAGES, name="memo.pdf")])
        handle_message(pilot, session, "add a DRAFT watermark")
        handle_revise(pilot, session, f"also encrypt with password {SECRET}")
        shown = render(session, pilot)
        assert session.outcome is not None and SECRET not in exact_plan(session.outcome)
        approve(pilot, session)
        assert session.outputs, session.history[-1]
        _needs(session.outputs[-1], SECRET)
        after = render(session, pilot)
        for view in (shown, after):
            text = json.dumps([view.chat, view.rows, view.plan_json, view.logs], ensure_ascii=False)
            assert SECRET not in text
        assert SECRET not in "\n".join(session.logs)
        assert SECRET not in _everything_under(tmp_path / "records")
    finally:
        store.close_all()


def test_the_text_given_to_a_model_and_a_written_program(make_pdf: Callable[..., str], tmp_path: Path) -> None:
    """A request with logic goes to a model that writes a program: the model sees a placeholder, the
    program runs with the real password, and the record keeps the placeholder."""
    src = make_pdf(PAGES, name="memo.pdf")
    files = inspect_files([src])
    program = (
        "n = tools.count_pages(file=FILES['memo.pdf'])\n"
        "if n > 2:\n"
        "    tools.add_password(file=FILES['memo.pdf'], password='PASSWORD_1')\n"
    )
    llm = ScriptedLLM([f"```python\n{program}```"])
    pilot = DocPilot(Planner(llm=llm), Executor(records=tmp_path / "records"))
    outcome = pilot.plan(f"if it has more than 2 pages, protect it with the password {SECRET}", files)
    assert outcome.ok and outcome.program is not None, outcome.error
    sent = json.dumps([call.messages for call in llm.calls])
    assert "PASSWORD_1" in sent and SECRET not in sent
    assert SECRET not in outcome.explanation and SECRET not in (outcome.program or "")
    run = pilot.run(outcome, files, tmp_path / "out")
    assert run.ok, run.error
    _needs(run.outputs[-1], SECRET)
    assert SECRET not in _everything_under(tmp_path / "records")


@pytest.mark.parametrize("face", ["record", "explanation"])
def test_breaking_masking_is_seen(
    face: str, make_pdf: Callable[..., str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guard can fail: with masking switched off, the password shows up where these tests look."""
    import docpilot.plans.explain as explain
    import docpilot.running.executor as executor

    monkeypatch.setattr(executor, "mask_text", lambda text, secrets=(): text)
    monkeypatch.setattr(executor, "mask_steps", lambda steps: steps)
    monkeypatch.setattr(explain, "mask_args", lambda task, args: dict(args))
    pilot = DocPilot(make_planner("rules", {}), Executor(records=tmp_path / "records"))
    files = inspect_files([make_pdf(PAGES, name="memo.pdf")])
    outcome = pilot.plan(f"encrypt it with password {SECRET}", files)
    if face == "explanation":
        assert SECRET in outcome.explanation
    else:
        pilot.run(outcome, files, tmp_path / "out")
        assert SECRET in _everything_under(tmp_path / "records")


@pytest.mark.parametrize(
    ("text", "password"),
    [
        ("take off the old password (test), compress it", "test"),  # the brackets are not the password
        ("the password is test. please take it off", "test"),  # nor the full stop that ends the sentence
        ("the password is a.b now", "a.b"),
        ("set the password N3w!Pass", "N3w!Pass"),
    ],
)
def test_a_typed_password_is_hidden_as_typed(text: str, password: str) -> None:
    from pdftools.masking import hide_passwords

    hidden, swaps = hide_passwords(text)
    assert list(swaps.values()) == [password] and password not in hidden.replace("PASSWORD_1", "")
