"""What planning hands to approval: a verified plan, or an LLM-written program, or a clear error.

The two kinds of work are explicit types (:class:`StepPlan`, :class:`WrittenProgram`) rather than
optional fields that must be checked in the right order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docpilot.planning.stats import Stats
from docpilot.plans.plan import Plan
from docpilot.plans.verify import Problem
from pdftools.masking import mask_steps, mask_text

if TYPE_CHECKING:
    from docpilot.planning.codegen import Draft

__all__ = ["PlanOutcome", "Question", "StepPlan", "WrittenProgram"]


@dataclass(frozen=True)
class Question:
    """A clarifying question for the person (which file? which password?), with answers to offer."""

    text: str
    choices: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "choices": list(self.choices)}


@dataclass
class StepPlan:
    """A verified plan of tool calls and the order its steps run in."""

    plan: Plan
    order: list[int]


@dataclass
class WrittenProgram:
    """A program the model wrote for a request with logic (conditions, loops), past the static checks."""

    draft: Draft

    @property
    def code(self) -> str:
        return self.draft.code


@dataclass
class PlanOutcome:
    """A planning result: the work to approve with its explanation, or an error saying why there is none."""

    request: str
    backend: str
    work: StepPlan | WrittenProgram | None = None
    explanation: str = ""
    error: str | None = None
    problems: list[Problem] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    question: Question | None = None  # asked instead of guessing; not an error
    content_question: bool = False  # a question about what the documents say: answered by document QA, not a plan
    previous: PlanOutcome | None = field(default=None, repr=False)  # the plan a revision replaced ("undo that")
    changes: list[str] = field(default_factory=list)  # what a revision changed, step by step
    words: dict[int, list[str]] = field(default_factory=dict)  # step id -> the request's words it was made from
    reading: list[str] = field(default_factory=list)  # the plan in the tool language ("I read this as: …")
    # Placeholder -> password for the passwords typed in the request: a model saw only the placeholders;
    # a written program holds them too, and gets the real values when it runs.
    secrets: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def ok(self) -> bool:
        return self.work is not None and self.error is None

    @property
    def plan(self) -> Plan | None:
        return self.work.plan if isinstance(self.work, StepPlan) else None

    @property
    def order(self) -> list[int]:
        return self.work.order if isinstance(self.work, StepPlan) else []

    @property
    def program(self) -> str | None:
        return self.work.code if isinstance(self.work, WrittenProgram) else None

    def set_plan(self, plan: Plan, order: list[int], explanation: str) -> None:
        self.work, self.explanation = StepPlan(plan, order), explanation

    def set_program(self, draft: Draft, explanation: str) -> None:
        self.work, self.explanation = WrittenProgram(draft), explanation

    def refuse(self, error: str) -> None:
        """No work to approve (a cancelled or failed plan)."""
        self.work, self.error = None, error

    def to_json(self) -> dict[str, Any]:
        """The outcome as the ``plan --json`` contract shows it: secrets masked (the plan that runs keeps them)."""
        if isinstance(self.work, StepPlan):
            plan: dict[str, Any] | None = {"steps": mask_steps(self.work.plan.dump()["steps"])}
        elif isinstance(self.work, WrittenProgram):
            plan = {"steps": [], "program": self.work.code}
        else:
            plan = None
        return {
            "ok": self.ok,
            "request": mask_text(self.request, self.plan),
            "backend": self.backend,
            "plan": plan,
            "explanation": self.explanation,
            "reading": [mask_text(r, self.plan) for r in self.reading],
            "stats": self.stats.to_json(),
            "error": mask_text(self.error, self.plan) if self.error else None,
            **({"question": self.question.to_json()} if self.question is not None else {}),
            **(
                {"words": {str(k): [mask_text(w, self.plan) for w in v] for k, v in self.words.items()}}
                if self.words
                else {}
            ),
        }
