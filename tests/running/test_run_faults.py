"""Faults of `docpilot run` (issue L items 4 and 6), with real processes killed by real signals.

- SIGKILL while a run delivers its files leaves nothing half-written (nothing at all) in --out, and the
  next run into that folder removes what the killed one left, but not what a live run is writing;
- two runs into one --out at the same time never overwrite each other;
- Ctrl-C (SIGINT) stops a run: exit code 130, the sandbox and the program it ran are killed, nothing is
  in --out and the copies of the inputs are gone;
- a Ctrl-C whose KeyboardInterrupt Python drops still cancels the run (the handler kills the sandbox);
- SIGKILL while the program runs takes the sandbox and the program with it (none outlives the run), and
  the next sandbox start removes the killed run's copies of the inputs, but not a live run's.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from docpilot.folders import hold_new_folder
from docpilot.running.deliverables import STAGING
from sandbox.folders import hold_run_folder, release, sweep_run_folders
from tests.processes import alive, program_pids, reads

BOOK = "pdfjs__freeculture.pdf"  # 352 pages


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A temp folder for the runs' sandbox working folders (a SIGKILLed run cannot remove its own), which
    the sandbox's unprivileged user may pass through; removed with everything in it."""
    folder = Path(tempfile.mkdtemp(prefix="docpilot-faults-"))
    folder.chmod(0o711)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def start(args: list[str], tmp_path: Path, scratch: Path) -> subprocess.Popen[str]:
    """`docpilot run ARGS --yes --json` as a real process of this worktree's code."""
    env = {
        **os.environ,
        "DOCPILOT_BACKEND": "rules",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        "TMPDIR": str(scratch),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "docpilot", "run", *args, "--yes", "--json"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def finish(proc: subprocess.Popen[str]) -> tuple[int, dict, str]:
    out, err = proc.communicate(timeout=600)
    last = out.strip().splitlines()[-1] if out.strip() else "{}"
    return proc.returncode, json.loads(last), err


def visible(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) if folder.exists() else []


def wait_for(check: Callable[[], bool], proc: subprocess.Popen[str]) -> None:
    """Poll ``check`` until it holds; fail if the process ends first (no time limit: pytest's own applies)."""
    while not check():
        if proc.poll() is not None:
            _, err = proc.communicate()
            pytest.fail(f"the run ended (exit {proc.returncode}) before the moment the test waits for:\n{err[-2000:]}")


def writing(out: Path) -> bool:
    """True once the run has written a file anywhere in ``out`` (its delivery has begun)."""
    try:
        return any(f.is_file() and f.name != ".lock" for f in out.rglob("*"))
    except OSError:  # a folder went while it was read
        return False


def test_sigkill_while_delivering_leaves_nothing_half_written(
    real: Callable[[str], str], tmp_path: Path, scratch: Path
) -> None:
    book = real(BOOK)
    out = tmp_path / "out"
    proc = start(["Split it into single pages", book, "--out", str(out)], tmp_path, scratch)
    wait_for(lambda: writing(out), proc)  # 352 files are being delivered
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert visible(out) == [], "a run killed while delivering leaves no file in --out"
    left = [p.name for p in out.iterdir()]
    assert left and all(name.startswith(STAGING) for name in left), left  # only its hidden staging folder

    live = hold_new_folder(out, STAGING)  # a delivery under way in a live process
    (live.path / "0.pdf").write_bytes(b"being written")
    try:
        small = real("pypdfsamples__multicolumn.pdf")
        code, result, err = finish(start(["Rotate page 1 by 90 degrees", small, "--out", str(out)], tmp_path, scratch))
        assert code == 0, err
        assert visible(out) == ["pypdfsamples__multicolumn_rotated.pdf"]
        assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == [live.path.name], (
            "the killed run's staging folder is removed by the next run; a live one is kept"
        )
        assert (live.path / "0.pdf").read_bytes() == b"being written"
    finally:
        live.remove()


def test_two_runs_into_one_folder_never_overwrite_each_other(
    real: Callable[[str], str], tmp_path: Path, scratch: Path
) -> None:
    source = real("pypdfsamples__GeoTopo-komprimiert.pdf")  # 117 pages: 117 files with the same names from each run
    out = tmp_path / "out"
    runs = [start(["Split it into single pages", source, "--out", str(out)], tmp_path, scratch) for _ in range(2)]
    results = [finish(proc) for proc in runs]
    for code, result, err in results:
        assert code == 0 and result["ok"], err
    first, second = (set(result["outputs"]) for _, result, _ in results)
    assert len(first) == len(second) == 117 and not first & second, "each run delivered its own 117 files"
    assert sorted(str(p) for p in out.iterdir()) == sorted(first | second), "nothing else is left in --out"
    for path in first | second:
        with pymupdf.open(path) as doc:
            assert doc.page_count == 1


def program_worker(proc: subprocess.Popen[str], name: str) -> tuple[list[int], int]:
    """Wait until a sandbox worker below ``proc`` runs the program over ``name`` (it has the file open):
    the sandbox's pids and that worker's, taken at the same moment (the program may close and reopen it)."""
    pids: list[int] = []
    workers: list[int] = []

    def running() -> bool:
        pids[:] = program_pids(proc.pid, name)
        workers[:] = [pid for pid in pids if reads(pid, name)]
        return bool(workers)

    wait_for(running, proc)
    return pids, workers[0]


def test_ctrl_c_stops_the_run_kills_the_sandbox_and_leaves_nothing(
    real: Callable[[str], str], tmp_path: Path, scratch: Path
) -> None:
    book = real(BOOK)
    out = tmp_path / "out"
    proc = start(["Convert it to Word", book, "--out", str(out)], tmp_path, scratch)
    running, worker = program_worker(proc, BOOK)  # the program runs (minutes for this book)
    workdir = Path(os.readlink(f"/proc/{worker}/cwd")).parent  # the run's folder with the copied inputs
    assert workdir.name.startswith("docpilot-run-")
    proc.send_signal(signal.SIGINT)
    code, result, err = finish(proc)
    assert code == 130, err
    assert result["ok"] is False and "cancelled" in result["error"]
    assert "Traceback" not in err
    assert [pid for pid in running if alive(pid)] == [], "the sandbox and the program it ran are killed"
    assert not out.exists() or not any(out.iterdir()), "nothing is left in --out"
    assert workdir.parent == scratch and not workdir.exists(), "the copies of the inputs are removed"


def session_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[3])
    except (OSError, ValueError, IndexError):
        return None


