"""Document structure read from real files: sections, outline, tables with captions and units, the cache."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from docpilot.understanding.cache import StructureCache
from docpilot.understanding.document import Document
from docpilot.understanding.structure import EXTRACTOR_VERSION


def _doc(path: str, tmp_path: Path) -> Document:
    return Document(path, StructureCache(tmp_path / "cache"))


def test_annual_report_sections_tables_and_figure(synthetic: Callable[[str], str], tmp_path: Path) -> None:
    doc = _doc(synthetic("annual_report.pdf"), tmp_path)
    s = doc.structure
    titles = [sec.title for sec in s.sections]
    for heading in ("1 Introduction", "2 Financial Results", "3 Operations", "4 Outlook", "5 Contacts"):
        assert heading in titles, titles
    revenue = s.sections[titles.index("2.1 Revenue")]
    assert s.sections[revenue.parent].title == "2 Financial Results" and revenue.level == 2
    tables = doc.tables()
    captions = [t.caption for t in tables]
    assert any(c.startswith("Table 1:") for c in captions) and any(c.startswith("Table 2:") for c in captions)
    table1 = next(t for t in tables if t.caption.startswith("Table 1"))
    assert table1.header == ["Year", "Revenue (USD million)", "Employees"]
    assert table1.units[1] == "USD million"
    row_2021 = next(r for r in table1.rows if r[0] == "2021")
    assert row_2021[1:] == ["47.9", "342"]
    figure = next(f for f in s.figures if f.caption.startswith("Figure 1"))
    assert "Installations per quarter" in figure.caption and s.sections[figure.section].title.startswith("3")
    assert not any(p.label.startswith("Figure") for p in s.pairs)  # a caption is not a label/value pair
    assert "Figure 1" in s.outline_text()
    assert s.title == "Northwind Solar Annual Report 2023"


def test_outline_is_used_when_the_pdf_has_one(real: Callable[[str], str], tmp_path: Path) -> None:
    s = _doc(real("docling__bookmark_sample.pdf"), tmp_path).structure
    assert s.has_outline
    levels = {sec.title: sec.level for sec in s.sections}
    assert levels["PART I - DEFINITIONS"] == 1 and levels["3.1 Payment Schedule"] == 3
    schedule = next(sec for sec in s.sections if sec.title == "3.1 Payment Schedule")
    assert s.section_path(s.sections.index(schedule)).startswith("PART II - OBLIGATIONS")


def test_two_column_paper_title_and_numbered_sections(real: Callable[[str], str], tmp_path: Path) -> None:
    s = _doc(real("pdfjs__tracemonkey.pdf"), tmp_path).structure
    assert s.title == "Trace-based Just-in-Time Type Specialization for Dynamic Languages"
    titles = [sec.title for sec in s.sections]
    assert "1. Introduction" in titles and "3.1 Traces" in titles and "3.2 Trace Trees" in titles
    assert next(sec for sec in s.sections if sec.title == "3.1 Traces").level == 2


def test_ten_k_statement_table_has_years_and_amounts(real: Callable[[str], str], tmp_path: Path) -> None:
    doc = _doc(real("financebench__AMAZON_2019_10K.pdf"), tmp_path)
    tables = doc.tables([38])  # the consolidated statements of operations
    table = next(t for t in tables if any(r[0] == "Total net sales" for r in t.rows))
    assert [h for h in table.header if h[-4:] in ("2017", "2018", "2019")], table.header
    row = next(r for r in table.rows if r[0] == "Total net sales")
    assert "280,522" in row


def test_the_cache_is_private_reused_and_keyed_by_content(synthetic: Callable[[str], str], tmp_path: Path) -> None:
    path = synthetic("contract.pdf")
    cache = StructureCache(tmp_path / "cache")
    first = Document(path, cache).structure
    assert stat.S_IMODE(os.stat(tmp_path / "cache").st_mode) == 0o700
    entry = next((tmp_path / "cache").iterdir())
    assert (entry / "structure.json").exists() and entry.name.endswith(f"-v{EXTRACTOR_VERSION}")
    again = Document(path, cache).structure  # read back from disk
    assert again.pairs == first.pairs and again.sections == first.sections
    assert cache.clear() == 1 and not (tmp_path / "cache").exists()


def test_the_cache_drops_the_oldest_beyond_its_size_cap(synthetic: Callable[[str], str], tmp_path: Path) -> None:
    cache = StructureCache(tmp_path / "cache", max_bytes=1)
    first = Document(synthetic("contract.pdf"), cache)
    assert first.structure.pairs
    newest = Document(synthetic("invoice_1001.pdf"), cache)
    assert newest.structure.pairs
    assert [entry.name for entry in (tmp_path / "cache").iterdir()] == [newest.key]


def test_a_scanned_page_is_read_by_ocr_without_touching_the_file(real: Callable[[str], str], tmp_path: Path) -> None:
    path = real("docling__ocr_test.pdf")
    before = Path(path).read_bytes()
    s = _doc(path, tmp_path).structure
    assert s.ocr_pages == [1]
    assert "Docling bundles PDF document conversion" in s.pages[0] and s.chunks
    assert Path(path).read_bytes() == before


def test_a_value_drawn_before_its_label_is_paired_with_it(real: Callable[[str], str], tmp_path: Path) -> None:
    """Invoices often draw "993548900" before "Factuurnummer:" at its left: the pair is the one on the line."""
    pairs = {p.label: p.value for p in _doc(real("invoice2data__coolblue1.pdf"), tmp_path).structure.pairs}
    assert pairs["Factuurnummer"] == "993548900" and pairs["Klantnummer"] == "6669263"
    flipkart = {p.label: p.value for p in _doc(real("invoice2data__FlipkartInvoice.pdf"), tmp_path).structure.pairs}
    assert flipkart["Invoice Date"] == "20-10-2015" and flipkart["Order Date"] == "15-10-2015"


def test_a_page_shown_turned_is_read_as_it_is_shown(real: Callable[[str], str], tmp_path: Path) -> None:
    """The Senate expenditure report is one landscape page stored upright with /Rotate 90: its text runs down the
    stored page and across the page as shown. It had been dropped as vertical text, leaving only the form number
    to retrieve (q5, after its measurement: three questions over its rows found nothing)."""
    doc = _doc(real("pdfplumber__senate-expenditures.pdf"), tmp_path)
    s = doc.structure
    text = " ".join(chunk.text for chunk in s.chunks)
    assert "BAIN, J MATTHEW" in text and "SENATOR'S TRANSPORTATION" in text
    assert s.table_pages == [1]
