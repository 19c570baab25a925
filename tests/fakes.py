"""A model that plays back canned replies: only for tests of loop logic (retry and correction counts)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from docpilot.errors import LLMError
from docpilot.llm.base import Reply, Usage

__all__ = ["ScriptedCall", "ScriptedLLM"]


@dataclass(frozen=True)
class ScriptedCall:
    """What one ``chat`` call received."""

    messages: list[dict]
    schema: dict | None
    max_tokens: int
    temperature: float
    grammar: str | None = None


class ScriptedLLM:
    """Returns ``replies`` in order and records every call in ``calls``.

    Token counts are whitespace-separated words, enough for tests that check counters move.
    """

    name = "scripted"

    def __init__(self, replies: Iterable[str], seconds: float | None = None) -> None:
        self.replies = list(replies)
        self.seconds = seconds  # the model time each reply reports (None: the real, tiny time taken)
        self.calls: list[ScriptedCall] = []
        self.usage = Usage()

    @property
    def remaining(self) -> int:
        """How many canned replies are left."""
        return len(self.replies) - len(self.calls)

    def chat(
        self,
        messages: list[dict],
        *,
        schema: dict | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        should_stop: Callable[[], bool] | None = None,
        on_text: Callable[[str], None] | None = None,
        grammar: str | None = None,
        on_wait: Callable[[int], bool] | None = None,
    ) -> Reply:
        start = time.perf_counter()
        index = len(self.calls)
        self.calls.append(ScriptedCall([dict(m) for m in messages], schema, max_tokens, temperature, grammar))
        if index >= len(self.replies):
            raise LLMError(f"ScriptedLLM was called {index + 1} times but has only {len(self.replies)} replies.")
        text = self.replies[index]
        prompt_tokens = sum(len(str(m.get("content") or "").split()) for m in messages)
        if on_text is not None:  # "streamed" a few characters at a time
            for end in range(4, len(text) + 4, 4):
                on_text(text[:end])
        seconds = self.seconds if self.seconds is not None else time.perf_counter() - start
        reply = Reply(text, prompt_tokens, len(text.split()), seconds)
        self.usage.add(reply)
        return reply
