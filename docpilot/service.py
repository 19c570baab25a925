"""The one facade the faces (CLI, app) call: plan, revise, edit, run, ask — and the tool catalogue.

A request travels request → plan → verified plan → approval → program → sandbox → deliverables. The
stages live in their own packages (``planning``, ``plans``, ``running``, ``llm``); the faces see only
this module, :mod:`docpilot.conversation`, :mod:`docpilot.files`, :mod:`docpilot.settings` and
:mod:`docpilot.errors` (an import-linter contract checks it). Heavy stages are imported when first
used, so ``docpilot call`` and ``docpilot tools`` stay quick.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docpilot.errors import DocPilotError
from docpilot.files import FileInfo
from docpilot.settings import Settings

if TYPE_CHECKING:
    from docpilot.llm.stopping import Stop
    from docpilot.planning.followup import FollowUp
    from docpilot.planning.outcome import PlanOutcome
    from docpilot.planning.planner import Planner
    from docpilot.plans.verify import Problem
    from docpilot.running.executor import Executor, RunOutcome, RunStop

__all__ = [
    "DocPilot",
    "MASK",
    "Edit",
    "PlanOutcome",
    "RunOutcome",
    "RunStop",
    "Stop",
    "call_tool",
    "catalogue",
    "clear_document_cache",
    "exact_plan",
    "follow_up",
    "make_pilot",
    "mask_text",
    "secret_values",
    "warm_sandbox",
]


def __getattr__(name: str) -> Any:
    """``PlanOutcome``, ``RunOutcome``, ``Stop`` (a request's cancel switch) and ``RunStop`` (a run's) for the
    faces, imported when asked for."""
    if name == "PlanOutcome":
        from docpilot.planning.outcome import PlanOutcome

        return PlanOutcome
    if name == "RunOutcome":
        from docpilot.running.executor import RunOutcome

        return RunOutcome
    if name == "RunStop":
        from docpilot.running.executor import RunStop

        return RunStop
    if name == "Stop":
        from docpilot.llm.stopping import Stop

        return Stop
    raise AttributeError(name)


MASK = "***"  # what a secret shows as; the same string as pdftools.masking.MASK (checked by a test)


def follow_up(
    text: str,
    previous: str | None,
    files: dict[str, FileInfo],
    results: dict[str, FileInfo] | None,
    previous_files: list[str] | None = None,
) -> FollowUp | None:
    """A follow-up ("the same for the invoice", "also lock it") read against the previous request, or None."""
    from docpilot.planning.followup import follow_up as read

    return read(text, previous, files, results, previous_files)


@dataclass
class Edit:
    """A person's edits to a pending plan: the re-verified outcome, or the problems that stop it."""

    outcome: PlanOutcome
    changes: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class _StopRevising(Exception):
    """A revised program failed its static checks: the failed run is the result."""

    def __init__(self, run: RunOutcome) -> None:
        super().__init__(run.error)
        self.run = run


