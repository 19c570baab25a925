"""The one bounded repair loop: ask, check, feed the problems back, ask again.

Used by plan self-correction (the verifier's problems go back to the model), program
self-revision (the sandbox's static checks) and run → revise (a written program's error log),
as in the self-correction of "DocPilot: Copilot for Automating PDF Edit Workflows in Documents" and
instructor's retry: at most ``max_fixes`` rounds after the first try; on exhaustion one
:class:`~docpilot.errors.RepairFailed` carries every attempt, the last problems and the usage.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from docpilot.errors import RepairFailed

__all__ = ["Attempt", "Repaired", "repair"]

T = TypeVar("T")


@dataclass(frozen=True)
class Attempt(Generic[T]):
    """One round: what was produced and what the check found wrong with it (empty: accepted)."""

    result: T
    problems: list[Any]


@dataclass
class Repaired(Generic[T]):
    """The accepted result and every attempt that led to it (the last one is the accepted one)."""

    result: T
    attempts: list[Attempt[T]] = field(default_factory=list)


def repair(
    first: Callable[[], T],
    check: Callable[[T], Sequence[Any]],
    fix: Callable[[T, Sequence[Any]], T],
    *,
    max_fixes: int,
    what: str,
    usage: Any = None,
) -> Repaired[T]:
    """``first()``, then ``fix(result, problems)`` while ``check`` finds problems, at most ``max_fixes`` times.

    Raises:
        RepairFailed: the last result still had problems; it carries the attempts, the problems and ``usage``.
    """
    attempts: list[Attempt[T]] = []
    result = first()
    for round_ in range(max_fixes + 1):
        problems = list(check(result))
        attempts.append(Attempt(result, problems))
        if not problems:
            return Repaired(result, attempts)
        if round_ == max_fixes:
            break
        result = fix(result, problems)
    raise RepairFailed(
        f"{what} still had problems after {max_fixes} correction(s)", attempts, attempts[-1].problems, usage
    )
