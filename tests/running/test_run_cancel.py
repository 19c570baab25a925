"""A running program can be cancelled (issue L item 6): RunStop kills the sandbox and the worker running the
program at once, nothing is delivered, and the executor runs the next program as usual."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pymupdf

from docpilot.files import inspect_files
from docpilot.running.executor import CANCELLED, Executor, RunOutcome, RunStop
from tests.processes import alive, program_pids


def test_cancel_kills_the_sandbox_delivers_nothing_and_the_next_run_works(
    real: Callable[[str], str], tmp_path: Path
) -> None:
    book = real("pdfjs__freeculture.pdf")
    files = inspect_files([book])
    executor = Executor(records=tmp_path / "runs")
    stop = RunStop()
    out = tmp_path / "out"
    done: list[RunOutcome] = []
    code = 'v_doc = tools.run(1, "convert_to_docx", file=FILES["pdfjs__freeculture.pdf"])\n'
    worker = threading.Thread(target=lambda: done.append(executor.run_program("to Word", code, files, out, stop=stop)))
    worker.start()
    running: list[int] = []
    while not running and worker.is_alive():  # until a sandbox worker runs the program (has the book open)
        running = program_pids(os.getpid(), "pdfjs__freeculture.pdf")
    assert running, "the program was running when the test cancelled it"
    stop.cancel()
    worker.join()
    [outcome] = done
    assert outcome.cancelled and not outcome.ok and outcome.error == CANCELLED
    assert [pid for pid in running if alive(pid)] == [], "the sandbox and its worker are killed"
    assert not out.exists() or not any(out.iterdir()), "nothing is delivered"

    small = real("pypdfsamples__multicolumn.pdf")
    code = 'v_r = tools.run(1, "rotate_pages", file=FILES["pypdfsamples__multicolumn.pdf"], pages="1", degrees=90)\n'
    again = executor.run_program("rotate", code, inspect_files([small]), out, stop=RunStop())
    assert again.ok and not again.cancelled, again.error
    with pymupdf.open(again.outputs[0]) as doc:
        assert doc[0].rotation == 90
