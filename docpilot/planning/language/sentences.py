"""Plans written as command sentences, and command sentences read back into plans.

One sentence per step, in order. A step works on the result of the latest step that made a PDF, or,
before any, on the one uploaded PDF; a sentence names its file (`` of 'b.pdf'``, `` of the result of step
1``) only when it works on something else. A sentence is read only when every word is accounted for;
what cannot be read is returned as such, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from docpilot.files import FileInfo
from docpilot.planning.language.forms import Form, form_of
from docpilot.plans.plan import REF, Plan, Step
from pdftools import Tool

__all__ = ["Reading", "write_plan", "read_plan", "split_sentences", "CANNOT"]

CANNOT = re.compile(r"^\s*cannot:\s*(.+)$", re.I)
_SENTENCE_END = re.compile(r"(?<=\.)\s+|\n+")


@dataclass
class Reading:
    """What the sentences said: the plan, or the sentences (and their words) that could not be read."""

    sentences: list[str]
    plan: Plan | None = None
    unread: list[str] = field(default_factory=list)  # "sentence: the words not read"
    cannot: str | None = None  # the sentences said the request cannot be done, and why

    @property
    def ok(self) -> bool:
        return self.plan is not None and not self.unread


def _default_pdf(files: dict[str, FileInfo]) -> str | None:
    pdfs = [name for name, info in files.items() if info.kind == "pdf"]
    return pdfs[0] if len(pdfs) == 1 else None


def write_plan(plan: Plan, tools: dict[str, Tool], files: dict[str, FileInfo]) -> list[str]:
    """The plan as command sentences, one per step."""
    refs: dict[str, int] = {}
    current: str | None = None
    out: list[str] = []
    for number, step in enumerate(plan.steps, start=1):
        tool = tools[step.task]
        args = tool.validate(step.args) if step.args.keys() <= tool.fields.keys() else dict(step.args)
        file = args.get("file")
        implicit = file is not None and (file == (f"${current}" if current else _default_pdf(files)))
        out.append(form_of(tool).write(args, refs, implicit))
        refs[step.returns] = number
        if tool.kind == "pdf":
            current = step.returns
    return out


def split_sentences(text: str) -> list[str]:
    """Sentences one per line, or run together after full stops (a full stop inside quotes does not end one)."""
    out: list[str] = []
    for line in text.splitlines():
        start, quote = 0, ""
        for index, char in enumerate(line):
            if quote:
                quote = "" if char == quote else quote
            elif char in "'\"" and (index == 0 or not line[index - 1].isalnum()):
                quote = char
            elif char == "." and (index + 1 == len(line) or line[index + 1] == " "):
                out.append(line[start : index + 1].strip())
                start = index + 1
        if line[start:].strip():
            out.append(line[start:].strip())
    return [s for s in out if s]


def read_plan(text: str, tools: dict[str, Tool], files: dict[str, FileInfo]) -> Reading:
    """Read command sentences into a plan; every sentence must be read whole."""
    sentences = split_sentences(text)
    reading = Reading(sentences)
    if len(sentences) == 1 and (cannot := CANNOT.match(sentences[0])):
        reading.cannot = cannot.group(1).strip()
        return reading
    forms = sorted((form_of(t) for t in tools.values()), key=lambda f: len(f.literal), reverse=True)
    names: dict[int, str] = {}
    used: set[str] = set()
    current: str | None = None
    steps: list[Step] = []
    for number, sentence in enumerate(sentences, start=1):
        body = sentence.rstrip().removesuffix(".").strip()
        found = _read_one(body, forms, names)
        if isinstance(found, str):
            reading.unread.append(f"{sentence} (not read: {found})" if found != body else sentence)
            continue
        form, args = found
        tool = form.tool
        if "file" in tool.fields and "file" not in args:
            default = f"${current}" if current else _default_pdf(files)
            if default is None:
                reading.unread.append(f"{sentence} (not read: which file)")
                continue
            args["file"] = default
        name = _fresh(tool.result_name, used)
        deps = sorted({n for n, ref in names.items() for v in _values(args) if v == f"${ref}"})
        steps.append(Step(id=number, task=tool.name, dep=deps, args=args, returns=name))  # type: ignore[call-arg]
        if tool.kind in ("pdf", "files"):
            names[number] = name
        if tool.kind == "pdf":
            current = name
    if not reading.unread and steps:
        reading.plan = Plan(steps=steps)
    return reading


def _read_one(body: str, forms: list[Form], names: dict[int, str]) -> tuple[Form, dict[str, Any]] | str:
    """The form that reads ``body`` whole and its arguments, else the words the closest form left unread."""
    closest = body
    for form in forms:
        match = form.read(body, names)
        if match is None:
            continue
        if not match.unread:
            return form, match.args
        if len(match.unread) < len(closest):
            closest = match.unread
    return closest


def _values(args: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    for value in args.values():
        out.extend(value if isinstance(value, list) else [value])
    return [v for v in out if isinstance(v, str) and REF.match(v)]


def _fresh(name: str, used: set[str]) -> str:
    candidate, count = name, 1
    while candidate in used:
        count += 1
        candidate = f"{name}_{count}"
    used.add(candidate)
    return candidate
