"""The ``docpilot`` command line (contracts in DESIGN.md).

Machine-readable results go to stdout as one JSON object on the last line; logs and progress go
to stderr. Exit codes: 0 ok, 1 the request cannot be done, 2 usage errors, 3 a clarifying question,
130 cancelled with Ctrl-C (``run``: the sandbox is killed and nothing is left in ``--out``; ``call``: nothing
is left in ``--out`` either).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from docpilot.cli.parser import build_parser

__all__ = ["main", "build_parser"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    # Options may come before, between or after the file arguments.
    args, extra = parser.parse_known_args(argv)
    if extra:
        if hasattr(args, "files") and not any(e.startswith("-") for e in extra):
            args.files = list(args.files) + extra
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "run":
        from docpilot.cli.run import cmd_run

        return cmd_run(args)
    from docpilot.cli import commands

    handler = {
        "tools": commands.cmd_tools,
        "call": commands.cmd_call,
        "plan": commands.cmd_plan,
        "ask": commands.cmd_ask,
        "serve": commands.cmd_serve,
        "warm": commands.cmd_warm,
        "cache": commands.cmd_cache,
    }[args.command]
    try:
        return handler(args)
    except KeyboardInterrupt:  # Ctrl-C: 128 + SIGINT, as shells expect; `run` says more itself
        print(f"docpilot {args.command}: cancelled (Ctrl-C)", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
