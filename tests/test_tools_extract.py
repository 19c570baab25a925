"""Extraction tools on fixture PDFs and real corpus files; outputs read back with their libraries."""

from __future__ import annotations

import io
from pathlib import Path

import pymupdf
import pytest
from PIL import Image

from pdftools import PageRangeError, ToolArgumentError, ToolUnavailableError, _ocr, call_tool
from pdftools.tools_extract import (
    extract_attachments,
    extract_images,
    extract_tables,
    extract_text,
    get_outline,
    ocr,
    safe_name,
)


def save(doc: pymupdf.Document, tmp_path: Path, guard, name: str) -> str:
    path = tmp_path / "inputs" / name
    path.parent.mkdir(exist_ok=True)
    doc.save(path)
    doc.close()
    return guard(path)


def scan_png() -> bytes:
    """The real scan's page as a PNG (100 dpi)."""
    path = Path(__file__).resolve().parents[1].parent / "shared/corpus/real/docling__ocr_test.pdf"
    if not path.exists():
        pytest.skip("corpus absent")
    with pymupdf.open(path) as doc:
        return doc[0].get_pixmap(dpi=100).tobytes("png")


# --- extract_text -------------------------------------------------------------------------


def test_extract_text_fixture(make_pdf):
    out = extract_text(make_pdf(["first page words", "second page words"], name="two.pdf"))
    assert Path(out) == Path.cwd() / "two_text.txt"
    text = Path(out).read_text(encoding="utf-8")
    assert text.index("--- Page 1 ---") < text.index("first page words") < text.index("--- Page 2 ---")
    assert text.index("--- Page 2 ---") < text.index("second page words")
    only = Path(extract_text(make_pdf(["a one", "b two", "c three"]), pages="2-last", output="part")).read_text()
    assert "a one" not in only and "b two" in only and "c three" in only
    assert Path.cwd().joinpath("part.txt").exists()


def test_extract_text_real_expands_ligatures(synthetic):
    text = Path(extract_text(synthetic("annual_report.pdf"), pages=1)).read_text(encoding="utf-8")
    assert "Northwind Solar Annual Report 2023" in text
    assert "Pacific Northwest" in text and "\ufb01" not in text


def test_extract_text_errors(make_pdf, real):
    with pytest.raises(PageRangeError, match="valid pages are 1-1"):
        extract_text(make_pdf(["x"]), pages="3")
    with pytest.raises(ToolArgumentError, match="run ocr first|Run ocr first"):
        extract_text(real("docling__ocr_test.pdf"))
    assert not list(Path.cwd().iterdir())


# --- extract_tables -----------------------------------------------------------------------


def test_extract_tables_annual_report(synthetic):
    tables = extract_tables(synthetic("annual_report.pdf"))
    revenue = next(t for t in tables if "Revenue" in " ".join(t["rows"][0]))
    assert revenue["page"] == 1 and revenue["columns"] == 3
    assert ["2022", "55.3", "388"] in revenue["rows"]
    assert any(t["page"] == 2 and ["Modules", "31%"] in t["rows"] for t in tables)


def test_extract_tables_nics(real):
    tables = extract_tables(real("pdfplumber__nics-background-checks-2015-11.pdf"))
    assert len(tables) == 1 and tables[0]["page"] == 1
    cells = [c for row in tables[0]["rows"] for c in row if c]
    joined = "\n".join(cells)
    assert "Alabama" in joined and "Totals" in joined and "18,870" in joined
    assert len(tables[0]["rows"]) <= 200


def test_table_cells_read_as_pymupdf_reads_them(real):
    """Cells are read from one character dictionary per table: the same texts PyMuPDF's
    extract_cells gives when it reads the page anew for each cell (the nics table has ~1,000 cells)."""
    from pymupdf.table import extract_cells

    from pdftools._tables import _split_stacked, page_tables, table_rows

    with pymupdf.open(real("pdfplumber__nics-background-checks-2015-11.pdf")) as doc:
        page = doc[0]
        table = page_tables(page)[0]
        textpage = getattr(table, "textpage", None) or page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
        expected = [
            split
            for row in table.rows[:3]
            for split in _split_stacked([None if c is None else extract_cells(textpage, c).strip() for c in row.cells])
        ]
        rows = table_rows(page, table)
    assert not table.header.external
    assert rows[: len(expected)] == expected and ["Alaska", "209"] == expected[3][:2]


