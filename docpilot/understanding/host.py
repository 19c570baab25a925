"""The host's side of :mod:`pdftools.hosted`: the model work a tool may ask for, done in this process.

The executor hands a :class:`Host` to the sandbox runner, which answers a sandboxed tool's call over
the sandbox's pipe; ``docpilot call`` runs tools in-process inside ``hosting(Host())``. Only the names
below are answered: a call cannot reach anything else of the host.
"""

from __future__ import annotations

from typing import Any

from pdftools.errors import ToolUnavailableError

__all__ = ["Host"]


class Host:
    """Answers ``entities`` (names of people, organisations and parties in page texts)."""

    names = ("entities",)

    def __call__(self, name: str, payload: dict[str, Any]) -> Any:
        if name == "entities":
            from docpilot.understanding.entities import handle

            return handle(name, payload)
        raise ToolUnavailableError(f"Tools may ask the host for {', '.join(self.names)}, not '{name}'.")
