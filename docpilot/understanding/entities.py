"""People, organisations and defined parties in page texts: the host's side of ``find_entities``.

A tool never loads a model; it asks the host through :mod:`pdftools.hosted` with the name
``"entities"`` and ``{"texts": [page text, ...], "kinds": [...]}``. :func:`handle` answers it with
``{"spans": recognize(texts, kinds), "english": [looks_english(text), ...]}`` (a text that is clearly
not English gets no spans; the tool says so instead of reporting nothing).

How names are found, per text (one page each, the tool's reading text):
1. spaCy's small English NER (:mod:`.ner`) on each line, PERSON and ORG spans kept when the rules in
   :mod:`.entity_rules` believe them; names from form labels and closings; companies by legal suffix.
2. Every name found anywhere is then looked up in every text: the full name in any case, and each
   word of a person's name (not a stop word, month or initial) where it is capitalised as a name or
   part of an email or handle ("chidi.okonkwo@..."), so "redact the names" leaves none behind.
3. Parties: the terms a definition introduces (``("Client")``) and the names they stand for.
Scores are fixed by how a span was found (a person's full name 0.85, one word of it 0.7, an
organisation or a party's name 0.8, a party term 0.9): the small pipeline gives no calibrated confidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pdftools.errors import ToolArgumentError, ToolUnavailableError

from . import entity_rules as rules
from .language import looks_english
from .ner import pipeline

__all__ = ["KINDS", "NAME", "recognize", "handle"]

NAME = "entities"
KINDS = ("person", "organization", "party")
_MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
}  # fmt: skip
_IDENTIFIER = "._@-+"  # characters around a name's word inside an email address or a handle

Span = tuple[int, int, str, float]  # start, end, kind, score


def handle(name: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Answer a tool's ``hosted.call("entities", {"texts", "kinds"})``."""
    if name != NAME:
        raise ToolUnavailableError(f"This host answers '{NAME}' requests, not '{name}'.")
    texts, kinds = payload.get("texts"), payload.get("kinds")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise ToolArgumentError("'texts' must be a list of page texts.")
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        raise ToolArgumentError(f"'kinds' must be a list of entity kinds ({', '.join(KINDS)}).")
    english = [looks_english(text) for text in texts]
    spans = recognize([t if ok else "" for t, ok in zip(texts, english, strict=True)], kinds)
    return {"spans": spans, "english": english}


def recognize(texts: list[str], kinds: list[str]) -> list[list[dict]]:
    """Per text, the spans of ``kinds`` ({start, end, kind, text, score}) in text order."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ToolArgumentError(f"Cannot recognise {', '.join(unknown)}: the kinds are {', '.join(KINDS)}.")
    if not kinds or not any(t.strip() for t in texts):
        return [[] for _ in texts]
    people, orgs = _names(texts)
    person_names = {_flat(texts[t][s:e]) for t, found in enumerate(people) for s, e in found}
    org_names = {_flat(texts[t][s:e]) for t, found in enumerate(orgs) for s, e in found}
    terms, owners = _parties(texts, people, orgs)
    out: list[list[dict]] = []
    for text in texts:
        spans: list[Span] = []
        if "person" in kinds:
            spans += _person_mentions(text, person_names)
        if "organization" in kinds:
            spans += [(s, e, "organization", 0.8) for name in org_names for s, e in _mentions(text, name)]
        if "party" in kinds:
            spans += [(s, e, "party", 0.8) for name in owners for s, e in _mentions(text, name, any_case=True)]
            spans += [(m.start(), m.end(), "party", 0.9) for term in terms for m in _whole(term, text)]
        out.append([_json(text, span) for span in _merge(spans)])
    return out


def _flat(text: str) -> str:
    return " ".join(text.split())


def _lines(text: str) -> Iterator[tuple[int, str]]:
    offset = 0
    for line in text.split("\n"):
        if line.strip():
            yield offset, line
        offset += len(line) + 1


def _names(texts: list[str]) -> tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]]]:
    """Per text, the spans of people's and organisations' names the NER and the rules believe."""
    people: list[list[tuple[int, int]]] = [rules.form_names(text) for text in texts]
    orgs: list[list[tuple[int, int]]] = [rules.companies(text) for text in texts]
    segments = [(t, offset, line) for t, text in enumerate(texts) for offset, line in _lines(text)]
    docs = pipeline().pipe((line for _, _, line in segments), batch_size=64)
    for (t, offset, line), doc in zip(segments, docs, strict=True):
        for ent in doc.ents:
            if ent.label_ not in ("PERSON", "ORG"):
                continue
            start, end = rules.clean_span(line, ent.start_char, ent.end_char)
            value = line[start:end]
            if ent.label_ == "PERSON" and rules.believable_person(value):
                people[t].append((offset + start, offset + end))
            elif ent.label_ != "ORG" or rules.is_heading(line, start, end):
                continue
            elif rules.believable_org(value):
                orgs[t].append((offset + start, offset + end))
            elif rules.believable_person(value) and rules.person_context(line, start, end):
                people[t].append((offset + start, offset + end))
    return people, orgs


def _parties(
    texts: list[str], people: list[list[tuple[int, int]]], orgs: list[list[tuple[int, int]]]
) -> tuple[set[str], set[str]]:
    """The defined party terms ("Client") and the names they stand for, over all texts."""
    terms: set[str] = set()
    owners: set[str] = set()
    for t, text in enumerate(texts):
        for term, owner in rules.definitions(text, sorted(people[t] + orgs[t])):
            terms.add(term)
            if owner:
                owners.add(_flat(text[owner[0] : owner[1]]))
    return terms, owners


def _whole(word: str, text: str, flags: int = 0) -> Iterator[re.Match[str]]:
    return re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text, flags)


def _mentions(text: str, name: str, any_case: bool = False) -> list[tuple[int, int]]:
    pattern = r"(?<!\w)" + r"\s+".join(map(re.escape, name.split())) + r"(?!\w)"
    return [m.span() for m in re.finditer(pattern, text, re.IGNORECASE if any_case else 0)]


def _person_mentions(text: str, names: set[str]) -> list[Span]:
    from spacy.lang.en.stop_words import STOP_WORDS

    spans: list[Span] = []
    for name in names:
        spans += [(s, e, "person", 0.85) for s, e in _mentions(text, name, any_case=True)]
        for word in {w.strip(".,'’") for w in name.split()}:
            if len(word) < 2 or word.lower() in STOP_WORDS or word.lower() in _MONTHS:
                continue
            for m in _whole(word, text, re.IGNORECASE):
                seen = m.group()
                around = text[m.start() - 1 : m.start()] + text[m.end() : m.end() + 1]
                if seen in (word, word.upper(), word.capitalize()) or (
                    seen.islower() and any(c in _IDENTIFIER for c in around)
                ):
                    spans.append((m.start(), m.end(), "person", 0.7))
    return spans


def _merge(spans: list[Span]) -> list[Span]:
    """Overlapping spans of one kind as one (the widest reach, the best score), in text order."""
    merged: list[list[Any]] = []
    for start, end, kind, score in sorted(spans, key=lambda s: (s[0], -s[1])):
        same = next((m for m in merged if m[2] == kind and start < m[1] and m[0] < end), None)
        if same:
            same[1], same[3] = max(same[1], end), max(same[3], score)
        else:
            merged.append([start, end, kind, score])
    return [(s, e, k, sc) for s, e, k, sc in merged]


def _json(text: str, span: Span) -> dict[str, Any]:
    start, end, kind, score = span
    return {"start": start, "end": end, "kind": kind, "text": text[start:end], "score": score}
