"""The one interface every language-model backend offers, and the counters requests report.

A backend turns chat messages into a :class:`Reply`. With a JSON schema the backend constrains or
asks for JSON output; checking the reply against the schema stays the caller's job (the verifier).
Failures of servers and models surface as :class:`~docpilot.errors.LLMError` with a message for
the user, never as a raw traceback.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from docpilot.errors import LLMError, Stopped

if TYPE_CHECKING:
    from docpilot.llm.stopping import Stop

__all__ = ["LLM", "LLMError", "Metered", "Reply", "Usage", "metered"]


@dataclass(frozen=True)
class Reply:
    """One answer of the model, with what it cost."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0


@dataclass
class Usage:
    """Running totals of LLM calls; thread-safe so a shared backend can count from several sessions."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, reply: Reply) -> None:
        """Count one call."""
        with self._lock:
            self.calls += 1
            self.prompt_tokens += reply.prompt_tokens
            self.completion_tokens += reply.completion_tokens
            self.seconds += reply.seconds


@runtime_checkable
class LLM(Protocol):
    """A chat model. ``name`` is ``"local"``, ``"openai"`` or ``"scripted"``; ``usage`` counts every call."""

    name: str
    usage: Usage

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
        """Answer ``messages`` (OpenAI-style ``{"role", "content"}`` dicts).

        Args:
            messages: the conversation; a first ``system`` message is the static prefix that the local
                backend reuses across requests and processes, so keep it identical between requests.
            schema: a JSON schema the reply must follow; the reply text is then a JSON document.
            max_tokens: the most tokens to generate.
            temperature: sampling temperature; 0 gives repeatable answers.
            should_stop: called often while the model works; once it returns True the call ends
                within a moment by raising :class:`~docpilot.errors.Stopped`.
            on_text: called with the reply so far, again and again as the model writes it (streaming);
                the returned :class:`Reply` is the whole of it.
            grammar: a llama.cpp grammar (GBNF) the reply must follow, where the backend can constrain
                decoding; other backends ignore it (the caller checks the reply).
            on_wait: while the call waits for a model other requests are using (the embedded model serves
                one call at a time, first come, first served): told how many calls are ahead of it each
                time that changes and a few times a second, then 0 when its turn comes; returning True
                gives the place up (:class:`~docpilot.errors.Stopped`). A server backend never calls it.

        Raises:
            LLMError: the model or server could not answer; the message says why and what to do.
            Stopped: ``should_stop`` said so.
        """
        ...


class Metered:
    """Wraps a backend to count one request's calls apart from the backend's process-wide totals.

    ``usage`` is the request's counter (a new one when not given); every reply is counted there once.
    ``stop``: the request's cancel switch and model-time limit; every call is watched by it, and a
    stopped call raises the stop's own :class:`~docpilot.errors.Stopped` (cancelled, or out of time).
    A call waiting for the model tells the stop its place in the line (:meth:`Stop.waiting`), and leaves
    the line when the request is cancelled; time spent waiting is not model time.
    """

    def __init__(self, llm: LLM, usage: Usage | None = None, stop: Stop | None = None) -> None:
        self.llm = llm
        self.name = llm.name
        self.usage = usage if usage is not None else Usage()
        self.stop = stop

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
        stop = self.stop
        extra: dict = {"on_text": on_text} if on_text is not None else {}  # backends that cannot stream get none
        if grammar is not None:
            extra["grammar"] = grammar
        waiting = _told_both(stop.waiting, on_wait) if stop is not None else on_wait
        if waiting is not None:
            extra["on_wait"] = waiting
        if stop is None:
            reply = self.llm.chat(
                messages,
                schema=schema,
                max_tokens=max_tokens,
                temperature=temperature,
                should_stop=should_stop,
                **extra,
            )
        else:
            stop.raise_if_over(self.usage.seconds)
            check = stop.check(self.usage.seconds)
            watch = check if should_stop is None else (lambda: check() or should_stop())
            try:
                reply = self.llm.chat(
                    messages,
                    schema=schema,
                    max_tokens=max_tokens,
                    temperature=temperature,
                    should_stop=watch,
                    **extra,
                )
            except Stopped:
                raise stop.error() from None
        self.usage.add(reply)
        return reply


def _told_both(first: Callable[[int], bool], second: Callable[[int], bool] | None) -> Callable[[int], bool]:
    """One wait listener telling both; the place is given up when either says so."""
    if second is None:
        return first
    return lambda ahead: bool(first(ahead)) | bool(second(ahead))


def metered(llm: LLM, usage: Usage | None = None, stop: Stop | None = None) -> Metered:
    """A per-request view of ``llm`` counting into ``usage`` (a new counter when not given)."""
    return Metered(llm, usage, stop)
