"""Text the web app shows: secrets masked (through the service), questions told apart from actions."""

from __future__ import annotations

import re
from typing import Any

from docpilot import service

__all__ = ["looks_like_question", "mask_text"]

_QUESTION = re.compile(
    r"^\s*(what|what's|whats|who|whom|whose|when|where|why|which|how|does|do|did|is|are|was|were|can|could|"
    r"should|would|will|explain|summari[sz]e|describe|tell me)\b",
    re.IGNORECASE,
)


def mask_text(text: str, outcome: Any = None) -> str:
    """``text`` as shown in the chat and logs: the plan's secrets and any typed "password X" masked."""
    return service.mask_text(text, outcome)


def looks_like_question(text: str) -> bool:
    """A question about the documents rather than an action on them."""
    return text.strip().endswith("?") or bool(_QUESTION.match(text))
