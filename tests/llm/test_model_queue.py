"""The line in front of the shared model (docpilot.llm.queue.FairQueue): first come, first served, each
waiter told its place as it moves, a cancelled waiter leaves at once, and nobody starves."""

from __future__ import annotations

import threading
import time

from docpilot.errors import Stopped
from docpilot.llm.queue import FairQueue

WAIT = 10.0  # seconds before a test gives up on a thread (a broken queue hangs, it must not hang the suite)


def _until(condition, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


class Waiter(threading.Thread):
    """Takes its turn in ``queue``, noting every place it is told, and holds the turn until released."""

    def __init__(self, queue: FairQueue, served: list[str], name: str, leave: threading.Event | None = None):
        super().__init__(name=name, daemon=True)
        self.queue, self.served, self.leave = queue, served, leave
        self.places: list[int] = []
        self.release = threading.Event()
        self.error: BaseException | None = None

    def told(self, ahead: int) -> bool:
        self.places.append(ahead)
        return self.leave is not None and self.leave.is_set()

    def run(self) -> None:
        try:
            with self.queue.turn(self.told):
                self.served.append(self.name)
                self.release.wait(WAIT)
        except BaseException as exc:  # noqa: BLE001 - examined by the test
            self.error = exc


def _line_up(queue: FairQueue, served: list[str], count: int, **kwargs) -> list[Waiter]:
    """``count`` waiters joining one after another (each is in line before the next starts)."""
    waiters = []
    for n in range(count):
        waiter = Waiter(queue, served, f"w{n}", **kwargs)
        waiter.start()
        _until(lambda n=n: len(queue) == n + 1)
        waiters.append(waiter)
    return waiters


def _distinct(places: list[int]) -> list[int]:
    """The places told, repeats (the periodic reminders) dropped."""
    return [p for i, p in enumerate(places) if i == 0 or p != places[i - 1]]


def test_turns_are_taken_in_arrival_order_and_each_waiter_is_told_its_place_as_it_moves():
    queue, served = FairQueue(poll=0.05), []
    waiters = _line_up(queue, served, 5)
    _until(lambda: all(w.places for w in waiters[1:]))
    assert [w.places[0] for w in waiters[1:]] == [1, 2, 3, 4], "each is told how many are ahead on joining"
    assert waiters[0].places == [], "the first caller has the model at once and is told nothing"
    for n, waiter in enumerate(waiters):
        _until(lambda n=n: len(served) == n + 1)
        assert served == [w.name for w in waiters[: n + 1]], "served in arrival order"
        for later in waiters[n + 1 :]:  # everyone behind has been told its new place
            _until(lambda later=later, n=n: later.places[-1] == waiters.index(later) - n)
        waiter.release.set()
    for waiter in waiters:
        waiter.join(WAIT)
        assert not waiter.is_alive() and waiter.error is None
    for k, waiter in enumerate(waiters[1:], 1):
        assert _distinct(waiter.places) == list(range(k, -1, -1)), (waiter.name, waiter.places)
    assert len(queue) == 0


def test_a_cancelled_waiter_leaves_at_once_and_those_behind_move_up():
    queue, served = FairQueue(poll=0.05), []
    holder, middle = _line_up(queue, served, 2)
    leave = threading.Event()
    last = Waiter(queue, served, "last")
    last.start()
    _until(lambda: len(queue) == 3 and bool(last.places))
    assert last.places[-1] == 2
    middle.leave = leave
    leave.set()  # the person behind the holder pressed Cancel
    middle.join(WAIT)
    assert isinstance(middle.error, Stopped), "the cancelled call raises Stopped without its turn"
    _until(lambda: last.places[-1] == 1)  # moved up while the holder still holds the model
    assert served == ["w0"]
    holder.release.set()
    _until(lambda: served == ["w0", "last"])
    last.release.set()
    last.join(WAIT)
    assert len(queue) == 0


def test_callers_taking_turns_again_and_again_cannot_starve_one_that_waits():
    """Two callers that line up again as soon as they are served: one that joins after them is served after
    at most the two turns that were ahead of it. With a lock that whoever grabs it first after a release wins
    (no tickets), the two take it again and again and the third waits for ever."""
    queue, served = FairQueue(poll=0.05), []
    stop = threading.Event()
    greedy_turns: list[float] = []

    def greedy() -> None:
        while not stop.is_set():
            with queue.turn():
                greedy_turns.append(time.monotonic())
                time.sleep(0.002)

    hogs = [threading.Thread(target=greedy, daemon=True) for _ in range(2)]
    for hog in hogs:
        hog.start()
    _until(lambda: len(greedy_turns) > 20)
    waiter = Waiter(queue, served, "patient")
    joined = time.monotonic()
    waiter.start()
    try:
        _until(lambda: served == ["patient"], timeout=2.0)
        waited_through = sum(1 for t in greedy_turns if t > joined)
    finally:
        waiter.release.set()
        stop.set()
    waiter.join(WAIT)
    for hog in hogs:
        hog.join(WAIT)
    assert waited_through <= 2, f"the waiter saw the greedy callers served {waited_through} times after it came"


def test_many_callers_all_get_their_turn_one_at_a_time():
    threads = 8
    queue = FairQueue(poll=0.01)
    inside, most, done = [0], [0], []
    lock = threading.Lock()

    def work(n: int) -> None:
        for _ in range(20):
            with queue.turn(lambda ahead: False):
                with lock:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0.0005)
                with lock:
                    inside[0] -= 1
        done.append(n)

    workers = [threading.Thread(target=work, args=(n,), daemon=True) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(WAIT)
    assert sorted(done) == list(range(threads)), "every caller finished"
    assert most[0] == 1, "never two callers on the model at once"
    assert len(queue) == 0
