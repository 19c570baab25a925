"""The planning service: a request and files in, a verified plan and its explanation out.

Fast path first (zero LLM calls, backend "rules"); what it does not fully understand
goes to the LLM planner (backend "local" or "openai"). A fast-path plan the verifier
rejects is the user's error (e.g. a page past the end) and is refused, not "corrected".
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from pdftools import Tool, all_tools

from .codegen import CodeWriter
from .errors import DocPilotError
from .explain import explain_plan
from .explain_program import explain_program
from .fastpath import LOGIC, NeedInfo, fast_plan
from .files import FileInfo
from .llm_planner import LLMPlanner, Retriever
from .plan import Plan
from .stats import Stats
from .verify import Problem, verify_plan

__all__ = ["Planner", "PlanOutcome"]


@dataclass
class PlanOutcome:
    """A planning result: a verified plan with its explanation, or a clear error."""

    request: str
    backend: str
    plan: Plan | None = None
    order: list[int] = field(default_factory=list)
    explanation: str = ""
    error: str | None = None
    problems: list[Problem] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    draft: Any = None  # a codegen Draft when the request needs an LLM-written program

    @property
    def ok(self) -> bool:
        return (self.plan is not None or self.draft is not None) and self.error is None

    @property
    def program(self) -> str | None:
        return self.draft.code if self.draft is not None else None

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "request": self.request,
            "backend": self.backend,
            "plan": self.plan.dump() if self.plan else ({"steps": [], "program": self.program} if self.draft else None),
            "explanation": self.explanation,
            "stats": self.stats.to_json(),
            "error": self.error,
        }


def _file_problems(files: dict[str, FileInfo]) -> str | None:
    if not files:
        return "No files were given. Upload or name at least one PDF."
    for info in files.values():
        if info.problem:
            return info.problem
    return None


class Planner:
    """Fast path, then LLM with retrieval and self-correction; explanation from templates."""

    def __init__(self, llm: Any | None = None, retriever: Retriever | None = None,
                 tools: dict[str, Tool] | None = None, max_corrections: int = 3) -> None:
        self.llm = llm
        self.tools = tools or all_tools()
        self.retriever = retriever
        self.max_corrections = max_corrections

    @property
    def llm_name(self) -> str:
        return getattr(self.llm, "name", "rules") if self.llm is not None else "rules"

    def plan(self, request: str, files: dict[str, FileInfo]) -> PlanOutcome:
        started = time.perf_counter()
        outcome = self._plan(request, files)
        outcome.stats.seconds = time.perf_counter() - started
        return outcome

    def _plan(self, request: str, files: dict[str, FileInfo]) -> PlanOutcome:
        problem = _file_problems(files)
        if problem:
            return PlanOutcome(request, "rules", error=problem)
        try:
            plan = fast_plan(request, files)
        except NeedInfo as exc:
            return PlanOutcome(request, "rules", error=str(exc))
        if plan is not None:
            verdict = verify_plan(plan, self.tools, files)
            if not verdict.ok:
                return PlanOutcome(request, "rules", plan=None, problems=verdict.problems,
                                   error=_user_error(verdict.problems))
            return self._done(PlanOutcome(request, "rules", plan=plan, order=verdict.order))
        return self._with_llm(request, files, None)

    def revise(self, previous: PlanOutcome, critique: str, files: dict[str, FileInfo]) -> PlanOutcome:
        """Apply a user's critique ("not page 5, page 6"; "also compress it") through the same loop."""
        started = time.perf_counter()
        combined = f"{previous.request}. {critique}"
        outcome: PlanOutcome | None = None
        try:
            plan = fast_plan(combined, files)
        except NeedInfo as exc:
            outcome = PlanOutcome(previous.request, "rules", error=str(exc))
            plan = None
        if plan is not None:
            verdict = verify_plan(plan, self.tools, files)
            if verdict.ok and previous.plan is not None and plan.dump() != previous.plan.dump():
                outcome = self._done(PlanOutcome(combined, "rules", plan=plan, order=verdict.order))
        if outcome is None or not outcome.ok:
            if previous.plan is not None and self.llm is not None:
                outcome = self._with_llm(previous.request, files, (previous.plan, critique))
            elif outcome is None:
                outcome = PlanOutcome(previous.request, "rules", error=(
                    "I could not apply that change without a language model. Rephrase the whole request "
                    "with the change included."))
        outcome.stats.seconds = time.perf_counter() - started
        return outcome

    def _with_llm(self, request: str, files: dict[str, FileInfo], critique: tuple[Plan, str] | None) -> PlanOutcome:
        if self.llm is None:
            return PlanOutcome(request, "rules", error=(
                "I could not turn this request into tool steps on my own, and no language model is configured. "
                "Rephrase it with explicit actions (e.g. \"redact 'ACME' on pages 1-3\"), or set up the local "
                "model (make install) or an OpenAI-compatible server (OPENAI_BASE_URL)."))
        outcome = PlanOutcome(request, self.llm_name)
        _load_in_background(self.llm)  # the model loads while the few-shot index is built
        if critique is None and LOGIC.search(request):
            return self._with_program(request, files, outcome)
        attempt = LLMPlanner(self.llm, self.tools, self.retriever, self.max_corrections).plan(
            request, files, outcome.stats, critique)
        if attempt.cannot:
            outcome.error = f"This cannot be done with the available PDF tools: {attempt.cannot}"
            return outcome
        if not attempt.verdict.ok:
            outcome.problems = attempt.verdict.problems
            outcome.error = ("I could not make a valid plan for this request after "
                             f"{outcome.stats.plan_corrections} correction(s): " + _user_error(attempt.verdict.problems))
            return outcome
        outcome.plan, outcome.order = attempt.verdict.plan, attempt.verdict.order
        return self._done(outcome)

    def code_writer(self) -> CodeWriter:
        return CodeWriter(self.llm, self.tools, self.retriever)

    def _with_program(self, request: str, files: dict[str, FileInfo], outcome: PlanOutcome) -> PlanOutcome:
        draft = self.code_writer().write(request, files, outcome.stats)
        if not draft.ok:
            outcome.error = ("I could not write a safe program for this request after "
                             f"{outcome.stats.code_revisions} revision(s): {draft.problems}")
            return outcome
        outcome.draft = draft
        outcome.explanation = explain_program(draft.code, self.tools)
        return outcome

    def _done(self, outcome: PlanOutcome) -> PlanOutcome:
        assert outcome.plan is not None
        outcome.explanation = explain_plan(outcome.plan, self.tools, outcome.order)
        return outcome


def _load_in_background(llm: Any) -> None:
    """Start loading a local model on another thread (its calls wait for it); no-op for servers."""
    load = getattr(llm, "load", None)
    if not callable(load):
        return

    def run() -> None:
        try:
            load()
        except DocPilotError:
            pass  # the first call reports it

    threading.Thread(target=run, name="docpilot-model-load", daemon=True).start()


def _user_error(problems: list[Problem]) -> str:
    first = problems[0]
    text = first.message
    if len(problems) > 1:
        text += f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''})"
    return text