class DocPilot:
    """Planning plus execution; an LLM-written program that fails at run time is revised (bounded)."""

    def __init__(self, planner: Planner, executor: Executor | None = None, max_revisions: int = 3) -> None:
        from docpilot.running.executor import Executor
        from docpilot.understanding.host import Host

        self.planner = planner
        self.executor = executor or Executor(host=Host(planner.llm))
        self.max_revisions = max_revisions

    def plan(self, request: str, files: dict[str, FileInfo], stop: Stop | None = None) -> PlanOutcome:
        """A verified plan (or program) with its explanation, or an outcome whose ``error`` says why not.

        ``stop`` cancels the model's part of the planning and limits its time (60 s when not given).
        """
        return self.planner.plan(request, files, stop)

    def revise(
        self, outcome: PlanOutcome, critique: str, files: dict[str, FileInfo], stop: Stop | None = None
    ) -> PlanOutcome:
        """The pending plan changed by a person's critique ("also compress it", "not page 5, page 6")."""
        return self.planner.revise(outcome, critique, files, stop)

    def remote_server(self) -> str | None:
        """The address document text goes to when questions are answered by a remote server (None: local)."""
        llm = self.planner.llm
        if llm is None or getattr(llm, "name", "") != "openai":
            return None
        config = getattr(llm, "config", None)
        return str(getattr(config, "where", None) or "a remote server")

    def warm(self) -> list[str]:
        """Prepare the model and the example index now (at install or server start); what was done."""
        done = self.planner.warm()
        prime = getattr(self.planner.llm, "prime", None)
        if callable(prime):  # the table-program job's static prefix, read once here, not on a first question
            from docpilot.understanding.programs import program_job

            started = time.perf_counter()
            event = prime(program_job().system)
            done.append(f"table-program prefix {event or 'not cached'} in {time.perf_counter() - started:.0f} s")
        return done

    def rows(self, outcome: PlanOutcome | None) -> list[list[str]]:
        """The plan as editor rows ``[step, tool, parameter, value]`` (secrets masked)."""
        from docpilot.plans.edit import plan_rows

        plan = outcome.plan if outcome is not None else None
        return plan_rows(plan, self.planner.tools)

    def edit(self, outcome: PlanOutcome, rows: Sequence[Sequence[Any]] | None, files: dict[str, FileInfo]) -> Edit:
        """Apply edited editor rows to the pending plan; re-verify and re-explain it."""
        from docpilot.plans.edit import rows_to_plan
        from docpilot.plans.explain import explain_plan
        from docpilot.plans.verify import verify_plan

        if outcome.plan is None or not rows:
            return Edit(outcome)
        plan, changes = rows_to_plan(outcome.plan, rows, self.planner.tools)
        if not changes:
            return Edit(outcome)
        verdict = verify_plan(plan, self.planner.tools, files)
        if not verdict.ok or verdict.plan is None:
            return Edit(outcome, changes, verdict.problems)
        outcome.set_plan(verdict.plan, verdict.order, explain_plan(verdict.plan, self.planner.tools, verdict.order))
        return Edit(outcome, changes)

    def run(
        self, outcome: PlanOutcome, files: dict[str, FileInfo], out_dir: str | Path, stop: RunStop | None = None
    ) -> RunOutcome:
        """Run an approved outcome in the sandbox and deliver its results to ``out_dir``.

        ``stop`` (a :class:`RunStop`) cancels it: the sandbox is killed, nothing is delivered and the
        outcome says ``cancelled``.
        """
        from docpilot.planning.outcome import StepPlan, WrittenProgram

        work = outcome.work
        if isinstance(work, StepPlan):
            return self.executor.run_plan(outcome.request, work.plan, work.order, files, out_dir, stop)
        if not isinstance(work, WrittenProgram):
            raise DocPilotError(outcome.error or "There is no approved plan to run.")
        return self._run_program(outcome, work, files, out_dir, stop)

    def _run_program(
        self,
        outcome: PlanOutcome,
        work: Any,
        files: dict[str, FileInfo],
        out_dir: str | Path,
        stop: RunStop | None = None,
    ) -> RunOutcome:
        """Run a written program; one that fails is revised with its error log and run again (bounded)."""
        from docpilot.errors import RepairFailed
        from docpilot.planning.repair import repair

        writer = self.planner.code_writer(outcome.stats)
        extra: dict[str, Any] = {"program_revisions": []}
        draft = work.draft

        def run(code: str) -> RunOutcome:
            result = self.executor.run_program(
                outcome.request, code, files, out_dir, extra_record=extra, secrets=outcome.secrets, stop=stop
            )
            if result.cancelled:  # never revised: the person stopped it
                raise _StopRevising(result)
            return result

        def revise(failed: RunOutcome, problems: Sequence[Any]) -> RunOutcome:
            nonlocal draft
            extra["program_revisions"].append({"code": draft.code, "error": failed.error})
            try:
                draft = writer.revise(draft, failed.error or "the program failed", outcome.stats)
            except RepairFailed as exc:
                failed.error = f"{failed.error}; the revised program did not pass the checks: {exc.problems[0]}"
                raise _StopRevising(failed) from None
            outcome.set_program(draft, outcome.explanation)
            return run(draft.code)

        try:
            return repair(
                lambda: run(draft.code),
                lambda r: [] if r.ok else [r.error or "the program failed"],
                revise,
                max_fixes=self.max_revisions,
                what="The program",
            ).result
        except RepairFailed as exc:
            last: RunOutcome = exc.attempts[-1].result
            return last
        except _StopRevising as stopped:
            return stopped.run

    @staticmethod
    def _fact_steps(question: str, files: dict[str, FileInfo]) -> list[tuple[str, str]]:
        """The fast path's reading of a question about the files themselves ("does it have bookmarks?"): each
        step's (tool, file); empty when it reads the question otherwise, or not at all."""
        from docpilot.planning.fastpath import NeedInfo, fast_plan

        try:
            plan = fast_plan(question, files)
        except NeedInfo:
            return []
        return [(s.task, str(s.args.get("file"))) for s in plan.steps] if plan is not None else []

    def ask(
        self,
        question: str,
        files: dict[str, FileInfo],
        feedback: str | None = None,
        password: str | None = None,
        cache: Path | None = None,
        stop: Stop | None = None,
        on_draft: Callable[[str], None] | None = None,
    ) -> dict[str, Any]:
        """Answer a question about the files: ``{answer, citations: [{file, page, quote}], workflow?, stats}``.

        ``feedback``: a person's correction of the shown workflow ("use the total purchase sale instead");
        ``cache``: where the documents' structure is kept (default: the user's cache folder);
        ``stop``: Cancel and the model-time limit (raises :class:`Stopped`); ``on_draft``: told the answer
        as the model writes it, before it is checked (to show it streaming).
        """
        from docpilot.settings import cache_dir
        from docpilot.understanding.answer import ask_files

        readable = {name: info.path for name, info in files.items() if info.kind == "pdf" and not info.problem}
        unreadable = [f"{name}: {info.problem}" for name, info in files.items() if info.problem]
        if not readable:
            raise DocPilotError(
                "There is no readable PDF to answer from" + (f" ({'; '.join(unreadable)})" if unreadable else "") + "."
            )
        from docpilot.understanding.filefacts import compare_files, file_facts

        # "which file is the longest?", "how many pages does it have?", "is it encrypted?": the tools answer
        told = compare_files(question, readable, password) or file_facts(
            question, self._fact_steps(question, files), readable, password
        )
        if told is not None:
            return told
        encrypted = [name for name, info in files.items() if info.encrypted]
        if encrypted and not password:
            raise DocPilotError(f"{', '.join(encrypted)} needs a password to be read: pass --password.")
        from docpilot.llm.base import metered

        llm = self.planner.llm
        if llm is not None and stop is not None:
            llm = metered(llm, stop=stop)
        answer = ask_files(
            question,
            readable,
            llm,
            cache if cache is not None else cache_dir() / "structure",
            password,
            feedback,
            on_draft,
        )
        return answer.to_dict()


