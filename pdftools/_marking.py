"""Helpers shared by the markup and redaction tools: what to mark, and "nothing found".

What to mark comes as literal terms, a regular expression and categories. Pattern categories go
through :class:`pdftools.textmatch.Targets`; the other kinds (people, organisations, parties,
headings; "pii" expands to its kinds) through :mod:`pdftools.entity_finders`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from .entity_finders import entity_matches
from .entity_kinds import resolve_kinds
from .errors import NoMatchError
from .pages import describe_pages, parse_pages
from .patterns import CATEGORIES
from .textmatch import Match, Targets, find_matches

__all__ = ["NoMatchError", "locate", "describe_targets"]

_KIND_WORDS = {
    "person": "people's names",
    "organization": "organisation names",
    "party": "defined parties",
    "heading": "section headings",
}


def describe_targets(targets: Targets | None, kinds: Sequence[str] = ()) -> str:
    """'"battery", the regex 'x' or phone numbers' for messages."""
    parts = [f'"{t}"' for t in targets.terms] if targets else []
    if targets and targets.regex:
        parts.append(f"the pattern {targets.regex!r}")
    parts += [f"{c} patterns" for c in (targets.categories if targets else [])]
    parts += [_KIND_WORDS.get(k, k) for k in kinds]
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
) -> tuple[list[int], list[Targets], list[Match]]:
    """Parse the selection and find every match; raise NoMatchError when ``required`` and none.

    Returns the page indices, the targets that re-find what was matched (for a redaction's check:
    the terms, regex and pattern categories as given, and each entity found as a literal,
    case-sensitive whole-word term) and the matches in page order.
    """
    kinds = resolve_kinds(categories)
    patterns = [k for k in kinds if k in CATEGORIES]
    others = [k for k in kinds if k not in CATEGORIES]
    has_terms = bool(terms if isinstance(terms, str) else [t for t in terms or [] if t and t.strip()])
    targets = None
    if has_terms or regex or patterns or not others:
        targets = Targets.build(terms, regex, patterns, case_sensitive, whole_words)  # "Nothing to look for"
    indices = parse_pages(pages, doc.page_count)
    chosen = sorted(indices)
    matches = find_matches(doc, chosen, targets) if targets else []
    checks = [targets] if targets else []
    if others:
        found = entity_matches(doc, chosen, others)
        if found:
            texts = sorted({" ".join(m.text.split()) for m in found})
            checks.append(Targets.build(terms=texts, case_sensitive=True, whole_words=True))
        matches = sorted(matches + found, key=lambda m: m.page)
    if required and not matches:
        where = describe_pages(indices, doc.page_count)
        hint = "" if where == "all pages" else " or search other pages"
        raise NoMatchError(
            f"No text matched {describe_targets(targets, others)} on {where} of {name}. "
            f"Check the spelling{hint}; scanned pages need OCR first (the ocr tool)."
        )
    return indices, checks, matches
