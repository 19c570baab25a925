"""The kinds of entity the tools find and mark, and the words people use for them.

Three families, one name space:

- pattern kinds (:data:`pdftools.patterns.CATEGORIES`): emails, phones, SSNs, card, account and ID
  numbers, dates, money, URLs, postal addresses — regular expressions with checks, found here;
- named-entity kinds (:data:`NER_KINDS`): people, organisations and a contract's defined parties —
  recognised by the host's language model (see :mod:`pdftools.hosted`), placed on the page here;
- layout kinds (:data:`LAYOUT_KINDS`): section headings, read from font sizes and weights.

``pii`` is not a kind of its own but the kinds that identify a person (:data:`PII_KINDS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from .errors import ToolArgumentError
from .patterns import CATEGORIES, normalize_category
from .words import Named

__all__ = ["Kinds", "ALL_KINDS", "NER_KINDS", "LAYOUT_KINDS", "PII_KINDS", "resolve_kinds", "describe_kinds"]

NER_KINDS: tuple[str, ...] = ("person", "organization", "party")
LAYOUT_KINDS: tuple[str, ...] = ("heading",)
ALL_KINDS: tuple[str, ...] = CATEGORIES + NER_KINDS + LAYOUT_KINDS
# What "PII" means here: names, addresses, dates (of birth among them), ID numbers, emails, phones,
# account and card numbers, SSNs.
PII_KINDS: tuple[str, ...] = ("person", "address", "date", "id", "email", "phone", "account", "card", "ssn")

# A kinds argument: one kind or several, by the names above ("pii" for all of PII_KINDS).
Kinds = Annotated[str | list[str] | None, Named("kind", lambda: (*ALL_KINDS, "pii"), many=True)]

_ALIASES = {
    "persons": "person",
    "people": "person",
    "name": "person",
    "names": "person",
    "person name": "person",
    "person names": "person",
    "people's names": "person",
    "peoples names": "person",
    "personal names": "person",
    "full names": "person",
    "individuals": "person",
    "organisation": "organization",
    "organisations": "organization",
    "organizations": "organization",
    "organisation names": "organization",
    "organization names": "organization",
    "org": "organization",
    "orgs": "organization",
    "company": "organization",
    "companies": "organization",
    "company names": "organization",
    "business": "organization",
    "businesses": "organization",
    "firm": "organization",
    "firms": "organization",
    "institutions": "organization",
    "agencies": "organization",
    "parties": "party",
    "defined parties": "party",
    "contracting parties": "party",
    "party names": "party",
    "headings": "heading",
    "section heading": "heading",
    "section headings": "heading",
    "section titles": "heading",
    "section title": "heading",
    "titles": "heading",
    "personal data": "pii",
    "personal information": "pii",
    "personal details": "pii",
    "personally identifiable information": "pii",
}


def _kind(name: str) -> str:
    key = " ".join(name.strip().lower().replace("_", " ").replace("’", "'").split())
    key = _ALIASES.get(key, key)
    if key in NER_KINDS or key in LAYOUT_KINDS or key == "pii":
        return key
    try:
        return normalize_category(key)
    except ToolArgumentError:
        raise ToolArgumentError(
            f"'{name}' is not an entity kind this tool can find yet. Choose from: {describe_kinds()}."
        ) from None


def resolve_kinds(names: str | Sequence[str] | None) -> list[str]:
    """Kind names for what a person or a plan wrote ("People", "SSNs", "pii"), each once, in order.

    ``pii`` stands for :data:`PII_KINDS`. Raises ToolArgumentError for a word that names no kind.
    """
    listed = [names] if isinstance(names, str) else list(names or [])
    kinds: list[str] = []
    for name in listed:
        if not name or not name.strip():
            continue
        kind = _kind(name)
        for one in PII_KINDS if kind == "pii" else (kind,):
            if one not in kinds:
                kinds.append(one)
    return kinds


def describe_kinds() -> str:
    """The kind names for messages and tool docs."""
    return ", ".join(ALL_KINDS) + ", pii"
