"""One question's time with the model: the ways of answering before the passages share part of it.

A question may go through several ways of answering that ask the model (a row chosen, a program written,
each part of a question asked alone) before the passages are read. Each call of the embedded model takes
10–20 s on a laptop, so without a limit a hard question took minutes. :class:`QuestionModel` counts the
question's calls and the model's own time on them (not the time spent waiting for the model's turn), and
stops a call once the current limit is reached: the ways before the passages have ``FIRST_SECONDS`` of
it, the passages the rest of ``MODEL_SECONDS``. A stop it made is told apart from a person's cancel or the
request's own limit by :meth:`QuestionModel.ran_out`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from docpilot.errors import Stopped
from docpilot.llm.stopping import MODEL_SECONDS

__all__ = ["FIRST_SECONDS", "MODEL_SECONDS", "QuestionModel", "out_of_time"]

FIRST_SECONDS = 30.0


def out_of_time(limit: float) -> str:
    """The answer when the model had its time on a question without an answer."""
    return (
        f"I could not answer within {limit:.0f} s of the model's time. Ask a narrower question (name the table, "
        "the row, the column or the page), or configure a faster OpenAI-compatible server (OPENAI_BASE_URL)."
    )


class QuestionModel:
    """The model for one question: counts its calls and stops a call past the current time limit."""

    def __init__(self, llm: Any, limit: float = MODEL_SECONDS) -> None:
        self.llm = llm
        self.name = getattr(llm, "name", "model")
        self.calls = 0
        self.seconds = 0.0  # the model's own time on this question's finished calls
        self.total = limit
        self._limit = limit
        self._stopped_here = False

    @contextmanager
    def within(self, limit: float) -> Iterator[None]:
        """Calls made inside stop once the question's model time reaches ``limit`` (at most the total)."""
        before = self._limit
        self._limit = min(limit, before)
        try:
            yield
        finally:
            self._limit = before

    def ran_out(self, exc: Stopped) -> bool:
        """True when ``exc`` stopped a call for time and the current limit is used (not a cancel); the
        request's own limit (:class:`~docpilot.llm.stopping.Stop`, the same model time) may fire first."""
        return not exc.cancelled and (self._stopped_here or self.spent)

    @property
    def spent(self) -> bool:
        """True once the current limit is used up (a call would be stopped at once)."""
        return self.seconds >= self._limit

    def chat(self, messages: list[dict], should_stop: Callable[[], bool] | None = None, **kwargs: Any) -> Any:
        self._stopped_here = False
        if self.spent:
            self._stopped_here = True
            raise Stopped(out_of_time(self.total), cancelled=False)
        started: list[float] = []
        limit = self._limit

        def must_stop() -> bool:
            now = time.monotonic()
            if not started:  # the clock starts with the model's first unit of work, not in the line
                started.append(now)
            if self.seconds + (now - started[0]) > limit:
                self._stopped_here = True
                return True
            return bool(should_stop is not None and should_stop())

        self.calls += 1
        try:
            reply = self.llm.chat(messages, should_stop=must_stop, **kwargs)
        except Stopped:
            self.seconds += time.monotonic() - started[0] if started else 0.0
            raise
        self.seconds += float(getattr(reply, "seconds", 0.0) or 0.0)  # the backend's own time, not the line's
        return reply
