"""A sandbox process or worker never outlives the process that forked it, even one that died before the
child could ask the kernel to be told (the race ``die_with_parent`` closes with its getppid check); and
the tie is to the process, not to the thread that happened to start the sandbox.

The whole path (SIGKILL a real ``docpilot run`` mid-program) is in tests/running/test_run_faults.py.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from sandbox import Sandbox

ROOT = str(Path(__file__).resolve().parents[2])

# The parent forks a child and exits; the child waits until the parent is gone (end of file on a pipe only
# the parent could write), then ties itself to it. Only a child that went on would print.
LATE_TIE = """
import os, sys, time
sys.path.insert(0, ROOT)
from sandbox.guards import die_with_parent

parent = os.getpid()
r, w = os.pipe()
if os.fork() == 0:
    os.close(w)
    os.read(r, 1)  # end of file: the parent has ended
    die_with_parent(parent)
    # the kernel kills it when the parent's exit re-parents it, which may come just after this line on a busy
    # machine (the parent's files close before its children are handed on): only a child that went on wakes
    time.sleep(5)
    print("outlived its parent", flush=True)
    os._exit(0)
os._exit(0)
"""


def test_a_child_whose_parent_died_before_it_was_tied_to_it_exits_at_once() -> None:
    proc = subprocess.run(
        [sys.executable, "-I", "-c", LATE_TIE.replace("ROOT", repr(ROOT))],
        capture_output=True,
        text=True,
        timeout=60,  # a bound for a hang, not a timing: stdout closes when the child ends
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "", "the child went on although its parent had ended"
    assert proc.stderr == ""


def test_a_sandbox_started_on_a_thread_that_has_ended_keeps_serving() -> None:
    """The kernel's "parent" is the thread that forked; a server's worker thread may end while the sandbox
    it started is still in use, and that must not kill the sandbox."""
    with Sandbox(lean=True) as box:
        native: list[int] = []

        def begin() -> None:
            native.append(threading.get_native_id())
            box.start()

        thread = threading.Thread(target=begin)
        thread.start()
        thread.join()
        first = box.pid
        deadline = time.monotonic() + 30  # a bound: until the thread is gone from the kernel too
        while Path(f"/proc/self/task/{native[0]}").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not Path(f"/proc/self/task/{native[0]}").exists()
        with box.run("print('still here')", {}) as result:
            assert result.ok and result.printed.strip() == "still here", result.error
        assert first is not None and box.pid == first, "the same sandbox process served the run"
