"""The model's planning job: rewrite a request into command sentences of the tool language.

What the fast path cannot fully account for goes to the model, which writes sentences instead of a JSON
plan: the language page is its cached prefix, the nearest few-shot requests are shown with their plans
written as sentences, decoding follows the language's grammar where the backend allows it, and the
reader reads the sentences back with every word accounted for. Passwords and quoted text reach the model
as placeholders (``PASSWORD_1``, ``TEXT_1``) and are put back after reading. A reply the reader cannot
read, or whose plan the verifier rejects, goes back once with the problem; then the job fails with the
attempt shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from docpilot.files import FileInfo
from docpilot.llm.jobs import Job, JobFailed, JobProblem, run_job
from docpilot.llm.prompting import render
from docpilot.planning.language import read_plan, split_sentences, write_plan
from docpilot.planning.language.forms import form_of
from docpilot.planning.language.grammar import language_grammar
from docpilot.planning.language.lexicon import named_tools
from docpilot.planning.said import QUOTED, unsaid, with_defaults
from docpilot.planning.stats import Stats
from docpilot.plans.joining import fold_extraction, join_repeated
from docpilot.plans.plan import Plan
from docpilot.plans.verify import Verdict, verify_plan
from pdftools import Tool

__all__ = ["Rewriter", "Rewrite", "Retriever", "Unsaid", "hide_quotes"]

_TEXT = "TEXT_{n}"
_GENERIC = ("output", "password")
ALWAYS_OFFERED = ("count_pages",)
MAX_OFFERED = 12  # options every form has: said once in the prompt, not in each form
_STRUCTURE_WORDS = re.compile(
    r"\b(?:chapter|section|part|appendix|appendices|annex|index|contents|introduction|preface|foreword|"
    r"conclusion|summary|glossary|bibliography|references|front matter|item|note|schedule|exhibit)\b",
    re.I,
)


class Unsaid(JobProblem):
    """The reading sets values the request does not say, or leaves out what it says (:mod:`.said`)."""


# a request that names its result ("call it summary.docx", "save as …", "file name"): only then may a sentence
# set the result's name; otherwise a small model takes a chapter's title for one
_NAMES_RESULT = re.compile(r"\b(?:call|name|save\s+(?:it\s+|them\s+)?as|file\s*name)\b|\.[a-z]{2,4}\b", re.I)


def _result_named(request: str, files: dict[str, FileInfo]) -> bool:
    for name in files:
        request = request.replace(name, " ")
    return _NAMES_RESULT.search(request) is not None


def hide_quotes(text: str, swaps: dict[str, str]) -> str:
    """``text`` with each quoted span's words swapped for a placeholder (added to ``swaps``)."""

    def swap(match: re.Match[str]) -> str:
        value = match.group(2)
        if re.fullmatch(r"PASSWORD_\d+|TEXT_\d+", value):
            return match.group(0)
        name = next((k for k, v in swaps.items() if v == value), None) or _TEXT.format(n=len(swaps) + 1)
        swaps[name] = value
        return f"'{name}'"

    return QUOTED.sub(swap, text)


def _restore(value: Any, swaps: dict[str, str]) -> Any:
    """``value`` (text, or arguments of any nesting) with the quoted text put back."""
    if isinstance(value, str):
        return re.sub(r"TEXT_\d+", lambda m: swaps.get(m.group(0), m.group(0)), value)
    if isinstance(value, list):
        return [_restore(v, swaps) for v in value]
    if isinstance(value, dict):
        return {_restore(k, swaps): _restore(v, swaps) for k, v in value.items()}
    return value


class Retriever(Protocol):
    """The few-shot index: the nearest example requests, and the tools whose documentation is closest."""

    def nearest(self, request: str, k: int = 4) -> list[tuple[Any, float]]: ...

    def similar_tools(self, request: str, k: int = 6) -> list[str]: ...


@dataclass
class Rewrite:
    """The model's sentences (placeholders put back, passwords still hidden) and the verified plan."""

    sentences: list[str]
    verdict: Verdict | None = None
    cannot: str | None = None


def _describe(info: FileInfo, request: str) -> str:
    """A file for the prompt; with the parts of its outline that the request's words point to."""
    text = info.describe()
    if info.kind != "pdf" or not _STRUCTURE_WORDS.search(request):
        return text
    words = {w for w in re.findall(r"[a-z]{4,}", request.lower())}
    parts = [
        p
        for p in info.parts
        if p.kind != "body" or words & set(re.findall(r"[a-z]{4,}", p.title.lower())) or p.number in request
    ]
    if not parts:
        return text
    listed = ", ".join(
        f"'{p.title}' {('pages ' + p.pages) if '-' in p.pages else 'page ' + p.pages}" for p in parts[:8]
    )
    return f"{text}; its parts: {listed}"


