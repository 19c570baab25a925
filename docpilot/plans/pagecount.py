"""How many pages a step's result has, from its tool and arguments (for checking later steps)."""

from __future__ import annotations

from typing import Any, Callable

from pdftools.errors import PdfToolError
from pdftools.pages import parse_pages

__all__ = ["pages_after"]


def _selected(values: dict[str, Any], key: str, count: int) -> int | None:
    try:
        return len(parse_pages(values.get(key), count))
    except PdfToolError:
        return None


_RULES: dict[str, Callable[[dict[str, Any], int], int | None]] = {
    "extract_pages": lambda v, n: _selected(v, "pages", n),
    "delete_pages": lambda v, n: (lambda k: None if k is None else n - k)(_selected(v, "pages", n)),
    "insert_blank_pages": lambda v, n: n + int(v.get("count") or 1) * (_selected(v, "after", n) or 1),
    "add_page_with_text": lambda v, n: n + 1,
    "remove_blank_pages": lambda v, n: None,
    "split_pdf": lambda v, n: None,
}
_NOT_A_PDF = {"value", "files"}


def pages_after(task: str, values: dict[str, Any], pages_in: int | None, files_sum: int | None) -> int | None:
    """The page count of the PDF a step returns, or None when it cannot be known in advance."""
    if task == "combine_files":
        return files_sum
    if pages_in is None:
        return None
    rule = _RULES.get(task)
    return rule(values, pages_in) if rule else pages_in
