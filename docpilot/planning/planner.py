"""The planning service: a request and files in, a verified plan and its explanation out.

Fast path first (zero LLM calls, backend "rules"); what it does not fully understand
goes to the LLM planner (backend "local" or "openai"). A fast-path plan the verifier
rejects is the user's error (e.g. a page past the end) and is refused, not "corrected".
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Mapping
from typing import Any

from docpilot.errors import DocPilotError, RepairFailed, Stopped
from docpilot.files import FileInfo
from docpilot.llm.base import Metered
from docpilot.llm.jobs import JobFailed
from docpilot.llm.stopping import MODEL_SECONDS, Stop
from docpilot.planning.codegen import CodeWriter
from docpilot.planning.fastpath import LOGIC, NeedInfo, fast_plan, fast_reading
from docpilot.planning.fastpath.grounding import ground_files
from docpilot.planning.fastpath.parts import pages_told
from docpilot.planning.language import write_plan
from docpilot.planning.outcome import PlanOutcome, Question
from docpilot.planning.revision import is_undo, remove_steps, replace_arguments, replaces
from docpilot.planning.rewrite import Retriever, Rewriter, Unsaid
from docpilot.planning.said import QUOTED
from docpilot.planning.stats import Stats
from docpilot.planning.triage import QA_ROUTED, asked_last, is_content_question, vague_suggestions
from docpilot.planning.unsupported import refusal
from docpilot.plans.diff import plan_changes
from docpilot.plans.explain import explain_plan
from docpilot.plans.explain_program import explain_program
from docpilot.plans.plan import Plan
from docpilot.plans.verify import Problem, verify_plan
from pdftools import Tool, all_tools
from pdftools.masking import hide_passwords, is_secret, restore_passwords

__all__ = ["Planner", "PlanOutcome", "LazyRetriever", "make_planner"]


def _file_problems(files: dict[str, FileInfo]) -> str | None:
    if not files:
        return "No files were given. Upload or name at least one PDF."
    for info in files.values():
        if info.problem:
            return info.problem
    return None


class Planner:
    """Fast path, then LLM with retrieval and self-correction; explanation from templates."""

    def __init__(
        self,
        llm: Any | None = None,
        retriever: Retriever | None = None,
        tools: dict[str, Tool] | None = None,
        max_corrections: int = 3,
        model_seconds: float = MODEL_SECONDS,
    ) -> None:
        self.llm = llm
        self.tools = tools or all_tools()
        self.retriever = retriever
        self.max_corrections = max_corrections
        self.model_seconds = model_seconds  # the model's time on one plan, when the caller gives no Stop

    @property
    def llm_name(self) -> str:
        return getattr(self.llm, "name", "rules") if self.llm is not None else "rules"

    def plan(self, request: str, files: dict[str, FileInfo], stop: Stop | None = None) -> PlanOutcome:
        """The request's plan. ``stop``: cancels the model's part and limits its time (default: 60 s)."""
        started = time.perf_counter()
        outcome = self._plan(request, files, stop)
        outcome.stats.seconds = time.perf_counter() - started
        return outcome

    def _plan(self, request: str, files: dict[str, FileInfo], stop: Stop | None) -> PlanOutcome:
        problem = _file_problems(files)
        if problem:
            return PlanOutcome(request, "rules", error=problem)
        cannot = refusal(request)  # print it, email it, translate it: no tool does it, so no plan says it is done
        if cannot:
            return PlanOutcome(request, "rules", error=cannot)
        try:
            reading = fast_reading(request, files)
        except NeedInfo as exc:
            return PlanOutcome(request, "rules", question=Question(str(exc), exc.choices))
        if reading.plan is not None:
            verdict = verify_plan(reading.plan, self.tools, files)
            if not verdict.ok:
                return PlanOutcome(request, "rules", problems=verdict.problems, error=_user_error(verdict.problems))
            return self._done(PlanOutcome(request, "rules", words=reading.words), reading.plan, verdict.order, files)
        if is_content_question(request):  # document QA, not a workflow: answered without a model's plan
            return self._tool_answers(request, files) or PlanOutcome(
                request, "rules", error=QA_ROUTED, content_question=True
            )
        suggestions = vague_suggestions(request, files)
        if suggestions is not None:
            return PlanOutcome(
                request,
                "rules",
                question=Question(
                    "What would make it nicer? For example: " + "; ".join(suggestions) + ".", suggestions
                ),
            )
        told = self._read_told(request, files)
        return told if told is not None else self._with_llm(request, files, None, stop)

    def _tool_answers(self, request: str, files: dict[str, FileInfo]) -> PlanOutcome | None:
        """A question a tool answers though the fast path did not read it whole: one said after what the person
        sees ("it won't let me copy text — is it password protected?": what is said before it is the reason for
        asking), or one naming a part of the file by its title ("summarise the Conclusion in 4 points"). When it
        is read into steps that only report (tools of kind "value"), those tools answer it; a request put as a
        question ("can I have the table of contents as PNGs?") whose parts, written as their pages, the fast path
        reads whole is planned as it reads."""
        pdfs = ground_files(request, files).pdfs
        for asked in (asked_last(request), request):
            if asked is None:
                continue
            try:  # the parts it names by their titles ("summarise the Conclusion") written as their pages
                told = pages_told(asked, {n: files[n] for n in pdfs}, QUOTED)
                if told == request:
                    continue  # as read before: the fast path planned none of it
                reading = fast_reading(told, files)
            except NeedInfo:
                continue  # the question's part is not bound: document QA reads the pages
            plan = reading.plan
            if plan is None or (told == asked and any(self.tools[s.task].kind != "value" for s in plan.steps)):
                continue  # (a request asked as a question, "could you pull chapter 3 out?", read whole: its plan)
            verdict = verify_plan(plan, self.tools, files)
            if verdict.ok:
                return self._done(PlanOutcome(request, "rules", words=reading.words), plan, verdict.order, files)
        return None

    def _read_told(self, request: str, files: dict[str, FileInfo]) -> PlanOutcome | None:
        """The request with the parts it names by their titles ("the signatures page") or wherever they stand
        written as their pages, read again by the fast path: its plan with no model call, a question when a
        part cannot be bound, or None (the model reads it, with those pages)."""
        pdfs = ground_files(request, files).pdfs
        try:
            told = pages_told(request, {n: files[n] for n in pdfs}, QUOTED)
            reading = fast_reading(told, files) if told != request else None
        except NeedInfo as exc:
            return PlanOutcome(request, "rules", question=Question(str(exc), exc.choices))
        if reading is None or reading.plan is None:
            return None
        verdict = verify_plan(reading.plan, self.tools, files)
        if not verdict.ok:
            return None
        return self._done(PlanOutcome(request, "rules", words=reading.words), reading.plan, verdict.order, files)

    def revise(
        self, previous: PlanOutcome, critique: str, files: dict[str, FileInfo], stop: Stop | None = None
    ) -> PlanOutcome:
        """Apply a user's critique ("not page 5, page 6"; "also compress it") through the same loop."""
        started = time.perf_counter()
        combined = f"{previous.request}. {critique}"
        outcome: PlanOutcome | None = None
        cannot = refusal(critique)
        if cannot:
            return _with_history(PlanOutcome(previous.request, "rules", error=cannot), previous)
        if previous.plan is not None and (direct := self._revise_directly(previous, critique, files)) is not None:
            direct.stats.seconds = time.perf_counter() - started
            return direct
        try:  # "instead" must replace, never add: the request with the critique appended would add
            plan = None if replaces(critique) else fast_plan(combined, files)
        except NeedInfo as exc:
            outcome = PlanOutcome(previous.request, "rules", question=Question(str(exc), exc.choices))
            plan = None
        if plan is not None:
            verdict = verify_plan(plan, self.tools, files)
            if verdict.ok and previous.plan is not None and plan.dump() != previous.plan.dump():
                outcome = self._done(PlanOutcome(combined, "rules"), plan, verdict.order, files)
        if outcome is None or not outcome.ok:
            if previous.plan is not None and self.llm is not None:
                outcome = self._with_llm(previous.request, files, (previous.plan, critique), stop)
            elif outcome is None:
                outcome = PlanOutcome(
                    previous.request,
                    "rules",
                    error=(
                        "I could not apply that change without a language model. Rephrase the whole request "
                        "with the change included."
                    ),
                )
        outcome.stats.seconds = time.perf_counter() - started
        return _with_history(outcome, previous)

    def _revise_directly(self, previous: PlanOutcome, critique: str, files: dict[str, FileInfo]) -> PlanOutcome | None:
        """ "undo that", "… instead", "without the …" applied to the previous plan itself (fast path)."""
        assert previous.plan is not None
        if is_undo(critique):
            if previous.previous is None:
                return PlanOutcome(previous.request, "rules", error="There is no earlier plan to go back to.")
            return previous.previous
        revised = replace_arguments(previous.plan, critique, files) or remove_steps(previous.plan, critique, files)
        if revised is None:
            return None
        verdict = verify_plan(revised, self.tools, files)
        if not verdict.ok or verdict.plan is None:
            return None
        outcome = self._done(
            PlanOutcome(f"{previous.request}. {critique}", "rules"), verdict.plan, verdict.order, files
        )
        return _with_history(outcome, previous)

    def _with_llm(
        self, request: str, files: dict[str, FileInfo], critique: tuple[Plan, str] | None, stop: Stop | None
    ) -> PlanOutcome:
        """Plan with the model: typed passwords become placeholders before any text reaches a prompt.

        The model's part stops when ``stop`` is cancelled or after its limit of model time (60 s by
        default); the outcome then says why and what to try instead.
        """
        if self.llm is None:
            return PlanOutcome(
                request,
                "rules",
                error=(
                    "I could not turn this request into tool steps on my own, and no language model is configured. "
                    "Rephrase it with explicit actions (e.g. \"redact 'ACME' on pages 1-3\"), or set up the local "
                    "model (make install) or an OpenAI-compatible server (OPENAI_BASE_URL)."
                ),
            )
        grounding = ground_files(request, files)
        if grounding.ambiguous or (len(grounding.pdfs) > 1 and not grounding.mentioned and not _MERGE.search(request)):
            names = grounding.ambiguous or grounding.pdfs
            choices = names if grounding.ambiguous else [*names, "all of them"]
            return PlanOutcome(
                request,
                "rules",
                question=Question(f"Which file should I work on: {', '.join(names[:-1])} or {names[-1]}?", choices),
            )
        files = {n: i for n, i in files.items() if i.kind != "pdf" or n in grounding.pdfs}  # the files meant
        outcome = PlanOutcome(request, self.llm_name)
        _load_in_background(self.llm)  # the model loads while the few-shot index is built
        safe_request, swaps = hide_passwords(request)
        safe_critique = None
        if critique is not None:
            previous = _hide_secrets(critique[0], swaps)
            safe_critique = (previous, hide_passwords(critique[1], swaps)[0])
        outcome.secrets = swaps
        llm = Metered(self.llm, outcome.stats.usage, stop if stop is not None else Stop(self.model_seconds))
        try:
            if critique is None and LOGIC.search(request):
                return self._with_program(safe_request, files, outcome, llm)
            before = write_plan(safe_critique[0], self.tools, files) if safe_critique is not None else None
            # the document's parts named in the request are bound to their pages here, not by the model
            told = safe_request if safe_critique is not None else pages_told(safe_request, files, QUOTED)
            rewrite = Rewriter(llm, self.tools, self.retriever).rewrite(
                told, files, outcome.stats, (before, safe_critique[1]) if before and safe_critique else None
            )
        except NeedInfo as exc:
            return PlanOutcome(request, "rules", question=Question(str(exc), exc.choices))
        except Stopped as exc:
            outcome.error = str(exc)
            return outcome
        except JobFailed as exc:
            if isinstance(exc.errors[-1], Unsaid):  # a reading that says more or less than the person did
                outcome.stats.plan_corrections += 1
                outcome.question = Question(
                    "I am not sure I read this right. I read it as: "
                    + _shown(" ".join(exc.replies[-1].split()))
                    + f" But {_shown(str(exc.errors[-1]))}. Say it again with the pages and values you mean "
                    "(e.g. \"highlight 'Disney' on pages 35-44\")."
                )
                return outcome
            outcome.stats.plan_corrections += 1
            outcome.error = (
                "I could not make a valid plan from the model's reading of this request "
                f"({_shown(str(exc.problems[-1]))}). It wrote: "
                + _shown(" ".join(exc.replies[-1].split()))
                + ' Rephrase the request with explicit actions, e.g. "delete pages 3-5".'
            )
            return outcome
        outcome.reading = [_shown(s) for s in rewrite.sentences]
        if rewrite.cannot:
            outcome.error = f"This cannot be done with the available PDF tools: {rewrite.cannot}"
            return outcome
        assert rewrite.verdict is not None and rewrite.verdict.plan is not None
        plan = Plan.model_validate(
            {
                "steps": [
                    {**s, "args": restore_passwords(s["args"], swaps)} for s in rewrite.verdict.plan.dump()["steps"]
                ]
            }
        )
        done = self._done(outcome, plan, rewrite.verdict.order, files)
        done.explanation = "I read this as: " + " ".join(outcome.reading) + "\n\n" + done.explanation
        return done

    def warm(self) -> list[str]:
        """Get the model's part ready before a person's first request: the few-shot index is built, the
        local model loaded and its static prompt prefix read (its state is kept on disk for the next
        process). Returns what was done, for the log."""
        done: list[str] = []
        if self.retriever is not None:
            self.retriever.nearest("warm up", 1)
            done.append("example index built")
        prime = getattr(self.llm, "prime", None)
        if callable(prime):
            started = time.perf_counter()
            event = prime(Rewriter(self.llm, self.tools, self.retriever).job().system)
            done.append(f"model loaded, prompt prefix {event or 'not cached'} in {time.perf_counter() - started:.0f} s")
        return done

    def code_writer(self, stats: Stats) -> CodeWriter:
        """A program writer whose model calls count in ``stats``."""
        if self.llm is None:
            raise DocPilotError("Writing a program needs a language model, and none is configured.")
        return CodeWriter(Metered(self.llm, stats.usage), self.tools, self.retriever)

    def _with_program(self, request: str, files: dict[str, FileInfo], outcome: PlanOutcome, llm: Any) -> PlanOutcome:
        try:
            draft = CodeWriter(llm, self.tools, self.retriever).write(request, files, outcome.stats)
        except RepairFailed as exc:
            outcome.error = (
                "I could not write a safe program for this request after "
                f"{outcome.stats.code_revisions} revision(s): {exc.problems[0]}"
            )
            return outcome
        outcome.set_program(draft, explain_program(draft.code, self.tools))
        return outcome

    def _done(self, outcome: PlanOutcome, plan: Plan, order: list[int], files: dict[str, FileInfo]) -> PlanOutcome:
        outcome.set_plan(plan, order, explain_plan(plan, self.tools, order))
        if not outcome.reading:
            outcome.reading = [_shown(s) for s in write_plan(_masked(plan), self.tools, files)]
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


