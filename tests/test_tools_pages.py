"""Page tools on fixture PDFs and real corpus files, read back with PyMuPDF."""

from __future__ import annotations

import time
from pathlib import Path

import pymupdf
import pytest

from pdftools.errors import EncryptedPdfError, PageRangeError, ToolArgumentError
from pdftools.tools_extract_pages import extract_pages
from pdftools.tools_pages import (
    add_page_with_text,
    crop_pages,
    delete_pages,
    insert_blank_pages,
    remove_blank_pages,
    reorder_pages,
    rotate_pages,
    split_pdf,
)

FIVE = [f"This is page {n} of five" for n in ("one", "two", "three", "four", "five")]


def texts(path: str, limit: int = 200) -> list[str]:
    """First ``limit`` characters of each page's text, whitespace-normalised."""
    with pymupdf.open(path) as doc:
        return [" ".join(page.get_text().split())[:limit] for page in doc]


def page_text(path: str, index: int, limit: int = 200) -> str:
    with pymupdf.open(path) as doc:
        return " ".join(doc[index].get_text().split())[:limit]


def page_count(path: str) -> int:
    with pymupdf.open(path) as doc:
        return doc.page_count


# --- registry -------------------------------------------------------------------------------


def test_tools_are_registered_with_kinds():
    # Read the registry entries off the functions, so other modules' state does not matter here.
    import pdftools.tools_pages as module

    for name in module.__all__:
        entry = getattr(module, name).tool
        assert entry.name == name and entry.category == "pages"
        assert entry.kind == ("files" if name == "split_pdf" else "pdf")
        assert set(entry.arg_docs) >= {"file", "output"}
    assert split_pdf.tool.validate({"file": "a.pdf"})["every"] is None
    with pytest.raises(ToolArgumentError, match="degrees"):
        rotate_pages.tool.validate({"file": "a.pdf", "degrees": "left"})


# --- extract / delete -----------------------------------------------------------------------


def test_extract_pages_in_given_order(make_pdf):
    src = make_pdf(FIVE)
    out = extract_pages(file=src, pages="4,2")
    assert Path(out).parent == Path.cwd() and Path(out).name == "fixture_pages.pdf"
    assert texts(out) == [FIVE[3], FIVE[1]]
    again = extract_pages(file=src, pages=[5, "1-2"], output="picked.pdf")
    assert Path(again).name == "picked.pdf"
    assert texts(again) == [FIVE[4], FIVE[0], FIVE[1]]


def test_extract_pages_from_352_page_book_is_fast(real):
    src = real("pdfjs__freeculture.pdf")
    start = time.perf_counter()
    out = extract_pages(file=src, pages="1-3,350-last")
    elapsed = time.perf_counter() - start
    assert elapsed < 3, f"extract_pages took {elapsed:.2f}s"
    assert page_count(out) == 6
    assert Path(out).stat().st_size < Path(src).stat().st_size / 3
    with pymupdf.open(src) as doc:
        expected = [" ".join(doc[i].get_text().split())[:200] for i in (0, 1, 2, 349, 350, 351)]
    assert texts(out) == expected


def test_delete_pages_tracemonkey(real):
    src = real("pdfjs__tracemonkey.pdf")
    original = texts(src)
    out = delete_pages(file=src, pages="4-9")
    assert page_count(out) == 8
    got = texts(out)
    assert got[3] == original[9]  # output page 4 is original page 10
    assert got[:3] == original[:3] and got[3:] == original[9:]


def test_delete_every_page_is_an_error(make_pdf):
    src = make_pdf(FIVE[:2])
    with pytest.raises(ToolArgumentError, match="every page"):
        delete_pages(file=src, pages="all")
    assert list(Path.cwd().iterdir()) == []  # nothing written


def test_page_past_the_end_names_valid_range(make_pdf):
    src = make_pdf(FIVE[:3])
    with pytest.raises(PageRangeError, match=r"valid pages are 1-3"):
        delete_pages(file=src, pages="5")
    with pytest.raises(PageRangeError, match=r"1-3"):
        extract_pages(file=src, pages="2-7")
    with pytest.raises(ToolArgumentError, match="not a page"):
        extract_pages(file=src, pages="two")


def test_encrypted_input_needs_password(real):
    src = real("pdfplumber__password-example.pdf")
    with pytest.raises(EncryptedPdfError, match="password"):
        delete_pages(file=src, pages="1")


# --- rotate ---------------------------------------------------------------------------------


