"""LLM planning: retrieval-augmented prompt → constrained JSON → verify → bounded self-correction.

As in "DocPilot: Copilot for Automating PDF Edit Workflows in Documents" §3.1–3.3: the k nearest
few-shot examples and the tools they use (plus the few tools whose documentation is closest to
the request) go into the prompt; the plan
is decoded under a JSON schema whose task enum is those tools; the verifier's problems
go back to the model for a bounded number of correction rounds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from docpilot.files import FileInfo
from docpilot.llm.prompting import render
from docpilot.planning.repair import repair
from docpilot.planning.stats import Stats
from docpilot.plans.plan import Plan, plan_json_schema
from docpilot.plans.verify import Problem, Verdict, verify_plan
from pdftools import Tool

__all__ = ["LLMPlanner", "Retriever", "Attempt"]

ALWAYS_OFFERED = ("count_pages",)
MAX_TOOLS = 8


class Retriever(Protocol):
    def nearest(self, request: str, k: int = 4) -> list[tuple[Any, float]]: ...

    def similar_tools(self, request: str, k: int = 6) -> list[str]: ...


@dataclass
class Attempt:
    """What the LLM loop ended with."""

    verdict: Verdict
    cannot: str | None = None
    offered: list[str] = field(default_factory=list)


def _files_line(files: dict[str, FileInfo]) -> str:
    return ", ".join(f.describe() for f in files.values())


def _example_files(example: Any) -> str:
    parts = []
    for f in example.files:
        pages = f.get("pages")
        parts.append(f"{f['name']} ({pages} pages)" if pages else f["name"])
    return ", ".join(parts)


class LLMPlanner:
    """Plans with a language model; every plan it returns has been through the verifier."""

    def __init__(
        self, llm: Any, tools: dict[str, Tool], retriever: Retriever | None, max_corrections: int = 3, k: int = 3
    ) -> None:
        self.llm, self.tools, self.retriever = llm, tools, retriever
        self.max_corrections, self.k = max_corrections, k

    def offered_tools(
        self, request: str, neighbours: list[tuple[Any, float]], files: dict[str, FileInfo] | None = None
    ) -> dict[str, Tool]:
        """Retrieval-augmented tool selection: the tools the request's words name, those of the
        nearest examples, and the few whose documentation is closest to the request."""
        from docpilot.planning.fastpath import hint_tools

        names: list[str] = list(hint_tools(request, files or {}))
        for example, _ in neighbours[:3]:
            for step in example.plan.get("steps", []):
                if step["task"] not in names:
                    names.append(step["task"])
        if self.retriever is not None:
            names += [n for n in self.retriever.similar_tools(request, 3) if n not in names]
        names += [n for n in ALWAYS_OFFERED if n not in names]
        if not neighbours and self.retriever is None:
            names = list(self.tools)
        return {n: self.tools[n] for n in names[:MAX_TOOLS] if n in self.tools}

    def messages(
        self, request: str, files: dict[str, FileInfo], offered: dict[str, Tool], neighbours: list[tuple[Any, float]]
    ) -> list[dict[str, str]]:
        examples = [
            {
                "files": _example_files(ex),
                "request": ex.request,
                "plan": json.dumps(ex.plan, ensure_ascii=False, separators=(",", ":")),
            }
            for ex, _ in reversed(neighbours)
        ]  # nearest example right before the request
        from docpilot.planning.fastpath import partial_plan

        draft = partial_plan(request, files)
        user = render(
            "plan_user.j2",
            offered=", ".join(offered),
            examples=examples,
            files=_files_line(files),
            request=request,
            draft=json.dumps(draft.dump(), ensure_ascii=False, separators=(",", ":")) if draft else "",
        )
        return [{"role": "system", "content": self.system_prompt()}, {"role": "user", "content": user}]

    def system_prompt(self) -> str:
        """Rules plus the whole catalogue, identical for every request: a local model keeps its state
        on disk and in memory, so only the request's part of the prompt is read each time."""
        catalogue = "\n".join(self.tools[name].prompt_doc(max_optional=1) for name in sorted(self.tools))
        return render("plan_system.j2", catalogue=catalogue)

    def plan(
        self, request: str, files: dict[str, FileInfo], stats: Stats, critique: tuple[Plan, str] | None = None
    ) -> Attempt:
        """A verified plan, or the model's reason it cannot be done.

        ``self.llm`` is the request's metered model (it counts the calls). The verifier's problems go
        back to the model for at most ``max_corrections`` rounds (:func:`~docpilot.planning.repair.repair`).

        Raises:
            RepairFailed: the plan still had problems after the last correction; its last attempt's
                verdict holds them.
        """
        neighbours = self.retriever.nearest(request, self.k) if self.retriever is not None else []
        offered = self.offered_tools(request, neighbours, files)
        if critique is not None:
            for step in critique[0].steps:
                if step.task in self.tools and step.task not in offered:
                    offered[step.task] = self.tools[step.task]
            offered.update({n: self.tools[n] for n in self.tools if n in critique[1]})
        messages = self.messages(request, files, offered, neighbours)
        if critique is not None:
            messages.append(
                {"role": "user", "content": render("plan_critique.j2", critique=critique[1], plan=critique[0].dumps())}
            )
        schema = plan_json_schema(offered)
        schema["properties"]["cannot"] = {"type": "string"}
        schema["properties"]["steps"]["minItems"] = 0

        def ask(conversation: list[dict[str, str]]) -> _Reply:
            text = self.llm.chat(conversation, schema=schema, max_tokens=700).text
            cannot, payload = _split(text)
            verdict = Verdict(None, []) if cannot else verify_plan(payload, self.tools, files, request)
            return _Reply(text, conversation, verdict, cannot)

        def correct(previous: _Reply, problems: Sequence[Problem]) -> _Reply:
            stats.plan_corrections += 1
            return ask(
                previous.messages
                + [
                    {"role": "assistant", "content": previous.text},
                    {"role": "user", "content": render("plan_correction.j2", problems=previous.verdict.report())},
                ]
            )

        repaired = repair(
            lambda: ask(messages),
            lambda r: [] if r.cannot else r.verdict.problems,
            correct,
            max_fixes=self.max_corrections,
            what="The plan",
            usage=stats.usage,
        )
        final = repaired.result
        return Attempt(final.verdict, final.cannot, list(offered))


@dataclass
class _Reply:
    """One model reply: its text, the conversation that asked for it, and the verifier's verdict."""

    text: str
    messages: list[dict[str, str]]
    verdict: Verdict
    cannot: str | None = None


def _split(text: str) -> tuple[str | None, Any]:
    """(the model's "cannot" reason, the plan payload without it). Invalid JSON stays text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None, text
    if isinstance(data, dict):
        reason = str(data.pop("cannot", "") or "").strip()
        if reason and not data.get("steps"):
            return reason, data
    return None, data
