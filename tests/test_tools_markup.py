"""search_text, highlight/underline/strikeout_text, add_comment, read/delete_annotations."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from conftest import annotations

from pdftools.colors import parse_color
from pdftools.errors import PageRangeError, ToolArgumentError
from pdftools.tools_markup import (
    add_comment,
    delete_annotations,
    highlight_text,
    read_annotations,
    search_text,
    strikeout_text,
    underline_text,
)

# --- search_text -----------------------------------------------------------------------------


def test_search_contract_counts_ligature_words_and_pages(synthetic):
    result = search_text(synthetic("contract.pdf"), terms="confidential")
    assert result["count"] == 47 and result["pages"] == [1, 2, 3, 4]
    assert {m["text"].lower() for m in result["matches"]} == {"confidential"}
    assert "information disclosed" in result["matches"][0]["context"]
    assert result["truncated"] is False


def test_search_answers_which_pages_and_finds_broken_phone(synthetic):
    path = synthetic("contract.pdf")
    assert search_text(path, terms=["social security"])["pages"] == [3, 4]
    phone = search_text(path, categories=["phone"], pages="1")
    assert [m["text"] for m in phone["matches"]] == ["(510) 555-0142", "415-555-0199"]
    assert search_text(path, terms="battery")["count"] == 0  # a question, not a failure


def test_search_fixture_case_and_whole_words(make_pdf):
    path = make_pdf(["The battery lasts.", "No power here.", "BATTERY pack and batteryless"])
    assert search_text(path, terms="battery")["pages"] == [1, 3]
    assert search_text(path, terms="battery", case_sensitive=True)["count"] == 2
    assert search_text(path, terms="battery", whole_words=True)["count"] == 2
    assert search_text(path, regex=r"pow\w+")["matches"][0] == {
        "page": 2,
        "text": "power",
        "kind": "regex",
        "context": "No power here.",
    }


def test_search_bounds_the_list_on_long_files(real):
    result = search_text(real("pdfjs__tracemonkey.pdf"), terms="the", whole_words=True)
    assert result["count"] > 200 and len(result["matches"]) == 200 and result["truncated"]
    assert result["pages"] == list(range(1, 15))


def test_search_errors(make_pdf):
    path = make_pdf(["one page"])
    with pytest.raises(PageRangeError, match="1-1"):
        search_text(path, terms="x", pages="2")
    with pytest.raises(ToolArgumentError, match="Nothing to look for"):
        search_text(path)


# --- highlight / underline / strikeout -------------------------------------------------------


def test_highlight_confidential_covers_the_word(synthetic):
    path = synthetic("contract.pdf")
    out = highlight_text(path, terms=["Confidential"])
    assert Path(out).name == "contract_highlighted.pdf"
    found = read_annotations(out)
    assert len(found) == 47 and {a["type"] for a in found} == {"Highlight"}
    assert {a["text"].lower() for a in found} == {"confidential"}
    # Independent check with the shared helper (PyMuPDF's own text box), on two pages to stay fast.
    marks = annotations(highlight_text(path, terms=["Confidential"], pages="1-2", output="two.pdf"))
    assert len(marks) == 20 and all(kind == "Highlight" for _, kind, _, _ in marks)
    assert all("confidential" in under.lower() for _, _, under, _ in marks)


def test_underline_dates_in_contract(synthetic):
    out = underline_text(synthetic("contract.pdf"), categories=["date"], output="dates.pdf")
    under = [a["text"] for a in read_annotations(out) if a["type"] == "Underline"]
    assert "January 13, 2025" in under and "July 15, 2025" in under
    assert len(under) == 6
    assert all(t == "Underline" for _, t, _, _ in annotations(out))


def test_multi_line_match_is_one_annotation_with_two_quads(synthetic):
    out = strikeout_text(synthetic("contract.pdf"), terms="(510) 555-0142", color="blue")
    with pymupdf.open(out) as doc:
        page = doc[0]
        (annot,) = list(page.annots())
        assert annot.type[1] == "StrikeOut" and len(annot.vertices) == 8
        assert tuple(annot.colors["stroke"]) == pytest.approx(parse_color("blue"))
    assert read_annotations(out)[0]["text"] == "(510) 555-0142"


def test_highlight_real_file_with_ligatures_and_hyphenation(real):
    path = real("pdfjs__tracemonkey.pdf")
    out = highlight_text(path, terms=["efficient", "compile"], pages="1-2", color="#00ff00")
    marked = read_annotations(out)
    assert marked and {a["page"] for a in marked} <= {1, 2}
    texts = {" ".join(a["text"].lower().replace("- ", "").split()) for a in marked}
    assert {"efficient", "compile"} <= texts
    with pymupdf.open(out) as doc:
        assert doc.page_count == 14


def test_highlight_rotated_page(make_pdf):
    path = make_pdf(["Hello battery world"], rotation=90)
    out = highlight_text(path, terms="battery")
    assert [a["text"] for a in read_annotations(out)] == ["battery"]


def test_marking_nothing_found_is_a_clear_error(make_pdf):
    path = make_pdf(["alpha", "beta"])
    with pytest.raises(ToolArgumentError, match=r'No text matched "gamma" on page 2 of fixture.pdf'):
        highlight_text(path, terms="gamma", pages=2)
    assert not list(Path.cwd().iterdir())  # nothing written
    with pytest.raises(ToolArgumentError, match="not a colour"):
        underline_text(path, terms="alpha", color="plaid")
    with pytest.raises(PageRangeError):
        strikeout_text(path, terms="alpha", pages="5")


# --- comments and annotations ----------------------------------------------------------------


def test_add_comment_near_text_and_by_position(synthetic):
    path = synthetic("contract.pdf")
    out = add_comment(path, "Check this contact", near="Maria Gonzalez")
    (note,) = read_annotations(out)
    assert note == {"page": 1, "type": "Text", "content": "Check this contact", "text": "", "author": "DocPilot"}
    with pymupdf.open(out) as doc:
        page = doc[0]
        (annot,) = list(page.annots())
        name = page.search_for("Maria Gonzalez")[0]
        assert abs(annot.rect.y1 - name.y0) < 20 and annot.rect.x0 >= name.x1
    out2 = add_comment(path, "Last page note", page="last", position="bottom-left")
    with pymupdf.open(out2) as doc:
        page = doc[3]
        (annot,) = list(page.annots())
        assert annot.rect.x0 < 100 and annot.rect.y1 > page.rect.height - 100


def test_add_comment_errors(make_pdf):
    path = make_pdf(["alpha"])
    with pytest.raises(ToolArgumentError, match='"omega" does not occur on page 1'):
        add_comment(path, "x", near="omega")
    with pytest.raises(ToolArgumentError, match="empty"):
        add_comment(path, "  ")
    with pytest.raises(PageRangeError):
        add_comment(path, "x", page=3)


def test_read_annotations_real_file(real):
    found = read_annotations(real("pdfjs__highlights.pdf"))
    assert len(found) == 8 and sum(a["type"] == "Highlight" for a in found) >= 5
    assert found[0]["text"] == "Trace-based Just-in-Time"
    assert "Calixte Denizet" in {a["author"] for a in found}
    assert read_annotations(real("pdfjs__highlights.pdf"), pages="14") == []


def test_delete_annotations_by_type_and_everything(synthetic, real):
    path = synthetic("contract.pdf")
    marked = highlight_text(path, terms="Maria Gonzalez")
    both = add_comment(marked, "note", page=2)
    only_notes = delete_annotations(both, types=["highlights"])
    assert [a["type"] for a in read_annotations(only_notes)] == ["Text"]
    clean = delete_annotations(real("pdfjs__highlights.pdf"))
    assert read_annotations(clean) == []
    with pymupdf.open(clean) as doc:
        assert doc.page_count == 14 and "Trace-based" in doc[0].get_text()


def test_delete_annotations_errors(make_pdf, synthetic):
    with pytest.raises(ToolArgumentError, match="no annotations"):
        delete_annotations(make_pdf(["plain"]))
    with pytest.raises(ToolArgumentError, match="not an annotation type"):
        delete_annotations(synthetic("contract.pdf"), types=["glitter"])
    with pytest.raises(ToolArgumentError, match="no Highlight annotations"):
        delete_annotations(add_comment(synthetic("contract.pdf"), "x"), types=["highlight"])