def rotations(path: str) -> list[int]:
    with pymupdf.open(path) as doc:
        return [page.rotation for page in doc]


def test_rotate_adds_to_existing_rotation(make_pdf):
    src = make_pdf(FIVE[:3], rotation=90)
    out = rotate_pages(file=src, pages="1", degrees=90)
    assert rotations(out) == [180, 90, 90]
    out = rotate_pages(file=src, pages="2-3", degrees=-90)
    assert rotations(out) == [90, 0, 0]
    assert texts(out) == FIVE[:3]


def test_rotate_default_all_and_counter_clockwise(make_pdf):
    src = make_pdf(FIVE[:2])
    assert rotations(rotate_pages(file=src)) == [90, 90]
    assert rotations(rotate_pages(file=src, degrees=-90)) == [270, 270]
    assert rotations(rotate_pages(file=src, pages="last", degrees=540)) == [0, 180]


def test_rotate_real_page(real):
    src = real("pdfjs__tracemonkey.pdf")
    out = rotate_pages(file=src, pages="2,14", degrees=180)
    got = rotations(out)
    assert got[1] == 180 and got[13] == 180 and set(got[2:13]) == {0} and got[0] == 0
    assert page_text(out, 1) == page_text(src, 1)


def test_rotate_bad_degrees(make_pdf):
    src = make_pdf(FIVE[:1])
    with pytest.raises(ToolArgumentError, match="multiple of 90"):
        rotate_pages(file=src, degrees=45)


# --- reorder --------------------------------------------------------------------------------


def test_reverse_contract(synthetic):
    src = synthetic("contract.pdf")
    original = texts(src)
    out = reorder_pages(file=src, order="reverse")
    assert texts(out) == original[::-1]
    assert len(original) > 1


def test_reorder_explicit_and_last_to_first(make_pdf):
    src = make_pdf(FIVE[:3])
    assert texts(reorder_pages(file=src, order="3,1,2")) == [FIVE[2], FIVE[0], FIVE[1]]
    assert texts(reorder_pages(file=src, order=[2, 3, 1])) == [FIVE[1], FIVE[2], FIVE[0]]
    assert texts(reorder_pages(file=src, order="last-1")) == FIVE[:3][::-1]
    assert texts(reorder_pages(file=src, order="3-1")) == FIVE[:3][::-1]


def test_reorder_partial_or_repeated_order_is_an_error(make_pdf):
    src = make_pdf(FIVE[:4])
    with pytest.raises(ToolArgumentError, match=r"leaves out page\(s\) 1, 2, 4"):
        reorder_pages(file=src, order="3")
    with pytest.raises(ToolArgumentError, match="more than once"):
        reorder_pages(file=src, order="1,2,3,4,2")
    with pytest.raises(PageRangeError, match="1-4"):
        reorder_pages(file=src, order="5,1,2,3,4")


# --- split ----------------------------------------------------------------------------------


def test_split_default_one_page_each(make_pdf):
    src = make_pdf(FIVE)
    parts = split_pdf(file=src)
    assert [Path(p).name for p in parts] == [f"fixture_part{n}.pdf" for n in range(1, 6)]
    assert [texts(p) for p in parts] == [[t] for t in FIVE]


def test_split_every_and_at(make_pdf):
    src = make_pdf(FIVE)
    parts = split_pdf(file=src, every=2)
    assert [texts(p) for p in parts] == [FIVE[0:2], FIVE[2:4], FIVE[4:5]]
    parts = split_pdf(file=src, at="3,5", output="chapter.pdf")
    assert [Path(p).name for p in parts] == ["chapter_part1.pdf", "chapter_part2.pdf", "chapter_part3.pdf"]
    assert [texts(p) for p in parts] == [FIVE[0:2], FIVE[2:4], FIVE[4:5]]


def test_split_errors(make_pdf):
    src = make_pdf(FIVE)
    with pytest.raises(ToolArgumentError, match="not both"):
        split_pdf(file=src, every=2, at="3")
    with pytest.raises(ToolArgumentError, match="1 or more"):
        split_pdf(file=src, every=0)
    with pytest.raises(ToolArgumentError, match="nothing to split"):
        split_pdf(file=src, at="1")
    with pytest.raises(PageRangeError, match="1-5"):
        split_pdf(file=src, at="9")
    assert list(Path.cwd().iterdir()) == []


