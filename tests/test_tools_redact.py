"""redact_text and redact_pages: the text is gone for every extractor, the rest survives."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from conftest import assert_no_leak, extract_all, readable

from pdftools.errors import PageRangeError, ToolArgumentError
from pdftools.tools_redact import redact_pages, redact_text


def _text(path: str) -> str:
    with pymupdf.open(path) as doc:
        return " ".join(" ".join(page.get_text() for page in doc).split())


def test_redact_ligature_word_everywhere_and_neighbours_survive(synthetic):
    path = synthetic("contract.pdf")
    out = redact_text(path, terms=["confidential"])
    assert Path(out).name == "contract_redacted.pdf"
    assert_no_leak(out, ["confidential", "conﬁdential"])
    before, after = _text(path), _text(out)
    # Words on the lines above and below, and beside the match, are untouched.
    for neighbours in (
        "information disclosed under this work package remains the property of the",
        "substation maintenance planning. Deliverables are reviewed by the Client within ten business",
        "Information secret and use it only to perform this",
        "Master Services Agreement - page 1 of 4",
        "including the social security number 123-45-6789 of any seconded sta",
    ):
        assert after.count(neighbours) == before.count(neighbours) > 0, neighbours
    with pymupdf.open(out) as doc:
        assert doc.page_count == 4 and not any(list(page.annots()) for page in doc)
        assert "redacted" in doc.metadata["title"] or "Confidential" not in doc.metadata["title"]


def test_redact_emails_keeps_the_names(synthetic):
    out = redact_text(synthetic("contract.pdf"), categories=["email"])
    assert_no_leak(
        out,
        ["maria.gonzalez@voltguard.com", "d.chen@brightline-consulting.com", "accounts@voltguard.com", "voltguard.com"],
    )
    text = _text(out)
    assert "Maria Gonzalez" in text and "David Chen" in text and "Billing questions go to" in text


def test_redact_phone_and_email_on_page_one_only(synthetic):
    out = redact_text(synthetic("contract.pdf"), categories=["phone", "email"], pages="1")
    assert_no_leak(out, ["555-0142", "(510)", "415-555-0199", "maria.gonzalez@voltguard.com"])
    text = _text(out)
    assert text.count("123-45-6789") == 12  # the SSNs on pages 3-4 were not asked for
    assert "phone" in text and "Client is represented by Maria Gonzalez" in text


def test_redact_regex_and_terms_with_color(synthetic):
    out = redact_text(
        synthetic("contract.pdf"),
        terms="VoltGuard Electric LLC",
        regex=r"\d{3}-\d{2}-\d{4}",
        color="white",
        output="clean",
    )
    assert Path(out).name == "clean.pdf"
    assert_no_leak(out, ["VoltGuard Electric", "123-45-6789"])
    assert "Signed for" in _text(out)


@pytest.mark.parametrize(
    "name, term, pages",
    [
        ("pdfjs__tracemonkey.pdf", "compile", [1]),  # "com-\npile" across a line break
        ("pdfjs__tracemonkey.pdf", "efficient", [1, 2]),  # "eﬃcient" ligature
        ("unstructured__multi-column.pdf", "embeddings", [1]),  # "em-\nbeddings"
        ("pdfplumber__issue-982-example.pdf", "experience", [1]),  # "experi-\nence"
    ],
)
def test_redact_real_files_with_ligatures_and_hyphenation(real, tmp_path, name, term, pages):
    path = real(name)
    before = extract_all(path, pages=pages)
    assert any(term in readable(text) for text in before.values()), "the term is on those pages to begin with"
    out = redact_text(path, terms=term, pages=pages)
    assert_no_leak(out, [term], pages=pages)  # the tool's own output, read by four extractors
    texts = extract_all(out, pages=pages)
    assert all(len(t.split()) > 100 for t in texts.values())  # the rest of the page is still there
    with pymupdf.open(out) as doc, pymupdf.open(path) as src:
        assert doc.page_count == src.page_count


def test_redact_long_file_checks_touched_pages(real):
    path = real("pdfjs__freeculture.pdf")
    with pymupdf.open(path) as doc:  # the pages where the word really is, read from the source
        found = [i + 1 for i in range(doc.page_count) if "copyright" in readable(doc[i].get_text())]
    touched, untouched = found[:6], found[6]
    out = redact_text(path, terms="copyright", pages=",".join(map(str, touched)))
    assert_no_leak(out, ["copyright"], pages=touched)
    with pymupdf.open(out) as doc:
        assert doc.page_count == 352 and "copyright" in readable(doc[untouched - 1].get_text()), (
            "pages not asked for keep the word"
        )


def test_redact_blanks_image_pixels_but_keeps_the_image(tmp_path, guard):
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 40), False)
    pix.set_rect(pix.irect, (200, 30, 30))
    page.insert_image(pymupdf.Rect(20, 20, 280, 180), pixmap=pix)
    page.insert_text((40, 100), "Secret code ALPHA-7 here", fontsize=14)
    page.draw_line((20, 190), (280, 190))
    path = tmp_path / "img.pdf"
    doc.save(path)
    out = redact_text(guard(path), terms="ALPHA-7")
    assert_no_leak(out, ["ALPHA-7", "ALPHA"])
    with pymupdf.open(out) as result:
        page = result[0]
        assert len(page.get_images()) == 1 and page.get_drawings()  # image and line art stay
        assert "Secret code" in page.get_text() and "here" in page.get_text()


def test_redact_cleans_metadata_and_bookmarks(make_pdf, tmp_path, guard):
    src = make_pdf(["Project Falcon plan", "Budget for Falcon"])
    with pymupdf.open(src) as doc:
        doc.set_metadata({"title": "Falcon roadmap", "subject": "Project Falcon", "author": "Ann"})
        doc.set_toc([[1, "Falcon overview", 1], [1, "Budget", 2]])
        path = tmp_path / "meta.pdf"
        doc.save(path)
    out = redact_text(guard(path), terms="falcon")
    assert_no_leak(out, ["falcon"])
    with pymupdf.open(out) as doc:
        assert "falcon" not in str(doc.metadata).lower() and doc.metadata["author"] == "Ann"
        assert [t[1] for t in doc.get_toc()] == ["[redacted] overview", "Budget"]
        assert "falcon" not in (doc.get_xml_metadata() or "").lower()


def test_redact_nothing_found_and_bad_arguments(make_pdf):
    path = make_pdf(["alpha beta", "gamma"])
    with pytest.raises(ToolArgumentError, match=r'No text matched "delta" on all pages of fixture.pdf'):
        redact_text(path, terms="delta")
    with pytest.raises(ToolArgumentError, match="ssn patterns on page 2"):
        redact_text(path, categories="SSNs", pages="2")
    assert not list(Path.cwd().iterdir())  # no file written
    with pytest.raises(PageRangeError):
        redact_text(path, terms="alpha", pages="3")
    with pytest.raises(ToolArgumentError, match="Nothing to look for"):
        redact_text(path)


# --- redact_pages ----------------------------------------------------------------------------


def test_redact_pages_leaves_blank_pages_of_the_same_size(synthetic):
    path = synthetic("contract.pdf")
    out = redact_pages(path, pages="2-3")
    with pymupdf.open(out) as doc, pymupdf.open(path) as src:
        assert doc.page_count == 4
        for i in (1, 2):
            page = doc[i]
            assert page.get_text("words") == [] and page.get_images() == [] and page.get_drawings() == []
            assert page.rect == src[i].rect
        assert "Master Services Agreement" in doc[0].get_text() and "6. Signatures" in doc[3].get_text()
    assert_no_leak(out, ["2.10 The Consultant", "4.3 Each party"])


def test_redact_pages_real_file_with_images_and_annotations(real):
    out = redact_pages(real("docling__redp5110_sampled.pdf"), pages=[1, 4])
    with pymupdf.open(out) as doc:
        assert doc.page_count == 18
        for i in (0, 3):
            page = doc[i]
            assert not page.get_text().strip() and not page.get_images() and not list(page.annots())
        assert doc[1].get_text().strip()
    out2 = redact_pages(real("pdfjs__highlights.pdf"), pages="1")
    with pymupdf.open(out2) as doc:
        page = doc[0]
        assert not list(page.annots()) and not page.get_text().strip() and doc.page_count == 14


def test_redact_pages_errors(make_pdf):
    with pytest.raises(PageRangeError, match="valid pages are 1-2"):
        redact_pages(make_pdf(["a", "b"]), pages="4")
