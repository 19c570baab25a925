"""find_entities: pattern kinds on the contract, a real invoice and a fixture."""

from __future__ import annotations

from collections import Counter

import pytest

from pdftools.errors import PageRangeError, ToolArgumentError
from pdftools.tools_entities import find_entities


def test_contract_all_kinds(synthetic):
    found = find_entities(synthetic("contract.pdf"))
    counts = Counter(e["category"] for e in found)
    assert counts == {"ssn": 12, "date": 6, "email": 3, "phone": 2, "account": 1}
    assert {"page": 1, "category": "phone", "text": "(510) 555-0142"} in found  # broken across lines
    assert {"page": 3, "category": "account", "text": "4417-2290-3381-0057"} in found
    assert {"page": 4, "category": "date", "text": "December 31, 2026"} in found
    assert [e["page"] for e in found] == sorted(e["page"] for e in found)
    # The SSN is never reported as a phone number.
    assert not any(e["category"] == "phone" and "123-45" in e["text"] for e in found)


def test_categories_aliases_and_pages(synthetic):
    path = synthetic("contract.pdf")
    emails = find_entities(path, categories=["Email addresses"])
    assert [e["text"] for e in emails] == [
        "maria.gonzalez@voltguard.com",
        "d.chen@brightline-consulting.com",
        "accounts@voltguard.com",
    ]
    assert find_entities(path, categories="ssn", pages="1-2") == []
    assert len(find_entities(path, categories="SSNs", pages="last")) == 4


def test_real_invoice(real):
    found = find_entities(real("invoice2data__AmazonWebServices.pdf"))
    by_kind: dict[str, list[str]] = {}
    for e in found:
        by_kind.setdefault(e["category"], []).append(e["text"])
    assert "296664039561" in by_kind["account"]
    assert "$4.11" in by_kind["money"]
    assert "August 3 , 2014" in by_kind["date"]
    assert "aws.amazon.com/contact-us/" in by_kind["url"]


def test_fixture_card_luhn_and_money(make_pdf):
    path = make_pdf(["Card 4111 1111 1111 1111 paid $1,250.00 on 2025-02-01.\nBad card 4111 1111 1111 1112."])
    found = find_entities(path)
    assert {"page": 1, "category": "card", "text": "4111 1111 1111 1111"} in found
    assert not any("1112" in e["text"] for e in found)
    assert {"page": 1, "category": "money", "text": "$1,250.00"} in found
    assert {"page": 1, "category": "date", "text": "2025-02-01"} in found


def test_errors(make_pdf):
    path = make_pdf(["nothing here"])
    assert find_entities(path) == []
    with pytest.raises(ToolArgumentError, match="not an entity kind this tool can find yet"):
        find_entities(path, categories=["shoe size"])
    with pytest.raises(PageRangeError):
        find_entities(path, pages="2")