_MERGE = re.compile(r"\b(?:combine|merge|join|concatenate|put together|stitch|bundle)\b", re.IGNORECASE)


def _with_history(outcome: PlanOutcome, previous: PlanOutcome) -> PlanOutcome:
    """A revised outcome remembers the plan it replaced ("undo that") and what changed (shown as a diff)."""
    if outcome.ok and previous.plan is not None and outcome.plan is not None:
        outcome.previous = previous
        outcome.changes = plan_changes(previous.plan, outcome.plan)
    return outcome


def _hide_secrets(plan: Plan, swaps: dict[str, str]) -> Plan:
    """``plan`` with its secret argument values swapped for placeholders (added to ``swaps``)."""
    data = plan.dump()
    for step in data["steps"]:
        for key, value in step["args"].items():
            if isinstance(value, str) and value and is_secret(step["task"], key):
                name = next((k for k, v in swaps.items() if v == value), None) or f"PASSWORD_{len(swaps) + 1}"
                swaps[name] = value
                step["args"][key] = name
    return Plan.model_validate(data)


def _shown(sentence: str) -> str:
    """A sentence as the person sees it: a password placeholder shown as such."""
    return re.sub(r"PASSWORD_\d+", "[password]", sentence)


def _masked(plan: Plan) -> Plan:
    """``plan`` with its secret arguments written as placeholders (for sentences shown to the person)."""
    return _hide_secrets(plan, {})


