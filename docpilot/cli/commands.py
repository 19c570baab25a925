"""The small commands: ``tools``, ``call``, ``plan``, ``ask``, ``serve`` and ``warm``; ``run`` has its own module.

Every command reaches DocPilot through :mod:`docpilot.service` only. Machine-readable results go to
stdout as one JSON object on the last line; logs go to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from docpilot import service
from docpilot.errors import USER_ERRORS
from docpilot.files import inspect_files
from docpilot.settings import Settings

__all__ = ["emit", "cmd_tools", "cmd_call", "cmd_plan", "cmd_ask", "cmd_serve", "cmd_warm", "cmd_cache"]


def emit(obj: dict[str, Any], as_json: bool, text: str) -> None:
    """Print ``obj`` as one compact JSON line, or ``text`` for a person."""
    if as_json:
        print(json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=str))
    else:
        print(text)


def cmd_tools(args: argparse.Namespace) -> int:
    entries = service.catalogue()
    if args.json:
        print(json.dumps([{k: v for k, v in e.items() if k != "summary"} for e in entries], ensure_ascii=False))
        return 0
    by_category: dict[str, list[str]] = {}
    for entry in entries:
        by_category.setdefault(entry["category"], []).append(f"  {entry['name']:<22} {entry['summary']}")
    for category, lines in sorted(by_category.items()):
        print(f"{category}:")
        print("\n".join(lines))
    return 0


def cmd_call(args: argparse.Namespace) -> int:
    try:
        tool_args = json.loads(args.args)
    except json.JSONDecodeError as exc:
        print(f"docpilot: --args is not valid JSON: {exc}", file=sys.stderr)
        return 2
    try:
        result = service.call_tool(args.tool, tool_args, args.files, args.out)
    except USER_ERRORS as exc:
        emit({"ok": False, "tool": args.tool, "error": str(exc)}, args.json, f"error: {exc}")
        if args.json:
            print(f"error: {exc}", file=sys.stderr)
        return 1
    text = "\n".join(result["outputs"]) if result["outputs"] else json.dumps(result["value"], ensure_ascii=False)
    emit({"ok": True, **result, "error": None}, args.json, text)
    return 0


def cmd_plan(args: argparse.Namespace) -> int:
    try:
        pilot = service.make_pilot(Settings.from_env(args.backend))
        outcome = pilot.plan(args.request, inspect_files(args.files))
    except USER_ERRORS as exc:
        emit({"ok": False, "request": args.request, "error": str(exc)}, args.json, f"error: {exc}")
        return 1
    if args.json:
        emit(outcome.to_json(), True, "")
    elif outcome.question is not None:
        print(outcome.question.text)
    elif outcome.ok:
        print(f"Plan ({outcome.backend}):\n{outcome.explanation}")
        print(service.exact_plan(outcome), file=sys.stderr)
    else:
        print(f"error: {outcome.error}")
    return 0 if outcome.ok else 3 if outcome.question is not None else 1


def cmd_ask(args: argparse.Namespace) -> int:
    try:
        pilot = service.make_pilot(Settings.from_env(args.backend))
        answer = pilot.ask(args.question, inspect_files(args.files), feedback=args.feedback, password=args.password)
    except USER_ERRORS as exc:
        emit(
            {
                "ok": False,
                "question": args.question,
                "answer": None,
                "answered": False,
                "citations": [],
                "error": str(exc),
            },
            args.json,
            f"error: {exc}",
        )
        return 1
    text = (
        ["How I worked it out:\n" + "\n".join(f"  {i}. {s}" for i, s in enumerate(answer["workflow"], 1))]
        if answer.get("workflow")
        else []
    )
    text.append(str(answer.get("answer")))
    text += [f"  [{Path(c['file']).name} p. {c['page']}] \u201c{c['quote']}\u201d" for c in answer["citations"]]
    emit({"ok": True, "question": args.question, **answer, "error": None}, args.json, "\n".join(text))
    return 0


def cmd_warm(args: argparse.Namespace) -> int:
    """Get the model's part ready (``make install`` runs it), so no person's first request pays for it."""
    import time

    started = time.perf_counter()
    done = service.make_pilot(Settings.from_env(args.backend)).warm()
    print(f"{'; '.join(done) or 'nothing to prepare (no language model)'} ({time.perf_counter() - started:.0f} s)")
    return 0


def cmd_cache(args: argparse.Namespace) -> int:
    removed = service.clear_document_cache(Settings.from_env().cache)
    print(f"removed the cached structure of {removed} document{'s' if removed != 1 else ''}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from docpilot.errors import LimitError
    from docpilot.ui import launch

    try:
        launch(host=args.host, port=args.port, backend=args.backend)
    except LimitError as exc:  # DOCPILOT_MAX_UPLOAD_MB / DOCPILOT_MAX_PAGES set to something that is no limit
        print(f"docpilot serve: {exc}", file=sys.stderr)
        return 2
    return 0
