"""The ``docpilot`` command line (contracts in DESIGN.md).

Machine-readable results go to stdout as one JSON object on the last line;
logs and progress go to stderr. Exit codes: 0 ok, 1 the request cannot be done,
2 usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from pdftools.errors import PdfToolError

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docpilot", description="A copilot for PDF workflows.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="start the web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=7860)
    serve.add_argument("--backend", choices=["auto", "local", "openai", "rules"])

    tools = sub.add_parser("tools", help="list the tool catalogue")
    tools.add_argument("--json", action="store_true", help="print the catalogue with argument schemas as JSON")

    call = sub.add_parser("call", help="run one tool directly")
    call.add_argument("tool")
    call.add_argument("files", nargs="*", metavar="FILE")
    call.add_argument("--args", default="{}", help="tool arguments as a JSON object")
    call.add_argument("--out", required=True, metavar="DIR", help="folder for the outputs")
    call.add_argument("--json", action="store_true")

    plan = sub.add_parser("plan", help="make a verified plan and explain it (nothing is executed)")
    plan.add_argument("request")
    plan.add_argument("files", nargs="+", metavar="FILE")
    plan.add_argument("--json", action="store_true")
    plan.add_argument("--backend", choices=["auto", "local", "openai", "rules"])

    run = sub.add_parser("run", help="plan, ask for approval, execute and write the results to DIR")
    run.add_argument("request")
    run.add_argument("files", nargs="+", metavar="FILE")
    run.add_argument("--out", required=True, metavar="DIR")
    run.add_argument("--yes", action="store_true", help="run without asking for approval")
    run.add_argument("--json", action="store_true")
    run.add_argument("--backend", choices=["auto", "local", "openai", "rules"])

    ask = sub.add_parser("ask", help="answer a question about the documents (arrives with document QA)")
    ask.add_argument("question")
    ask.add_argument("files", nargs="+", metavar="FILE")
    ask.add_argument("--json", action="store_true")
    ask.add_argument("--backend", choices=["auto", "local", "openai", "rules"])
    return parser


def _emit(obj: dict[str, Any], as_json: bool, text: str) -> None:
    if as_json:
        print(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
    else:
        print(text)


def _cmd_tools(args: argparse.Namespace) -> int:
    from pdftools import all_tools

    tools = all_tools()
    if args.json:
        print(json.dumps([t.catalogue_entry() for t in tools.values()], ensure_ascii=False))
        return 0
    by_category: dict[str, list[str]] = {}
    for t in tools.values():
        by_category.setdefault(t.category, []).append(f"  {t.name:<22} {t.summary}")
    for category, lines in sorted(by_category.items()):
        print(f"{category}:")
        print("\n".join(lines))
    return 0


def _cmd_call(args: argparse.Namespace) -> int:
    from .direct import call_tool_on_files

    try:
        tool_args = json.loads(args.args)
    except json.JSONDecodeError as exc:
        print(f"docpilot: --args is not valid JSON: {exc}", file=sys.stderr)
        return 2
    try:
        result = call_tool_on_files(args.tool, tool_args, args.files, args.out)
    except PdfToolError as exc:
        _emit({"ok": False, "tool": args.tool, "error": str(exc)}, args.json, f"error: {exc}")
        if args.json:
            print(f"error: {exc}", file=sys.stderr)
        return 1
    text = "\n".join(result["outputs"]) if result["outputs"] else json.dumps(result["value"], ensure_ascii=False)
    _emit({"ok": True, **result, "error": None}, args.json, text)
    return 0


def _cmd_plan(args: argparse.Namespace) -> int:
    import os

    from .errors import DocPilotError
    from .files import inspect_files
    from .wiring import make_planner

    try:
        planner = make_planner(args.backend, os.environ)
        outcome = planner.plan(args.request, inspect_files(args.files))
    except DocPilotError as exc:
        _emit({"ok": False, "request": args.request, "error": str(exc)}, args.json, f"error: {exc}")
        return 1
    if args.json:
        print(json.dumps(outcome.to_json(), ensure_ascii=False, separators=(",", ":")))
    elif outcome.ok:
        print(f"Plan ({outcome.backend}):\n{outcome.explanation}")
        print(json.dumps(outcome.plan.dump() if outcome.plan else None, ensure_ascii=False, indent=1),
              file=sys.stderr)
    else:
        print(f"error: {outcome.error}")
    return 0 if outcome.ok else 1


def _cmd_serve(args: argparse.Namespace) -> int:
    from .ui import launch

    launch(host=args.host, port=args.port, backend=args.backend)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    # Options may come before, between or after the file arguments.
    args, extra = parser.parse_known_args(argv)
    if extra:
        if hasattr(args, "files") and not any(e.startswith("-") for e in extra):
            args.files = list(args.files) + extra
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "tools":
        return _cmd_tools(args)
    if args.command == "call":
        return _cmd_call(args)
    if args.command == "plan":
        return _cmd_plan(args)
    if args.command == "run":
        from .cli_run import cmd_run

        return cmd_run(args)
    if args.command == "serve":
        return _cmd_serve(args)
    print(f"docpilot {args.command}: not available yet — the planner is being built. "
          "Use `docpilot call TOOL --args JSON FILE --out DIR` to run one tool.", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
