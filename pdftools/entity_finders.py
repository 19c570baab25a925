"""Where entities are on the page: one entry point for find_entities and the marking tools.

Pattern kinds are found by :mod:`pdftools.textmatch`, headings by :mod:`pdftools._headings`. Named-entity
kinds (person, organization, party) need a language model, which never loads inside a tool: each
selected page's reading text (as textmatch reads it) goes to the host with :func:`pdftools.hosted.call`
(``"entities"``, ``{"texts": [...], "kinds": [...]}``), which answers ``{"spans": [[{start, end, kind,
text, score}, ...] per text], "english": [bool per text]}``. The first two pages always go along as
context (where parties are defined and names are first written in full). Every span is checked against the page
text it claims (the characters at ``start:end`` must be ``text``); one that is not there is dropped,
and a kept one gets the boxes of its characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

from . import hosted
from ._headings import heading_matches
from .entity_kinds import LAYOUT_KINDS, NER_KINDS
from .errors import LanguageError
from .pages import describe_pages
from .patterns import CATEGORIES
from .textmatch import Match, PageText, Targets, find_matches, page_text, span_match

__all__ = ["entity_matches", "model_kinds"]

HOST_CALL = "entities"
CONTEXT_PAGES = 2  # the document's first pages, always sent as context for the selected ones


def model_kinds(kinds: Sequence[str]) -> list[str]:
    """The kinds among ``kinds`` that need the host's language model."""
    return [k for k in kinds if k in NER_KINDS]


def entity_matches(doc: pymupdf.Document, indices: Sequence[int], kinds: Sequence[str]) -> list[Match]:
    """Every entity of ``kinds`` on pages ``indices`` (0-based), grouped by page in page order."""
    pages = sorted(indices)
    found: list[Match] = []
    patterns = [k for k in kinds if k in CATEGORIES]
    if patterns:
        found += find_matches(doc, pages, Targets.build(categories=patterns))
    if any(k in LAYOUT_KINDS for k in kinds):
        found += heading_matches(doc, pages)
    named = model_kinds(kinds)
    if named:
        found += _hosted_matches(doc, pages, named)
    found.sort(key=lambda m: m.page)  # stable: each finder's reading order within a page is kept
    return found


def _hosted_matches(doc: pymupdf.Document, pages: list[int], kinds: list[str]) -> list[Match]:
    # The first pages go along as context even when not selected: parties are defined there, and a
    # name written in full there is recognised when only the surname appears on a selected page.
    context = [i for i in range(min(CONTEXT_PAGES, doc.page_count)) if i not in pages]
    texts: dict[int, PageText] = {}
    for index in sorted(pages + context):
        pt = page_text(doc[index])
        if pt.text.strip():
            texts[index] = pt
    if not any(i in texts for i in pages):
        return []
    order = list(texts)
    reply = hosted.call(HOST_CALL, {"texts": [texts[i].text for i in order], "kinds": kinds})
    spans, english = _reply(reply, len(order))
    foreign = [index for index, ok in zip(order, english, strict=True) if not ok and index in pages]
    if foreign:
        where = describe_pages(foreign, doc.page_count)
        raise LanguageError(
            f"Entities are English-only: {where} read as another language, so names, organisations and "
            f"parties there cannot be found. Choose English pages, or name the words to find with 'terms'."
        )
    found: list[Match] = []
    for index, page_spans in zip(order, spans, strict=True):
        if index in pages:
            found += _placed(index, texts[index], page_spans, kinds)
    return found


def _reply(reply: Any, count: int) -> tuple[list[list[dict]], list[bool]]:
    """The host's answer, checked for shape (a wrong shape is a bug in the host, not the user's)."""
    spans = reply.get("spans") if isinstance(reply, dict) else None
    if not isinstance(spans, list) or len(spans) != count or not all(isinstance(s, list) for s in spans):
        raise RuntimeError(f"The entity recogniser answered in an unexpected form: {str(reply)[:200]}")
    english = reply.get("english") or [True] * count
    if len(english) != count:
        raise RuntimeError("The entity recogniser's language flags do not match the pages sent.")
    return spans, [bool(flag) for flag in english]


def _placed(index: int, pt: PageText, spans: list[dict], kinds: list[str]) -> list[Match]:
    """Matches for the spans that are really on the page, without overlaps within a kind."""
    kept: list[tuple[int, int, str]] = []
    for span in spans:
        if not isinstance(span, dict):
            continue
        start, end, kind, text = span.get("start"), span.get("end"), span.get("kind"), span.get("text")
        if kind not in kinds or not isinstance(start, int) or not isinstance(end, int) or not isinstance(text, str):
            continue
        if not 0 <= start < end <= len(pt.text) or pt.text[start:end] != text or not text.strip():
            continue  # not on the page: the host's word alone is not enough to mark anything
        kept.append((start, end, kind))
    kept.sort(key=lambda s: (s[0], -s[1]))
    merged: list[list] = []
    for start, end, kind in kept:
        same = [m for m in merged if m[2] == kind and start < m[1] and m[0] < end]
        if same:
            same[0][0], same[0][1] = min(same[0][0], start), max(same[0][1], end)
        else:
            merged.append([start, end, kind])
    found = []
    for start, end, kind in merged:
        match = span_match(index, pt, start, end, kind)
        if match:
            found.append(match)
    return found
