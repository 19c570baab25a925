"""Run folders held by a lock the kernel keeps for their owner; stale ones removed when a sandbox starts.

Each run's folder (``docpilot-run-…`` in the temporary root, holding the copies of its inputs) has a
``.lock`` file inside, locked with ``flock`` by the process that made it for as long as the folder is in
use. The kernel drops the lock when that process ends in any way (SIGKILL included), so a folder left
by a killed run is found with one non-blocking ``flock`` and removed by the next sandbox that starts,
while a folder a live process holds is kept. The sandbox's side of ``docpilot/folders.py``, which it
may not import.

A folder is made under a hidden name, locked, then renamed to a fresh random name, so a sweeper never
sees a named folder that is not locked yet. A folder without a lock file, or not this user's, is left
alone: it is not one this scheme made (or an older version's, which may still be running).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import shutil
import stat
import tempfile

__all__ = ["LOCK_NAME", "PREFIX", "hold_run_folder", "release", "sweep_run_folders"]

PREFIX = "docpilot-run-"
LOCK_NAME = ".lock"


def hold_run_folder(parent: str | None = None) -> tuple[str, int]:
    """A new private folder ``docpilot-run-…`` (0700) in ``parent`` (the temporary root), locked by this
    process: its path and the lock's descriptor, to :func:`release` once the folder is removed."""
    parent = parent or tempfile.gettempdir()
    made = tempfile.mkdtemp(prefix="." + PREFIX, dir=parent)
    try:
        fd = os.open(os.path.join(made, LOCK_NAME), os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except OSError:
        shutil.rmtree(made, ignore_errors=True)
        raise
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        path = os.path.join(parent, PREFIX + secrets.token_hex(8))  # fresh: not guessable from the hidden name
        os.rename(made, path)
    except OSError:
        shutil.rmtree(made, ignore_errors=True)
        release(fd)
        raise
    return path, fd


def release(fd: int | None) -> None:
    """Let a folder's lock go (closing its only descriptor drops the ``flock``)."""
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def sweep_run_folders(parent: str | None = None) -> list[str]:
    """Remove the run folders in ``parent`` (the temporary root) that no live process holds; return them.

    Only this user's folders named by this scheme, with a lock file, are candidates. A folder's lock is
    taken before it is removed, so a folder is never removed while its owner holds it, and two sweepers
    never both remove it.
    """
    parent = parent or tempfile.gettempdir()
    removed: list[str] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.removeprefix(".").startswith(PREFIX):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
            continue
        flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK  # never a link, never a blocking FIFO
        try:
            fd = os.open(os.path.join(entry.path, LOCK_NAME), flags)
        except OSError:
            continue  # no lock file: still being made, or not made by this scheme
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # held by a live process: keep it
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
        finally:
            os.close(fd)
    return removed
