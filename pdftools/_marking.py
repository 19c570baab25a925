"""Helpers shared by the markup and redaction tools: colours, targets, "nothing found"."""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from .errors import NoMatchError
from .pages import describe_pages, parse_pages
from .textmatch import Match, Targets, find_matches

__all__ = ["NoMatchError", "locate", "describe_targets"]


def describe_targets(targets: Targets) -> str:
    """'"battery", the regex 'x' or phone numbers' for messages."""
    parts = [f'"{t}"' for t in targets.terms]
    if targets.regex:
        parts.append(f"the pattern {targets.regex!r}")
    parts += [f"{c} patterns" for c in targets.categories]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def locate(
    doc: pymupdf.Document,
    pages: object,
    terms: Sequence[str] | str | None,
    regex: str | None,
    categories: Sequence[str] | str | None,
    case_sensitive: bool,
    whole_words: bool,
    name: str,
    required: bool = True,
) -> tuple[list[int], Targets, list[Match]]:
    """Parse the selection and find every match; raise NoMatchError when ``required`` and none."""
    targets = Targets.build(terms, regex, categories, case_sensitive, whole_words)
    indices = parse_pages(pages, doc.page_count)
    matches = find_matches(doc, sorted(indices), targets)
    if required and not matches:
        where = describe_pages(indices, doc.page_count)
        hint = "" if where == "all pages" else " or search other pages"
        raise NoMatchError(
            f"No text matched {describe_targets(targets)} on {where} of {name}. "
            f"Check the spelling{hint}; scanned pages need OCR first (the ocr tool)."
        )
    return indices, targets, matches
