"""Text the web app shows: secrets masked (through the service)."""

from __future__ import annotations

from typing import Any

from docpilot import service

__all__ = ["mask_text"]


def mask_text(text: str, outcome: Any = None) -> str:
    """``text`` as shown in the chat and logs: the plan's secrets and any typed "password X" masked."""
    return service.mask_text(text, outcome)
