"""Plan verification: every problem collected as a record written for the model to fix.

Checks, as in "DocPilot: Copilot for Automating PDF Edit Workflows in Documents" §3.2:
syntax and shape · tool hallucination · argument validity (missing / extra / wrong type /
pages outside the document / files not uploaded / files of the wrong kind) · dependency
hallucination (missing or later steps, unknown ``$`` references) · dependency consistency
(cycles). The execution order comes from the same topological sort.
"""

from __future__ import annotations

import difflib
import graphlib
import json
import re
import typing
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from docpilot.files import FileInfo
from docpilot.plans.plan import REF, Plan, refs_in
from pdftools import Tool
from pdftools.errors import PdfToolError
from pdftools.pages import Pages, parse_pages

__all__ = ["Problem", "Verdict", "verify_plan", "parse_plan_text"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a plan: a code, the step (None for the whole plan), a message."""

    code: str
    step: int | None
    message: str

    def __str__(self) -> str:
        where = f"step {self.step}: " if self.step is not None else ""
        return f"{where}{self.message}"


@dataclass
class Verdict:
    """The outcome: the plan (when it parsed), its problems and the execution order."""

    plan: Plan | None
    problems: list[Problem] = field(default_factory=list)
    order: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.plan is not None and not self.problems

    def report(self) -> str:
        return "\n".join(f"- [{p.code}] {p}" for p in self.problems)


def parse_plan_text(text: str) -> tuple[Plan | None, list[Problem]]:
    """Parse an LLM reply into a Plan, or say what is wrong with its JSON or shape."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [
            Problem(
                "syntax",
                None,
                f"The reply is not valid JSON ({exc.msg} at line {exc.lineno}, "
                f'column {exc.colno}). Reply with one JSON object: {{"steps": [...]}}.',
            )
        ]
    return parse_plan_data(data)


def parse_plan_data(data: Any) -> tuple[Plan | None, list[Problem]]:
    if isinstance(data, list):
        data = {"steps": data}
    try:
        return Plan.model_validate(data), []
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = list(err["loc"])
            step = None
            if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
                step = loc[1] + 1
            where = ".".join(str(x) for x in loc)
            problems.append(
                Problem(
                    "syntax",
                    step,
                    f"'{where}': {err['msg']}. Each step needs id (int), task, "
                    "dep (list of step ids), args (object) and return (a name).",
                )
            )
        return None, problems


def _is_pages_type(annotation: Any) -> bool:
    if annotation is Pages:
        return True
    return any(_is_pages_type(a) for a in typing.get_args(annotation) if a is not type(None))


def verify_plan(
    plan_or_text: Plan | str | dict[str, Any],
    tools: dict[str, Tool],
    files: dict[str, FileInfo],
    request: str | None = None,
) -> Verdict:
    """Check a plan against the tool registry and the uploaded files.

    With ``request`` (the person's words), placeholder text in an argument that the person did not type
    ("[insert date]", "TBD", "<name>", "XXX") is a problem too: a model filled a gap it should not have.
    """
    plan: Plan | None
    problems: list[Problem]
    if isinstance(plan_or_text, Plan):
        plan, problems = plan_or_text, []
    elif isinstance(plan_or_text, str):
        plan, problems = parse_plan_text(plan_or_text)
    else:
        plan, problems = parse_plan_data(plan_or_text)
    if plan is None:
        return Verdict(None, problems)
    if not plan.steps:
        return Verdict(plan, [Problem("syntax", None, "The plan has no steps.")])
    checker = _Checker(plan, tools, files)
    checker.run()
    if request is not None:
        checker.problems += _placeholders(plan, request)
    return Verdict(plan, checker.problems, checker.order)


_PLACEHOLDER = re.compile(
    r"\[(?:insert|add|your|enter|todo|tbd|placeholder|name|date|amount)[^\]]*\]|\{\{[^}]*\}\}|<[a-z_ ]{2,30}>|"
    r"\b(?:TBD|TODO|XXX+|lorem ipsum)\b",
    re.IGNORECASE,
)


