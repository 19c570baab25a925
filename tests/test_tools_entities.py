"""find_entities without a host (patterns, addresses, IDs, headings) on the contract, a real invoice and fixtures.

The kinds that need the host's language model (people, organisations, parties) are tested with the
real spaCy pipeline in tests/understanding/.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pdftools.errors import PageRangeError, ToolArgumentError, ToolUnavailableError
from pdftools.tools_entities import find_entities


def _plain(found: list[dict]) -> list[dict]:
    """The entities without their boxes."""
    return [{k: v for k, v in e.items() if k != "boxes"} for e in found]


def test_contract_all_kinds(synthetic):
    found = find_entities(synthetic("contract.pdf"))  # no host: every kind but the model's
    counts = Counter(e["category"] for e in found)
    assert counts == {"ssn": 12, "heading": 7, "date": 6, "email": 3, "address": 2, "phone": 2, "account": 1}
    plain = _plain(found)
    assert {"page": 1, "category": "phone", "text": "(510) 555-0142"} in plain  # broken across lines
    assert {"page": 3, "category": "account", "text": "4417-2290-3381-0057"} in plain
    assert {"page": 4, "category": "date", "text": "December 31, 2026"} in plain
    assert {"page": 1, "category": "address", "text": "88 Market Street, Suite 400, San Francisco, CA 94105"} in plain
    assert {"page": 3, "category": "heading", "text": "4. Confidentiality"} in plain  # ligature read as letters
    phone = next(e for e in found if e["text"] == "(510) 555-0142")
    assert len(phone["boxes"]) == 2 and all(len(box) == 4 for box in phone["boxes"])  # one box per line
    assert [e["page"] for e in found] == sorted(e["page"] for e in found)
    # The SSN is never reported as a phone number.
    assert not any(e["category"] == "phone" and "123-45" in e["text"] for e in found)


def test_categories_aliases_and_pages(synthetic):
    path = synthetic("contract.pdf")
    emails = _plain(find_entities(path, categories=["Email addresses"]))
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
    found = _plain(find_entities(path))
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
    with pytest.raises(ToolUnavailableError, match="language models"):  # asked for by name: never silently nothing
        find_entities(path, categories=["people"])


@pytest.mark.parametrize(
    "written",
    ["14 March 1988", "2 September 2031", "03/14/1988", "2024-01-31", "February 3, 2025", "14th of March, 1988",
     "9 to 12 June 2025", "June 9-12, 2025", "31.01.2024", "03/2025", "March 2025"],
)  # fmt: skip
def test_dates_as_people_write_them(make_pdf, written):
    path = make_pdf([f"Signed on {written} in Oakland.\nRef 4417-2290 and 123-45-6789 are not dates."])
    assert [e["text"] for e in find_entities(path, categories="dates")] == [written]


def test_ids_addresses_and_pii_without_names(make_pdf):
    path = make_pdf(
        [
            "Passport number A07734519, ID No: 55-2231-77\n"
            "Mail to P.O. Box 6703, Fargo, ND 58108-6703 or 7500 Security Boulevard, Baltimore, Maryland 21244\n"
            "Policy Number including Medicaid ID Number\n"
            "Suite 400 alone is no address; nor is 20 CFR 422.510."
        ]
    )
    found = _plain(find_entities(path, categories=["ids", "addresses"]))
    assert [e["text"] for e in found] == [
        "A07734519",
        "55-2231-77",
        "P.O. Box 6703, Fargo, ND 58108-6703",
        "7500 Security Boulevard, Baltimore, Maryland 21244",
    ]