def test_extract_tables_none_and_bad_pages(make_pdf, synthetic):
    assert extract_tables(make_pdf(["just prose, no table"])) == []
    with pytest.raises(PageRangeError):
        extract_tables(synthetic("annual_report.pdf"), pages="9")


# --- extract_images -----------------------------------------------------------------------


def test_extract_images_fixture(tmp_path, guard, synthetic):
    logo = Path(synthetic("logo.png")).read_bytes()
    photo = Path(synthetic("photo1.jpg")).read_bytes()
    tiny = Image.new("RGB", (8, 8), "red")
    buf = io.BytesIO()
    tiny.save(buf, "PNG")
    doc = pymupdf.open()
    p1 = doc.new_page()
    xref = p1.insert_image(pymupdf.Rect(72, 72, 272, 272), stream=photo)
    p1.insert_image(pymupdf.Rect(300, 72, 310, 82), stream=buf.getvalue())
    p2 = doc.new_page()
    p2.insert_image(pymupdf.Rect(72, 72, 272, 272), xref=xref)  # the same picture again
    p2.insert_image(pymupdf.Rect(72, 300, 272, 400), stream=logo)
    path = save(doc, tmp_path, guard, "pics.pdf")

    out = extract_images(path)
    assert [Path(p).name for p in out] == ["pics_p1_1.jpg", "pics_p2_1.png"]
    with Image.open(out[0]) as im:
        assert im.format == "JPEG" and min(im.size) >= 50
    with Image.open(out[1]) as im:
        im.load()
        assert im.format == "PNG"
    with pytest.raises(ToolArgumentError, match="no images of at least 5000x5000"):
        extract_images(path, min_size=5000)
    assert len(extract_images(path, min_size=0)) == 3  # the tiny one too


def test_extract_images_keeps_transparency(tmp_path, guard, real):
    """A picture with a soft mask (transparency) comes out as an RGBA PNG with that transparency."""
    picture = Image.new("RGBA", (120, 80), (200, 30, 30, 255))
    picture.paste((0, 0, 0, 0), (60, 0, 120, 80))  # right half transparent
    buf = io.BytesIO()
    picture.save(buf, "PNG")
    doc = pymupdf.open()
    doc.new_page().insert_image(pymupdf.Rect(72, 72, 192, 152), stream=buf.getvalue())
    path = save(doc, tmp_path, guard, "masked.pdf")
    with pymupdf.open(path) as check:
        assert check[0].get_images(full=True)[0][1]  # stored with an /SMask
    [out] = extract_images(path)
    with Image.open(out) as im:
        assert im.mode == "RGBA" and im.size == (120, 80)
        assert im.getpixel((10, 40))[3] == 255 and im.getpixel((100, 40))[3] == 0
    # A real report whose logo has a soft mask (it crashed the tool before).
    [logo] = extract_images(real("pdfplumber__WARN-Report-for-7-1-2015-to-03-25-2016.pdf"), pages="1")
    with Image.open(logo) as im:
        assert im.mode == "RGBA" and im.size == (335, 118)


def test_extract_images_real(real):
    out = extract_images(real("pdfplumber__issue-982-example.pdf"), pages="2")
    assert [Path(p).name for p in out] == [
        "pdfplumber__issue-982-example_p2_1.jpg",
        "pdfplumber__issue-982-example_p2_2.jpg",
    ]
    for path in out:
        with Image.open(path) as im:
            im.load()
            assert im.size[0] >= 600


def test_extract_images_none(make_pdf):
    with pytest.raises(ToolArgumentError, match="no images"):
        extract_images(make_pdf(["text only"]))


# --- extract_attachments ------------------------------------------------------------------


def test_extract_attachments_real(real):
    out = extract_attachments(real("pypdfsamples__with-attachment.pdf"))
    assert [Path(p).name for p in out] == ["image.png"]
    with Image.open(out[0]) as im:
        im.load()
        assert im.format == "PNG"