def _user_error(problems: list[Problem]) -> str:
    first = problems[0]
    text = first.message
    if len(problems) > 1:
        text += f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''})"
    return text


class LazyRetriever:
    """The few-shot index, built on first use (the fast path never needs it)."""

    def __init__(self) -> None:
        self._index: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        with self._lock:
            if self._index is None:
                from docpilot.planning.retrieval import ExampleIndex, load_examples

                self._index = ExampleIndex(load_examples())
            return self._index

    def nearest(self, request: str, k: int = 4) -> list[tuple[Any, float]]:
        return self._get().nearest(request, k)

    def similar_tools(self, request: str, k: int = 6) -> list[str]:
        return self._get().similar_tools(request, k)


def make_planner(backend: str | None, env: Mapping[str, str]) -> Planner:
    """The planner for ``--backend`` / ``DOCPILOT_BACKEND`` and the OpenAI settings in ``env``;
    ``DOCPILOT_PLAN_SECONDS`` changes the model's time on one plan (default 60 s)."""
    from docpilot.llm.select import choose_backend

    llm = choose_backend(backend, env)
    try:
        seconds = float(env.get("DOCPILOT_PLAN_SECONDS") or MODEL_SECONDS)
    except ValueError:
        raise DocPilotError("DOCPILOT_PLAN_SECONDS must be a number of seconds, e.g. 60.") from None
    return Planner(llm=llm, retriever=LazyRetriever() if llm is not None else None, model_seconds=max(1.0, seconds))
