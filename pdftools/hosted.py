"""Work a tool hands to the host process: the models (NER, the LLM, the embedder) never load inside a tool.

A tool that needs a model asks with :func:`call` (a name and a JSON-able payload in, JSON-able data out).
Whoever runs the tool decides who answers: the app or the CLI answers in-process
(``with hosting(handler): ...``); inside the sandbox the runner installs a handler that forwards the
request over its pipe to the host, which is the only way out of the sandbox to a model.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from .errors import ToolUnavailableError

__all__ = ["Handler", "call", "hosting", "is_hosted"]

Handler = Callable[[str, dict[str, Any]], Any]

_handlers: list[Handler] = []  # a stack: the innermost ``hosting`` block answers


@contextlib.contextmanager
def hosting(handler: Handler) -> Iterator[None]:
    """Answer :func:`call` with ``handler`` inside this block."""
    _handlers.append(handler)
    try:
        yield
    finally:
        _handlers.remove(handler)


def is_hosted() -> bool:
    """Whether some host answers calls now."""
    return bool(_handlers)


def call(name: str, payload: dict[str, Any]) -> Any:
    """Ask the host to do ``name`` with ``payload``; raises ToolUnavailableError when nothing hosts."""
    if not _handlers:
        raise ToolUnavailableError(
            f"'{name}' needs DocPilot's language models, which this process does not run. "
            "Call the tool through docpilot (the app, `docpilot run` or `docpilot call`)."
        )
    return _handlers[-1](name, payload)