def _placeholders(plan: Plan, request: str) -> list[Problem]:
    """Placeholder text in string arguments that is not in the person's request."""
    said = request.lower()
    found = []
    for step in plan.steps:
        for name, value in step.args.items():
            texts = [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
            for match in (m for text in texts for m in _PLACEHOLDER.finditer(text)):
                if match.group(0).lower() not in said:
                    found.append(Problem("placeholder", step.id, _PLACEHOLDER_MESSAGE.format(name, match.group(0))))
    return found


_PLACEHOLDER_MESSAGE = (
    "'{}' holds placeholder text {!r} that the request does not give. Use only values the request states; "
    "if a value is missing, the plan cannot be made without it."
)


class _Checker:
    def __init__(self, plan: Plan, tools: dict[str, Tool], files: dict[str, FileInfo]) -> None:
        self.plan, self.tools, self.files = plan, tools, files
        self.problems: list[Problem] = []
        self.order: list[int] = []
        self.producer: dict[str, int] = {}
        self.page_count: dict[str, int | None] = {}  # "$name" or file name -> pages

    def add(self, code: str, step: int | None, message: str) -> None:
        self.problems.append(Problem(code, step, message))

    def run(self) -> None:
        ids = [s.id for s in self.plan.steps]
        for dup in sorted({i for i in ids if ids.count(i) > 1}):
            self.add("duplicate_id", dup, f"More than one step has id {dup}; give each step its own id.")
        for step in self.plan.steps:
            if step.returns in self.producer:
                self.add(
                    "duplicate_return",
                    step.id,
                    f"The return name '{step.returns}' is already used by step "
                    f"{self.producer[step.returns]}; choose another name.",
                )
            self.producer.setdefault(step.returns, step.id)
        position = {s.id: i for i, s in enumerate(self.plan.steps)}
        for step in self.plan.steps:
            self._dependencies(step, position)
        self._cycles()
        for step_id in self.order or ids:
            step = self.plan.step(step_id)
            self._arguments(step)

    def _dependencies(self, step: Any, position: dict[int, int]) -> None:
        for dep in step.dep:
            if dep not in position:
                self.add("dependency", step.id, f"dep lists step {dep}, which does not exist.")
            elif dep == step.id:
                self.add("dependency", step.id, "A step cannot depend on itself.")
            elif position[dep] > position[step.id]:
                self.add(
                    "dependency",
                    step.id,
                    f"dep lists step {dep}, which comes later; a step can only depend on earlier steps.",
                )
        for name in set(refs_in(step.args)):
            source = self.producer.get(name)
            if source is None:
                known = ", ".join(f"${n}" for n in self.producer) or "none"
                self.add("dependency", step.id, f"'${name}' is not the return of any step (returns: {known}).")
            elif position.get(source, -1) >= position[step.id] and source != step.id:
                self.add(
                    "dependency",
                    step.id,
                    f"'${name}' comes from step {source}, which runs later; "
                    "a step can only use results of earlier steps.",
                )
            elif source == step.id:
                self.add("dependency", step.id, f"'${name}' is this step's own result.")
            elif source not in step.dep:
                self.add(
                    "dependency",
                    step.id,
                    f"uses '${name}' from step {source} but dep does not list {source}; add {source} to dep.",
                )

    def _cycles(self) -> None:
        """Kahn's algorithm (graphlib); ties broken by the written order."""
        graph = {
            s.id: {d for d in s.dep if d != s.id and d in {x.id for x in self.plan.steps}} for s in self.plan.steps
        }
        position = {s.id: i for i, s in enumerate(self.plan.steps)}
        sorter = graphlib.TopologicalSorter(graph)
        try:
            sorter.prepare()
        except graphlib.CycleError as exc:
            cycle = exc.args[1]
            self.add(
                "cycle",
                cycle[0],
                "The steps depend on each other in a circle: "
                + " -> ".join(str(i) for i in cycle)
                + ". Remove one of these dependencies.",
            )
            return
        while sorter.is_active():
            for node in sorted(sorter.get_ready(), key=position.__getitem__):
                self.order.append(node)
                sorter.done(node)

    def _arguments(self, step: Any) -> None:
        tool = self.tools.get(step.task)
        if tool is None:
            close = difflib.get_close_matches(step.task, list(self.tools), n=3, cutoff=0.5)
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            self.add("unknown_tool", step.id, f"There is no tool '{step.task}'.{hint}")
            return
        args = dict(step.args)
        for name, kinds in tool.takes.items():
            if name in args:
                self._files(step, name, args[name], kinds)
        try:
            values = tool.validate(args)
        except PdfToolError as exc:
            message = str(exc).split(": ", 1)[-1]
            self.add("arguments", step.id, f"{step.task}: {message}. Arguments are: {', '.join(tool.arg_docs)}.")
            return
        source = self._source(values)
        pages_in = self.page_count.get(source) if source else None
        for name, (annotation, _) in tool.fields.items():
            value = values.get(name)
            if value is None or not _is_pages_type(annotation) or pages_in is None or _mentions_ref(value):
                continue
            if str(value).strip().lower() in tool.page_words.get(name, ()):
                continue  # a word the tool accepts here ("reverse", "start"), not page numbers
            try:
                parse_pages(value, pages_in)
            except PdfToolError as exc:
                self.add("pages", step.id, f"{step.task} '{name}': {exc}")
        self.page_count[f"${step.returns}"] = tool.pages_after(values, pages_in, self._sum_pages(values))

    def _files(self, step: Any, name: str, value: Any, kinds: tuple[str, ...]) -> None:
        """Each file named in argument ``name`` exists and is of a kind the tool declares it takes."""
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, str):
                continue
            if REF.match(item.strip()):
                self._file_ref(step, name, item.strip(), kinds)
                continue
            if item not in self.files:
                uploaded = ", ".join(self.files) or "none"
                self.add(
                    "unknown_file",
                    step.id,
                    f"'{item}' was not uploaded (uploaded files: {uploaded}). "
                    "Use an uploaded file name or a $name from an earlier step.",
                )
            elif "any" not in kinds and self.files[item].kind not in kinds:
                self.add(
                    "arguments",
                    step.id,
                    f"'{item}' is not {_kinds_text(kinds)}; '{name}' of {step.task} needs {_kinds_text(kinds)}.",
                )

    def _file_ref(self, step: Any, name: str, ref: str, kinds: tuple[str, ...]) -> None:
        """A file argument fed by an earlier step must get the kind of file it takes (not a value, not a .md)."""
        for ref_name in refs_in(ref):
            source = self.producer.get(ref_name)
            producer = self.tools.get(self.plan.step(source).task) if source is not None else None
            if producer is None or "any" in kinds or producer.makes in kinds or producer.makes == "any":
                continue
            if producer.makes == "value":
                what = producer.returns.rstrip(".")
                self.add(
                    "arguments",
                    step.id,
                    (
                        f"'{name}' is '${ref_name}', what step {source} ({producer.name}) returns: a value ({what}), "
                        f"not a file. Give '{name}' an uploaded file name or the $name of a step that makes a PDF; "
                        f"{step.task} does its own searching."
                    ),
                )
            else:
                self.add(
                    "arguments",
                    step.id,
                    (
                        f"'{name}' is '${ref_name}', which step {source} ({producer.name}) makes as "
                        f"{_kinds_text((producer.makes,))}, but '{name}' of {step.task} needs {_kinds_text(kinds)}. "
                        f"Feed it an uploaded file or the result of a step that makes {_kinds_text(kinds)}."
                    ),
                )

    def _count(self, ref: str) -> int | None:
        if ref.startswith("$"):
            return self.page_count.get(ref)
        info = self.files.get(ref)
        return info.pages if info else None

    def _source(self, values: dict[str, Any]) -> str | None:
        value = values.get("file")
        if isinstance(value, str):
            key = value.strip()
            self.page_count.setdefault(key, self._count(key))
            return key
        return None

    def _sum_pages(self, values: dict[str, Any]) -> int | None:
        items = values.get("files")
        if not isinstance(items, list):
            return None
        counts = [self._count(str(i).strip()) for i in items]
        known = [c for c in counts if c is not None]
        return sum(known) if len(known) == len(counts) else None


_KIND_WORDS = {
    "pdf": "a PDF",
    "image": "an image",
    "office": "an Office file",
    "text": "a text/Markdown file",
    "value": "a value",
    "any": "any file",
}


def _kinds_text(kinds: tuple[str, ...]) -> str:
    return " or ".join(_KIND_WORDS.get(k, k) for k in kinds)


def _mentions_ref(value: Any) -> bool:
    return any(True for _ in refs_in(value))
