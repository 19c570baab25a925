"""The plan: a flat list of steps, each one tool call (instructor's flat planning shape).

``{"steps": [{"id": 1, "task": "redact_text", "dep": [], "args": {...}, "return": "redacted"}]}``.
Arguments name uploaded files by file name; a string ``"$name"`` refers to the
``return`` of an earlier step.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Step", "Plan", "REF", "refs_in"]

REF = re.compile(r"^\$([A-Za-z_][A-Za-z0-9_]*)$")


class Step(BaseModel):
    """One tool call."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    id: int = Field(description="Step number, 1, 2, 3 … in order")
    task: str = Field(description="The tool to call")
    dep: list[int] = Field(default_factory=list, description="Ids of the steps whose results this step uses")
    args: dict[str, Any] = Field(default_factory=dict, description="The tool's arguments")
    returns: str = Field(alias="return", description="A short name for this step's result")

    def dump(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "task": self.task,
            "dep": list(self.dep),
            "args": dict(self.args),
            "return": self.returns,
        }


class Plan(BaseModel):
    """A verified or candidate plan."""

    model_config = ConfigDict(extra="forbid")

    steps: list[Step]

    def dump(self) -> dict[str, Any]:
        return {"steps": [s.dump() for s in self.steps]}

    def dumps(self) -> str:
        return json.dumps(self.dump(), ensure_ascii=False)

    def step(self, step_id: int) -> Step:
        return next(s for s in self.steps if s.id == step_id)


def refs_in(value: Any) -> Iterable[str]:
    """Names referenced with ``$name`` anywhere inside an argument value."""
    if isinstance(value, str):
        match = REF.match(value.strip())
        if match:
            yield match.group(1)
    elif isinstance(value, list):
        for item in value:
            yield from refs_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from refs_in(item)