def in_sessions(sessions: set[int]) -> list[int]:
    """The live processes in any of ``sessions`` (a worker leads its own: what it started is in it)."""
    pids = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]
    return [pid for pid in pids if session_of(pid) in sessions and alive(pid)]


def test_sigkill_mid_program_takes_the_sandbox_along_and_the_next_start_removes_its_folder(
    real: Callable[[str], str], tmp_path: Path, scratch: Path
) -> None:
    book = real(BOOK)
    proc = start(["Convert it to Word", book, "--out", str(tmp_path / "out")], tmp_path, scratch)
    try:
        running, worker = program_worker(proc, BOOK)  # the program runs (minutes for this book)
        workdir = Path(os.readlink(f"/proc/{worker}/cwd")).parent  # the run's folder with the copied inputs
        assert workdir.parent == scratch and workdir.name.startswith("docpilot-run-")
        assert sweep_run_folders(str(scratch)) == [] and workdir.exists(), "a live run holds its folder"
        run = set(running) | set(in_sessions(set(running)))
    finally:
        proc.send_signal(signal.SIGKILL)  # also when the test fails before: no run is left behind
        proc.wait()

    deadline = time.monotonic() + 30  # the kernel kills them at once; the program alone would run 2 minutes
    while [pid for pid in run if alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in run if alive(pid)] == [], "the sandbox and the program die with the killed run"
    assert in_sessions(set(running)) == [], "nothing the sandbox or the program started is left"
    assert workdir.exists(), "the killed run could not remove its copies of the inputs itself"

    live, lock = hold_run_folder(str(scratch))  # a live run's folder (this process holds its lock)
    Path(live, "input.pdf").write_bytes(b"a live run's copy")
    try:
        small = real("pypdfsamples__multicolumn.pdf")
        out = tmp_path / "next"
        code, result, err = finish(start(["Rotate page 1 by 90 degrees", small, "--out", str(out)], tmp_path, scratch))
        assert code == 0 and result["ok"], err
        assert not workdir.exists(), "the next sandbox start removes the killed run's copies of the inputs"
        assert [p.name for p in scratch.iterdir()] == [Path(live).name], "a live run's folder is kept"
        assert Path(live, "input.pdf").read_bytes() == b"a live run's copy"
    finally:
        shutil.rmtree(live, ignore_errors=True)
        release(lock)


def test_ctrl_c_whose_exception_python_drops_still_cancels_the_run(
    real: Callable[[str], str], tmp_path: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """Python drops a KeyboardInterrupt raised inside a finalizer or callback ("Exception ignored in …"), and
    a machine under load makes that moment likelier. Here the wait for the sandbox's reply drops it on
    purpose: Ctrl-C must still kill the sandbox at once and end the run cancelled, exit 130, nothing in --out."""
    from docpilot.cli import main
    from sandbox.runner import Sandbox

    book = real(BOOK)
    out = tmp_path / "out"
    monkeypatch.setenv("DOCPILOT_BACKEND", "rules")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    read_line = Sandbox._read_line
    dropped: list[bool] = []

    def dropping(self: Sandbox, deadline: float) -> bytes | None:
        while True:
            try:
                return read_line(self, deadline)
            except KeyboardInterrupt:  # dropped, as Python drops one raised in a finalizer
                dropped.append(True)

    monkeypatch.setattr(Sandbox, "_read_line", dropping)
    me = os.getpid()
    seen: list[list[int]] = []

    def interrupt() -> None:
        while not (pids := program_pids(me, BOOK)):
            time.sleep(0.05)
        seen.append(pids)
        os.kill(me, signal.SIGINT)  # the handler runs on the main thread, inside the wait for the reply

    threading.Thread(target=interrupt, daemon=True).start()
    code = main(["run", "Convert it to Word", book, "--out", str(out), "--yes", "--json"])
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert dropped, "the KeyboardInterrupt was raised where this test drops it"
    assert code == 130 and result["ok"] is False and "cancelled" in result["error"]
    assert [pid for pid in seen[0] if alive(pid)] == []
    assert not out.exists() or not any(out.iterdir()), "nothing is left in --out"
    assert list(scratch.iterdir()) == [], "the copies of the inputs are removed"
