"""File tools: duplicate, rename, count_pages, get_metadata, set_metadata."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pypdf
import pytest

from pdftools.errors import EncryptedPdfError, NotAPdfError, ToolArgumentError, WrongPasswordError
from pdftools.tools_files import count_pages, duplicate, get_metadata, rename, set_metadata


def test_duplicate_and_count_pages(make_pdf):
    src = make_pdf(["one", "two", "three"])
    out = duplicate(file=src)
    assert Path(out).name == "fixture_copy.pdf"
    assert Path(out).read_bytes() == Path(src).read_bytes()
    assert count_pages(file=out) == 3


def test_rename_makes_a_copy_under_the_new_name(make_pdf):
    src = make_pdf(["hello"], name="draft.pdf")
    out = rename(file=src, new_name="final")
    assert Path(out) == Path.cwd() / "final.pdf"
    assert Path(out).read_bytes() == Path(src).read_bytes()
    assert Path(src).exists()
    assert Path(rename(file=src, new_name="report v2.pdf")).name == "report v2.pdf"


def test_rename_rejects_bad_names_and_the_input_itself(make_pdf):
    src = make_pdf(["hello"])
    with pytest.raises(ToolArgumentError):
        rename(file=src, new_name="  ")
    with pytest.raises(ToolArgumentError):
        rename(file=src, new_name=src)
    with pytest.raises(ToolArgumentError):
        rename(file="missing.pdf", new_name="x.pdf")


def test_get_metadata_on_a_built_file(tmp_path, guard):
    doc = pymupdf.open()
    doc.new_page()
    doc.new_page()
    doc.set_metadata({"title": "Quarterly", "author": "Ana", "creationDate": "D:20240131120000+01'00'"})
    path = tmp_path / "meta.pdf"
    doc.save(path)
    meta = get_metadata(file=guard(path))
    assert meta["title"] == "Quarterly" and meta["author"] == "Ana"
    assert meta["creation_date"] == "2024-01-31T12:00:00+01:00"
    assert meta["page_count"] == 2 and meta["encrypted"] is False
    assert meta["pdf_version"].startswith("1.")


def test_get_metadata_on_real_files(real):
    meta = get_metadata(file=real("pdfminer__aes-256.pdf"), password="foo")
    assert meta["encrypted"] is True and "AES" in meta["encryption"]
    assert meta["producer"].startswith("LibreOffice") and meta["page_count"] == 1
    assert meta["creation_date"].startswith("2014-05-09")
    book = get_metadata(file=real("pdfjs__freeculture.pdf"))
    assert book["page_count"] == 352 and book["pdf_version"] == "1.5"
    with pytest.raises(EncryptedPdfError):
        get_metadata(file=real("pdfminer__aes-256.pdf"))
    with pytest.raises(WrongPasswordError):
        get_metadata(file=real("pdfminer__aes-256.pdf"), password="bar")


def test_set_metadata_round_trip(make_pdf):
    src = make_pdf(["body"])
    out = set_metadata(file=src, title="Lease", author="B. Smith", keywords="lease, 2024")
    assert Path(out).name == "fixture_metadata.pdf"
    meta = get_metadata(file=out)
    assert (meta["title"], meta["author"], meta["keywords"]) == ("Lease", "B. Smith", "lease, 2024")
    assert pypdf.PdfReader(out).metadata.title == "Lease"
    # fields left out keep their value
    again = set_metadata(file=out, subject="Rent", output="second.pdf")
    meta = get_metadata(file=again)
    assert meta["title"] == "Lease" and meta["subject"] == "Rent"


def test_set_metadata_on_a_real_file_drops_stale_xmp(real):
    src = real("unstructured__pdf2image-memory-error-test-400p.pdf")
    out = set_metadata(file=src, title="IRM excerpt")
    with pymupdf.open(out) as doc:
        assert doc.metadata["title"] == "IRM excerpt"
        assert doc.page_count == 400
        assert not doc.get_xml_metadata()


def test_set_metadata_needs_a_field(make_pdf):
    with pytest.raises(ToolArgumentError, match="at least one"):
        set_metadata(file=make_pdf(["x"]))


def test_not_a_pdf(tmp_path, guard):
    bogus = tmp_path / "notes.pdf"
    bogus.write_text("just text")
    with pytest.raises(NotAPdfError):
        get_metadata(file=guard(bogus))
