"""One line for the user about what a run did, with the answer to their question when there is one."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["run_message", "answer_text"]


def _pages(pages: list[int]) -> str:
    if not pages:
        return "no pages"
    words = [str(p) for p in pages]
    if len(words) == 1:
        return f"page {words[0]}"
    return "pages " + ", ".join(words[:-1]) + " and " + words[-1]


def answer_text(task: str, value: Any) -> str:
    """A sentence for a value a step returned."""
    if task == "count_pages":
        return f"The document has {value} page{'s' if value != 1 else ''}."
    if task == "search_text" and isinstance(value, dict):
        count = value.get("count", 0)
        if not count:
            return "No matches were found."
        return f"Found {count} match{'es' if count != 1 else ''}, on {_pages(value.get('pages', []))}."
    if task == "check_password" and isinstance(value, dict):
        return str(value.get("summary") or ("It is password-protected." if value.get("needs_password")
                                            else "It is not password-protected."))
    if task == "find_entities" and isinstance(value, list):
        shown = ", ".join(f"{e.get('text')} (p. {e.get('page')})" for e in value[:8])
        return f"Found {len(value)}: {shown}{' …' if len(value) > 8 else ''}." if value else "Nothing was found."
    if isinstance(value, list):
        return f"{len(value)} item{'s' if len(value) != 1 else ''} found."
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in list(value.items())[:6] if v not in (None, "", [], {}))
    return str(value)


def run_message(outputs: list[str], answers: list[dict[str, Any]], steps: int) -> str:
    parts = []
    if answers:
        last = answers[-1]
        parts.append(answer_text(last["task"], last["value"]))
    if outputs:
        names = [os.path.basename(p) for p in outputs]
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        parts.append(f"Done in {steps} step{'s' if steps != 1 else ''}: wrote {shown}.")
    elif not answers:
        parts.append(f"Done in {steps} step{'s' if steps != 1 else ''}.")
    return " ".join(parts)
