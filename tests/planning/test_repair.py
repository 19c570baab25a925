"""The one bounded repair loop: rounds are bounded, attempts are kept, exhaustion raises RepairFailed."""

from __future__ import annotations

import pytest

from docpilot.errors import RepairFailed
from docpilot.planning.repair import repair


def test_stops_at_the_first_accepted_result() -> None:
    fixes: list[int] = []

    def fix(result: int, problems: object) -> int:
        fixes.append(result)
        return result + 1

    done = repair(lambda: 0, lambda r: [] if r >= 2 else [f"{r} is too small"], fix, max_fixes=5, what="n")
    assert done.result == 2 and fixes == [0, 1]
    assert [a.result for a in done.attempts] == [0, 1, 2]
    assert done.attempts[0].problems == ["0 is too small"] and done.attempts[-1].problems == []


def test_first_result_accepted_needs_no_fix() -> None:
    done = repair(lambda: "ok", lambda r: [], lambda r, p: pytest.fail("no fix needed"), max_fixes=3, what="x")
    assert done.result == "ok" and len(done.attempts) == 1


def test_exhaustion_raises_with_attempts_problems_and_usage() -> None:
    usage = object()
    with pytest.raises(RepairFailed) as failed:
        repair(lambda: 0, lambda r: [f"still {r}"], lambda r, p: r + 1, max_fixes=2, what="The plan", usage=usage)
    exc = failed.value
    assert [a.result for a in exc.attempts] == [0, 1, 2]  # the first try and two fixes, no more
    assert exc.problems == ["still 2"] and exc.usage is usage
    assert "after 2 correction(s)" in str(exc)


def test_zero_fixes_means_one_try() -> None:
    calls: list[int] = []
    with pytest.raises(RepairFailed):
        repair(lambda: calls.append(1) or 1, lambda r: ["bad"], lambda r, p: r, max_fixes=0, what="x")
    assert calls == [1]
