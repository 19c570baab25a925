"""textmatch and patterns: text found as a reader sees it, on fixtures, real files and sample strings."""

from __future__ import annotations

import re

import pymupdf
import pytest

from pdftools import textmatch
from pdftools._termsearch import term_matches
from pdftools.errors import ToolArgumentError
from pdftools.patterns import category_pattern, luhn_ok, normalize_category
from pdftools.textmatch import Targets, _page_matches, find_matches, normalize, page_text, term_regex


def _texts(path: str, targets: Targets, pages=None) -> list[tuple[int, str]]:
    with pymupdf.open(path) as doc:
        return [(m.page, m.text) for m in find_matches(doc, pages or range(doc.page_count), targets)]


def _category(name: str, text: str) -> list[str]:
    pattern, check = category_pattern(name)
    out = []
    for m in pattern.finditer(text):
        value = next((m.group(g) for g in m.re.groupindex if m.group(g)), m.group())
        if not check or check(value):
            out.append(value)
    return out


# --- literal terms ---------------------------------------------------------------------------


def test_term_regex_tolerates_breaks_hyphens_and_quotes():
    pattern = re.compile(term_regex("state-of-the-art design"), re.I)
    assert pattern.search("a State-of-the-\nart\n  design")
    assert pattern.search("stateoftheart design")
    assert re.search(term_regex("client’s"), "the client's fee")
    assert re.fullmatch(term_regex("a.b (c)"), "a.b (c)")  # regex characters are literal
    assert not re.search(term_regex("art", whole_words=True), "party")
    assert re.search(term_regex("art", whole_words=True), "fine art.")


def test_normalize_expands_ligatures_and_quotes():
    assert normalize("Conﬁdential “x” ﬀ") == 'Confidential "x" ff'
    assert normalize("plain") == "plain"


def test_fixture_line_break_hyphenation_case_and_whole_words(make_pdf):
    path = make_pdf(["Call (510)\n555-0142 about the hyphen-\nation of the Battery.\nThe party art."])
    assert _texts(path, Targets.build(terms=["battery"])) == [(0, "Battery")]
    assert _texts(path, Targets.build(terms=["battery"], case_sensitive=True)) == []
    assert _texts(path, Targets.build(terms=["hyphenation"])) == [(0, "hyphenation")]
    assert _texts(path, Targets.build(terms=["(510) 555-0142"])) == [(0, "(510) 555-0142")]
    assert len(_texts(path, Targets.build(terms=["art"]))) == 2  # "party" and "art"
    assert _texts(path, Targets.build(terms=["art"], whole_words=True)) == [(0, "art")]
    with pymupdf.open(path) as doc:
        (phone,) = find_matches(doc, [0], Targets.build(categories=["phone"]))
    assert phone.text == "(510) 555-0142" and len(phone.rects) == 2  # one box per line


def test_targets_need_something_and_valid_regex():
    with pytest.raises(ToolArgumentError, match="Nothing to look for"):
        Targets.build()
    with pytest.raises(ToolArgumentError, match="regular expression"):
        Targets.build(regex="(unclosed")
    with pytest.raises(ToolArgumentError, match="not a pattern category"):
        Targets.build(categories=["shoe sizes"])


def test_overlapping_matches_merge_so_nothing_is_left_half_covered(synthetic):
    path = synthetic("contract.pdf")
    found = _texts(path, Targets.build(terms=["maria"], categories=["email"]), pages=[0])
    texts = [t for _, t in found]
    assert "maria.gonzalez@voltguard.com" in texts
    assert "Maria" in texts  # the name itself, outside the e-mail address


# --- real files: ligatures and hyphenated line breaks ---------------------------------------


def test_contract_ligature_counts_and_broken_phone(synthetic):
    path = synthetic("contract.pdf")
    assert len(_texts(path, Targets.build(terms=["confidential"]))) == 47
    assert len(_texts(path, Targets.build(terms=["Confidential"], case_sensitive=True))) == 43
    assert (0, "(510) 555-0142") in _texts(path, Targets.build(categories=["phone"]))


@pytest.mark.parametrize(
    "name, term, page",
    [
        ("pdfjs__tracemonkey.pdf", "compile", 0),  # "com-\npile"
        ("pdfjs__tracemonkey.pdf", "efficient", 0),  # "eﬃcient" ligature
        ("unstructured__multi-column.pdf", "embeddings", 0),  # "em-\nbeddings"
        ("pdfplumber__issue-982-example.pdf", "experience", 0),  # "experi-\nence"
    ],
)
def test_real_files_ligatures_and_hyphenation(real, name, term, page):
    path = real(name)
    with pymupdf.open(path) as doc:
        plain = doc[page].get_text()
        found = find_matches(doc, [page], Targets.build(terms=[term]))
    assert term not in plain.lower() or "-\n" in plain or any(c in plain for c in "ﬀﬁﬂﬃﬄ")
    assert any(m.text.lower() == term for m in found)
    assert all(m.rects for m in found)


def test_hyphenated_match_has_a_box_on_each_line(real):
    path = real("pdfjs__tracemonkey.pdf")
    with pymupdf.open(path) as doc:
        assert "com-\npile" in doc[0].get_text()
        found = [m for m in find_matches(doc, [0], Targets.build(terms=["compile"])) if len(m.rects) == 2]
    assert found, "the hyphenated 'com-/pile' should be one match over two lines"


