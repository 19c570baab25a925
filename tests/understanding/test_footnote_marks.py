"""A footnote mark set above the line at a figure's end ("83,190,556²") is no digit of the figure: a table's row
read from the page's lines, and the words a table is read from, keep the figure as printed (q15, tuning: a
population answered "83,190,5562"). MuPDF marks such a span superscript; a drawn PDF has one."""

from __future__ import annotations

from pathlib import Path

import pymupdf

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
