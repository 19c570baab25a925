"""find_entities and the marking tools with the host's real recogniser (spaCy) on real corpus PDFs.

The host is the real handler (``with hosting(handle)``); a scripted host appears only where the test
is about what the tool does with a host's answer (spans that are not on the page are dropped).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from docpilot.understanding.entities import handle
from pdftools.errors import LanguageError, NoMatchError
from pdftools.hosted import hosting
from pdftools.tools_entities import find_entities
from pdftools.tools_markup import highlight_text, read_annotations, search_text, underline_text

LABELS = Path(__file__).resolve().parents[2] / "bench" / "entities"


def _bench():
    """bench/entities.py, for its matching rule (one definition of a match for the bench and the tests)."""
    spec = importlib.util.spec_from_file_location("entity_bench", LABELS.parent / "entities.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def host() -> Iterator[None]:
    with hosting(handle):
        yield


@pytest.mark.parametrize("name", ["contract", "visa_application"])
@pytest.mark.parametrize("kind", ["person", "organization", "address", "date"])
def test_labels_found_with_full_precision_and_recall(host, synthetic, name, kind):
    """The README's figure for the two synthetic files: 100% precision and 100% recall (bench/entities.py)."""
    label = json.loads((LABELS / f"{name}.json").read_text())
    found = [e["text"] for e in find_entities(synthetic(Path(label["file"]).name), categories=[kind])]
    precision, recall, wrong, missed = _bench().score(found, label["entities"][kind])
    assert not wrong and precision in (None, 1.0), wrong  # nothing found that is not labelled
    assert not missed and recall in (None, 1.0), missed  # nothing labelled that is not found
    assert (precision is None) == (not label["entities"][kind]), found  # nothing found where nothing is


def test_every_entity_is_on_its_page_with_boxes(host, synthetic):
    path = synthetic("contract.pdf")
    found = find_entities(path, categories=["person", "organization", "party", "address"])
    with pymupdf.open(path) as doc:
        for entity in found:
            page = doc[entity["page"] - 1]
            under = " ".join(page.get_textbox(pymupdf.Rect(b) + (-1, -1, 1, 1)) for b in entity["boxes"])
            first = entity["text"].split()[0]
            assert first.lower() in " ".join(under.split()).lower(), (entity, under)
    parties = {e["text"] for e in found if e["category"] == "party"}
    assert parties == {"VoltGuard Electric LLC", "Brightline Consulting Group", "Client", "Consultant"}


def test_spans_not_on_the_page_are_dropped(make_pdf):
    path = make_pdf(["Agreement between Ada Byron and the Board."])

    def host(name, payload):
        [text] = payload["texts"]
        start = text.index("Ada Byron")
        return {
            "spans": [
                [
                    {"start": start, "end": start + 9, "kind": "person", "text": "Ada Byron", "score": 0.9},
                    {"start": 0, "end": 9, "kind": "person", "text": "Alan Turing", "score": 0.9},  # not there
                    {"start": start, "end": start + 3, "kind": "email", "text": "Ada", "score": 0.9},  # not asked
                    {"start": 500, "end": 509, "kind": "person", "text": "Ada Byron", "score": 0.9},  # off the end
                ]
            ],
            "english": [True],
        }

    with hosting(host):
        found = find_entities(path, categories="people")
    assert [(e["category"], e["text"]) for e in found] == [("person", "Ada Byron")]


def test_english_only_is_said_not_silent(host, real, make_pdf):
    with pytest.raises(LanguageError, match="Entities are English-only: page 1"):
        find_entities(real("pdfplumber__2023-06-20-PV.pdf"), categories=["person"], pages="1")
    # pattern kinds do not depend on the language: a French page of minutes still gives its email, phone and date
    minutes = make_pdf(
        [
            "Procès-verbal de la séance publique du comité de démolition, tenue à la salle du conseil.\n"
            "Les membres présents adoptent l'ordre du jour de la séance sans aucune modification.\n"
            "Pour toute question, écrire au greffe : greffe@ville.example.ca ou téléphoner au 514-555-0199.\n"
            "La prochaine séance aura lieu le 2023-07-18 à la même heure, dans la même salle du conseil."
        ],
        name="proces_verbal.pdf",
    )
    with pytest.raises(LanguageError, match="Entities are English-only: page 1"):
        find_entities(minutes, categories=["person"])  # the page is French for the tool too
    found = find_entities(minutes, categories=["email", "phone", "date"])
    assert sorted((e["page"], e["category"], e["text"]) for e in found) == [
        (1, "date", "2023-07-18"),
        (1, "email", "greffe@ville.example.ca"),
        (1, "phone", "514-555-0199"),
    ], found


def test_default_kinds_include_the_models_when_hosted(host, synthetic):
    kinds = {e["category"] for e in find_entities(synthetic("visa_application.pdf"))}
    assert {"person", "date", "email", "phone", "id", "heading"} <= kinds


def test_underline_dates_and_highlight_headings(host, synthetic, tmp_path):
    path = synthetic("contract.pdf")
    underlined = underline_text(path, categories=["dates"], output=str(tmp_path / "u.pdf"))
    texts = [a["text"] for a in read_annotations(underlined) if a["type"] == "Underline"]
    assert {"January 13, 2025", "July 15, 2025", "December 31, 2026"} <= set(texts)
    highlighted = highlight_text(path, categories=["section headings"], output=str(tmp_path / "h.pdf"))
    heads = [a["text"] for a in read_annotations(highlighted) if a["type"] == "Highlight"]
    assert len(heads) == 7 and "2. Scope of Services" in heads
    people = search_text(path, categories=["person names"])
    assert {"Maria Gonzalez", "David Chen"} <= {m["text"] for m in people["matches"]}


def test_nothing_found_is_an_error_for_marking(host, make_pdf, tmp_path):
    path = make_pdf(["the weather was fine all week"])
    with pytest.raises(NoMatchError, match="people's names"):
        highlight_text(path, categories=["people"], output=str(tmp_path / "x.pdf"))