def test_split_real_keeps_outline_and_text(real):
    src = real("pdfjs__tracemonkey.pdf")
    parts = split_pdf(file=src, every=5)
    assert [page_count(p) for p in parts] == [5, 5, 4]
    assert page_text(parts[2], 0) == page_text(src, 10)
    assert page_text(parts[1], 4) == page_text(src, 9)

    book = real("pdfjs__freeculture.pdf")
    parts = split_pdf(file=book, at="100,300")
    assert [page_count(p) for p in parts] == [99, 200, 53]
    assert page_text(parts[1], 0) == page_text(book, 99)
    with pymupdf.open(parts[1]) as doc:
        toc = doc.get_toc()
    assert toc and toc[0][0] == 1 and all(1 <= entry[2] <= 200 for entry in toc)


# --- blank pages ----------------------------------------------------------------------------


def test_insert_blank_pages_and_remove_them_again(make_pdf):
    src = make_pdf(FIVE[:3])
    out = insert_blank_pages(file=src, after="1,3", count=2)
    assert texts(out) == [FIVE[0], "", "", FIVE[1], FIVE[2], "", ""]
    cleaned = remove_blank_pages(file=out)
    assert texts(cleaned) == FIVE[:3]


def test_insert_blank_before_first_page(make_pdf):
    src = make_pdf(FIVE[:2])
    out = insert_blank_pages(file=src, after=0)
    assert texts(out) == ["", FIVE[0], FIVE[1]]
    with pytest.raises(PageRangeError, match="1-2"):
        insert_blank_pages(file=src, after=3)
    with pytest.raises(ToolArgumentError, match="count"):
        insert_blank_pages(file=src, after=1, count=0)


def test_blank_page_takes_neighbour_size(real):
    src = real("docling__odf_presentation_01.odp.pdf")  # landscape slides
    out = insert_blank_pages(file=src, after="last")
    with pymupdf.open(src) as original, pymupdf.open(out) as doc:
        assert doc.page_count == original.page_count + 1
        last = doc[-1]
        assert last.get_text().strip() == ""
        assert last.rect == original[-1].rect and last.rect.width > last.rect.height


