"""Folders a live process owns, marked by a lock the kernel holds for it; stale ones found and removed.

A held folder has a ``.lock`` file inside, locked with ``flock`` by the process that made it for as
long as it uses the folder. The kernel drops the lock when the process ends in any way (SIGKILL
included), so "is anyone still using this folder?" is one non-blocking ``flock`` away, across
processes: a second server sharing a session root, or a second ``docpilot run`` delivering into the
same ``--out``, keeps its folders; the folders of a killed one are removed by the next one that sweeps.

A folder is made under a hidden temporary name, locked, then (for sessions) renamed into place, so a
sweeper never sees a named folder that is not locked yet.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["LOCK_NAME", "HeldFolder", "hold_new_folder", "is_held", "sweep_unheld"]

LOCK_NAME = ".lock"


@dataclass
class HeldFolder:
    """A folder with its lock held by this process until :meth:`release` (or the process ends)."""

    path: Path
    _fd: int | None = field(default=None, repr=False)

    def release(self) -> None:
        """Let the lock go (the folder itself stays; remove it first when it should go)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the only descriptor drops the flock

    def remove(self) -> None:
        """Remove the folder and everything in it, then drop the lock."""
        shutil.rmtree(self.path, ignore_errors=True)
        self.release()


def _lock(folder: Path) -> int:
    fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise
    return fd


def hold_new_folder(parent: Path, prefix: str, final_name: str | None = None) -> HeldFolder:
    """A new private folder (0700) in ``parent``, locked by this process.

    It is made as a hidden ``prefix…`` folder and locked there; with ``final_name`` (a new, unique
    name) it is then renamed to that name, so a folder under its final name is always locked already.
    """
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))  # 0700
    try:
        fd = _lock(path)
    except OSError:
        shutil.rmtree(path, ignore_errors=True)
        raise
    held = HeldFolder(path, fd)
    if final_name is not None:
        target = parent / final_name
        try:
            os.rename(path, target)
        except OSError:
            held.remove()
            raise
        held.path = target
    return held


def is_held(folder: Path) -> bool:
    """True when a live process holds ``folder``'s lock (a folder without a lock file is not held)."""
    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def sweep_unheld(parent: Path, match: Callable[[str], bool], lockless: bool = False) -> list[Path]:
    """Remove the folders in ``parent`` whose names ``match`` and that no live process holds; return them.

    A folder's lock is taken before it is removed, so a folder is never removed while its owner holds
    it, and two sweepers never both remove it. A folder without a lock file is removed only with
    ``lockless`` (the caller knows every folder of its kind is locked before it gets such a name);
    otherwise it may be one still being made, and it is left alone.
    """
    removed: list[Path] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        if not match(entry.name) or not entry.is_dir(follow_symlinks=False):
            continue
        folder = Path(entry.path)
        try:
            fd = os.open(folder / LOCK_NAME, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            if lockless:
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
            continue
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)  # held by a live process: keep it
            continue
        try:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
        finally:
            os.close(fd)
    return removed