def test_extract_attachments_hostile_names(tmp_path, guard):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "attachments inside")
    doc.embfile_add("evil", b"EVIL", filename="../../evil.txt", ufilename="../../evil.txt")
    doc.embfile_add("win", b"WIN", filename="..\\..\\win.txt", ufilename="..\\..\\win.txt")
    doc.embfile_add("abs", b"ABS", filename="/etc/cron.d/x", ufilename="/etc/cron.d/x")
    doc.embfile_add("dots", b"DOTS", filename="..", ufilename="..")
    page.add_file_annot(pymupdf.Point(100, 100), b"NOTE", "../note.txt")
    path = save(doc, tmp_path, guard, "hostile.pdf")
    Path("evil.txt").write_text("already here")

    out = extract_attachments(path)
    work = Path.cwd()
    assert all(Path(p).parent == work for p in out)
    names = sorted(Path(p).name for p in out)
    assert names == sorted(["evil-2.txt", "win.txt", "x", "attachment_4", "note.txt"])
    assert Path("evil.txt").read_text() == "already here"  # never overwritten
    assert Path("evil-2.txt").read_bytes() == b"EVIL"
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path.parent / "evil.txt").exists()


def test_safe_name():
    assert safe_name("../../a.txt", 1) == "a.txt"
    assert safe_name("C:\\x\\b.pdf", 1) == "b.pdf"
    assert safe_name("...", 3) == "attachment_3"
    assert safe_name(".bashrc", 1) == "bashrc"
    assert safe_name("a\x00b?.txt", 1) == "a_b_.txt"


def test_extract_attachments_none(make_pdf):
    with pytest.raises(ToolArgumentError, match="has no attached files"):
        extract_attachments(make_pdf(["nothing attached"]))


# --- get_outline --------------------------------------------------------------------------


def test_get_outline_real(real):
    outline = get_outline(real("docling__bookmark_sample.pdf"))
    assert outline[0] == {"level": 1, "title": "PART I - DEFINITIONS", "page": 1}
    assert {"level": 3, "title": "3.1 Payment Schedule", "page": 2} in outline
    assert outline[-1] == {"level": 1, "title": "PART III - MISCELLANEOUS", "page": 3}
    assert len(outline) == 8


def test_get_outline_none_and_registry(make_pdf):
    assert get_outline(make_pdf(["no bookmarks"])) == []
    assert call_tool("get_outline", {"file": make_pdf(["x"], name="b.pdf")}) == []


# --- ocr ----------------------------------------------------------------------------------


def test_ocr_scan_becomes_searchable(real):
    src = real("docling__ocr_test.pdf")
    out = ocr(src)
    assert Path(out).name == "docling__ocr_test_ocr.pdf"
    with pymupdf.open(out) as doc:
        assert doc.page_count == 1
        text = " ".join(doc[0].get_text().split())
        assert "Docling bundles PDF document conversion" in text
        assert "Markdown" in text
        assert len(doc[0].get_images()) == 1  # the scan itself is kept, not re-rendered
        hit = doc[0].search_for("Docling")
        assert hit and hit[0].y1 < 150  # the words sit where they are printed (top of the page)


def test_ocr_rotated_scan_and_text_pages_kept(tmp_path, guard):
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=595)
    page.set_rotation(90)
    page.insert_image(page.mediabox, stream=scan_png(), rotate=90, keep_proportion=False)
    text_page = doc.new_page()
    text_page.insert_text((72, 72), "Already searchable page", fontsize=11)
    path = save(doc, tmp_path, guard, "rotated.pdf")
    out = ocr(path, language="English")
    with pymupdf.open(out) as result:
        assert result.page_count == 2 and result[0].rotation == 90
        assert "Docling bundles" in " ".join(result[0].get_text().split())
        word = next(w for w in result[0].get_text("words") if w[4] == "Docling")
        assert abs(word[0] - 78) < 5 and abs(word[1] - 451) < 5  # same place as the printed word
        assert result[1].get_text().strip() == "Already searchable page"


def test_ocr_errors(make_pdf, monkeypatch):
    with pytest.raises(ToolArgumentError, match="not installed; installed languages: .*eng"):
        ocr(make_pdf(["x"]), language="klingon")
    with pytest.raises(PageRangeError):
        ocr(make_pdf(["x"], name="y.pdf"), pages="4")
    monkeypatch.setenv("TESSDATA_PREFIX", "/nonexistent")
    monkeypatch.setattr(_ocr.pymupdf, "get_tessdata", lambda *a, **k: None)
    monkeypatch.setattr(_ocr.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(_ocr.shutil, "which", lambda name: None)
    with pytest.raises(ToolUnavailableError, match="apt install tesseract-ocr"):
        ocr(make_pdf(["x"], name="z.pdf"))
    assert not list(Path.cwd().iterdir())
