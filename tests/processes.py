"""Reading real processes from /proc for the fault tests: a process's children, the sandbox below a
process, whether a process has a file open, whether it is still alive."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["alive", "children", "program_pids", "reads", "sandbox_pids"]


def children(pid: int) -> list[int]:
    """The pids of ``pid``'s children, started from any of its threads."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def sandbox_pids(parent: int) -> list[int]:
    """The sandbox processes below ``parent`` and, after each, the workers running programs in it."""
    found = []
    for child in children(parent):
        try:
            if b"sandbox.child" in Path(f"/proc/{child}/cmdline").read_bytes():
                found += [child, *children(child)]
        except OSError:
            continue
    return found


def reads(pid: int, name: str) -> bool:
    """True while process ``pid`` has a file called ``name`` open."""
    try:
        return any(os.readlink(fd).endswith("/" + name) for fd in Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False


def program_pids(parent: int, name: str) -> list[int]:
    """The sandbox below ``parent`` and its workers that have ``name`` open (a program running over it);
    empty until such a worker exists."""
    pids = sandbox_pids(parent)
    return pids if any(reads(pid, name) for pid in pids) else []


def alive(pid: int) -> bool:
    """False once ``pid`` has ended (a zombie has ended: only its exit status is left to collect)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")
