"""Stopping the model: Cancel ends a call within 2 s (even in the middle of a long prompt), and a
plan stops after its limit of model time with a message that says what to try instead.

The loop logic (which call is refused after how much model time) is driven by a scripted model that
reports its time; the stopping itself is checked on the real embedded model.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fakes import ScriptedLLM

from docpilot.errors import Stopped
from docpilot.files import inspect_files
from docpilot.llm.base import metered
from docpilot.llm.local_backend import LocalBackend, LocalConfig, local_available
from docpilot.llm.stopping import Stop
from docpilot.planning.planner import Planner

VAGUE = "Tidy up this file for the board meeting"  # not understood by the fast path
LONG_PROMPT = [{"role": "user", "content": "word " * 3000 + "\nNow say hello."}]


def _past_the_end() -> str:
    return "Delete page 9."


def test_a_plan_stops_after_its_model_time(make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["a", "b"], name="deck.pdf")])
    llm = ScriptedLLM([_past_the_end()] * 4, seconds=65.0)  # an invalid answer: the job would retry it once
    outcome = Planner(llm=llm, model_seconds=60).plan(VAGUE, files)
    assert not outcome.ok and outcome.plan is None
    assert len(llm.calls) == 1  # 65 s used by the first answer: the retry is past the limit
    assert "60 s of the model's time" in outcome.error and "more explicit" in outcome.error


def test_a_cancelled_request_calls_the_model_no_more() -> None:
    llm = ScriptedLLM(["{}"])
    stop = Stop()
    stop.cancel()
    with pytest.raises(Stopped) as caught:
        metered(llm, stop=stop).chat([{"role": "user", "content": "hi"}])
    assert caught.value.cancelled and not llm.calls and "cancelled" in str(caught.value)


def test_the_clock_starts_at_the_first_check() -> None:
    stop = Stop(limit=0.2)
    check = stop.check(used=0.0)
    time.sleep(0.3)  # waiting for the model (its lock, its loading) is not the model's time
    assert check() is False
    time.sleep(0.3)
    assert check() is True


@pytest.fixture(scope="module")
def local() -> LocalBackend:
    if not local_available():
        pytest.skip("the embedded model is not installed")
    backend = LocalBackend(LocalConfig(prefix_cache_dir=None))
    backend.load()
    return backend


def _in_background(work: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except Exception as exc:  # noqa: BLE001 - inspected by the test
            box["error"] = exc
        box["ended"] = time.monotonic()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, box


@pytest.mark.llm
@pytest.mark.slow
def test_cancel_stops_the_local_model_within_two_seconds(local: LocalBackend) -> None:
    stop = Stop()
    model = metered(local, stop=stop)
    thread, box = _in_background(lambda: model.chat(LONG_PROMPT, max_tokens=64))
    time.sleep(3.0)  # in the middle of reading the 3,000-word prompt (several seconds on any laptop)
    assert thread.is_alive(), "the call ended before it could be cancelled"
    cancelled = time.monotonic()
    stop.cancel()
    thread.join(10)
    assert not thread.is_alive()
    assert isinstance(box.get("error"), Stopped) and box["error"].cancelled, box
    assert box["ended"] - cancelled < 2.0
    # the model is usable at once, with nothing of the stopped prompt left in its state
    reply = local.chat([{"role": "user", "content": "Say only the word hello."}], max_tokens=8)
    assert "hello" in reply.text.lower()


@pytest.mark.llm
@pytest.mark.slow
def test_the_time_limit_stops_the_local_model(local: LocalBackend) -> None:
    started = time.monotonic()
    with pytest.raises(Stopped) as caught:
        metered(local, stop=Stop(limit=2.0)).chat(LONG_PROMPT, max_tokens=64)
    assert time.monotonic() - started < 4.0
    assert not caught.value.cancelled and "2 s of the model's time" in str(caught.value)
