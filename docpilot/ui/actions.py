"""What the web app does, as plain functions over a :class:`~docpilot.ui.session.Session` (no gradio here).

The flow mirrors ``docpilot run``: a request is planned and explained; the user
approves (optionally after editing parameter values in the plan editor), revises
with a critique, or cancels. Every failure becomes a chat message; the session
stays usable. ``report(fraction, text)`` receives progress (gradio's Progress in
the app, nothing in tests).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pdftools.errors import PdfToolError

from docpilot.planning.planner import PlanOutcome
from docpilot.ui.session import Session
from docpilot.ui.approve import Report, approve, quiet, zip_outputs
from docpilot.ui.text import (
    QA_NOT_AVAILABLE,
    QA_TOOLS,
    exact_plan,
    looks_like_question,
    mask_text,
)

__all__ = [
    "QA_NOT_AVAILABLE",
    "Report",
    "SerialPilot",
    "approve",
    "cancel",
    "exact_plan",
    "handle_message",
    "handle_revise",
    "handle_upload",
    "looks_like_question",
    "mask_text",
    "safely",
    "zip_outputs",
]

log = logging.getLogger("docpilot.ui")

_NEXT = ("Approve to run it, change values in the plan editor first if you like, type a change and press "
         "Revise, or Cancel.")


class SerialPilot:
    """The one DocPilot service, with planning serialised (a local LLM serves one request at a time).

    Execution runs concurrently: each run has its own sandbox process and output folder.
    """

    def __init__(self, pilot: Any) -> None:
        self.pilot = pilot
        self._plan_lock = threading.Lock()

    def plan(self, request: str, files: dict[str, Any]) -> PlanOutcome:
        with self._plan_lock:
            return self.pilot.plan(request, files)

    def revise(self, outcome: PlanOutcome, critique: str, files: dict[str, Any]) -> PlanOutcome:
        with self._plan_lock:
            return self.pilot.revise(outcome, critique, files)

    def run(self, outcome: PlanOutcome, files: dict[str, Any], out_dir: str | Path) -> Any:
        return self.pilot.run(outcome, files, out_dir)


def safely(session: Session, action: Callable[[], None]) -> None:
    """Run ``action``; any failure becomes a chat message (never a stack trace) and the session goes on."""
    try:
        action()
    except PdfToolError as exc:  # DocPilotError is a PdfToolError too
        plan = getattr(session.outcome, "plan", None)
        session.say("assistant", f"I could not do that: {mask_text(str(exc), plan)}")
        session.log(f"error: {type(exc).__name__}: {mask_text(str(exc), plan)}")
    except Exception as exc:
        log.exception("unexpected error in the web app")
        session.say("assistant", "Something went wrong on my side while doing that. Your files are unchanged; "
                                 "please try again, or press Reset to start over.")
        session.log(f"internal error: {type(exc).__name__}: {mask_text(str(exc))}")


# --- upload ------------------------------------------------------------------------------------------------


def handle_upload(session: Session, paths: Sequence[str] | None) -> list[str]:
    """Copy the uploaded files into the session; returns the names added. Unusable files are refused."""
    added, notes = [], []
    for path in paths or []:
        if not path or not Path(path).is_file():
            continue
        info = session.add_file(path)
        if info.kind == "other":
            session.drop_file(info.name)
            notes.append(f"{Path(path).name} is not a PDF or an image: upload PDFs (and images for signatures, "
                         "logos or images → PDF).")
        elif info.problem:
            session.drop_file(info.name)
            notes.append(f"{Path(path).name} cannot be used: {info.problem}")
        else:
            added.append(info.name)
            note = " It is password-protected: give the password in your request." if info.encrypted else ""
            notes.append(f"Added {info.describe()}.{note}")
            if session.view_doc is None or not Path(session.view_doc).exists():
                session.view_doc = info.path
    if notes:
        session.say("assistant", "\n".join(notes))
        session.log("upload: " + "; ".join(notes))
    return added


# --- planning ------------------------------------------------------------------------------------------------


def _log_outcome(session: Session, outcome: PlanOutcome, what: str) -> None:
    stats = outcome.stats.to_json()
    if outcome.ok:
        steps = len(outcome.plan.steps) if outcome.plan is not None else 0
        kind = f"{steps} step(s), order {outcome.order}" if outcome.plan is not None else "an LLM-written program"
        session.log(f"{what} by {outcome.backend} in {stats['seconds']} s: {kind}; verification passed")
    else:
        session.log(f"{what} by {outcome.backend} failed: {mask_text(outcome.error or '', outcome.plan)}")
        for problem in outcome.problems:
            session.log(f"  verifier: [{problem.code}] {mask_text(str(problem), outcome.plan)}")
    if stats.get("plan_corrections") or stats.get("code_revisions"):
        session.log(f"  corrections: {stats['plan_corrections']} plan, {stats['code_revisions']} code")
    session.log(f"  stats: {json.dumps(stats)}")


def _present(session: Session, outcome: PlanOutcome, title: str) -> None:
    session.outcome, session.rows = outcome, None
    session.say("assistant", f"{title}\n\n{outcome.explanation}\n\n{_NEXT}")
    exact = exact_plan(outcome) if outcome.plan is not None else mask_text(outcome.program or "")
    fence = "json" if outcome.plan is not None else "python"
    session.say("assistant", f"```{fence}\n{exact}\n```", metadata={"title": "Exact plan", "status": "done"})


def handle_message(pilot: Any, session: Session, text: str, report: Report = quiet) -> None:
    """A new request: plan it and show the plan for approval (or say clearly why not)."""
    text = (text or "").strip()
    if not text:
        session.say("assistant", "Type a request first, e.g. \"add a DRAFT watermark\".")
        return
    session.say("user", mask_text(text))
    question = looks_like_question(text)
    if not session.files:
        session.outcome = None
        session.say("assistant", QA_NOT_AVAILABLE if question else
                    "Upload a PDF first (drop it on the upload panel), then type what to do with it.")
        return
    report(0.1, "Planning")
    outcome = pilot.plan(text, session.files)
    _log_outcome(session, outcome, f"planned {mask_text(text, outcome.plan)!r}")
    uses_qa = outcome.plan is not None and any(s.task in QA_TOOLS for s in outcome.plan.steps)
    if question and (not outcome.ok or uses_qa):
        session.outcome = None
        session.say("assistant", QA_NOT_AVAILABLE)
        return
    if not outcome.ok:
        session.outcome = None
        session.say("assistant", f"I can't do that: {mask_text(outcome.error or '')}\n\n"
                                 "Change the request and send it again.")
        return
    session.history[-1]["content"] = mask_text(text, outcome.plan)
    report(0.9, "Plan ready")
    _present(session, outcome, "Here is the plan:")


def handle_revise(pilot: Any, session: Session, critique: str, report: Report = quiet) -> None:
    """A critique of the pending plan ("also compress it"), applied through DocPilot.revise."""
    critique = (critique or "").strip()
    if session.outcome is None:
        session.say("assistant", "There is no plan to revise. Type a request and press Send.")
        return
    if not critique:
        session.say("assistant", "Type what should change in the message box, then press Revise.")
        return
    session.say("user", mask_text(critique, session.outcome.plan))
    report(0.1, "Revising the plan")
    revised = pilot.revise(session.outcome, critique, session.files)
    _log_outcome(session, revised, f"revised with {mask_text(critique, revised.plan)!r}")
    if not revised.ok:
        session.say("assistant", f"I could not change the plan: {mask_text(revised.error or '')}\n\n"
                                 "The previous plan is still waiting: approve it, revise again or cancel.")
        return
    session.history[-1]["content"] = mask_text(critique, revised.plan)
    _present(session, revised, "Here is the revised plan:")


def cancel(session: Session) -> None:
    if session.outcome is None:
        session.say("assistant", "There is no plan waiting; nothing to cancel.")
        return
    session.outcome, session.rows = None, None
    session.say("assistant", "Cancelled: nothing was run. Type a new request when you are ready.")
    session.log("plan cancelled")




