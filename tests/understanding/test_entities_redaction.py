"""Redacting people's names and PII found by the real NER leaves nothing extractable.

The leak check is the one of tests/test_redaction_leaks.py (PyMuPDF, pypdf, pdfminer.six, pdftotext);
each name redaction also runs once with a redaction that only draws boxes, which must fail the check,
or the check proves nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest
from conftest import assert_no_leak, extract_all, readable

import pdftools.tools_redact as tools_redact
from docpilot.understanding.entities import handle
from pdftools.hosted import hosting
from pdftools.tools_redact import redact_text

LABELS = Path(__file__).resolve().parents[2] / "bench" / "entities"


@pytest.fixture
def host() -> Iterator[None]:
    with hosting(handle):
        yield


def _names(name: str) -> list[str]:
    """The gold people's names of a labelled file, and each word of them."""
    people = json.loads((LABELS / f"{name}.json").read_text())["entities"]["person"]
    return people + [word for person in people for word in person.split()]


@pytest.mark.parametrize("name", ["contract", "visa_application"])
def test_redacting_people_leaves_no_name(host, synthetic, tmp_path, name):
    out = redact_text(synthetic(f"{name}.pdf"), categories=["people's names"], output=str(tmp_path / "r.pdf"))
    assert_no_leak(out, _names(name))
    kept = readable(extract_all(out)["pymupdf"])
    assert "master services agreement" in kept or "visa application form" in kept


def _boxes_only(page: pymupdf.Page) -> None:
    for annot in list(page.annots(types=[pymupdf.PDF_ANNOT_REDACT])):
        rect = annot.rect
        page.delete_annot(annot)
        page.draw_rect(rect, color=(0, 0, 0), fill=(0, 0, 0))


@pytest.mark.parametrize("name", ["contract", "visa_application"])
def test_the_check_sees_a_redaction_that_only_draws_boxes(host, synthetic, tmp_path, monkeypatch, name):
    monkeypatch.setattr(tools_redact, "_apply", _boxes_only)
    monkeypatch.setattr(tools_redact, "find_matches", lambda *args, **kwargs: [])  # no self-check
    out = redact_text(synthetic(f"{name}.pdf"), categories=["person"], output=str(tmp_path / "weak.pdf"))
    with pytest.raises(AssertionError, match="still extractable"):
        assert_no_leak(out, _names(name))


def test_pii_on_the_visa_form(host, synthetic, tmp_path):
    """DocBench's pii-visa case: "Redact all personally identifiable information in this form"."""
    out = redact_text(synthetic("visa_application.pdf"), categories=["pii"], output=str(tmp_path / "pii.pdf"))
    gone = ["OKONKWO", "Chidi Emmanuel", "A07734519", "14 March 1988", "chidi.okonkwo@mailbox.org", "+234 803 555 0187"]
    assert_no_leak(out, gone)
    kept = readable(extract_all(out)["pymupdf"])
    assert "visa application form" in kept and "nationality" in kept


def test_parties_and_organisations(host, synthetic, tmp_path):
    path = synthetic("contract.pdf")
    out = redact_text(path, categories=["company names"], output=str(tmp_path / "orgs.pdf"), pages="1")
    assert_no_leak(out, ["VoltGuard Electric LLC", "Brightline Consulting Group"], pages=[1])
    out = redact_text(path, categories="party", output=str(tmp_path / "parties.pdf"), pages="4")
    text = readable(extract_all(out, pages=[4])["pymupdf"])
    assert "voltguard" not in text and "maria gonzalez" in text  # the parties go, the signatories stay
