"""A footnote mark set above the line at a figure's end ("83,190,556²") is no digit of the figure: a table's row
read from the page's lines, and the words a table is read from, keep the figure as printed (q15, tuning: a
population answered "83,190,5562"). MuPDF marks such a span superscript; a drawn PDF has one."""

from __future__ import annotations

import os
from pathlib import Path

import pymupdf
import pytest

from docpilot.understanding.frames.pagewords import page_words
from docpilot.understanding.structure import read_structure


def footnoted(path: Path) -> str:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Population", fontsize=11)
    page.insert_text((200, 100), "83,190,556", fontsize=11)
    page.insert_text((200 + pymupdf.get_text_length("83,190,556", fontsize=11) + 0.3, 96), "2", fontsize=6.6)
    page.insert_text((300, 100), "67,413,000", fontsize=11)
    page.insert_text((72, 140), "Area in km", fontsize=11)
    page.insert_text((72 + pymupdf.get_text_length("Area in km", fontsize=11) + 0.3, 136), "2", fontsize=6.6)
    page.insert_text((200, 140), "357,022", fontsize=11)
    doc.save(path)
    return str(path)


def test_a_footnote_mark_is_no_digit_of_the_figure_before_it(tmp_path: Path) -> None:
    path = footnoted(tmp_path / "countries.pdf")
    with pymupdf.open(path) as doc:
        texts = [c.text for c in read_structure(doc, path).chunks]
        words = [w[4] for w in page_words(doc[0], tuple(doc[0].rect))]
    assert any("Population 83,190,556 67,413,000" in t for t in texts), texts
    assert "83,190,556" in words and "83,190,5562" not in words
    assert "67,413,000" in words and "357,022" in words


DOC = Path(os.environ.get("DOCPILOT_SHARED", Path(__file__).resolve().parents[3] / "shared")) / (
    "corpus/real/pypdfsamples__google-doc-document.pdf"
)


@pytest.mark.skipif(not DOC.is_file(), reason="needs ../shared/corpus")
def test_a_ruled_table_s_cell_keeps_its_figure_without_the_mark() -> None:
    """q15-46 asked again (tuning): the table reader the rules answer from took the mark into the cell, and the
    answer was "83,190,5562"; its citation is the cell as the page prints it."""
    from docpilot.understanding.answer import ask_files
    from docpilot.understanding.tables import read_tables

    with pymupdf.open(DOC) as doc:
        tables = read_tables(doc[0])
    cells = [c for t in tables for row in [t.header, *t.rows] for c in row]
    assert "83,190,556" in cells and "83,190,5562" not in cells, cells
    answer = ask_files("What population figure does the table give for Germany?", {DOC.name: str(DOC)})
    assert answer.answer == "83,190,556" and answer.citations[0]["quote"] == "83,190,556"