class Rewriter:
    """Plans through the model's rewrite into the tool language."""

    def __init__(self, llm: Any, tools: dict[str, Tool], retriever: Retriever | None, k: int = 4) -> None:
        self.llm, self.tools, self.retriever, self.k = llm, tools, retriever, k

    def offered(self, request: str, files: dict[str, FileInfo], neighbours: list[Any]) -> dict[str, Tool]:
        """The tools the grammar admits (every form stays on the prompt's page): those the rules see in the
        request, the registry words it uses, the nearest examples' tools and the closest documentation.
        A small grammar keeps constrained decoding fast."""
        from docpilot.planning.fastpath import hint_tools

        names = list(hint_tools(request, files))
        for example, _ in neighbours:
            names += [s["task"] for s in example.plan.get("steps", [])]
        names += named_tools(request, self.tools)[:6]
        if self.retriever is not None:
            names += self.retriever.similar_tools(request, 3)
        names += list(ALWAYS_OFFERED)
        chosen = [n for n in dict.fromkeys(names) if n in self.tools][:MAX_OFFERED]
        return {n: self.tools[n] for n in chosen} if neighbours or self.retriever else dict(self.tools)

    def job(self) -> Job:
        forms = [form_of(self.tools[name]).describe(_GENERIC) for name in sorted(self.tools)]
        return Job("rewrite", render("rewrite_system.j2", forms=forms), max_tokens=260)

    def _examples(self, neighbours: list[Any]) -> list[tuple[str, str]]:
        out = []
        for example, _ in reversed(neighbours):  # the nearest right before the request
            files = {
                f["name"]: FileInfo(
                    f["name"], "", "pdf" if f["name"].lower().endswith(".pdf") else "image", f.get("pages")
                )
                for f in example.files
            }
            sentences = write_plan(Plan.model_validate(example.plan), self.tools, files)
            user = render(
                "rewrite_user.j2",
                files=", ".join(i.describe() for i in files.values()),
                request=example.request,
                draft="",
                reading="",
                critique="",
            )
            out.append((user, "\n".join(sentences)))
        return out

    def rewrite(
        self,
        request: str,
        files: dict[str, FileInfo],
        stats: Stats,
        critique: tuple[list[str], str] | None = None,
    ) -> Rewrite:
        """The request (passwords already hidden) rewritten and read into a verified plan.

        Raises:
            JobFailed: neither reply could be read into a valid plan.
        """
        from docpilot.planning.fastpath import partial_plan

        swaps: dict[str, str] = {}
        safe = hide_quotes(request, swaps)
        draft = partial_plan(request, files) if critique is None else None
        user = render(
            "rewrite_user.j2",
            files=", ".join(_describe(i, request) for i in files.values()),
            request=safe,
            draft="\n".join(hide_quotes(s, swaps) for s in write_plan(draft, self.tools, files)) if draft else "",
            reading="\n".join(hide_quotes(s, swaps) for s in critique[0]) if critique else "",
            critique=hide_quotes(critique[1], swaps) if critique else "",
        )

        def check(text: str) -> Rewrite:
            reading = read_plan(text, self.tools, files)
            sentences = [_restore(s, swaps) for s in reading.sentences]
            if reading.cannot:
                return Rewrite(sentences, cannot=_restore(reading.cannot, swaps))
            if reading.unread or reading.plan is None:
                raise JobProblem("I could not read " + "; ".join(reading.unread or ["an empty reply"]))
            plan = Plan.model_validate(
                {"steps": [{**s, "args": _restore(s["args"], swaps)} for s in reading.plan.dump()["steps"]]}
            )
            plan = join_repeated(plan, self.tools)  # "Redact every email. Redact every phone.": one redaction
            folded = fold_extraction(plan, self.tools, request)  # "Extract pages 3-5. Convert it to Markdown."
            if folded is not plan:
                plan, sentences = folded, [_restore(s, swaps) for s in write_plan(folded, self.tools, files)]
            verdict = verify_plan(plan, self.tools, files, request)
            if not verdict.ok:
                raise JobProblem(verdict.report())
            if critique is None:
                problems = unsaid(plan, request, self.tools, files)
                plain = with_defaults(plan, request, self.tools, files) if problems else None
                if plain is not None and not unsaid(plain, request, self.tools, files):
                    # values of options the request never mentions, the tools' own instead: what it says, kept
                    plan, problems = plain, []
                    verdict = verify_plan(plan, self.tools, files, request)
                    if not verdict.ok:
                        raise JobProblem(verdict.report())
                    sentences = write_plan(plan, self.tools, files)
            else:  # the values may come from the request or the change asked for
                problems = unsaid(plan, f"{request}\n{critique[1]}", self.tools, files, left_out=False)
            if problems:
                raise Unsaid("; ".join(problems))
            return Rewrite(sentences, verdict)

        neighbours = self.retriever.nearest(safe, self.k) if self.retriever is not None else []
        offered = self.offered(safe, files, neighbours)
        try:
            leave_out = () if _result_named(request, files) else ("output",)
            result = self._run(user, check, neighbours, offered, files, leave_out)
        except JobFailed as exc:  # what the model wrote, shown to the person, with the quoted text put back
            exc.replies = [_restore(r, swaps) for r in exc.replies]
            raise
        stats.plan_corrections += result.retries
        return result.value

    def _run(
        self,
        user: str,
        check: Any,
        neighbours: list[Any],
        offered: dict[str, Tool],
        files: dict[str, FileInfo],
        leave_out: tuple[str, ...],
    ) -> Any:
        return run_job(
            self.llm,
            self.job(),
            user,
            check,
            examples=self._examples(neighbours),
            grammar=language_grammar(offered, list(files), leave_out=leave_out),
            retry_grammar=lambda first: language_grammar(
                offered, list(files), max(1, len(split_sentences(first))), cannot=False, leave_out=leave_out
            ),
        )
