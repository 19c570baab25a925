"""The parties a document names by a defined term ("VoltGuard Electric LLC, … ("Client")") and an answer read from a
sentence about another party's term.

A contract says who each party is once and then writes only the term: "The Client is represented by Maria
Gonzalez." Asked for Brightline's contact, a model reading that sentence answers with the Client's — a name
that is in the passage and true of someone else. :func:`other_party` says which party the sentence holding the
answer is about when that is not the one the question names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from docpilot.understanding.textnorm import norm

__all__ = ["defined_parties", "other_party"]

# ("Client"), (the "Consultant"), (hereinafter "Seller"), (each a "Party" is not a party of its own)
_TERM = re.compile(r"\(\s*(?:the\s+|hereinafter\s+(?:the\s+)?)?[\"“']([A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+)?)[\"”']\s*\)")
_LEAD_IN = re.compile(r".*(?:\bbetween\b|\band\b|\bby\b|[;:(]|^)\s*", re.S)
_GENERIC = frozenset({"party", "parties", "agreement", "effective date", "services", "work"})


def defined_parties(text: str) -> dict[str, str]:
    """{term: the party's name as written} for each party the text defines by a quoted term in brackets after
    its name ("VoltGuard Electric LLC, 1200 Harbor Drive, … ("Client")" → {"Client": "VoltGuard Electric LLC"})."""
    flat = re.sub(r"\s+", " ", text)
    found: dict[str, str] = {}
    for match in _TERM.finditer(flat):
        term = match.group(1)
        if term.lower() in _GENERIC or term in found:
            continue
        before = flat[max(0, match.start() - 160) : match.start()]
        lead = _LEAD_IN.match(before)
        named = before[lead.end() :] if lead else before
        name = named.split(",")[0].strip(" .")
        if re.match(r"^[A-Z][\w&.'-]*(?: [A-Z&][\w&.'-]*){0,6}$", name):
            found[term] = name
    return found


def other_party(question: str, answer: str, passages: Iterable[str], parties: dict[str, str]) -> tuple[str, str] | None:
    """(the term of the party the sentence holding ``answer`` is about, the term of the party the question names)
    when the question names one party (by a word of its name) and that sentence names another's term and
    neither the asked party nor its term; None otherwise."""
    asked = [term for term, name in parties.items() if _names(question, name)]
    if len(asked) != 1:
        return None
    own_term, own_name = asked[0], parties[asked[0]]
    key = norm(answer)
    for text in passages:
        for sentence in re.split(r"(?<=[.!?;])\s+", re.sub(r"\s+", " ", text)):
            if not key or key not in norm(sentence):
                continue
            if re.search(rf"\b{re.escape(own_term)}\b", sentence) or _names(sentence, own_name):
                return None
            others = [t for t in parties if t != own_term and re.search(rf"\b{re.escape(t)}\b", sentence)]
            if others:
                return others[0], own_term
    return None


def _names(text: str, name: str) -> bool:
    """Whether ``text`` says a distinctive word of ``name`` ("Brightline" of "Brightline Consulting Group")."""
    words = [w for w in re.findall(r"[A-Za-z][\w&'-]+", name) if len(w) > 3 and w.lower() not in _COMPANY]
    return any(re.search(rf"\b{re.escape(w)}\b", text, re.I) for w in words)


_COMPANY = frozenset("group inc. corp corporation company limited holdings partners llc ltd plc gmbh".split())
