"""Steps that say one action in two: joined into one step.

A model that reads "redact the email addresses and phone numbers" may write one step for each kind ("Redact
every email. Redact every phone."): the same tool twice in a row, the second on the first's result, the same
values but for a list (the kinds, the terms). One step with both lists does the same, reads as the person said
it, and runs once. Nothing else is joined: a step on another file, another page, another colour, or a value that
is not a list stays its own step.

A page extraction whose only use is a step that reads pages into something else (a Word file, images, a
summary) says the pages of that step: "the conclusion chapter as Markdown" is one conversion of those pages,
not a PDF of them as well, unless the request asks for the extraction in its own words ("pull it out").
"""

from __future__ import annotations

from typing import Any

from docpilot.plans.edit import schema_types
from docpilot.plans.plan import Plan, Step
from pdftools import Tool
from pdftools.words import spaced

__all__ = ["join_repeated", "fold_extraction"]

_EXTRACTS = "extract_pages"


def join_repeated(plan: Plan, tools: dict[str, Tool]) -> Plan:
    """``plan`` with each step that repeats the step before it on its result joined into that step."""
    steps: list[Step] = []
    renamed: dict[str, str] = {}  # the joined step's result name → the name of the step it joined
    for step in plan.steps:
        step = _renamed(step, renamed)
        last = steps[-1] if steps else None
        joined = _join(last, step, tools.get(step.task)) if last is not None else None
        if joined is None:
            steps.append(step)
            continue
        steps[-1] = joined
        renamed[step.returns] = joined.returns
        renamed[f"#{step.id}"] = str(joined.id)
    return plan if len(steps) == len(plan.steps) else _renumbered(steps)


def _renumbered(steps: list[Step]) -> Plan:
    """A plan of ``steps`` with ids 1, 2, 3 … again, each dependency on a step that is gone dropped."""
    number = {s.id: i for i, s in enumerate(steps, 1)}
    return Plan(
        steps=[
            s.model_copy(update={"id": number[s.id], "dep": [number[d] for d in s.dep if d in number]}) for s in steps
        ]
    )


def _join(first: Step, second: Step, tool: Tool | None) -> Step | None:
    if tool is None or first.task != second.task or second.args.get("file") != f"${first.returns}":
        return None
    lists = {name for name, prop in tool.schema()["properties"].items() if "array" in schema_types(prop)}
    args = dict(first.args)
    for name in set(first.args) | set(second.args):
        if name == "file":
            continue
        a, b = first.args.get(name), second.args.get(name)
        if a == b:
            continue
        if name not in lists or not isinstance(a, list | None) or not isinstance(b, list | None):
            return None
        args[name] = list(dict.fromkeys([*(a or []), *(b or [])]))
    if args == first.args:
        return None  # the same step twice ("rotate page 2 by 90°" twice is half a turn): not one said in two
    return first.model_copy(update={"args": args})


def _renamed(step: Step, renamed: dict[str, str]) -> Step:
    """The step reading the joined step's result reads the step it was joined into."""
    if not renamed:
        return step
    args = {k: _swap(v, renamed) for k, v in step.args.items()}
    dep = list(dict.fromkeys(int(renamed.get(f"#{d}", d)) for d in step.dep))
    return step.model_copy(update={"args": args, "dep": dep})


def _swap(value: Any, renamed: dict[str, str]) -> Any:
    if isinstance(value, str) and value.startswith("$") and value[1:] in renamed:
        return f"${renamed[value[1:]]}"
    if isinstance(value, list):
        return [_swap(v, renamed) for v in value]
    return value


def fold_extraction(plan: Plan, tools: dict[str, Tool], request: str) -> Plan:
    """``plan`` with a page extraction read only by the next step, a tool that makes no PDF of its pages and
    takes pages, folded into that step's pages; the plan itself when the request's words ask for the extraction
    or nothing folds."""
    extract = tools.get(_EXTRACTS)
    if extract is None or len(plan.steps) < 2:
        return plan
    said = spaced(request, "a-z")
    if any(f" {phrase} " in said for phrase in (*extract.words.verbs, *extract.words.makes)):
        return plan
    steps = list(plan.steps)
    for index, step in enumerate(steps[:-1]):
        after = steps[index + 1]
        tool = tools.get(after.task)
        result = f"${step.returns}"
        if (
            step.task != _EXTRACTS
            or set(step.args) - {"file", "pages"}
            or tool is None
            or tool.kind == "pdf"
            or "pages" not in tool.schema()["properties"]
            or after.args.get("pages") not in (None, "all")
            or after.args.get("file") != result
            or any(result in str(s.args) for s in steps[index + 2 :])
        ):
            continue
        args = {**after.args, "file": step.args["file"], "pages": step.args["pages"]}
        return _renumbered(
            [*steps[:index], after.model_copy(update={"args": args, "dep": step.dep}), *steps[index + 2 :]]
        )
    return plan
