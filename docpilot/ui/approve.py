"""Approval: the editor's values applied and re-verified, the plan run, the results delivered and shown."""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from docpilot import service
from docpilot.ui.session import Session
from docpilot.ui.text import mask_text
from docpilot.ui.views import before_after, first_page

__all__ = ["RUN_STOPPED", "Report", "approve", "quiet", "zip_outputs"]

Report = Callable[[float, str], None]

RUN_STOPPED = "Stopped: I cancelled the run. Nothing was delivered; type a new request when you are ready."


def quiet(_fraction: float, _text: str) -> None:
    """A progress report that goes nowhere (the default outside the app)."""


def _apply_edits(pilot: Any, session: Session, rows: Sequence[Sequence[Any]] | None) -> bool:
    """Apply the editor's values; re-verified and re-explained. False (and a message) when the edit is invalid."""
    edit = session.conversation.edit(pilot, rows)
    for line in edit.changes:
        session.log(f"edited: {line}")
    if not edit.changes:
        return True
    if not edit.ok:
        session.rows = [list(map(str, row)) for row in rows or []]
        problems = "\n".join(f"- {mask_text(str(p), session.outcome)}" for p in edit.problems)
        session.say(
            "assistant",
            f"The edited plan has problems, so nothing was run:\n{problems}\n\n"
            "Fix the values in the plan editor and approve again, or cancel.",
        )
        session.log("re-verification failed: " + "; ".join(p.code for p in edit.problems))
        return False
    session.log("re-verification passed")
    session.say("assistant", f"With your edits the plan is:\n\n{edit.outcome.explanation}")
    return True


def approve(pilot: Any, session: Session, rows: Sequence[Sequence[Any]] | None = None, report: Report = quiet) -> None:
    """Run the pending plan (with the editor's values), deliver the outputs, show before/after."""
    outcome = session.outcome
    if outcome is None:
        session.say("assistant", "There is no plan to approve. Type a request and press Send.")
        return
    report(0.05, "Checking the plan")
    if not _apply_edits(pilot, session, rows):
        return
    names = [outcome.plan.step(i).task for i in outcome.order] if outcome.plan is not None else ["program"]
    total = len(names)
    report(0.2, f"Running {total} step{'s' if total > 1 else ''}: " + " → ".join(names))
    run_dir = session.new_run_dir()
    session.stop = stop = service.RunStop()  # Cancel kills this run's sandbox (see actions.stop_planning)
    try:
        run = session.conversation.approve(pilot, run_dir, stop)
    finally:
        session.stop = None
    report(0.85, "Preparing the results")
    _log_run(session, outcome, run)
    if getattr(run, "cancelled", False):
        session.conversation.cancel()
        session.rows = None
        if run_dir.is_dir() and not any(run_dir.iterdir()):
            run_dir.rmdir()
        session.say("assistant", RUN_STOPPED)
        session.log("run cancelled: the sandbox was stopped, nothing was delivered")
        return
    if not run.ok:
        error = mask_text(run.error or "the run failed", outcome)
        session.say(
            "assistant",
            f"The run failed: {error}\n\nNothing was delivered. Edit the plan and approve "
            "again, or send a new request.",
        )
        return
    session.rows = None
    session.outputs = list(run.outputs)
    session.unlock = service.secret_values(outcome)  # to open its protected outputs in the viewer
    session.zip_path = (
        zip_outputs(run.outputs, session.sub("downloads") / f"docpilot-results-{session.runs}.zip")
        if run.outputs
        else None
    )
    pdfs = [p for p in run.outputs if p.lower().endswith(".pdf")]
    inputs = [i.path for i in session.files.values() if i.kind == "pdf"]
    session.before_after = []
    if pdfs:
        session.view_doc = pdfs[-1]
        source = _source_of(pdfs[-1], inputs)
        if source:
            session.before_after = before_after(source, pdfs[-1], session.sub("views"), session.unlock)
            session.view_page = first_page(session.before_after)
    files = "\n".join(f"- {Path(p).name}" for p in run.outputs)
    session.say("assistant", mask_text(run.message, outcome) + (f"\n\nDownload below:\n{files}" if files else ""))
    report(1.0, "Done")


def _source_of(output: str, inputs: list[str]) -> str | None:
    """The uploaded PDF an output was made from: the one whose name starts its name, else the only one."""
    stem = Path(output).stem
    matches = sorted((p for p in inputs if stem.startswith(Path(p).stem)), key=lambda p: -len(Path(p).stem))
    if matches:
        return matches[0]
    return inputs[0] if len(inputs) == 1 else None


def _log_run(session: Session, outcome: Any, run: Any) -> None:
    session.log(f"run {'ok' if run.ok else 'failed'} in {run.seconds:.2f} s")
    for step in run.steps:
        status = "ok" if step.get("ok") else f"failed: {mask_text(str(step.get('error')), outcome)}"
        session.log(f"  step {step.get('id')} {step.get('task')}: {status} ({step.get('seconds', 0)} s)")
    if run.program:
        session.log("program:\n" + mask_text(run.program, outcome))
    if run.record:
        session.log(f"record: {run.record}")


def zip_outputs(paths: Sequence[str], target: str | Path) -> str:
    """One zip holding every output file (by its file name)."""
    target = Path(target)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in paths:
            archive.write(path, arcname=Path(path).name)
    return str(target)
