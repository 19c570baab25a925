"""Per-request counters reported in ``stats`` (LLM calls and tokens, corrections, revisions, time).

LLM calls and tokens are counted in one place, the request's :class:`~docpilot.llm.base.Usage`,
by the :class:`~docpilot.llm.base.Metered` view of the model the request uses; nothing else counts
replies.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from docpilot.llm.base import Usage

__all__ = ["Stats"]


@dataclass
class Stats:
    usage: Usage = field(default_factory=Usage)
    plan_corrections: int = 0
    code_revisions: int = 0
    seconds: float = 0.0

    @property
    def llm_calls(self) -> int:
        return self.usage.calls

    @property
    def prompt_tokens(self) -> int:
        return self.usage.prompt_tokens

    @property
    def completion_tokens(self) -> int:
        return self.usage.completion_tokens

    def to_json(self) -> dict[str, float | int]:
        """The ``stats`` object of the ``run --json`` / ``plan --json`` contract."""
        return {
            "llm_calls": self.usage.calls,
            "plan_corrections": self.plan_corrections,
            "code_revisions": self.code_revisions,
            "prompt_tokens": self.usage.prompt_tokens,
            "completion_tokens": self.usage.completion_tokens,
            "seconds": round(self.seconds, 2),
        }
