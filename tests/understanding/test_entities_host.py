"""The host's recogniser (docpilot.understanding.entities) with the real spaCy pipeline: spans, rules,
parties, the language check, the handler's contract, the pinned weights and no work at import."""

from __future__ import annotations

import subprocess
import sys

import pytest

from docpilot.understanding import ner
from docpilot.understanding.entities import handle, recognize
from docpilot.understanding.language import looks_english
from pdftools.errors import ToolArgumentError, ToolUnavailableError

CONTRACT = (
    'This Agreement (the "Agreement") is made on January 13, 2025 between Harbor Lights Trading LLC, '
    '12 Pier Road, Boston, MA 02110 ("Supplier") and Quentin Marsh ("Buyer").\n'
    "1. Scope of Services\n"
    "The Supplier is represented by Elena Petrova (elena.petrova@harborlights.com). "
    "The Buyer's payments go to Suite 200.\n"
    "Signed for Harbor Lights Trading LLC: Elena Petrova, Managing Partner"
)


def _texts(spans: list[dict], kind: str) -> list[str]:
    return [s["text"] for s in spans if s["kind"] == kind]


def test_spans_are_offsets_into_the_text():
    [spans] = recognize([CONTRACT], ["person", "organization", "party"])
    assert spans, "nothing recognised"
    for span in spans:
        assert CONTRACT[span["start"] : span["end"]] == span["text"]
        assert 0 < span["score"] <= 1
    people = _texts(spans, "person")
    assert people.count("Elena Petrova") == 2 and "Quentin Marsh" in people
    assert {"elena", "petrova"} <= set(people)  # the name inside the email goes too
    assert not {"Suite", "Managing Partner", "Scope of Services"} & set(people)
    assert set(_texts(spans, "organization")) == {"Harbor Lights Trading LLC"}
    parties = _texts(spans, "party")
    assert {"Harbor Lights Trading LLC", "Supplier", "Quentin Marsh", "Buyer"} <= set(parties)
    assert "Agreement" not in parties  # a defined term after no name is not a party


def test_only_the_kinds_asked_and_names_across_texts():
    first, second = recognize(["Prepared by Rosalind Okafor for the board.", "Okafor signed it."], ["person"])
    assert _texts(first, "person") == ["Rosalind Okafor"]
    assert _texts(second, "person") == ["Okafor"]  # a name found on one page is found on every page
    assert all(s["kind"] == "person" for s in first + second)


def test_form_values_and_closings():
    [spans] = recognize(["Surname OKONKWO\nGiven names Chidi Emmanuel\nSex M\nBest Regards,\nMallori"], ["person"])
    assert _texts(spans, "person") == ["OKONKWO", "Chidi Emmanuel", "Mallori"]


def test_handler_contract_and_language():
    french = (
        "Le conseil municipal s'est réuni le lundi pour examiner le budget de la commune et les travaux "
        "prévus dans les écoles, avec la participation de tous les élus présents dans la salle."
    )
    reply = handle("entities", {"texts": ["Maria Gonzalez met David Chen.", french], "kinds": ["person"]})
    assert reply["english"] == [True, False]
    assert _texts(reply["spans"][0], "person") == ["Maria Gonzalez", "David Chen"]
    assert reply["spans"][1] == []  # not read with an English model
    with pytest.raises(ToolUnavailableError, match="not 'summaries'"):
        handle("summaries", {})
    with pytest.raises(ToolArgumentError, match="'texts'"):
        handle("entities", {"texts": "one string", "kinds": ["person"]})
    with pytest.raises(ToolArgumentError, match="Cannot recognise email"):
        recognize(["x"], ["email"])


@pytest.mark.parametrize(
    "text, english",
    [
        ("Short.", True),  # too little to tell
        ("The quick brown fox jumps over the lazy dog while the farmer watches from the gate of his field.", True),
        (
            "Der Vertrag wird zwischen den Parteien geschlossen und gilt für die Dauer von zwei Jahren ab dem Tag.",
            False,
        ),
        ("本合同由双方于二零二五年签订，自签订之日起生效，有效期为两年，双方应当遵守本合同的全部条款。" * 2, False),
    ],
)
def test_looks_english(text, english):
    assert looks_english(text) is english


def test_pipeline_is_small_pinned_and_checked(monkeypatch):
    nlp = ner.pipeline()
    assert nlp.pipe_names == ["tok2vec", "ner"]
    assert nlp.meta["version"] == "3.8.0"
    monkeypatch.setattr(ner, "_loaded", [])
    monkeypatch.setitem(ner.WEIGHTS, "ner/model", "0" * 64)
    with pytest.raises(ToolUnavailableError, match="not the pinned ones"):
        ner.pipeline()


def test_importing_loads_nothing():
    code = (
        "import sys, docpilot.understanding.entities, pdftools.tools_entities, pdftools.tools_redact; "
        "print(sorted(m for m in ('spacy', 'thinc', 'torch') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