@pytest.mark.parametrize(
    "name, targets",
    [
        ("pdfjs__tracemonkey.pdf", {"terms": ["trace", "efficient"]}),
        ("unstructured__multi-column.pdf", {"terms": ["retrieval"], "categories": ["url", "date"]}),
        ("pdfplumber__issue-982-example.pdf", {"regex": r"\b[A-Z][a-z]+ing\b"}),
    ],
)
def test_line_level_reading_equals_whole_page_reading(real, name, targets):
    """The fast path (only the lines that may match) finds exactly what reading whole pages finds."""
    path = real(name)
    built = Targets.build(**targets)
    with pymupdf.open(path) as doc:
        pages = range(min(doc.page_count, 6))
        fast = [(m.page, m.text, [tuple(r) for r in m.rects]) for m in find_matches(doc, pages, built)]
        slow = []
        for index in pages:
            for m in _page_matches(index, page_text(doc[index]), built.patterns()):
                slow.append((m.page, m.text, [tuple(r) for r in m.rects]))
    assert fast == slow and fast


@pytest.mark.parametrize(
    "name, terms, pages",
    [
        ("pdfjs__freeculture.pdf", ["copyright"], range(30, 90)),  # "copy-\nright" on some pages
        ("pdfjs__freeculture.pdf", ["the", "figure"], range(0, 12)),  # small capitals: "T" and "HE" in two boxes
        ("pdfjs__tracemonkey.pdf", ["efficient", "trace tree"], range(0, 6)),  # ligatures, phrases over lines
        ("unstructured__pdf2image-memory-error-test-400p.pdf", ["Internal Revenue", "command code"], range(0, 40)),
        ("unstructured__multi-column.pdf", ["embeddings", "retrieval"], range(0, 3)),
    ],
)
def test_mupdf_boxes_equal_reading_whole_pages(real, name, terms, pages, monkeypatch):
    """Words and phrases boxed by MuPDF (from its own text, or from PyMuPDF's) are the matches, texts
    and boxes a full reading finds."""
    path = real(name)
    built = Targets.build(terms=terms)
    boxed = [0]  # pages on which MuPDF's boxes were used, in the run now going

    def spy(*args):
        located = term_matches(*args)
        boxed[0] += located is not None
        return located

    monkeypatch.setattr(textmatch, "term_matches", spy)

    def read(found):
        return [(m.page, " ".join(m.text.lower().split()), m.rects) for m in found]

    with pymupdf.open(path) as doc:
        pages = [i for i in pages if i < doc.page_count]

        def run():
            boxed[0] = 0
            return read(find_matches(doc, pages, built)), boxed[0]

        ways = {"mupdf text": run()}
        monkeypatch.setattr(textmatch, "mupdf_text", lambda tp: None)
        ways["pymupdf text"] = run()
        monkeypatch.setattr(textmatch, "term_boxes_usable", lambda *args: False)
        slow, _ = run()
    assert slow
    for way, (quick, pages_boxed) in ways.items():
        assert pages_boxed, way
        assert [(p, t) for p, t, _ in quick] == [(p, t) for p, t, _ in slow], way
        for (_, text, fast_rects), (_, _, slow_rects) in zip(quick, slow, strict=False):
            assert len(fast_rects) == len(slow_rects), (way, text)
            for a, b in zip(fast_rects, slow_rects, strict=False):
                assert max(abs(u - v) for u, v in zip(a, b, strict=False)) < 1.0, (way, text, a, b)


# --- categories on sample strings ------------------------------------------------------------


@pytest.mark.parametrize(
    "category, text, expected",
    [
        ("email", "write to maria.gonzalez@voltguard.com today", ["maria.gonzalez@voltguard.com"]),
        ("email", "not an address: user@localhost or @handle", []),
        (
            "phone",
            "call (510) 555-0142 or 415-555-0199 or +44 20 7946 0958",
            ["(510) 555-0142", "415-555-0199", "+44 20 7946 0958"],
        ),
        ("phone", "SSN 123-45-6789, year 2025, zip 94105", []),
        ("ssn", "social security number 123-45-6789.", ["123-45-6789"]),
        ("ssn", "phone 415-555-0199 and 1234-56-7890", []),
        ("card", "Visa 4111 1111 1111 1111 expires", ["4111 1111 1111 1111"]),
        ("card", "order 4111 1111 1111 1112 and 4417-2290-3381-0057", []),  # fail the Luhn check
        ("account", "account number 4417-2290-3381-0057", ["4417-2290-3381-0057"]),
        ("account", "IBAN DE89 3704 0044 0532 0130 00", ["DE89 3704 0044 0532 0130 00"]),
        ("account", "the account was closed", []),
        (
            "date",
            "on January 13, 2025 and 2025-02-01, 01/13/2025, 13 March 1988, August 3 , 2014",
            ["January 13, 2025", "2025-02-01", "01/13/2025", "13 March 1988", "August 3 , 2014"],
        ),
        ("date", "version 1.2 in room 12 of 2025 people", []),
        ("money", "pay $45,000 or 87,250 USD or €12.50", ["$45,000", "87,250 USD", "€12.50"]),
        ("money", "45,000 people came", []),
        (
            "url",
            "see https://example.org/a?b=1. or www.foo.com, aws.amazon.com/contact-us/",
            ["https://example.org/a?b=1", "www.foo.com", "aws.amazon.com/contact-us/"],
        ),
        ("url", "file report.pdf version 1.2.3 mail a@b.com", []),
    ],
)
def test_category_samples(category, text, expected):
    assert _category(category, text) == expected


def test_luhn_and_category_aliases():
    assert luhn_ok("4111 1111 1111 1111") and not luhn_ok("4111 1111 1111 1112")
    assert not luhn_ok("4111")
    assert normalize_category("Email addresses") == "email"
    assert normalize_category("SSNs") == "ssn"
    assert normalize_category("credit card numbers") == "card"
