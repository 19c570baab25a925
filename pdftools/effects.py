"""Page-count effects for ``@tool(page_effect=...)``: how many pages a tool's resulting PDF has.

Each is a function of the checked argument values, the page count of the step's ``file`` and the
summed page count of its ``files`` (None where unknown); it returns None when the count cannot be
known before the tool runs. The verifier uses them to check later steps' page numbers.
"""

from __future__ import annotations

from typing import Any

from .errors import PdfToolError
from .pages import parse_pages

__all__ = ["added", "removed", "selected", "summed", "unknown"]

Effect = Any  # Callable[[dict[str, Any], int | None, int | None], int | None]


def _count(values: dict[str, Any], arg: str, pages_in: int | None) -> int | None:
    if pages_in is None:
        return None
    try:
        return len(parse_pages(values.get(arg), pages_in))
    except PdfToolError:
        return None


def selected(arg: str) -> Effect:
    """The result holds just the pages ``arg`` selects."""

    def effect(values: dict[str, Any], pages_in: int | None, files_sum: int | None) -> int | None:
        return _count(values, arg, pages_in)

    return effect


def removed(arg: str) -> Effect:
    """The result lacks the pages ``arg`` selects."""

    def effect(values: dict[str, Any], pages_in: int | None, files_sum: int | None) -> int | None:
        gone = _count(values, arg, pages_in)
        return None if gone is None or pages_in is None else pages_in - gone

    return effect


def added(pages: int) -> Effect:
    """The result has ``pages`` more pages."""

    def effect(values: dict[str, Any], pages_in: int | None, files_sum: int | None) -> int | None:
        return None if pages_in is None else pages_in + pages

    return effect


def unknown(values: dict[str, Any], pages_in: int | None, files_sum: int | None) -> int | None:
    """The count depends on the content (blank pages, split points): unknown until the tool runs."""
    return None


def summed(values: dict[str, Any], pages_in: int | None, files_sum: int | None) -> int | None:
    """The result holds every page of every input file."""
    return files_sum
