"""``docpilot run``: plan, ask for approval (unless --yes), execute, deliver, print the contract JSON."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

from .errors import DocPilotError
from .files import inspect_files

__all__ = ["cmd_run"]


def _approve(explanation: str, ask: Callable[[str], str]) -> str:
    print(f"\nPlan:\n{explanation}\n", file=sys.stderr)
    return ask("Run it? [y]es / [n]o / or type a change: ").strip()


def _result(ok: bool, request: str, backend: str, plan: Any, explanation: str, stats: dict[str, Any],
            outputs: list[str], answers: list[dict[str, Any]], message: str, record: str | None,
            error: str | None) -> dict[str, Any]:
    return {"ok": ok, "request": request, "backend": backend, "plan": plan, "explanation": explanation,
            "outputs": outputs, "answers": answers, "message": message, "stats": stats, "record": record,
            "error": error}


def cmd_run(args: Any, ask: Callable[[str], str] = input) -> int:
    from sandbox.runner import Sandbox

    if not args.yes and not sys.stdin.isatty():
        print("docpilot run: approval needed: pass --yes (stdin is not a terminal)", file=sys.stderr)
        return 2
    out_dir = Path(args.out).expanduser()
    if out_dir.exists() and not out_dir.is_dir():
        print(f"docpilot run: --out {out_dir} is a file, not a folder", file=sys.stderr)
        return 2
    with Sandbox(lean=True) as box:  # started first: its imports overlap ours and planning on a second core
        box.begin()
        from .execute import Executor
        from .service import DocPilot
        from .wiring import make_planner

        return _plan_and_run(args, ask, DocPilot(make_planner(args.backend, os.environ), Executor(sandbox=box)),
                             out_dir)


def _plan_and_run(args: Any, ask: Callable[[str], str], pilot: Any, out_dir: Path) -> int:
    try:
        files = inspect_files(args.files)
        outcome = pilot.plan(args.request, files)
        while outcome.ok and not args.yes:
            answer = _approve(outcome.explanation, ask)
            if answer.lower() in ("y", "yes", "ok", ""):
                break
            if answer.lower() in ("n", "no", "cancel", "q", "quit"):
                outcome.error, outcome.plan = "Cancelled: the plan was not approved.", None
                break
            outcome = pilot.revise(outcome, answer, files)
        stats = outcome.stats.to_json()
        if not outcome.ok:
            return _emit(args, _result(False, args.request, outcome.backend, None, outcome.explanation, stats, [], [],
                                       outcome.error or "", None, outcome.error))
        run = pilot.execute(outcome, files, out_dir)
    except DocPilotError as exc:
        return _emit(args, _result(False, args.request, "rules", None, "", {}, [], [], str(exc), None, str(exc)))
    stats["seconds"] = round(stats["seconds"] + run.seconds, 2)
    plan = outcome.to_json()["plan"]
    stats = outcome.stats.to_json() | {"seconds": stats["seconds"]}
    return _emit(args, _result(run.ok, args.request, outcome.backend, plan, outcome.explanation,
                               stats, run.outputs, run.answers, run.message if run.ok else run.error or "",
                               run.record, None if run.ok else run.error))


def _emit(args: Any, result: dict[str, Any]) -> int:
    if args.json:
        print(json.dumps(result, ensure_ascii=False, separators=(",", ":"), default=str))
    else:
        if result["ok"]:
            print(result["message"])
            for path in result["outputs"]:
                print(f"  {path}")
        else:
            print(f"error: {result['error']}")
    return 0 if result["ok"] else 1
