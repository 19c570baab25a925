"""``docpilot run``: plan, ask for approval (unless --yes), execute, deliver, print the contract JSON."""

from __future__ import annotations

import contextlib
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from docpilot import service
from docpilot.cli.commands import emit
from docpilot.conversation import Conversation
from docpilot.errors import USER_ERRORS, UsageError
from docpilot.files import inspect_files
from docpilot.settings import Settings, cache_dir

__all__ = ["cmd_run"]


def _approve(explanation: str, ask: Callable[[str], str]) -> str:
    print(f"\nPlan:\n{explanation}\n", file=sys.stderr)
    return ask("Run it? [y]es / [n]o / or type a change: ").strip()


def _result(
    ok: bool,
    request: str,
    backend: str,
    plan: Any,
    explanation: str,
    stats: dict[str, Any],
    outputs: list[str],
    answers: list[dict[str, Any]],
    message: str,
    record: str | None,
    error: str | None,
) -> dict[str, Any]:
    return {
        "ok": ok,
        "request": request,
        "backend": backend,
        "plan": plan,
        "explanation": explanation,
        "outputs": outputs,
        "answers": answers,
        "message": message,
        "stats": stats,
        "record": record,
        "error": error,
    }


def _answered(request: str, answer: dict[str, Any]) -> dict[str, Any]:
    value = {
        "step": 1,
        "task": "answer_question",
        "value": answer["answer"],
        "answered": answer.get("answered", True),
        "citations": answer["citations"],
    }
    if answer.get("workflow"):
        value["workflow"] = answer["workflow"]
    stats = answer.get("stats", {})
    stats = {
        "llm_calls": stats.get("llm_calls", 0),
        "plan_corrections": 0,
        "code_revisions": 0,
        "prompt_tokens": stats.get("context_tokens", 0),
        "seconds": stats.get("seconds", 0),
    }
    return _result(
        True,
        request,
        "rules" if not stats["llm_calls"] else "local",
        {"steps": []},
        "",
        stats,
        [],
        [value],
        answer["answer"],
        None,
        None,
    )


def cmd_run(args: Any, ask: Callable[[str], str] = input) -> int:
    if not args.yes and not sys.stdin.isatty():
        print("docpilot run: approval needed: pass --yes (stdin is not a terminal)", file=sys.stderr)
        return 2
    out_dir = Path(args.out).expanduser()
    if out_dir.exists() and not out_dir.is_dir():
        print(f"docpilot run: --out {out_dir} is a file, not a folder", file=sys.stderr)
        return 2
    if not args.files and not args.resume:
        print("docpilot run: give at least one FILE (or --continue RECORD)", file=sys.stderr)
        return 2
    stop = service.RunStop()
    try:
        with service.warm_sandbox() as box, _ctrl_c_stops(stop):  # the sandbox first: its imports overlap ours
            stop.attach(box)
            pilot = service.make_pilot(Settings.from_env(args.backend), sandbox=box)
            return _plan_and_run(args, ask, pilot, out_dir, stop)
    except KeyboardInterrupt:
        # Leaving the with-block killed the sandbox and the program it ran; a delivery under way took back
        # what it had put in --out (its staging folder went with it).
        return _cancelled(args)


@contextlib.contextmanager
def _ctrl_c_stops(stop: Any) -> Iterator[None]:
    """Ctrl-C cancels ``stop`` (killing the run's sandbox at once) before it raises KeyboardInterrupt: where
    Python drops that exception (raised inside a finalizer or callback), the run still ends cancelled."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def cancel(signum: int, frame: Any) -> None:
        stop.cancel()
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGINT, cancel)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


CANCELLED = "cancelled (Ctrl-C): the run was stopped and nothing was written to --out"


def _cancelled(args: Any) -> int:
    """Ctrl-C: exit code 130 (128 + SIGINT), as shells expect; with --json the result says so too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C cannot cut the report short
    if args.json:
        emit(_result(False, args.request, "rules", None, "", {}, [], [], CANCELLED, None, CANCELLED), True, "")
    print(f"docpilot run: {CANCELLED}", file=sys.stderr)
    return 130


