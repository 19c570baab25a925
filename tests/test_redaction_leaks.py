"""The leak checks can see a leak: a redaction that only draws black boxes fails every one of them.

Each case runs twice: with the real ``redact_text`` (the text must be gone for PyMuPDF, pypdf,
pdfminer.six and pdftotext) and with a weak mutation that draws black rectangles over the matches
but leaves the text in the page (its self-check switched off too, or the tool would refuse). The
weak version must fail ``assert_no_leak`` in every case, or the check proves nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pymupdf
import pytest
from conftest import assert_no_leak, extract_all, readable

import pdftools.tools_redact as tools_redact
from pdftools.tools_redact import redact_text


def _boxes_only(page: pymupdf.Page) -> None:
    """A 'redaction' that covers the matches and deletes nothing."""
    for annot in list(page.annots(types=[pymupdf.PDF_ANNOT_REDACT])):
        rect = annot.rect
        page.delete_annot(annot)
        page.draw_rect(rect, color=(0, 0, 0), fill=(0, 0, 0))


@pytest.fixture
def weak(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools_redact, "_apply", _boxes_only)
    monkeypatch.setattr(tools_redact, "find_matches", lambda *args, **kwargs: [])  # no self-check


def _fonts(tmp_path_str: str) -> str:
    """A page with the term in three fonts and sizes."""
    doc = pymupdf.open()
    page = doc.new_page()
    for y, font, size in ((72, "helv", 11), (120, "tiro", 14), (170, "cour", 9)):
        page.insert_text((72, y), f"Account holder ZEPHYRINE QUILL signed here ({font}).", fontname=font, fontsize=size)
    path = f"{tmp_path_str}/fonts.pdf"
    doc.save(path)
    return path


CASES: list[tuple[str, Callable[..., tuple[str, dict, list[str], list[int] | None]]]] = [
    (
        "contract SSN and emails",
        lambda real, synthetic, tmp: (
            synthetic("contract.pdf"),
            {"categories": ["ssn", "email"]},
            ["123-45-6789", "maria.gonzalez@voltguard.com"],
            None,
        ),
    ),
    (
        "ligature word",
        lambda real, synthetic, tmp: (synthetic("contract.pdf"), {"terms": ["confidential"]}, ["confidential"], None),
    ),
    (
        "hyphenated at a line end",
        lambda real, synthetic, tmp: (
            real("unstructured__multi-column.pdf"),
            {"terms": "embeddings", "pages": "1"},
            ["embeddings"],
            [1],
        ),
    ),
    (
        "one term in several fonts",
        lambda real, synthetic, tmp: (_fonts(tmp), {"terms": "Zephyrine Quill"}, ["Zephyrine Quill"], None),
    ),
]


@pytest.mark.parametrize("name, case", CASES, ids=[c[0] for c in CASES])
def test_real_redaction_passes_the_leak_check(name, case, real, synthetic, tmp_path):
    path, args, strings, pages = case(real, synthetic, str(tmp_path))
    out = redact_text(path, output=str(tmp_path / "real_redacted.pdf"), **args)
    assert_no_leak(out, strings, pages=pages)


@pytest.mark.parametrize("name, case", CASES, ids=[c[0] for c in CASES])
def test_boxes_only_redaction_fails_the_leak_check(name, case, real, synthetic, tmp_path, weak):
    path, args, strings, pages = case(real, synthetic, str(tmp_path))
    out = redact_text(path, output=str(tmp_path / "weak_redacted.pdf"), **args)
    with pymupdf.open(out) as doc:  # it looks redacted: black boxes are drawn
        assert any(doc[i].get_drawings() for i in range(doc.page_count))
    with pytest.raises(AssertionError, match="still extractable"):
        assert_no_leak(out, strings, pages=pages)
    for engine, text in extract_all(out, pages=pages).items():  # each extractor on its own sees the leak
        assert any(readable(s) in readable(text) for s in strings), engine
