"""Which run folders a starting sandbox removes: only this user's ``docpilot-run-…`` folders whose lock no
live process holds. A killed run's folder goes; a live run's, a folder without a lock (an older version's,
or one being made), another user's, a link, or anything else in the temporary root stay.

The whole path (a real ``docpilot run`` killed with SIGKILL, then the next one starting) is in
tests/running/test_run_faults.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.folders import LOCK_NAME, PREFIX, hold_run_folder, release, sweep_run_folders

ROOT = str(Path(__file__).resolve().parents[2])


@pytest.fixture
def root(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "tmp"
    folder.mkdir()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def killed_run_folder(root: Path) -> Path:
    """A run folder made and held by a process that was then killed with SIGKILL."""
    made = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            "import os, signal, sys; sys.path.insert(0, sys.argv[1]); from sandbox.folders import hold_run_folder;"
            "path, _ = hold_run_folder(sys.argv[2]); open(os.path.join(path, 'input.pdf'), 'w').write('copy');"
            "print(path, flush=True); os.kill(os.getpid(), signal.SIGKILL)",
            ROOT,
            str(root),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == -9, made.stderr
    return Path(made.stdout.strip())


def test_a_killed_runs_folder_is_removed_and_a_live_ones_kept(root: Path) -> None:
    killed = killed_run_folder(root)
    assert (killed / "input.pdf").exists() and (killed / LOCK_NAME).exists()
    live, lock = hold_run_folder(str(root))
    try:
        assert Path(live).name.startswith(PREFIX) and oct(os.stat(live).st_mode & 0o777) == "0o700"
        assert sweep_run_folders(str(root)) == [str(killed)]
        assert not killed.exists() and Path(live, LOCK_NAME).exists()
    finally:
        shutil.rmtree(live, ignore_errors=True)
        release(lock)


def test_only_this_schemes_folders_of_this_user_are_removed(root: Path) -> None:
    lockless = root / f"{PREFIX}older"  # an older version's (it may still be running) or one being made
    lockless.mkdir()
    (lockless / "input.pdf").write_text("copy")
    other_name = root / "docpilot-faults-x"
    other_name.mkdir()
    (other_name / LOCK_NAME).touch()
    target = root / "elsewhere"
    target.mkdir()
    (target / LOCK_NAME).touch()
    (root / f"{PREFIX}link").symlink_to(target)
    fifo = root / f"{PREFIX}fifo"  # a lock file that is a FIFO must not block the start
    fifo.mkdir()
    os.mkfifo(fifo / LOCK_NAME)
    kept = [lockless, other_name, target, root / f"{PREFIX}link", fifo]
    if os.geteuid() == 0:
        others = root / f"{PREFIX}nobody"  # another user's folder: not ours to judge
        others.mkdir()
        (others / LOCK_NAME).touch()
        os.chown(others, 65534, 65534)
        kept.append(others)
    assert sweep_run_folders(str(root)) == []
    assert all(path.exists() for path in kept)
    assert (target / LOCK_NAME).exists()