def _blank_mix(tmp_path: Path, guard) -> str:
    """Pages: text, empty, white box, black box (drawing only), text, whitespace-only text."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "First real page")
    doc.new_page()
    doc.new_page().draw_rect(pymupdf.Rect(50, 50, 500, 700), color=(1, 1, 1), fill=(1, 1, 1))
    doc.new_page().draw_rect(pymupdf.Rect(100, 100, 300, 300), color=(0, 0, 0), fill=(0, 0, 0))
    doc.new_page().insert_text((72, 72), "Last real page")
    doc.new_page().insert_text((72, 72), "   ")
    path = tmp_path / "mix.pdf"
    doc.save(path)
    return guard(path)


def test_remove_blank_pages_removes_exactly_the_blank_ones(tmp_path, guard):
    src = _blank_mix(tmp_path, guard)
    out = remove_blank_pages(file=src)
    assert texts(out) == ["First real page", "", "Last real page"]
    with pymupdf.open(out) as doc:
        assert doc[1].get_drawings()  # the black box page stayed


def test_remove_blank_pages_keeps_scanned_pages(real):
    src = real("docling__nemotron_multipage.pdf")  # image-only scans, no text layer
    out = remove_blank_pages(file=src)
    assert page_count(out) == page_count(src) == 4


def test_remove_blank_pages_all_blank_is_an_error(make_pdf):
    src = make_pdf(["", " "])
    with pytest.raises(ToolArgumentError, match="Every page"):
        remove_blank_pages(file=src)
    with pytest.raises(ToolArgumentError, match="threshold"):
        remove_blank_pages(file=src, threshold=2)


# --- add page with text ---------------------------------------------------------------------


def test_add_page_with_text_at_end_of_real_file(real):
    src = real("pdfjs__tracemonkey.pdf")
    out = add_page_with_text(file=src, text="Reviewed by Legal on 2025-02-01")
    with pymupdf.open(src) as original, pymupdf.open(out) as doc:
        assert doc.page_count == 15
        assert "Reviewed by Legal on 2025-02-01" in doc[-1].get_text()
        assert doc[-1].rect == original[-1].rect
        assert " ".join(doc[0].get_text().split())[:200] == " ".join(original[0].get_text().split())[:200]


def test_add_page_with_text_start_after_and_wrapping(make_pdf):
    src = make_pdf(FIVE[:2])
    first = add_page_with_text(file=src, text="Cover note", position="start")
    assert texts(first) == ["Cover note", FIVE[0], FIVE[1]]
    middle = add_page_with_text(file=src, text="Between", after=1, output="mid.pdf")
    assert texts(middle) == [FIVE[0], "Between", FIVE[1]]

    long_text = " ".join(f"word{n}" for n in range(2500)) + "\n\nLast paragraph ends here."
    out = add_page_with_text(file=src, text=long_text, font_size=11)
    with pymupdf.open(out) as doc:
        assert doc.page_count > 3  # flowed onto more than one new page
        words = [w for page in doc.pages(2) for w in page.get_text("words")]
        assert all(page.rect.contains(pymupdf.Rect(w[:4])) for page in doc.pages(2) for w in page.get_text("words"))
        joined = " ".join(w[4] for w in words)
    assert joined.startswith("word0 word1 word2") and "word2499" in joined
    assert joined.endswith("Last paragraph ends here.")


def test_add_page_with_text_errors(make_pdf):
    src = make_pdf(FIVE[:2])
    with pytest.raises(ToolArgumentError, match="empty"):
        add_page_with_text(file=src, text="  ")
    with pytest.raises(PageRangeError, match="1-2"):
        add_page_with_text(file=src, text="x", after=3)


# --- crop -----------------------------------------------------------------------------------


def test_crop_margins_set_cropbox(make_pdf):
    src = make_pdf(FIVE[:2])
    out = crop_pages(file=src, pages="1", margin=36, bottom=100)
    with pymupdf.open(out) as doc:
        assert doc[0].cropbox == pymupdf.Rect(36, 36, 612 - 36, 792 - 100)
        assert doc[1].cropbox == pymupdf.Rect(0, 0, 612, 792)
    out = crop_pages(file=src, left=1, unit="in")
    with pymupdf.open(out) as doc:
        assert [page.rect.width for page in doc] == [540, 540]


def test_crop_follows_the_page_as_seen(make_pdf):
    src = make_pdf(["Heading at the top"], rotation=90)  # text sits at the visible top-right
    with pymupdf.open(src) as doc:
        seen = doc[0].rect
    out = crop_pages(file=src, right=100)
    with pymupdf.open(out) as doc:
        assert doc[0].rect == pymupdf.Rect(0, 0, seen.width - 100, seen.height)
        assert doc[0].get_text().strip() == ""  # the text was in the visible right strip
    out = crop_pages(file=src, left=100)
    assert page_text(out, 0) == "Heading at the top"


def test_crop_real_file(real):
    src = real("pdfjs__tracemonkey.pdf")
    out = crop_pages(file=src, pages="1-2", margin=50)
    with pymupdf.open(src) as original, pymupdf.open(out) as doc:
        assert doc[0].rect.width == original[0].rect.width - 100
        assert doc[2].rect == original[2].rect


def test_crop_errors(make_pdf):
    src = make_pdf(FIVE[:1])
    with pytest.raises(ToolArgumentError, match="leave nothing"):
        crop_pages(file=src, margin=400)
    with pytest.raises(ToolArgumentError, match="negative"):
        crop_pages(file=src, left=-5)
    with pytest.raises(ToolArgumentError, match="Nothing to crop"):
        crop_pages(file=src)


# --- fidelity: what a page subset keeps and drops -------------------------------------------


def orphan_pages(path: str) -> list[int]:
    """/Page objects still in the file but not in its page tree (deleted pages kept alive)."""
    with pymupdf.open(path) as doc:
        live = {doc.page_xref(i) for i in range(doc.page_count)}
        return [
            x for x in range(1, doc.xref_length()) if doc.xref_get_key(x, "Type") == ("name", "/Page") and x not in live
        ]


def test_extract_keeps_form_fields_of_kept_pages(real):
    import pypdf

    src = real("pymupdf__cms-etc-filled.pdf")
    out = extract_pages(file=src, pages="2,1")
    with pymupdf.open(src) as original, pymupdf.open(out) as doc:
        want = {w.field_name: w.field_value for i in (0, 1) for w in original[i].widgets()}
        got = {w.field_name: w.field_value for page in doc for w in page.widgets()}
        assert doc.is_form_pdf == len(want) == 38
    assert got == want
    assert set(pypdf.PdfReader(out).get_fields()) == set(want)  # no fields of deleted pages
    assert orphan_pages(out) == []
    none = extract_pages(file=src, pages="5-7")
    assert not pypdf.PdfReader(none).get_fields()


def test_split_form_keeps_widgets(real):
    src = real("pdfjs__prefilled_f1040.pdf")
    parts = split_pdf(file=src)
    with pymupdf.open(src) as original:
        want = [len(list(page.widgets())) for page in original]
    assert [len(list(pymupdf.open(p)[0].widgets())) for p in parts] == want == [120, 122]


def test_delete_keeps_outline_of_kept_pages(real):
    src = real("docling__bookmark_sample.pdf")
    with pymupdf.open(src) as doc:
        toc, count = doc.get_toc(), doc.page_count
    out = delete_pages(file=src, pages=[p for p in range(1, count + 1) if p not in (1, 3)])
    with pymupdf.open(out) as doc:
        got = doc.get_toc()
    kept = [(title, {1: 1, 3: 2}[page]) for _, title, page in toc if page in (1, 3)]
    assert sorted((title, page) for _, title, page in got) == sorted(kept)
    assert orphan_pages(out) == []


def test_extract_is_a_new_document_of_those_pages(real):
    src = real("docling__bookmark_sample.pdf")
    out = extract_pages(file=src, pages="3,1")
    with pymupdf.open(src) as original, pymupdf.open(out) as doc:
        assert [p.get_text() for p in doc] == [original[2].get_text(), original[0].get_text()]
        assert doc.get_toc() == []  # bookmarks stay with the whole document
    form = real("pdfjs__prefilled_f1040.pdf")
    single = extract_pages(file=form, pages="2")
    assert orphan_pages(single) == []
    assert Path(single).stat().st_size < 0.7 * Path(form).stat().st_size


def _without_qpdf(monkeypatch):
    import pdftools._qpdf as qpdf

    monkeypatch.setattr(qpdf, "_qpdf", lambda: "/nonexistent/qpdf")  # as if qpdf were not installed


@pytest.mark.parametrize("engine", ["qpdf", "pymupdf"])
def test_extract_engines_give_the_same_pages(real, engine, monkeypatch):
    if engine == "pymupdf":
        _without_qpdf(monkeypatch)
    src = real("pdfjs__freeculture.pdf")
    out = extract_pages(file=src, pages="9,1-2,last")
    with pymupdf.open(src) as original, pymupdf.open(out) as doc:
        assert doc.page_count == 4
        assert [p.get_text() for p in doc] == [original[i].get_text() for i in (8, 0, 1, 351)]
        assert [len(p.get_links()) for p in doc] == [len(original[i].get_links()) for i in (8, 0, 1, 351)]
    form = real("pymupdf__cms-etc-filled.pdf")
    with pymupdf.open(extract_pages(file=form, pages="2,1", output="form.pdf")) as doc:
        assert sum(1 for page in doc for _ in page.widgets()) == 38
    with pytest.raises(PageRangeError, match=r"valid pages are 1-352"):
        extract_pages(file=src, pages="350-353")
    assert sorted(p.name for p in Path.cwd().iterdir()) == ["form.pdf", "pdfjs__freeculture_pages.pdf"]


@pytest.mark.parametrize("engine", ["qpdf", "pymupdf"])
def test_extract_keeps_restrictions_and_refuses_locked_files(real, engine, monkeypatch):
    if engine == "pymupdf":
        _without_qpdf(monkeypatch)
    out = extract_pages(file=real("unstructured__copy-protected.pdf"), pages="1")
    with pymupdf.open(out) as doc:
        assert not doc.needs_pass and doc.page_count == 1
        assert doc.metadata["encryption"]  # still restricted (opens without a password)
        assert not doc.permissions & pymupdf.PDF_PERM_COPY
    with pytest.raises(EncryptedPdfError, match="password"):
        extract_pages(file=real("pdfplumber__password-example.pdf"), pages="1")


def test_qpdf_page_ranges():
    from pdftools._qpdf import page_ranges

    assert page_ranges([0, 1, 2, 6, 5]) == "1-3,7-6"
    assert page_ranges([3, 1]) == "4,2"
    assert page_ranges([4, 0, 1]) == "5,1-2"
    assert page_ranges(list(range(100))) == "1-100"


def test_fixed_pages_resolve_without_the_page_count():
    from pdftools.pages import fixed_pages

    assert fixed_pages("1-3, 5") == [0, 1, 2, 4]
    assert fixed_pages([5, "1-2"]) == [4, 0, 1]
    assert fixed_pages("pages 4 to 6") == [3, 4, 5]
    for needs_count in ("last", "2-last", "all", "odd", "-1", "5,-2", "0", "first", "*", True):
        assert fixed_pages(needs_count) is None
