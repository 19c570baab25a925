"""When the model's work on one request stops: the person pressed Cancel, or it has had its time.

A :class:`Stop` belongs to one request (one plan or one revision). The request's
:class:`~docpilot.llm.base.Metered` model hands each call a check (:meth:`Stop.check`) that the
backend calls between units of work: the local backend from llama.cpp's abort callback (between graph
nodes, so even a long prompt stops within a fraction of a second), a server backend while it waits
for the reply. The time limit counts the model's own time on the request (the sum of its calls), not
the time spent waiting for the model's turn or building the prompt.

While a call waits for its turn at the shared model, the model's line tells the stop how many calls are
ahead (:meth:`Stop.waiting`); the face listening (``on_wait``) shows it, and a cancelled request leaves
the line at once instead of waiting for its turn to be stopped.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from docpilot.errors import Stopped

__all__ = ["MODEL_SECONDS", "Stop"]

MODEL_SECONDS = 60.0

CANCELLED = "Stopped: you cancelled the planning. Nothing was run; type a new request when you are ready."


def _too_long(limit: float) -> str:
    return (
        f"I stopped planning after {limit:.0f} s of the model's time without a plan. Try a more explicit "
        'request that names the action, the pages and the values (e.g. "add a DRAFT watermark to pages 1-3"), '
        "split it into smaller requests, or configure a faster OpenAI-compatible server (OPENAI_BASE_URL)."
    )


class Stop:
    """A request's cancel switch and model-time limit (``limit`` seconds; thread-safe).

    ``on_wait``: told how many calls are ahead of this request's while it waits for the shared model (0
    when its turn comes), for a face to show.
    """

    def __init__(self, limit: float = MODEL_SECONDS, on_wait: Callable[[int], None] | None = None) -> None:
        self.limit = limit
        self.on_wait = on_wait
        self._cancel = threading.Event()

    def waiting(self, ahead: int) -> bool:
        """Told by the model's line that ``ahead`` calls come before this request's; True: leave the line
        (the request was cancelled)."""
        if self.on_wait is not None:
            self.on_wait(ahead)
        return self.cancelled

    def cancel(self) -> None:
        """Ask the model to stop (from any thread); the running call ends within a moment."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self, used: float) -> Callable[[], bool]:
        """For one call, after ``used`` seconds of model time: True once it must stop.

        The call's clock starts at the first check (the backend's first unit of work), so waiting
        for a model another request is using, or for the model to load, is not counted.
        """
        started: list[float] = []

        def must_stop() -> bool:
            if self._cancel.is_set():
                return True
            now = time.monotonic()
            if not started:
                started.append(now)
            return used + (now - started[0]) > self.limit

        return must_stop

    def error(self) -> Stopped:
        """Why the work stopped, for the person."""
        if self.cancelled:
            return Stopped(CANCELLED, cancelled=True)
        return Stopped(_too_long(self.limit), cancelled=False)

    def raise_if_over(self, used: float) -> None:
        """Raise :meth:`error` when cancelled or ``used`` seconds are past the limit."""
        if self.cancelled or used >= self.limit:
            raise self.error()
