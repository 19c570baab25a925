"""The line in front of a shared model: first come, first served, and each waiter told its place.

One model instance serves every session of the app (a second copy would cost another ~1.9 GB and run no
faster on the same cores), so its calls take turns. A plain lock would do that, but it is not fair (a
thread that releases it may take it again at once) and it cannot say how long the wait is. A
:class:`FairQueue` is a ticket lock: a caller takes the next ticket and gets its turn when every ticket
before it is done. While it waits, ``on_wait`` is told how many are ahead of it — the call being served
plus those waiting before it — each time that number changes and a few times a second; returning True
gives the place up (the person pressed Cancel) and those behind move up.

    queue = FairQueue()
    with queue.turn(on_wait=lambda ahead: print(f"{ahead} ahead") or False):
        ...  # the model is this caller's alone here
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from docpilot.errors import Stopped

__all__ = ["FairQueue", "WaitListener"]

WaitListener = Callable[[int], bool]
"""Told how many calls are ahead (0: the turn has come); returns True to leave the line."""

POLL_SECONDS = 0.2  # how often a waiter whose place did not change is asked whether it still wants it


class FairQueue:
    """A first-come, first-served lock that tells each waiter how many are ahead of it (thread-safe)."""

    def __init__(self, poll: float = POLL_SECONDS) -> None:
        self.poll = poll
        self._changed = threading.Condition()
        self._line: deque[int] = deque()  # tickets in arrival order; the first one holds the turn
        self._next_ticket = 0

    def __len__(self) -> int:
        """Calls holding or waiting for the turn (0: free)."""
        with self._changed:
            return len(self._line)

    @contextmanager
    def turn(self, on_wait: WaitListener | None = None) -> Iterator[None]:
        """Hold the turn for the ``with`` block, after every caller that came earlier.

        ``on_wait`` is called (outside the queue's own lock) only when the caller has to wait: with the
        number ahead each time it changes and every ``poll`` seconds, then once with 0 when the turn comes.

        Raises:
            Stopped: ``on_wait`` returned True: the caller left the line without its turn.
        """
        ticket = self._join()
        try:
            self._wait(ticket, on_wait)
        except BaseException:
            self._leave(ticket)
            raise
        try:
            yield
        finally:
            self._leave(ticket)

    def _join(self) -> int:
        with self._changed:
            ticket = self._next_ticket
            self._next_ticket += 1
            self._line.append(ticket)
            return ticket

    def _wait(self, ticket: int, on_wait: WaitListener | None) -> None:
        told: int | None = None
        while True:
            with self._changed:
                ahead = self._line.index(ticket)
                if ahead and ahead == told:
                    self._changed.wait(self.poll)  # woken when someone leaves the line, or to ask again
                    ahead = self._line.index(ticket)
            if ahead == 0:
                if told is not None and on_wait is not None:
                    on_wait(0)
                return
            if on_wait is not None and on_wait(ahead):
                raise Stopped("Left the line for the model before its turn.", cancelled=False)
            told = ahead

    def _leave(self, ticket: int) -> None:
        with self._changed:
            self._line.remove(ticket)
            self._changed.notify_all()
