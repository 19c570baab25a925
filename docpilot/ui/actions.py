"""What the web app does, as plain functions over a :class:`~docpilot.ui.session.Session` (no gradio here).

The flow mirrors ``docpilot run`` through the session's :class:`~docpilot.conversation.Conversation`:
a request is planned and explained; the person approves (optionally after editing values in the
plan editor), revises with a critique, or cancels. Every failure becomes a chat message; the session
stays usable. A request is two steps, so the app can show the person's message before planning:
:func:`add_message` then :func:`respond` (:func:`handle_message` does both).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from docpilot import service
from docpilot.errors import USER_ERRORS, LimitError, Stopped
from docpilot.ui.approve import approve, zip_outputs
from docpilot.ui.session import Session
from docpilot.ui.text import mask_text

__all__ = [
    "REMOTE_NOTICE",
    "UPLOAD_FIRST",
    "answer_text",
    "SharedPilot",
    "add_message",
    "approve",
    "cancel",
    "handle_message",
    "handle_revise",
    "handle_upload",
    "mask_text",
    "respond",
    "safely",
    "stop_planning",
    "zip_outputs",
]

log = logging.getLogger("docpilot.ui")

PLANNING = "Planning… (press Cancel to stop)"
STOPPED = "Stopped: I cancelled the planning. Nothing was run; type a new request when you are ready."
ANSWER_STOPPED = "Stopped: I stopped answering. Ask again when you are ready."
_NEXT = (
    "Approve to run it, change values in the plan editor first if you like, type a change and press Revise, or Cancel."
)


class SharedPilot:
    """The one DocPilot service every session calls; requests run side by side.

    A fast-path plan never waits behind the model: only the model's own calls take turns, on the model
    itself (first come, first served; a waiting request is told its place, see :func:`_stoppable`). Each
    run has its own sandbox process and output folder.
    """

    def __init__(self, pilot: Any) -> None:
        self.pilot = pilot

    def plan(self, request: str, files: dict[str, Any], stop: Any = None) -> Any:
        return self.pilot.plan(request, files, stop)

    def revise(self, outcome: Any, critique: str, files: dict[str, Any], stop: Any = None) -> Any:
        return self.pilot.revise(outcome, critique, files, stop)

    def ask(
        self,
        question: str,
        files: dict[str, Any],
        cache: Path | None = None,
        stop: Any = None,
        on_draft: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        return dict(self.pilot.ask(question, files, cache=cache, stop=stop, on_draft=on_draft))

    def remote_server(self) -> str | None:
        return self.pilot.remote_server() if hasattr(self.pilot, "remote_server") else None

    def warm(self) -> list[str]:
        """Prepare the model and the example index (the app does this before it takes requests)."""
        return list(self.pilot.warm())

    def rows(self, outcome: Any) -> list[list[str]]:
        return self.pilot.rows(outcome)

    def edit(self, outcome: Any, rows: Any, files: dict[str, Any]) -> service.Edit:
        return self.pilot.edit(outcome, rows, files)

    def run(self, outcome: Any, files: dict[str, Any], out_dir: str | Path, stop: Any = None) -> Any:
        return self.pilot.run(outcome, files, out_dir, stop)


def safely(session: Session, action: Callable[[], object]) -> None:
    """Run ``action``; any failure becomes a chat message (never a stack trace) and the session goes on."""
    try:
        action()
    except USER_ERRORS as exc:
        session.say("assistant", f"I could not do that: {mask_text(str(exc), session.outcome)}")
        session.log(f"error: {type(exc).__name__}: {mask_text(str(exc), session.outcome)}")
    except Exception as exc:  # noqa: BLE001 - the app must answer; the traceback goes to the server log
        log.exception("unexpected error in the web app")
        session.say(
            "assistant",
            "Something went wrong on my side while doing that. Your files are unchanged; "
            "please try again, or press Reset to start over.",
        )
        session.log(f"internal error: {type(exc).__name__}: {mask_text(str(exc))}")


# --- upload ------------------------------------------------------------------------------------------------


def handle_upload(session: Session, paths: Sequence[str] | None) -> list[str]:
    """Copy the uploaded files into the session; returns the names added. Unusable files are refused."""
    added, notes = [], []
    for path in paths or []:
        if not path or not Path(path).is_file():
            continue
        try:
            info = session.add_file(path)
        except LimitError as exc:
            notes.append(f"{Path(path).name} was not added: {exc}")
            continue
        if info.kind == "other":
            session.drop_file(info.name)
            notes.append(
                f"{Path(path).name} is not a PDF or an image: upload PDFs (and images for signatures, "
                "logos or images → PDF)."
            )
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


def _log_outcome(session: Session, outcome: Any, what: str) -> None:
    stats = outcome.stats.to_json()
    if outcome.ok:
        steps = len(outcome.plan.steps) if outcome.plan is not None else 0
        kind = f"{steps} step(s), order {outcome.order}" if outcome.plan is not None else "an LLM-written program"
        session.log(f"{what} by {outcome.backend} in {stats['seconds']} s: {kind}; verification passed")
    else:
        session.log(f"{what} by {outcome.backend} failed: {mask_text(outcome.error or '', outcome)}")
        for problem in outcome.problems:
            session.log(f"  verifier: [{problem.code}] {mask_text(str(problem), outcome)}")
    if stats.get("plan_corrections") or stats.get("code_revisions"):
        session.log(f"  corrections: {stats['plan_corrections']} plan, {stats['code_revisions']} code")
    session.log(f"  stats: {json.dumps(stats)}")


def _present(session: Session, outcome: Any, title: str) -> None:
    session.rows = None
    session.say("assistant", f"{title}\n\n{outcome.explanation}\n\n{_NEXT}")
    fence = "json" if outcome.plan is not None else "python"
    session.say(
        "assistant",
        f"```{fence}\n{service.exact_plan(outcome)}\n```",
        metadata={"title": "Exact plan", "status": "done"},
    )


def add_message(session: Session, text: str) -> bool:
    """Show the person's message in the chat at once; False when there is nothing to plan."""
    text = (text or "").strip()
    if not text:
        session.say("assistant", 'Type a request first, e.g. "add a DRAFT watermark".')
        return False
    session.say("user", mask_text(text))
    if not session.files:
        session.conversation.pending = None
        session.say("assistant", UPLOAD_FIRST)
        return False
    session.say("assistant", PLANNING, metadata={"title": "Working", "status": "pending"})
    session.waiting = text
    return True


