"""Per-request counters reported in `stats` (LLM calls, corrections, revisions, tokens, time)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["Stats"]


@dataclass
class Stats:
    llm_calls: int = 0
    plan_corrections: int = 0
    code_revisions: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0

    def count_reply(self, reply: object) -> None:
        self.llm_calls += 1
        self.prompt_tokens += int(getattr(reply, "prompt_tokens", 0) or 0)
        self.completion_tokens += int(getattr(reply, "completion_tokens", 0) or 0)

    def to_json(self) -> dict[str, float | int]:
        data = asdict(self)
        data["seconds"] = round(self.seconds, 2)
        return data