def _plan_and_run(args: Any, ask: Callable[[str], str], pilot: Any, out_dir: Path, stop: Any = None) -> int:
    try:
        talk = _conversation(args)
        outcome = talk.request(pilot, args.request)
        while outcome.question is not None and not args.yes:  # on a terminal the reply comes straight back
            print(outcome.question.text, file=sys.stderr)
            outcome = talk.request(pilot, ask("> ").strip())
        while talk.pending is not None and not args.yes:
            answer = _approve(talk.pending.explanation, ask)
            if answer.lower() in ("y", "yes", "ok", ""):
                break
            if answer.lower() in ("n", "no", "cancel", "q", "quit"):
                talk.cancel()
                break
            outcome = talk.revise(pilot, answer)
            for line in outcome.changes:
                print(f"  {service.mask_text(line, outcome)}", file=sys.stderr)
            if not outcome.ok:
                print(f"I could not change the plan: {outcome.error}", file=sys.stderr)
                outcome = talk.pending
        stats = outcome.stats.to_json()
        if outcome.question is not None:
            return _ask_back(args, outcome, talk)
        if outcome.content_question:  # a question about the content: answered with citations, nothing written
            return _emit(args, _answered(args.request, pilot.ask(args.request, talk.files)), outcome)
        if not outcome.ok:
            return _emit(
                args,
                _result(
                    False,
                    args.request,
                    outcome.backend,
                    None,
                    outcome.explanation,
                    stats,
                    [],
                    [],
                    outcome.error or "",
                    None,
                    outcome.error,
                ),
                outcome,
            )
        run = talk.approve(pilot, out_dir, stop)
        if run.cancelled:
            return _cancelled(args)
        if run.ok and run.record:  # "docpilot run 'also lock it' --continue RECORD" follows up on this run
            talk.save_turn(Path(run.record))
    except USER_ERRORS as exc:
        return _emit(args, _result(False, args.request, "rules", None, "", {}, [], [], str(exc), None, str(exc)))
    stats["seconds"] = round(stats["seconds"] + run.seconds, 2)
    plan = outcome.to_json()["plan"]
    stats = outcome.stats.to_json() | {"seconds": stats["seconds"]}
    return _emit(
        args,
        _result(
            run.ok,
            args.request,
            outcome.backend,
            plan,
            outcome.explanation,
            stats,
            run.outputs,
            run.answers,
            run.message if run.ok else run.error or "",
            run.record,
            None if run.ok else run.error,
        ),
        outcome,
    )


def _conversation(args: Any) -> Conversation:
    """A new conversation over FILE…, or the one ``--continue RECORD`` goes on with (a question it asked, or
    the run a follow-up refers to)."""
    if not args.resume:
        return Conversation(inspect_files(args.files))
    try:
        talk = Conversation.resume(Path(args.resume).expanduser())
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.files:
        talk.files = inspect_files(args.files)
    return talk


def _ask_back(args: Any, outcome: Any, talk: Conversation) -> int:
    """A clarifying question is not an error: exit code 3, nothing written to DIR (DESIGN.md); its record
    lets ``run REPLY --continue RECORD`` answer it."""
    stamp = time.strftime("%Y-%m-%dT%H-%M-%S")
    folder = talk.save_question(cache_dir() / "runs" / f"{stamp}-{secrets.token_hex(2)}-question")
    result = _result(
        False,
        args.request,
        outcome.backend,
        None,
        "",
        outcome.stats.to_json(),
        [],
        [],
        outcome.question.text,
        str(folder) + "/",
        None,
    )
    result["question"] = outcome.question.to_json()
    _emit(args, result, outcome)
    return 3


def _emit(args: Any, result: dict[str, Any], outcome: Any = None) -> int:
    """Print the result; the request, message and error as people may see them (secrets masked)."""
    for key in ("request", "message", "error"):
        if result.get(key):
            result[key] = service.mask_text(result[key], outcome)
    reading = getattr(outcome, "reading", None)
    if reading:  # the plan in the tool language: "I read this as: …"
        result["reading"] = [service.mask_text(r, outcome) for r in reading]
    if result["ok"]:
        text = "\n".join([result["message"], *(f"  {path}" for path in result["outputs"])])
    elif result.get("question"):
        choices = result["question"]["choices"]
        text = result["question"]["text"] + (f"\n  choices: {', '.join(choices)}" if choices else "")
    else:
        text = f"error: {result['error']}"
    emit(result, args.json, text)
    return 0 if result["ok"] else 1
