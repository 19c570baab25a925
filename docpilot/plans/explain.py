"""Plain-language explanation of a verified plan, rendered from the registry's templates (no LLM).

A template is text with ``{arg}`` fields; a ``[...]`` segment is dropped when a field
inside it has no value, so "Watermark {pages} of {file}[ with the text {text}]" reads
well with or without the optional argument. Secret arguments (what each tool declares) are
always masked (:mod:`pdftools.masking`).
"""

from __future__ import annotations

import re
from typing import Any

from docpilot.plans.plan import REF, Plan
from pdftools import Tool
from pdftools.masking import MASK, mask_args

__all__ = ["explain_plan", "explain_step", "format_value"]

_FIELD = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")
_CATEGORY_WORDS = {
    "email": "email addresses",
    "phone": "phone numbers",
    "ssn": "social security numbers",
    "card": "card numbers",
    "account": "account numbers",
    "date": "dates",
    "money": "amounts of money",
    "url": "web addresses",
}


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _pages(value: Any) -> str:
    text = str(value).strip().lower()
    if text in ("all", "", "none"):
        return "all pages"
    if text == "last":
        return "the last page"
    if text == "first" or text == "1":
        return "page 1" if text == "1" else "the first page"
    if isinstance(value, list):
        return "pages " + _join([str(v) for v in value])
    if re.fullmatch(r"-?\d+", text):
        return f"page {text}"
    return f"pages {value}"


def format_value(name: str, value: Any, returns: dict[str, int]) -> str:
    """One argument as a reader wants to see it."""
    if value == MASK:
        return MASK
    if isinstance(value, str):
        match = REF.match(value.strip())
        if match:
            step = returns.get(match.group(1))
            return f"the result of step {step}" if step else value
    if name == "pages":
        return _pages(value)
    if name == "categories" and value:
        items = value if isinstance(value, list) else [value]
        return _join([_CATEGORY_WORDS.get(str(c).lower(), str(c)) for c in items])
    if isinstance(value, dict):
        return _join([f'{k} = "{v}"' for k, v in value.items()])
    if isinstance(value, list):
        return _join(
            [
                format_value(name, v, returns)
                if isinstance(v, str) and v.startswith("$")
                else (f'"{v}"' if isinstance(v, str) else str(v))
                for v in value
            ]
        )
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and name in (
        "text",
        "terms",
        "header",
        "footer",
        "format",
        "regex",
        "new_name",
        "output",
        "title",
        "author",
        "name",
    ):
        return f'"{value}"'
    return str(value)


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def render(template: str, args: dict[str, Any], returns: dict[str, int]) -> str:
    def optional(match: re.Match[str]) -> str:
        fields = _FIELD.findall(match.group(1))
        return "" if any(_empty(args.get(f)) for f in fields) else match.group(1)

    text = _OPTIONAL.sub(optional, template)
    text = _FIELD.sub(
        lambda m: format_value(m.group(1), args.get(m.group(1)), returns) if not _empty(args.get(m.group(1))) else "",
        text,
    )
    return re.sub(r"\s{2,}", " ", text).replace(" ,", ",").replace(" .", ".").strip()


def explain_step(step: Any, tool: Tool, returns: dict[str, int]) -> str:
    args = mask_args(step.task, {**tool.defaults(), **step.args})
    line = render(tool.explain, args, returns)
    if args.get("output") and "{output}" not in tool.explain:
        line += f', saved as "{args["output"]}"'
    return line[0].upper() + line[1:] if line else tool.summary


def explain_plan(plan: Plan, tools: dict[str, Tool], order: list[int] | None = None) -> str:
    """Numbered steps a non-expert understands, in execution order."""
    returns = {s.returns: s.id for s in plan.steps}
    ids = order or [s.id for s in plan.steps]
    lines = []
    for number, step_id in enumerate(ids, start=1):
        step = plan.step(step_id)
        lines.append(f"{number}. {explain_step(step, tools[step.task], returns)}.")
    return "\n".join(lines)
