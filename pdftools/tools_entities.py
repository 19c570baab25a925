"""Finding entities in a PDF: emails, phones, SSNs, card/account/ID numbers, dates, money, URLs,
addresses, people, organisations, defined parties and section headings.

What each kind is and how it is found is in :mod:`pdftools.entity_kinds` and
:mod:`pdftools.entity_finders`: patterns and headings are read here; people, organisations and
parties come from the host's language model (:mod:`pdftools.hosted`) and are checked against the
page text before they are reported, each with its page and boxes.
"""

from __future__ import annotations

from typing import Any

from . import hosted
from .docio import open_pdf
from .entity_finders import entity_matches, model_kinds
from .entity_kinds import ALL_KINDS, Kinds, resolve_kinds
from .pages import Pages, parse_pages
from .registry import generic_answer, tool
from .words import Words

__all__ = ["find_entities"]

MAX_ENTITIES = 1000  # occurrences returned; a longer list is no use to a reader or a prompt


def _kinds(categories: str | list[str] | None) -> list[str]:
    """The kinds asked for; by default every kind this process can find (the model's only when hosted)."""
    kinds = resolve_kinds(categories)
    if kinds:
        return kinds
    return [k for k in ALL_KINDS if hosted.is_hosted() or not model_kinds([k])]


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
    say="Find the entities",
    words=Words(verbs=("find", "list", "identify"), nouns=("names", "entities", "emails", "phone numbers", "dates")),
)
def find_entities(
    file: str,
    categories: Kinds = None,
    pages: Pages = "all",
) -> list[dict]:
    """Find people, organisations, parties, addresses, dates, emails, phones, ID numbers and more.

    People, organisations and parties are recognised in English text; a page in another
    language is reported rather than passed over.

    Args:
        file: The PDF to read.
        categories: Kinds to find: person, organization, party (defined parties such as "the Client"),
            address, date, email, phone, ssn, card, account, id (passport/ID numbers), money, url,
            heading (section headings), or pii (people, addresses, dates, IDs, emails, phones,
            account/card numbers, SSNs). Default: all kinds.
        pages: Pages to read.

    Returns:
        A list of {"page", "category", "text", "boxes"}, one per occurrence in reading order (at most
        1000); "boxes" are [x0, y0, x1, y1] in PDF points, one per line the occurrence covers.
    """
    kinds = _kinds(categories)
    with open_pdf(file) as doc:
        indices = sorted(parse_pages(pages, doc.page_count))
        found = entity_matches(doc, indices, kinds)
    return [
        {
            "page": m.page + 1,
            "category": m.kind,
            "text": " ".join(m.text.split()),
            "boxes": [[round(v, 1) for v in rect] for rect in m.rects],
        }
        for m in found[:MAX_ENTITIES]
    ]
