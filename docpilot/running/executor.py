"""Execution: an approved plan (or an LLM-written program) runs in the sandbox; results are delivered.

The run's record (request, plan, program, timings, what each step changed; passwords
masked) is kept under ``$XDG_CACHE_HOME/docpilot/runs/``, never in the output folder.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docpilot.files import FileInfo
from docpilot.plans.plan import Plan
from docpilot.running.compile import compile_plan
from docpilot.running.deliverables import choose_deliverables, deliver
from docpilot.running.messages import run_message
from docpilot.settings import cache_dir
from pdftools.masking import mask_steps, mask_text, restore_passwords

__all__ = ["CANCELLED", "Executor", "RunOutcome", "RunStop"]

CANCELLED = "Stopped: you cancelled the run. Nothing was delivered."


@dataclass
class RunOutcome:
    ok: bool
    outputs: list[str] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)
    message: str = ""
    error: str | None = None
    record: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    program: str = ""
    seconds: float = 0.0
    cancelled: bool = False  # stopped by the person (:class:`RunStop`); nothing was delivered


class RunStop:
    """A run's cancel switch (thread-safe): :meth:`cancel` kills the sandbox running it at once.

    The run then ends with ``cancelled`` set and nothing delivered; a run cancelled before its sandbox
    starts never starts, and one cancelled while its files are delivered takes them back.
    """

    def __init__(self) -> None:
        self._lock = threading.RLock()  # a signal handler may cancel while the same thread attaches
        self._cancelled = False
        self._boxes: list[Any] = []

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            boxes = list(self._boxes)
        for box in boxes:
            box.kill()

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def attach(self, box: Any) -> None:
        """Kill ``box`` (a started :class:`sandbox.runner.Sandbox`) on cancel; at once if already cancelled."""
        with self._lock:
            self._boxes.append(box)
            cancelled = self._cancelled
        if cancelled:
            box.kill()

    def holds(self, box: Any) -> bool:
        """Whether ``box`` is attached: a sandbox of this run's own, killed when it is cancelled."""
        with self._lock:
            return box is not None and box in self._boxes

    def detach(self, box: Any) -> None:
        with self._lock:
            if box in self._boxes:
                self._boxes.remove(box)


class Executor:
    """Runs programs in the sandbox (a warm one when given) and delivers their outputs."""

    def __init__(self, limits: Any = None, sandbox: Any = None, records: Path | None = None, host: Any = None) -> None:
        self.limits, self.sandbox = limits, sandbox
        self.records = records or cache_dir() / "runs"
        self.host = host  # answers the model work tools ask for (entities, summaries), outside the sandbox

    def run_plan(
        self,
        request: str,
        plan: Plan,
        order: list[int],
        files: dict[str, FileInfo],
        out_dir: str | Path,
        stop: RunStop | None = None,
    ) -> RunOutcome:
        code = compile_plan(plan, order, set(files))
        return self.run_program(request, code, files, out_dir, plan=plan, stop=stop)

    def run_program(
        self,
        request: str,
        code: str,
        files: dict[str, FileInfo],
        out_dir: str | Path,
        plan: Plan | None = None,
        extra_record: dict[str, Any] | None = None,
        secrets: dict[str, str] | None = None,
        stop: RunStop | None = None,
    ) -> RunOutcome:
        """Run ``code`` in the sandbox; ``secrets`` (placeholder -> password) are put into it only for the run,
        so the program kept, shown and recorded holds the placeholders. ``stop`` cancels the run."""
        started = time.perf_counter()
        result = self._sandboxed(restore_passwords(code, secrets or {}), files, stop)
        if result is None or (stop is not None and stop.cancelled):
            outcome = RunOutcome(False, error=CANCELLED, steps=result.steps if result else [], cancelled=True)
            if result is not None:
                result.cleanup()
        else:
            try:
                outcome = self._finish(result, files, out_dir, stop)
            finally:
                result.cleanup()
        outcome.program = code
        outcome.seconds = time.perf_counter() - started
        outcome.record = self._record(request, plan, code, outcome, result, extra_record)
        return outcome

    def _sandboxed(self, code: str, files: dict[str, FileInfo], stop: RunStop | None) -> Any:
        """The sandbox's result for ``code``; None when ``stop`` was cancelled before its sandbox was ready.

        With ``stop``, the run has a sandbox of its own (never a warm one another run may be using):
        the warm one when ``stop`` already holds it, else a new one attached to ``stop`` from the moment
        its process exists, so a cancel kills this run's sandbox and nothing else, whatever stage the run is at.
        """
        from sandbox.runner import Sandbox, SandboxStartError, run_program

        paths = {name: info.path for name, info in files.items()}
        if stop is None or stop.holds(self.sandbox):  # the warm sandbox, or this run's own (``docpilot run``'s)
            if stop is not None and stop.cancelled:
                return None
            return run_program(code, paths, limits=self.limits, sandbox=self.sandbox, host=self.host)
        box = Sandbox(lean=True)
        try:
            box.begin()
            stop.attach(box)
            return run_program(code, paths, limits=self.limits, sandbox=box, host=self.host)
        except SandboxStartError:
            if not stop.cancelled:
                raise
            return None
        finally:
            stop.detach(box)
            box.close()

    def _finish(
        self, result: Any, files: dict[str, FileInfo], out_dir: str | Path, stop: RunStop | None = None
    ) -> RunOutcome:
        if not result.ok:
            error = result.error or {}
            step = error.get("step")
            where = f"Step {step} ({error.get('task')}) failed: " if step else ""
            return RunOutcome(
                False, error=where + str(error.get("message") or "the program failed"), steps=result.steps
            )
        chosen = choose_deliverables(result.steps, result.outputs, files)
        delivered = deliver(chosen, out_dir) if chosen else []
        if stop is not None and stop.cancelled:  # cancelled while the files were delivered: take them back
            for path in delivered:
                Path(path).unlink(missing_ok=True)
            return RunOutcome(False, error=CANCELLED, steps=result.steps, cancelled=True)
        if not delivered and not result.answers:
            return RunOutcome(False, error="The plan ran but produced nothing to deliver.", steps=result.steps)
        return RunOutcome(
            True,
            delivered,
            result.answers,
            run_message(delivered, result.answers, len(result.steps)),
            steps=result.steps,
        )

    def _record(
        self, request: str, plan: Plan | None, code: str, outcome: RunOutcome, result: Any, extra: dict[str, Any] | None
    ) -> str | None:
        stamp = dt.datetime.now().strftime("%Y-%m-%dT%H-%M-%S")
        folder = self.records / f"{stamp}-{secrets.token_hex(2)}"
        record = {
            "request": mask_text(request, plan),
            "plan": {"steps": mask_steps(plan.dump()["steps"])} if plan is not None else None,
            "program": mask_text(code, plan),
            "ok": outcome.ok,
            "error": mask_text(outcome.error or "", plan) or None,
            "outputs": outcome.outputs,
            "answers": outcome.answers,
            "steps": outcome.steps,
            "seconds": round(outcome.seconds, 3),
            "sandbox": {"stats": getattr(result, "stats", {}), "layers": getattr(result, "layers", {})},
            **(extra or {}),
        }
        try:
            folder.mkdir(parents=True, exist_ok=True)
            folder.chmod(0o700)
            text = json.dumps(record, ensure_ascii=False, indent=1, default=str)
            (folder / "record.json").write_text(mask_text(text, plan))
            (folder / "program.py").write_text(record["program"])
        except OSError:
            return None
        return str(folder) + "/"