def make_pilot(settings: Settings, sandbox: Any = None) -> DocPilot:
    """The service for ``settings`` (backend choice and environment); ``sandbox``: a warm one to reuse."""
    from docpilot.planning.planner import make_planner
    from docpilot.running.executor import Executor
    from docpilot.understanding.host import Host

    planner = make_planner(settings.backend, settings.env)
    return DocPilot(planner, Executor(sandbox=sandbox, host=Host(planner.llm)))


@contextlib.contextmanager
def warm_sandbox() -> Iterator[Any]:
    """A lean sandbox started now, so its imports overlap planning (``docpilot run`` uses one per run)."""
    from sandbox.runner import Sandbox

    with Sandbox(lean=True) as box:
        box.begin()
        yield box


def clear_document_cache(cache: Path) -> int:
    """Remove the cached structure of every document read (``docpilot cache clear``); how many were there."""
    from docpilot.understanding.cache import StructureCache

    return StructureCache(cache / "structure").clear()


def call_tool(name: str, args: Any, files: list[str], out_dir: str) -> dict[str, Any]:
    """Run one tool directly (``docpilot call``); its files go to ``out_dir``."""
    from docpilot.running.direct import call_tool_on_files
    from docpilot.understanding.host import Host

    return call_tool_on_files(name, args, files, out_dir, host=Host())


def catalogue() -> list[dict[str, Any]]:
    """Every tool with its category, summary and argument schema (``docpilot tools``)."""
    from pdftools import all_tools

    return [{**t.catalogue_entry(), "summary": t.summary} for t in all_tools().values()]


def exact_plan(outcome: PlanOutcome) -> str:
    """The plan as JSON (or the program) for the "exact plan" views, secrets masked."""
    import json

    data = outcome.to_json()["plan"]
    if outcome.plan is not None and data is not None:
        return mask_text(json.dumps(data, ensure_ascii=False, indent=1), outcome)
    return mask_text(outcome.program or "", outcome)


def secret_values(outcome: PlanOutcome | None) -> list[str]:
    """The secret values (passwords) set in a plan's arguments, as its tools declare them."""
    from pdftools.masking import secret_values as values

    if outcome is None or outcome.plan is None:
        return []
    return values(step.dump() for step in outcome.plan.steps)


def mask_text(text: str, outcome: PlanOutcome | None = None) -> str:
    """``text`` as a face may show or log it: the plan's secrets and any "password X" masked."""
    from pdftools.masking import mask_text as mask

    return mask(text, outcome.plan if outcome is not None else None)
