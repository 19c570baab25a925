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
    """Answers ``entities`` (names of people, organisations and parties in page texts) and ``summarize``
    (TextRank over page texts, written up by ``llm`` when one is given)."""

    names = ("entities", "summarize")

    def __init__(self, llm: Any = None) -> None:
        self.llm = llm

    def __call__(self, name: str, payload: dict[str, Any]) -> Any:
        if name == "entities":
            from docpilot.understanding.entities import handle

            return handle(name, payload)
        if name == "summarize":
            from docpilot.understanding.summarize import summarize_pages

            pages = [(int(p), str(t)) for p, t in payload.get("pages", [])]
            summary = summarize_pages(pages, int(payload.get("sentences", 3)), self.llm)
            return {"bullets": summary.bullets, "citations": summary.citations}
        raise ToolUnavailableError(f"Tools may ask the host for {', '.join(self.names)}, not '{name}'.")
