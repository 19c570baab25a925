"""The one service the faces (CLI, app) call: plan, revise, execute."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .execute import Executor, RunOutcome
from .files import FileInfo
from .planner import PlanOutcome, Planner

__all__ = ["DocPilot"]


class DocPilot:
    """Planning plus execution; an LLM-written program that fails at run time is revised (bounded)."""

    def __init__(self, planner: Planner, executor: Executor | None = None, max_revisions: int = 3) -> None:
        self.planner = planner
        self.executor = executor or Executor()
        self.max_revisions = max_revisions

    def plan(self, request: str, files: dict[str, FileInfo]) -> PlanOutcome:
        return self.planner.plan(request, files)

    def revise(self, outcome: PlanOutcome, critique: str, files: dict[str, FileInfo]) -> PlanOutcome:
        return self.planner.revise(outcome, critique, files)

    def execute(self, outcome: PlanOutcome, files: dict[str, FileInfo], out_dir: str | Path) -> RunOutcome:
        if outcome.plan is not None:
            return self.executor.run_plan(outcome.request, outcome.plan, outcome.order, files, out_dir)
        draft: Any = outcome.draft
        writer = self.planner.code_writer()
        extra = {"program_revisions": []}
        for attempt in range(self.max_revisions + 1):
            run = self.executor.run_program(outcome.request, draft.code, files, out_dir, extra_record=extra)
            if run.ok or attempt == self.max_revisions:
                return run
            extra["program_revisions"].append({"code": draft.code, "error": run.error})
            draft = writer.revise(draft, run.error or "the program failed", outcome.stats)
            if not draft.ok:
                run.error = f"{run.error}; the revised program did not pass the checks: {draft.problems}"
                return run
            outcome.draft = draft
        return run
