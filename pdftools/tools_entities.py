"""Finding entities in a PDF: emails, phone numbers, SSNs, card/account numbers, dates, money, URLs.

Each entity kind has a finder ``(doc, page indices, kinds) -> [(page, kind, text)]``.
The pattern kinds share one finder built on :mod:`pdftools.textmatch` (text as a
reader sees it, across line breaks and ligatures). Kinds that need more than a
pattern (person and organisation names, addresses, section headings) plug in as
further finders in :data:`_FINDERS` without changing the tool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pymupdf

from .docio import open_pdf
from .errors import ToolArgumentError
from .pages import Pages, parse_pages
from .patterns import CATEGORIES, normalize_category
from .registry import generic_answer, tool
from .textmatch import Targets, find_matches

__all__ = ["find_entities"]

MAX_ENTITIES = 1000  # occurrences returned; a longer list is no use to a reader or a prompt

Found = list[tuple[int, str, str]]
Finder = Callable[[pymupdf.Document, list[int], list[str]], Found]


def _pattern_entities(doc: pymupdf.Document, indices: list[int], kinds: list[str]) -> Found:
    targets = Targets.build(categories=kinds)
    return [(m.page, m.kind, " ".join(m.text.split())) for m in find_matches(doc, indices, targets)]


# kind -> finder; kinds sharing a finder are looked up together in one pass.
_FINDERS: dict[str, Finder] = {kind: _pattern_entities for kind in CATEGORIES}


def _kinds(categories: str | list[str] | None) -> list[str]:
    if not categories:
        return list(_FINDERS)
    names = [categories] if isinstance(categories, str) else list(categories)
    kinds: list[str] = []
    for name in names:
        if not name.strip():
            continue
        try:
            kind = normalize_category(name)
        except ToolArgumentError:
            kind = name.strip().lower()
        if kind not in _FINDERS:
            raise ToolArgumentError(
                f"'{name}' is not an entity kind this tool can find yet. Choose from: {', '.join(_FINDERS)}."
            )
        if kind not in kinds:
            kinds.append(kind)
    return kinds or list(_FINDERS)


def _find_entities_answer(value: Any) -> str:
    if not isinstance(value, list):
        return generic_answer(value)
    shown = ", ".join(f"{e.get('text')} (p. {e.get('page')})" for e in value[:8])
    return f"Found {len(value)}: {shown}{' …' if len(value) > 8 else ''}." if value else "Nothing was found."


@tool(
    kind="value",
    category="understanding",
    explain="Find [{categories} ]in {file}[ on {pages}]",
    result_name="entities",
    answer=_find_entities_answer,
)
def find_entities(
    file: str,
    categories: str | list[str] | None = None,
    pages: Pages = "all",
) -> list[dict]:
    """Find emails, phone numbers, SSNs, card and account numbers, dates, money amounts and URLs.

    Args:
        file: The PDF to read.
        categories: Kinds to find: email, phone, ssn, card, account, date, money, url (default: all).
        pages: Pages to read.

    Returns:
        A list of {"page", "category", "text"}, one per occurrence in reading order (at most 1000).
    """
    kinds = _kinds(categories)
    with open_pdf(file) as doc:
        indices = sorted(parse_pages(pages, doc.page_count))
        groups: dict[Finder, list[str]] = {}
        for kind in kinds:
            groups.setdefault(_FINDERS[kind], []).append(kind)
        found: Found = []
        for finder, group in groups.items():
            found += finder(doc, indices, group)
    found.sort(key=lambda item: item[0])  # stable: reading order within a page is kept
    return [{"page": page + 1, "category": kind, "text": text} for page, kind, text in found[:MAX_ENTITIES]]
