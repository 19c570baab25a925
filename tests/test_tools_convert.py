"""Conversion tools: outputs read back with their own libraries (python-docx, python-pptx,
openpyxl, Pillow, PyMuPDF) on fixture PDFs and corpus files."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pymupdf
import pytest
from PIL import Image

from pdftools import tools_convert as tc
from pdftools._tables import _split_stacked, cell_value
from pdftools.errors import EncryptedPdfError, NotAPdfError, PageRangeError, PdfToolError, ToolArgumentError
from pdftools.registry import call_tool


def files_here() -> set[str]:
    return {p.name for p in Path.cwd().iterdir()}


# ---------------------------------------------------------------- Word


def docx_text(path: str) -> str:
    import docx

    document = docx.Document(path)
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        parts += [cell.text for row in table.rows for cell in row.cells]
    return "\n".join(parts)


def test_docx_annual_report(synthetic, capsys, caplog):
    caplog.set_level(logging.INFO)
    root = logging.getLogger()
    handlers = list(root.handlers)
    out = tc.convert_to_docx(file=synthetic("annual_report.pdf"))
    assert Path(out).name == "annual_report.docx"
    assert files_here() == {"annual_report.docx"}  # nothing else written
    text = docx_text(out)
    assert "Northwind Solar" in text and "Outlook" in text and "55.3" in text
    assert root.handlers == handlers  # pdf2docx's logging.basicConfig undone
    assert "[INFO]" not in capsys.readouterr().out
    assert not [r for r in caplog.records if "pdf2docx" in r.pathname]  # its progress log is dropped


def test_docx_page_selection(make_pdf):
    src = make_pdf(["alpha page one", "bravo page two", "charlie page three"])
    out = tc.convert_to_docx(file=src, pages="2-3", output="picked")
    assert Path(out).name == "picked.docx"
    text = docx_text(out)
    assert "bravo page two" in text and "charlie page three" in text
    assert "alpha" not in text


def test_docx_real_encrypted(real):
    out = tc.convert_to_docx(file=real("pdfplumber__password-example.pdf"), pages="1", password="test")
    assert docx_text(out).strip()
    with pytest.raises(EncryptedPdfError):
        tc.convert_to_docx(file=real("pdfplumber__password-example.pdf"), output="again")


def test_docx_real_with_table(real):
    import docx

    out = tc.convert_to_docx(file=real("pypdfsamples__google-doc-document.pdf"))
    assert len(docx.Document(out).tables) >= 1


def test_docx_borderless_tables_only_where_there_are_figures(real):
    """A statement's table of figures stays a table in Word; prose set in three
    columns does not become one (pdf2docx built a 98 x 13 "table" of page 1 of the Federal
    Register, in a minute and a half)."""
    import docx

    from pdftools._tables import has_borderless_data_table

    statement, register = (
        real("financebench__AMCOR_2023Q4_EARNINGS.pdf"),
        real("pdfplumber__federal-register-2020-17221.pdf"),
    )
    with pymupdf.open(statement) as doc:
        assert has_borderless_data_table(doc, [7]) and not has_borderless_data_table(doc, [6])
    with pymupdf.open(register) as doc:
        assert not has_borderless_data_table(doc, list(range(4)))
    table = docx.Document(tc.convert_to_docx(file=statement, pages="8")).tables
    assert len(table) == 1 and len(table[0].rows) >= 20
    prose = tc.convert_to_docx(file=register, pages="1")
    assert docx.Document(prose).tables == [] and "Federal Register" in docx_text(prose)


# ---------------------------------------------------------------- PowerPoint


def test_pptx_annual_report(synthetic):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    out = tc.convert_to_pptx(file=synthetic("annual_report.pdf"))
    deck = Presentation(out)
    assert len(deck.slides) == 3
    assert deck.slide_width / deck.slide_height == pytest.approx(612 / 792, rel=0.01)
    notes = [s.notes_slide.notes_text_frame.text for s in deck.slides]
    assert "Northwind Solar" in notes[0]
    assert any("Outlook" in n for n in notes)
    for slide in deck.slides:
        (picture,) = slide.shapes
        assert picture.shape_type == MSO_SHAPE_TYPE.PICTURE
        assert picture.width == pytest.approx(deck.slide_width, rel=0.01)
        image = Image.open(io.BytesIO(picture.image.blob))
        assert image.format == "PNG" and image.width == pytest.approx(612 * 150 / 72, abs=2)


def test_pptx_rotated_pages_make_landscape_slides(make_pdf):
    from pptx import Presentation

    src = make_pdf(["turned page"], rotation=90)
    deck = Presentation(tc.convert_to_pptx(file=src))
    assert deck.slide_width > deck.slide_height
    assert "turned page" in deck.slides[0].notes_slide.notes_text_frame.text


def test_pptx_real_pages(real):
    from pptx import Presentation

    deck = Presentation(tc.convert_to_pptx(file=real("pdfjs__tracemonkey.pdf"), pages="1,3"))
    assert len(deck.slides) == 2
    assert "Trace-based" in deck.slides[0].notes_slide.notes_text_frame.text


# ---------------------------------------------------------------- Excel


def sheets(path: str) -> dict[str, list[list[object]]]:
    import openpyxl

    book = openpyxl.load_workbook(path)
    return {ws.title: [[c.value for c in row] for row in ws.iter_rows()] for ws in book}


def test_xlsx_annual_report(synthetic):
    import openpyxl

    out = tc.convert_to_xlsx(file=synthetic("annual_report.pdf"))
    data = sheets(out)
    assert list(data) == ["p1 table 1", "p2 table 1"]
    revenue = data["p1 table 1"]
    assert revenue[0][0] == "Year" and "Revenue" in revenue[0][1]
    assert [2022, 55.3, 388] in revenue
    assert all(isinstance(v, (int, float)) for row in revenue[1:] for v in row)
    costs = data["p2 table 1"]
    assert ["Modules", 0.31] in costs
    cell = openpyxl.load_workbook(out)["p2 table 1"]["B2"]
    assert cell.number_format == "0%"


def test_xlsx_real_borderless_table(real):
    out = tc.convert_to_xlsx(file=real("camelot__budget.pdf"))
    rows = sheets(out)["p1 table 1"]
    # Borderless: found by the text strategy; labels may be split across cells, numbers stay whole.
    farming = next(row for row in rows if 28130.48 in row)
    start = farming.index(28130.48)
    assert farming[start : start + 3] == [28130.48, 67.52, 28198]


def test_xlsx_records_stacked_in_one_ruled_row_are_parted_by_where_they_stand(real):
    # the budget's rules part some rows only every two or three records, and the page numbers and the "..." of an
    # empty cell give its cells unequal counts of lines: each line of figures is a record of its own
    rows = sheets(tc.convert_to_xlsx(file=real("camelot__budget.pdf")))["p1 table 1"]
    husbandry = next(row for row in rows if "Animal Husbandry" in str(row[0]))
    assert husbandry == [
        "3. Department of Animal Husbandry, Dairying and Fisheries",
        2154.93,
        19.07,
        2174,
        91.19,
        1.11,
        92.3,
        2266.3,
        "14-19",
    ]
    atomic = next(row for row in rows if row[0] == "DEPARTMENT OF ATOMIC ENERGY")
    assert atomic[1:8] == [1779, 4101, 5880, 3710.84, 855.75, 4566.59, 10446.59]
    body = [row for row in rows if any(isinstance(v, float) for v in row)]
    assert len(body) > 30 and not any("\n" in str(v) or "Schemes MINISTRY" in str(v) for row in body for v in row)


def test_xlsx_stacked_rows_are_split():
    # what find_tables gives for pdfplumber__nics-background-checks-2015-11.pdf (ruled every 5 states)
    row = ["Alabama\nAlaska\nArizona", "18,870\n209\n2,303", "", "71,137\n7,095\n27,087"]
    assert _split_stacked(row) == [
        ["Alabama", "18,870", "", "71,137"],
        ["Alaska", "209", "", "7,095"],
        ["Arizona", "2,303", "", "27,087"],
    ]
    header = ["Date\nposted", "Payee\nname", None]  # wrapped words, not stacked records
    assert _split_stacked(header) == [header]


def test_xlsx_no_tables(make_pdf):
    src = make_pdf(["only a sentence here", "and another"])
    with pytest.raises(PdfToolError, match="No tables found on all pages"):
        tc.convert_to_xlsx(file=src)
    assert files_here() == set()


@pytest.mark.parametrize(
    "text, value, fmt",
    [
        ("1,284", 1284, None),
        ("55.3", 55.3, None),
        ("-7", -7, None),
        ("(12.5)", -12.5, None),
        ("31%", 0.31, "0%"),
        ("21.4%", 0.214, "0.0%"),
        ("2022", 2022, None),
        ("007", "007", None),
        ("12,34", "12,34", None),
        ("03/06/2019", "03/06/2019", None),
        ("Modules", "Modules", None),
        ("", "", None),
        (None, None, None),
        ("1234567890123456789", "1234567890123456789", None),
        ("$9,583", 9583, '"$"#,##0;-"$"#,##0'),
        ("$1.25", 1.25, '"$"#,##0.00;-"$"#,##0.00'),
        ("€ 399,00", "€ 399,00", None),  # a decimal comma is not read as thousands
        ("$ per share", "$ per share", None),
    ],
)
def test_cell_values(text, value, fmt):
    got, got_fmt = cell_value(text)
    assert got == pytest.approx(value) if isinstance(value, float) else got == value
    assert type(got) is type(value) and got_fmt == fmt


# ---------------------------------------------------------------- PNG, JPEG, TIFF


def test_png_pages_and_dpi(make_pdf):
    src = make_pdf(["one", "two", "three"], name="deck.pdf")
    out = tc.convert_to_png(file=src, pages="1,3", dpi=72)
    assert [Path(p).name for p in out] == ["deck_page1.png", "deck_page3.png"]
    for path in out:
        with Image.open(path) as image:
            assert image.format == "PNG" and image.size == (612, 792)
    again = tc.convert_to_png(file=src, pages="1,3", dpi=150)  # names taken: a fresh set
    assert [Path(p).name for p in again] == ["deck_page1-2.png", "deck_page3-2.png"]
    with Image.open(again[0]) as image:
        assert image.size == (1275, 1650)
    with Image.open(out[0]) as image:
        assert image.size == (612, 792)  # the first set is untouched


def test_png_output_names(make_pdf):
    src = make_pdf(["one", "two"])
    assert [Path(p).name for p in tc.convert_to_png(file=src, output="scan")] == ["scan_page1.png", "scan_page2.png"]
    assert [Path(p).name for p in tc.convert_to_png(file=src, pages="2", output="cover.png")] == ["cover.png"]


def test_png_real_long_book(real):
    out = tc.convert_to_png(file=real("pdfjs__freeculture.pdf"), pages="1,last", dpi=40)
    assert [Path(p).name for p in out] == ["pdfjs__freeculture_page1.png", "pdfjs__freeculture_page352.png"]


def test_jpeg(real):
    out = tc.convert_to_jpeg(file=real("pdfjs__tracemonkey.pdf"), pages="2", dpi=100, quality=70)
    with Image.open(out[0]) as image:
        assert image.format == "JPEG" and image.size == (850, 1100)
    with pytest.raises(ToolArgumentError, match="quality"):
        tc.convert_to_jpeg(file=real("pdfjs__tracemonkey.pdf"), quality=0)


def test_tiff_multipage(synthetic):
    out = tc.convert_to_tiff(file=synthetic("annual_report.pdf"), dpi=100)
    assert Path(out).name == "annual_report.tiff"
    with Image.open(out) as image:
        assert image.n_frames == 3 and image.size == (850, 1100)
        assert image.info["compression"] in ("tiff_adobe_deflate", "tiff_deflate")


def test_tiff_real_range(real):
    out = tc.convert_to_tiff(file=real("pdfjs__freeculture.pdf"), pages="10-14", dpi=30)
    with Image.open(out) as image:
        assert image.n_frames == 5


def test_bad_dpi(make_pdf):
    with pytest.raises(ToolArgumentError, match="dpi"):
        tc.convert_to_png(file=make_pdf(["x"]), dpi=5000)


# ---------------------------------------------------------------- text and Markdown


def test_text(make_pdf):
    src = make_pdf(["first page words", "second page words", "third page words"])
    out = tc.convert_to_text(file=src, pages="2-3")
    text = Path(out).read_text(encoding="utf-8")
    assert Path(out).name == "fixture.txt"
    assert text.split("\f") == ["second page words\n", "third page words\n"]


def test_text_real_ligatures_spelled_out(real):
    text = Path(tc.convert_to_text(file=real("pdfjs__tracemonkey.pdf"), pages="1")).read_text(encoding="utf-8")
    assert "Trace-based Just-in-Time" in text
    assert not any(ch in text for ch in "\ufb00\ufb01\ufb02\ufb03\ufb04")


def test_text_scanned_pages_need_ocr(real):
    with pytest.raises(PdfToolError, match="Page 1 of docling__ocr_test.pdf has no text layer"):
        tc.convert_to_text(file=real("docling__ocr_test.pdf"))
    assert files_here() == set()


def test_markdown_annual_report(synthetic):
    out = tc.convert_to_markdown(file=synthetic("annual_report.pdf"))
    text = Path(out).read_text(encoding="utf-8")
    assert Path(out).suffix == ".md"
    assert "# Northwind Solar Annual Report 2023" in text
    assert "## 2 Financial Results" in text
    assert "|2022|55.3|388|" in text
    assert "Outlook" in text


def test_markdown_real(real):
    text = Path(tc.convert_to_markdown(file=real("pdfjs__tracemonkey.pdf"), pages="1")).read_text(encoding="utf-8")
    assert text.startswith("# Trace-based Just-in-Time Type Specialization for Dynamic Languages")
    assert "## Abstract" in text and "## 1. Introduction" in text


# ---------------------------------------------------------------- images to PDF


def test_images_to_pdf_keeps_jpeg(synthetic):
    photos = [synthetic("photo1.jpg"), synthetic("photo2.jpg")]
    out = tc.images_to_pdf(images=photos)
    assert Path(out).name == "photo1_combined.pdf"
    with pymupdf.open(out) as doc:
        assert doc.page_count == 2
        for page, photo in zip(doc, photos, strict=False):
            (image,) = page.get_images()
            assert image[2:4] == (800, 600)
            assert page.rect.width / page.rect.height == pytest.approx(800 / 600)
            assert doc.xref_stream_raw(image[0]) == Path(photo).read_bytes()  # not recompressed


def test_images_to_pdf_page_sizes_and_png(synthetic):
    out = tc.images_to_pdf(images=[synthetic("photo1.jpg"), synthetic("signature.png")], page_size="A4", output="a4")
    with pymupdf.open(out) as doc:
        assert [tuple(round(v) for v in p.rect[2:]) for p in doc] == [(842, 595), (842, 595)]  # landscape images
        assert all(len(p.get_images()) == 1 for p in doc)


def test_images_to_pdf_exif_rotation(tmp_path, guard):
    upright = Image.new("RGB", (200, 100), "white")
    upright.paste((255, 0, 0), (0, 0, 200, 20))  # red band along the top
    for orientation, stored in ((6, upright.rotate(90, expand=True)), (8, upright.rotate(-90, expand=True))):
        exif = Image.Exif()
        exif[0x0112] = orientation
        path = tmp_path / f"turned{orientation}.jpg"
        stored.save(path, "JPEG", exif=exif)
        out = tc.images_to_pdf(images=[guard(path)])
        with pymupdf.open(out) as doc:
            page = doc[0]
            assert page.rect.width > page.rect.height  # shown as the camera meant it
            pix = page.get_pixmap()
            assert pix.pixel(pix.width // 2, 3)[0] > 200 and pix.pixel(pix.width // 2, 3)[1] < 60
            assert pix.pixel(pix.width // 2, pix.height - 3) == pytest.approx((255, 255, 255), abs=10)


def test_images_to_pdf_multipage_tiff(synthetic, guard):
    tiff = guard(tc.convert_to_tiff(file=synthetic("annual_report.pdf"), dpi=50))
    with pymupdf.open(tc.images_to_pdf(images=[tiff])) as doc:
        assert doc.page_count == 3
        assert doc[0].rect.width == pytest.approx(612, abs=2)  # 50 dpi recorded in the TIFF


def test_images_to_pdf_rejects_non_images(tmp_path, guard, make_pdf):
    note = tmp_path / "notes.txt"
    note.write_text("hello")
    with pytest.raises(ToolArgumentError, match="notes.txt is not an image"):
        tc.images_to_pdf(images=[guard(note)])
    with pytest.raises(ToolArgumentError, match="combine_files"):
        tc.images_to_pdf(images=[make_pdf(["x"])])
    with pytest.raises(ToolArgumentError, match="not found"):
        tc.images_to_pdf(images=["missing.png"])
    with pytest.raises(ToolArgumentError):
        tc.images_to_pdf(images=[])
    assert files_here() == set()


# ---------------------------------------------------------------- errors shared by the PDF tools

PDF_TOOLS = [
    tc.convert_to_docx,
    tc.convert_to_pptx,
    tc.convert_to_xlsx,
    tc.convert_to_png,
    tc.convert_to_jpeg,
    tc.convert_to_tiff,
    tc.convert_to_text,
    tc.convert_to_markdown,
]


@pytest.mark.parametrize("func", PDF_TOOLS, ids=lambda f: f.__name__)
def test_page_past_end(func, make_pdf):
    with pytest.raises(PageRangeError, match="valid pages are 1-2"):
        func(file=make_pdf(["a", "b"]), pages="2-5")
    assert files_here() == set()


@pytest.mark.parametrize("func", PDF_TOOLS, ids=lambda f: f.__name__)
def test_unreadable_pdf(func, tmp_path, guard):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7\n" + b"garbage " * 50)
    with pytest.raises(NotAPdfError):
        func(file=guard(bad))
    assert files_here() == set()


def test_call_through_registry(make_pdf):
    out = call_tool("convert_to_png", {"file": make_pdf(["x"]), "dpi": 36})
    assert len(out) == 1 and Image.open(out[0]).size == (306, 396)
    with pytest.raises(ToolArgumentError, match="page_size"):
        call_tool("images_to_pdf", {"images": ["a.png"], "page_size": "A3"})