REMOTE_NOTICE = (
    "Note: questions are answered by the language model at {server}, so passages of your documents are sent "
    "there. Use the embedded model (no OPENAI_BASE_URL or OPENAI_API_KEY) to keep everything on this machine."
)
UPLOAD_FIRST = (
    "Upload a PDF first (drop it on the upload panel), then type what to do with it or ask a question about it."
)


def answer_text(answer: dict[str, Any]) -> str:
    """An answer as the chat shows it: the workflow it computed, the answer, and its sources."""
    lines: list[str] = []
    if answer.get("workflow"):
        lines += ["How I worked it out:"] + [f"{i}. {step}" for i, step in enumerate(answer["workflow"], 1)] + [""]
    lines.append(str(answer.get("answer", "")))
    cites = answer.get("citations") or []
    if cites:
        lines += ["", "Sources:"]
        lines += [f"- {Path(c['file']).name}, page {c['page']}: \u201c{c['quote']}\u201d" for c in cites]
    return "\n".join(lines)


def _answer(pilot: Any, session: Session, text: str) -> None:
    remote = pilot.remote_server() if hasattr(pilot, "remote_server") else None
    if remote and not session.told_remote:  # once per session, before any document text leaves the machine
        session.told_remote = True
        session.say("assistant", REMOTE_NOTICE.format(server=remote))
    session.draft = ""  # "reading the documents" until the model starts writing

    def show(draft: str) -> None:
        session.draft = draft

    def ask(stop: Any) -> Any:
        # the structure cache is the session's: removed with it
        return pilot.ask(text, session.files, cache=session.sub("structure"), stop=stop, on_draft=show)

    try:
        answer = _stoppable(session, ask)
    except USER_ERRORS as exc:
        session.say("assistant", f"I could not answer that: {exc}")
        return
    finally:
        session.draft = None
    if answer is None:
        session.say("assistant", ANSWER_STOPPED)
        session.log("answering cancelled")
        return
    session.citations = [c for c in answer.get("citations") or [] if c.get("file") and c.get("page")]
    session.say("assistant", answer_text(answer))
    session.log(f"answered {mask_text(text)!r} with {len(answer.get('citations') or [])} citation(s)")


