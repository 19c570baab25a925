"""Every span of a clause accounted for by the steps the rules made, or the clause is not understood.

A colour, a size, a count, a page reference, a quoted term, a format, a modifier ("except",
"diagonally", "twice") — each must show in some step's arguments (or be a word that is known to mean
what the step does). What is left over is what the fast path did not understand: the request goes
to the model (or the person is asked) instead of a plan that silently ignores it. Before checking,
argument words the rules leave to every tool alike (a colour, a font size, an opacity, a resolution)
are bound to the one step in the clause whose tool takes them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from docpilot.planning.fastpath.extract import PII, categories_in, format_in
from docpilot.planning.fastpath.rules import Intent
from docpilot.planning.fastpath.spans import VERB_TASKS, Span
from pdftools import get_tool

__all__ = ["bind_arguments", "leftovers"]

_PAGE_KEYS = ("pages", "page", "after", "at", "order", "every")
_POSITION_KEYS = ("position", "align", "header", "footer", "after", "rect", "order", "degrees", "margin")


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key).lower()
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, str):
        yield value.lower()


def _numbers(value: Any) -> Iterable[float]:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield float(value)
    elif isinstance(value, dict | list | tuple):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _numbers(item)
    elif isinstance(value, str):
        for digits in re.findall(r"\d+(?:\.\d+)?", value):
            yield float(digits)


def _takes(task: str, arg: str) -> bool:
    return arg in get_tool(task).arg_docs


def bind_arguments(spans: list[Span], intents: list[Intent], clause: str) -> None:
    """Colours, font sizes, opacities and resolutions said in the clause, set on the one step that takes them."""
    low = clause.lower()
    for span in spans:
        arg, value = _argument_of(span, low)
        if arg is None:
            continue
        open_ = [i for i in intents if _takes(i.task, arg) and arg not in i.args]
        if len(open_) == 1 and not any(arg in i.args and i.args[arg] == value for i in intents):
            open_[0].args[arg] = value


def _argument_of(span: Span, low: str) -> tuple[str | None, Any]:
    if span.kind == "colour":
        return "color", span.text.lower()
    if span.kind == "measure":
        number, unit = span.value
        if unit in ("%", "percent") and re.search(r"opac|transparen|see-through|strength|faint", low):
            return "opacity", round(number / 100, 2)
        if unit == "dpi":
            return "dpi", int(number)
        if unit in ("pt", "pts", "point", "points") and re.search(r"\bfont|\btext|\bsize|\bletters?\b", low):
            return "font_size", number
    if span.kind == "number" and re.search(rf"\b(?:font(?:\s+size)?|size|font-size)\s+(?:of\s+)?{span.text}\b", low):
        return "font_size", span.value
    return None, None


def leftovers(spans: list[Span], intents: list[Intent], file_names: list[str]) -> list[Span]:
    """The spans no step accounts for (empty when the clause is fully understood)."""
    strings = [s for i in intents for s in _strings(i.args)]
    numbers = [n for i in intents for n in _numbers(i.args)]
    keys = {k for i in intents for k in i.args}
    tasks = {i.task for i in intents}
    said = {w for i in intents for w in i.words}
    names = [n.lower() for n in file_names]

    def in_args(text: str) -> bool:
        text = text.lower()
        return any(text == s or re.search(rf"(?<![\w]){re.escape(text)}(?![\w])", s) for s in strings)

    def has_number(value: float) -> bool:
        return any(abs(n - value) < 1e-9 or abs(abs(n) - abs(value)) < 1e-9 for n in numbers)

    checks: dict[str, Callable[[Span], bool]] = {
        "filler": lambda s: True,
        "file": lambda s: True,
        "quote": lambda s: in_args(str(s.value)) or str(s.value).lower() in names or str(s.value).lower() in strings,
        "pages": lambda s: bool(keys & set(_PAGE_KEYS)) or _means_all(s.text),
        "number": lambda s: has_number(float(s.value)) or bool(keys & {"count"}) and s.value == 1,
        "measure": lambda s: _measure_used(s, numbers, keys, intents),
        "colour": lambda s: any(_colour(s.text) in x for x in strings),
        "position": lambda s: bool(keys & set(_POSITION_KEYS)),
        "format": lambda s: _format_used(s.text, intents),
        "category": lambda s: _category_used(s.text, intents),
        "verb": lambda s: bool(tasks & set(_verb_tasks(s.text))),
        "modifier": lambda s: set(s.text.lower().split()) <= said or _modifier_used(s.text.lower(), intents),
        "word": lambda s: s.text.lower() in said or in_args(s.text) or any(s.text.lower() in n for n in names),
    }
    literal = ("word", "modifier", "position", "colour", "number", "format", "verb", "category")
    return [s for s in spans if not (checks[s.kind](s) or s.kind in literal and in_args(s.text))]


def _means_all(text: str) -> bool:
    """'every page', 'all pages', 'the whole page': the default of every tool that takes pages."""
    return (
        re.fullmatch(
            r"(?:every|each|all(?:\s+the)?|all\s+of\s+the|the\s+whole|the\s+entire|whole|entire)\s+pages?",
            text,
            re.IGNORECASE,
        )
        is not None
    )


def _colour(text: str) -> str:
    return text.lower().split()[-1]


def _measure_used(span: Span, numbers: list[float], keys: set[str], intents: list[Intent]) -> bool:
    number, unit = span.value
    if unit in ("kb", "mb", "gb", "byte", "bytes"):
        return False
    if unit in ("%", "percent"):
        return any(abs(n - number / 100) < 1e-9 or abs(n - number) < 1e-9 for n in numbers)
    if unit in ("mm", "cm", "in", "inch", "inches"):
        wanted = "in" if unit.startswith("in") else unit
        return any(i.args.get("unit") == wanted for i in intents) and number in numbers
    if unit in ("page", "pages"):
        return number in numbers or bool(keys & {"pages", "every", "at"})
    return any(abs(abs(n) - abs(number)) < 1e-9 for n in numbers)


def _verb_tasks(text: str) -> tuple[str, ...]:
    for pattern, tasks in VERB_TASKS.items():
        if re.fullmatch(pattern, text, re.IGNORECASE):
            return tasks
    return ()


def _format_used(text: str, intents: list[Intent]) -> bool:
    fmt = format_in(text) or ("png" if re.match(r"photo", text, re.IGNORECASE) else None)
    for intent in intents:
        tool = get_tool(intent.task)
        if fmt and tool.converts_to == fmt:
            return True
        output = str(intent.args.get("output", "")).lower()
        if fmt and output.endswith(f".{fmt[:3]}"):
            return True
        if fmt in ("png", "jpeg") and (
            intent.task in ("extract_images", "images_to_pdf", "add_image")
            or "image" in intent.args
            or tool.converts_to in ("png", "jpeg", "tiff")
        ):
            return True
        if fmt == "text" and intent.task == "extract_text":
            return True
    return False


def _category_used(text: str, intents: list[Intent]) -> bool:
    wanted = categories_in(text) or PII
    found = {c for i in intents for c in i.args.get("categories", [])}
    return set(wanted) <= found


_MODIFIERS: list[tuple[str, Callable[[Intent], bool]]] = [
    (r"diagonal(?:ly)?", lambda i: i.task == "add_watermark" and i.args.get("rotation", 45) == 45),
    (r"horizontal(?:ly)?", lambda i: i.args.get("rotation") == 0),
    (r"vertical(?:ly)?", lambda i: i.args.get("rotation") in (90, -90)),
    (r"clockwise|counter-?clockwise|anti-?clockwise|upside|sideways|landscape|portrait", lambda i: "degrees" in i.args),
    (r"reverse|reversed|backwards?|opposite", lambda i: i.args.get("order") == "reverse"),
    (r"lossless|gently|light|lightly|minimum|quality", lambda i: i.args.get("level") == "low"),
    (r"strongly|aggressive(?:ly)?|heavily|maximum|max|highest|lowest", lambda i: i.args.get("level") == "high"),
    (r"small|smaller|tiny", lambda i: i.task == "compress"),
    (r"faint|light|transparent|semi-transparent|see-through|opaque|solid", lambda i: "opacity" in i.args),
    (r"large|larger|big|bigger|huge", lambda i: "font_size" in i.args),
    (
        r"english|german|french|spanish|italian|dutch|portuguese|chinese|japanese|arabic|russian",
        lambda i: "language" in i.args,
    ),
    (r"only", lambda i: i.task == "extract_pages" or any(i.args.get(k) not in (None, "all") for k in _PAGE_KEYS)),
    (r"each\s+side|all\s+sides|sides", lambda i: "margin" in i.args),
]


def _modifier_used(word: str, intents: list[Intent]) -> bool:
    for pattern, used in _MODIFIERS:
        if re.fullmatch(pattern, word) and any(used(i) for i in intents):
            return True
    return False
