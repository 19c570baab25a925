"""The ``docpilot`` command line's arguments (contracts in DESIGN.md)."""

from __future__ import annotations

import argparse

__all__ = ["build_parser", "BACKEND_CHOICES"]

BACKEND_CHOICES = ["auto", "local", "openai", "rules"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docpilot", description="A copilot for PDF workflows.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="start the web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=7860)
    serve.add_argument("--backend", choices=BACKEND_CHOICES)

    warm = sub.add_parser(
        "warm", help="prepare the embedded model now: join its weights, read its prompt prefix, build the examples"
    )
    warm.add_argument("--backend", choices=BACKEND_CHOICES)

    cache = sub.add_parser("cache", help="the cache of what was read from documents (it holds their text)")
    cache.add_argument("action", choices=["clear"], help="clear: remove every cached document structure")

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
    plan.add_argument("--backend", choices=BACKEND_CHOICES)

    run = sub.add_parser("run", help="plan, ask for approval, execute and write the results to DIR")
    run.add_argument("request")
    run.add_argument("files", nargs="*", metavar="FILE")
    run.add_argument("--out", required=True, metavar="DIR")
    run.add_argument(
        "--continue",
        dest="resume",
        metavar="RECORD",
        help="answer the question a run asked (its record folder); the files come from the record",
    )
    run.add_argument("--yes", action="store_true", help="run without asking for approval")
    run.add_argument("--json", action="store_true")
    run.add_argument("--backend", choices=BACKEND_CHOICES)

    ask = sub.add_parser("ask", help="answer a question about the documents, with page citations")
    ask.add_argument("question")
    ask.add_argument("files", nargs="+", metavar="FILE")
    ask.add_argument("--json", action="store_true")
    ask.add_argument("--backend", choices=BACKEND_CHOICES)
    ask.add_argument("--password", help="the password of encrypted files")
    ask.add_argument(
        "--feedback", help='a correction of the workflow shown with an answer, e.g. "use the net assets instead"'
    )
    return parser