def _stoppable(session: Session, plan: Callable[[Any], Any]) -> Any:
    """``plan(stop)`` with a stop that Cancel can reach (:func:`stop_planning`); None when it was cancelled.

    While the work waits for the model (other sessions' requests are ahead), ``session.queued`` holds how
    many, for the chat to show (:func:`~docpilot.ui.panels.chat_of`); a Cancel then leaves the line at once.
    Work that ends by raising the stop's cancellation (an answer being written) is cancelled too; a stop for
    running out of time is raised for the caller to say.
    """

    def queued(ahead: int) -> None:
        session.queued = ahead

    session.stop = stop = service.Stop(on_wait=queued)
    try:
        outcome = plan(stop)
    except Stopped:
        if not stop.cancelled:
            raise
        return None
    finally:
        session.stop, session.queued = None, None
    return None if stop.cancelled else outcome


def respond(pilot: Any, session: Session) -> None:
    """Plan the message :func:`add_message` showed, and show the plan for approval (or say clearly why not)."""
    text, session.waiting = session.waiting, None
    if text is None:
        return  # nothing was waiting (an empty message, or no files)
    if session.history and session.history[-1].get("content") == PLANNING:
        session.history.pop()
    outcome = _stoppable(session, lambda stop: session.conversation.request(pilot, text, stop))
    if outcome is None:
        session.say("assistant", STOPPED)
        session.log("planning cancelled")
        return
    _log_outcome(session, outcome, f"planned {mask_text(text, outcome)!r}")
    if outcome.question is not None:
        choices = outcome.question.choices
        session.say(
            "assistant", outcome.question.text + (f"\n\nAnswer with one of: {', '.join(choices)}." if choices else "")
        )
        return
    if outcome.content_question:
        _answer(pilot, session, text)
        return
    if not outcome.ok:
        session.say(
            "assistant",
            f"I can't do that: {mask_text(outcome.error or '', outcome)}\n\nChange the request and send it again.",
        )
        return
    _mask_last_user_message(session, text, outcome)
    _present(session, outcome, "Here is the plan:")


def handle_message(pilot: Any, session: Session, text: str) -> None:
    """A new request: show it, plan it and show the plan for approval (or say clearly why not)."""
    if add_message(session, text):
        respond(pilot, session)


def _mask_last_user_message(session: Session, text: str, outcome: Any) -> None:
    """The message as shown, with the plan's secrets masked now that the plan knows them."""
    for message in reversed(session.history):
        if message["role"] == "user":
            message["content"] = mask_text(text, outcome)
            return


def handle_revise(pilot: Any, session: Session, critique: str) -> None:
    """A critique of the pending plan ("also compress it"), applied through the conversation."""
    critique = (critique or "").strip()
    if session.outcome is None:
        session.say("assistant", "There is no plan to revise. Type a request and press Send.")
        return
    if not critique:
        session.say("assistant", "Type what should change in the message box, then press Revise.")
        return
    session.say("user", mask_text(critique, session.outcome))
    revised = _stoppable(session, lambda stop: session.conversation.revise(pilot, critique, stop))
    if revised is None:
        session.say("assistant", "Stopped: I cancelled the revision. The previous plan is still waiting.")
        session.log("revision cancelled")
        return
    _log_outcome(session, revised, f"revised with {mask_text(critique, revised)!r}")
    if not revised.ok:
        session.say(
            "assistant",
            f"I could not change the plan: {mask_text(revised.error or '', revised)}\n\n"
            "The previous plan is still waiting: approve it, revise again or cancel.",
        )
        return
    _mask_last_user_message(session, critique, revised)
    changes = "\n".join(f"- {mask_text(line, revised)}" for line in revised.changes)
    _present(session, revised, "Here is the revised plan:" + (f"\n\nWhat changed:\n{changes}" if changes else ""))


def stop_planning(session: Session | None) -> bool:
    """Stop the planning, answering or run under way in ``session`` (called without its lock); False when
    none is. A run's sandbox is killed at once; the run's own event then says so."""
    stop = session.stop if session is not None else None
    if stop is None:
        return False
    stop.cancel()
    return True


def cancel(session: Session) -> None:
    if not session.conversation.cancel():
        session.say("assistant", "There is no plan waiting; nothing to cancel.")
        return
    session.rows = None
    session.say("assistant", "Cancelled: nothing was run. Type a new request when you are ready.")
    session.log("plan cancelled")
