"""Revisions as people say them, on the fast path: "instead" replaces, "don't / without / skip" removes,
"undo that" goes back. Anything else ("also …", a new clause) is the request with the critique added.

Each function returns the revised plan, or None when the critique is not of its shape or names nothing
the fast path understands (the planner then tries the combined request, then the model).
"""

from __future__ import annotations

import re

from docpilot.files import FileInfo
from docpilot.planning.fastpath import NeedInfo, fast_plan, hint_tools
from docpilot.planning.fastpath.extract import degrees_in, pages_in, position_in
from docpilot.planning.fastpath.spans import tag
from docpilot.plans.plan import REF, Plan
from pdftools import get_tool

__all__ = ["is_undo", "remove_steps", "replace_arguments", "replaces"]

_INSTEAD = re.compile(r"\b(?:instead(?:\s+of\s+[^,.;]+)?|rather(?:\s+than\s+[^,.;]+)?)\b", re.IGNORECASE)
_REMOVE = re.compile(
    r"^\s*(?:please\s+)?(?:don'?t|do\s+not|skip|drop|no|leave\s+out|without|remove\s+the\s+step\s+that)\b\s*(?:add\s+|do\s+)?",
    re.IGNORECASE,
)
_UNDO = re.compile(r"^\s*(?:undo(?:\s+(?:that|it|the\s+last\s+change))?|revert|go\s+back)\b\W*$", re.IGNORECASE)


def replaces(critique: str) -> bool:
    """The critique replaces something ("… instead", "rather than …")."""
    return bool(_INSTEAD.search(critique))


def is_undo(critique: str) -> bool:
    """ "undo that", "revert", "go back"."""
    return bool(_UNDO.match(critique))


def _files_of(plan: Plan, files: dict[str, FileInfo]) -> dict[str, FileInfo]:
    used = {str(v) for s in plan.steps for k, v in s.args.items() if k in ("file", "files") and isinstance(v, str)}
    used |= {str(x) for s in plan.steps for x in (s.args.get("files") or []) if isinstance(s.args.get("files"), list)}
    return {name: info for name, info in files.items() if name in used or info.kind == "image"}


def replace_arguments(previous: Plan, critique: str, files: dict[str, FileInfo]) -> Plan | None:
    """ "put the page numbers at the top instead": the matching step keeps its place, with the new values."""
    if not _INSTEAD.search(critique):
        return None
    core = _INSTEAD.sub("", critique).strip(" ,.;")
    try:
        wanted = fast_plan(core, _files_of(previous, files))
    except NeedInfo:
        return None
    if wanted is None:
        return _rebind(previous, core, files)
    data = previous.dump()
    for new in wanted.steps:
        same = [s for s in data["steps"] if s["task"] == new.task]
        if len(same) != 1:
            return None
        same[0]["args"].update({k: v for k, v in new.args.items() if k != "file"})
    return Plan.model_validate(data)


def _rebind(previous: Plan, core: str, files: dict[str, FileInfo]) -> Plan | None:
    """ "put them at the top instead", "make it red instead", "on page 3 instead": the values said go to the one
    step that takes them; a word that is not such a value (or a value two steps could take) gives None."""
    count = next((i.pages for i in files.values() if i.kind == "pdf" and i.pages), None)
    values: dict[tuple[str, ...], object] = {}
    for span in tag(core, []):
        if span.kind == "filler" or span.kind == "word" and span.text.lower() in ("them", "it", "those", "these"):
            continue
        if span.kind == "position":
            values[("position",)] = position_in(core)
        elif span.kind == "colour":
            values[("color",)] = span.text.lower()
        elif span.kind == "pages":
            values[("pages", "page")] = pages_in(core, count)
        elif span.kind == "modifier" and degrees_in(core) is not None:
            values[("degrees",)] = degrees_in(core)
        else:
            return None
    if not values or any(v is None for v in values.values()):
        return None
    data = previous.dump()
    for names, value in values.items():
        takers = [s for s in data["steps"] if any(n in get_tool(s["task"]).arg_docs for n in names)]
        if len(takers) != 1:
            return None
        name = next(n for n in names if n in get_tool(takers[0]["task"]).arg_docs)
        takers[0]["args"][name] = value
    return Plan.model_validate(data)


def remove_steps(previous: Plan, critique: str, files: dict[str, FileInfo]) -> Plan | None:
    """ "without the watermark", "don't compress it": the steps of that tool go; later steps take their input."""
    match = _REMOVE.match(critique)
    if not match:
        return None
    tasks = set(hint_tools(critique[match.end() :], files))
    gone = [s for s in previous.steps if s.task in tasks]
    if not gone or len(gone) == len(previous.steps):
        return None
    data = previous.dump()
    for step in gone:
        source = step.args.get("file")
        data["steps"] = [s for s in data["steps"] if s["id"] != step.id]
        for later in data["steps"]:
            for key, value in later["args"].items():
                if isinstance(value, str) and value.strip() == f"${step.returns}":
                    later["args"][key] = source
            later["dep"] = [d for d in later["dep"] if d != step.id]
            if isinstance(source, str) and (ref := REF.match(source.strip())):
                producer = next((s["id"] for s in data["steps"] if s["return"] == ref.group(1)), None)
                if producer is not None and source in later["args"].values() and producer not in later["dep"]:
                    later["dep"] = sorted([*later["dep"], producer])
    return Plan.model_validate(data)
