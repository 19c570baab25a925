"""An answer shown while the model writes it: the text of a JSON reply's string fields, read from the part so far.

The model replies in JSON (``{"answer": "…", "evidence": [1]}``); a person should see the words, not the JSON.
A draft is only shown: the finished reply is still checked (grounding, citations) before it becomes the answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

__all__ = ["partial_strings", "drafting"]

Listener = Callable[[str], None]
_FIELD = r'"{key}"\s*:\s*"((?:[^"\\]|\\.)*)(")?'  # a string field, its closing quote when written


def partial_strings(text: str, key: str) -> list[str]:
    """The values of every ``"key": "…"`` in the JSON text so far, the last one possibly cut short."""
    values = []
    for match in re.finditer(_FIELD.format(key=re.escape(key)), text):
        raw = match.group(1)
        if match.group(2) is None:
            raw = re.sub(r"\\(u[0-9a-fA-F]{0,3})?$", "", raw)  # an escape cut in half
        try:
            values.append(json.loads(f'"{raw}"'))
        except ValueError:
            values.append(raw)
    return values


def drafting(on_draft: Listener | None, key: str, bullets: bool = False) -> Listener | None:
    """A listener for :meth:`LLM.chat`'s ``on_text`` that tells ``on_draft`` the readable text so far."""
    if on_draft is None:
        return None
    shown = [""]

    def listen(text: str) -> None:
        values = [v.strip() for v in partial_strings(text, key) if v.strip()]
        draft = "\n".join(f"- {v}" for v in values) if bullets else (values[0] if values else "")
        if draft and draft != shown[0]:
            shown[0] = draft
            on_draft(draft)

    return listen
