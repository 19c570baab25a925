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

__all__ = ["Step", "Plan", "REF", "refs_in", "plan_json_schema"]

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


def plan_json_schema(tools: dict[str, Any]) -> dict[str, Any]:
    """JSON schema for constrained decoding: tool names as an enum, per-tool argument schemas.

    ``tools`` maps names to registry ``Tool`` objects (only those the prompt offers).
    Each step is ``anyOf`` one shape per tool, so the decoder can only write a known
    task with that task's argument names.
    """
    variants = []
    for name, entry in tools.items():
        args = entry.schema()
        props = {k: _loosen(v) for k, v in args.get("properties", {}).items()}
        variants.append(
            {
                "type": "object",
                "properties": {
                    "id": {"type": "integer"},
                    "task": {"type": "string", "enum": [name]},
                    "dep": {"type": "array", "items": {"type": "integer"}},
                    "args": {
                        "type": "object",
                        "properties": props,
                        "required": args.get("required", []),
                        "additionalProperties": False,
                    },
                    "return": {"type": "string"},
                },
                "required": ["id", "task", "dep", "args", "return"],
                "additionalProperties": False,
            }
        )
    return {
        "type": "object",
        "properties": {"steps": {"type": "array", "minItems": 1, "items": {"anyOf": variants}}},
        "required": ["steps"],
        "additionalProperties": False,
    }


def _loosen(prop: dict[str, Any]) -> dict[str, Any]:
    """Drop descriptions/defaults (prompt noise for the grammar); keep types and enums."""
    out = {k: v for k, v in prop.items() if k not in ("description", "default", "title")}
    for key in ("anyOf", "oneOf"):
        if key in out:
            out[key] = [_loosen(p) for p in out[key]]
    if "items" in out and isinstance(out["items"], dict):
        out["items"] = _loosen(out["items"])
    return out
