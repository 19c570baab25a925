"""LLM-written programs for requests with logic beyond a straight line.

The lecture recipe of "FlowMind: Automatic Workflow Generation with LLMs".

The prompt is a lecture: context and guardrails, the documentation of the tools the
program may call (the PDFTools API only), a few request→program examples, then the
request with file names (never real paths: FILES binds them inside the sandbox).
The program goes through the sandbox's static checks, then runs; a failing check or
a runtime error goes back to the model with the code for a bounded number of revisions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from docpilot.files import FileInfo
from docpilot.llm.prompting import render
from docpilot.llm.untrusted import DATA_RULE, data_block
from docpilot.planning.repair import repair
from docpilot.planning.stats import Stats
from pdftools import Tool

__all__ = ["CodeWriter", "Draft", "extract_code", "load_program_examples"]

BASE_TOOLS = ("count_pages", "search_text")
_FENCE = re.compile(r"```(?:python|py)?\s*\n(.*?)```", re.DOTALL)


def extract_code(text: str) -> str:
    """The program inside the reply's ```python block (or the whole reply when there is none)."""
    match = _FENCE.search(text)
    code = match.group(1) if match else text.replace("```", "")
    return code.strip() + "\n"


def load_program_examples() -> list[dict[str, Any]]:
    text = resources.files("fewshot").joinpath("programs.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{3,}", text.lower()))


@dataclass
class Draft:
    """A program that passed the static checks and the conversation that produced it (kept for revisions)."""

    code: str
    messages: list[dict[str, str]] = field(default_factory=list)


class CodeWriter:
    """Writes, checks and revises programs with an LLM."""

    def __init__(
        self, llm: Any, tools: dict[str, Tool], retriever: Any = None, max_revisions: int = 3, examples: int = 3
    ) -> None:
        self.llm, self.tools, self.retriever = llm, tools, retriever
        self.max_revisions, self.n_examples = max_revisions, examples

    def _examples(self, request: str) -> list[dict[str, Any]]:
        words = _words(request)
        scored = sorted(load_program_examples(), key=lambda ex: -len(words & _words(ex["request"])))
        return scored[: self.n_examples]

    def _tools(self, request: str, examples: list[dict[str, Any]]) -> list[Tool]:
        names = list(BASE_TOOLS)
        for ex in examples:
            names += [n for n in re.findall(r"tools\.(\w+)\(", ex["code"]) if n not in names]
        if self.retriever is not None:
            names += [n for n in self.retriever.similar_tools(request, 5) if n not in names]
        return [self.tools[n] for n in names if n in self.tools]

    def write(self, request: str, files: dict[str, FileInfo], stats: Stats) -> Draft:
        from sandbox.checks import ALLOWED_IMPORTS

        examples = self._examples(request)
        user = render(
            "code_user.j2",
            tool_docs=[t.doc_text() for t in self._tools(request, examples)],
            examples=[
                {"files": ", ".join(ex["files"]), "request": ex["request"], "code": ex["code"]}
                for ex in reversed(examples)
            ],
            files=", ".join(f.describe() for f in files.values()),
            request=request,
        )
        messages = [
            {
                "role": "system",
                "content": render("code_system.j2", imports=", ".join(ALLOWED_IMPORTS), data_rule=DATA_RULE),
            },
            {"role": "user", "content": user},
        ]
        return self._ask(messages, stats)

    def revise(self, draft: Draft, error: str, stats: Stats) -> Draft:
        """Send the run's error log (it may quote document text: a data block) and the code back; count one revision."""
        log = data_block(error, "error log")
        messages = draft.messages + [
            {"role": "assistant", "content": f"```python\n{draft.code}```"},
            {"role": "user", "content": render("code_revision.j2", error=log)},
        ]
        stats.code_revisions += 1
        return self._ask(messages, stats)

    def _ask(self, messages: list[dict[str, str]], stats: Stats) -> Draft:
        """A program that passes the sandbox's static checks, revised for at most ``max_revisions`` rounds.

        Raises:
            RepairFailed: the program still failed the checks; ``problems`` holds the checks' report.
        """
        from sandbox.checks import check_program, format_problems

        def ask(conversation: list[dict[str, str]]) -> _Written:
            text = self.llm.chat(conversation, schema=None, max_tokens=600).text
            code = extract_code(text)
            return _Written(Draft(code, conversation), text, format_problems(check_program(code, self.tools)))

        def fix(previous: _Written, problems: Sequence[str]) -> _Written:
            stats.code_revisions += 1
            return ask(
                previous.draft.messages
                + [
                    {"role": "assistant", "content": previous.text},
                    {"role": "user", "content": render("code_revision.j2", error=problems[0])},
                ]
            )

        repaired = repair(
            lambda: ask(messages),
            lambda w: [w.report] if w.report else [],
            fix,
            max_fixes=self.max_revisions,
            what="The program",
            usage=stats.usage,
        )
        return repaired.result.draft


@dataclass
class _Written:
    """One reply: the program it holds, the reply's text, and the static checks' report (empty: passed)."""

    draft: Draft
    text: str
    report: str
