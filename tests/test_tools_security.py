"""Security and file tools: passwords, compress, combine_files, sanitize."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pypdf
import pytest

from pdftools.errors import EncryptedPdfError, ToolArgumentError, WrongPasswordError
from pdftools.tools_security import (
    add_password,
    check_password,
    combine_files,
    compress,
    remove_password,
    sanitize,
)


def _text(path: str, password: str | None = None) -> str:
    with pymupdf.open(path) as doc:
        if password:
            assert doc.authenticate(password)
        return " ".join(page.get_text() for page in doc)


# --- passwords -----------------------------------------------------------------------------


def test_add_password_round_trip(make_pdf):
    src = make_pdf(["Secret plan", "page two"])
    out = add_password(file=src, password="s3cret")
    assert Path(out).name == "fixture_protected.pdf"
    with pymupdf.open(out) as doc:
        assert doc.needs_pass
        assert not doc.authenticate("wrong")
        assert doc.authenticate("s3cret")
        assert "AES" in doc.metadata["encryption"] and "256" in doc.metadata["encryption"]
        assert "Secret plan" in doc[0].get_text()
    reader = pypdf.PdfReader(out)
    assert reader.is_encrypted
    assert reader.decrypt("wrong") == pypdf.PasswordType.NOT_DECRYPTED
    assert reader.decrypt("s3cret") != pypdf.PasswordType.NOT_DECRYPTED
    assert "Secret plan" in reader.pages[0].extract_text()
    status = check_password(file=out, password="s3cret")
    assert status["needs_password"] and status["password_ok"] is True
    assert check_password(file=out, password="nope")["password_ok"] is False


def test_add_password_with_owner_password_and_empty_password(make_pdf):
    src = make_pdf(["x"])
    out = add_password(file=src, password="user", owner_password="owner", output="locked.pdf")
    with pymupdf.open(out) as doc:
        assert doc.authenticate("owner") and doc.needs_pass
    with pytest.raises(ToolArgumentError):
        add_password(file=src, password="")


def test_add_then_remove_password(make_pdf):
    src = make_pdf(["Round trip"])
    locked = add_password(file=src, password="pw")
    with pytest.raises(WrongPasswordError):
        remove_password(file=locked, password="bad")
    out = remove_password(file=locked, password="pw")
    assert not pypdf.PdfReader(out).is_encrypted
    assert "Round trip" in _text(out)


@pytest.mark.parametrize(
    ("name", "password"),
    [("pdfplumber__password-example.pdf", "test"), ("pdfminer__aes-256.pdf", "foo")],
)
def test_remove_password_on_real_files(real, name, password):
    src = real(name)
    with pytest.raises(WrongPasswordError):
        remove_password(file=src, password="not-it")
    out = remove_password(file=src, password=password)
    with pymupdf.open(out) as doc:
        assert not doc.needs_pass and not doc.metadata.get("encryption")
        assert doc[0].get_text().strip()
    assert not pypdf.PdfReader(out).is_encrypted
    assert check_password(file=out)["encrypted"] is False


def test_remove_password_lifts_permissions_only_encryption(real):
    out = remove_password(file=real("unstructured__copy-protected.pdf"), password="")
    status = check_password(file=out)
    assert status == status | {"encrypted": False, "permissions_restricted": False, "needs_password": False}


def test_check_password_kinds(real, make_pdf):
    locked = check_password(file=real("pdfplumber__password-example.pdf"))
    assert locked["needs_password"] and locked["encrypted"] and locked["password_ok"] is None
    assert "password-protected" in locked["summary"]
    ok = check_password(file=real("pdfplumber__password-example.pdf"), password="test")
    assert ok["password_ok"] is True and "RC4" in ok["encryption"]

    perms = check_password(file=real("unstructured__copy-protected.pdf"))
    assert perms["needs_password"] is False
    assert perms["encrypted"] is True and perms["permissions_restricted"] is True
    assert "not password-protected" in perms["summary"]

    plain = check_password(file=make_pdf(["plain"]))
    assert plain == plain | {"needs_password": False, "encrypted": False, "permissions_restricted": False}
    assert plain["password_ok"] is None


# --- compress ------------------------------------------------------------------------------


def test_compress_shrinks_geotopo(real):
    src = real("pypdfsamples__GeoTopo-komprimiert.pdf")
    out = compress(file=src)
    assert Path(out).name == "pypdfsamples__GeoTopo-komprimiert_compressed.pdf"
    assert Path(out).stat().st_size <= 0.95 * Path(src).stat().st_size
    with pymupdf.open(out) as doc, pymupdf.open(src) as orig:
        assert doc.page_count == 117
        for i in (0, 55, 94, 116):
            assert doc[i].get_text() == orig[i].get_text()
        assert len(doc.get_toc()) == len(orig.get_toc())


def test_compress_downsamples_high_resolution_images(tmp_path, guard):
    import io

    from PIL import Image

    img = Image.effect_noise((1200, 1200), 40).convert("RGB")
    buf = io.BytesIO()
    img.save(buf, "PNG")
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_image(pymupdf.Rect(72, 72, 288, 288), stream=buf.getvalue())  # 3 in wide -> 400 dpi
    page.insert_text((72, 400), "Caption stays", fontname="helv")
    path = tmp_path / "photo.pdf"
    doc.save(path, deflate=True)
    src = guard(path)
    sizes = {
        level: Path(compress(file=src, level=level, output=f"{level}.pdf")).stat().st_size
        for level in ("low", "medium", "high")
    }
    assert sizes["high"] < sizes["medium"] < sizes["low"] <= path.stat().st_size
    with pymupdf.open("medium.pdf") as out:
        info = out[0].get_image_info()[0]
        assert info["width"] == pytest.approx(450, abs=2)  # 150 dpi over 3 inches
        assert "Caption stays" in out[0].get_text()


def _hashed_placements(doc: pymupdf.Document) -> list:
    return [
        (page.number, info["xref"], tuple(info["transform"]))
        for page in doc
        for info in page.get_image_info(xrefs=True)
        if info.get("xref", 0) > 0
    ]


@pytest.mark.parametrize(
    "name",
    [
        "pdfjs__freeculture.pdf",
        "unstructured__pdf2image-memory-error-test-400p.pdf",
        "pypdfsamples__GeoTopo-komprimiert.pdf",
        "camelot__image.pdf",
        "docling__redp5110_sampled.pdf",
        "unstructured__pdf-with-ocr-text.pdf",
    ],
)
def test_image_placements_found_by_size_equal_the_hashed_ones(real, name):
    """compress finds which image is drawn where without decoding images; the answer is PyMuPDF's."""
    from pdftools._compress import _placed_images

    with pymupdf.open(real(name)) as doc:
        sizes: dict[int, int] = {}
        quick = [
            (page.number, xref, tuple(info["transform"]))
            for page in doc
            for xref, info in _placed_images(doc, page, page.get_images(full=True), sizes)
        ]
        assert quick == _hashed_placements(doc)


def test_image_placements_with_two_images_of_one_size(tmp_path, guard):
    """Two different images of the same pixel size on a page: each placement still gets its own image."""
    import io

    from PIL import Image

    from pdftools._compress import _placed_images

    doc = pymupdf.open()
    page = doc.new_page()
    for i, box in enumerate([(72, 72, 172, 172), (300, 72, 350, 122), (72, 300, 272, 500)]):
        buf = io.BytesIO()
        Image.effect_noise((64, 64), 20 + 30 * i).convert("RGB").save(buf, "PNG")
        page.insert_image(pymupdf.Rect(*box), stream=buf.getvalue())
    path = tmp_path / "same-size.pdf"
    doc.save(path)
    with pymupdf.open(guard(path)) as doc:
        page = doc[0]
        quick = [
            (0, xref, tuple(info["transform"]))
            for xref, info in _placed_images(doc, page, page.get_images(full=True), {})
        ]
        assert len(quick) == 3 and quick == _hashed_placements(doc)


@pytest.mark.parametrize("stencil", [False, True])
def test_compress_downsamples_black_and_white_scans(tmp_path, guard, stencil):
    import io

    from PIL import Image, ImageDraw

    img = Image.new("1", (2400, 600), 1)
    draw = ImageDraw.Draw(img)
    for x in range(0, 2400, 40):
        draw.rectangle([x, 0, x + 15, 599], fill=0)
    buf = io.BytesIO()
    img.save(buf, "TIFF", compression="group4")
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    xref = page.insert_image(pymupdf.Rect(72, 72, 360, 144), stream=buf.getvalue())  # 4 in wide -> 600 dpi
    if stencil:
        doc.xref_set_key(xref, "ColorSpace", "null")
        doc.xref_set_key(xref, "ImageMask", "true")
    path = tmp_path / "scan.pdf"
    doc.save(path)
    src = guard(path)
    out = compress(file=src)
    assert Path(out).stat().st_size < path.stat().st_size
    with pymupdf.open(out) as result, pymupdf.open(src) as orig:
        assert result[0].get_image_info()[0]["width"] == 1200  # 300 dpi
        before = orig[0].get_pixmap(dpi=50, clip=pymupdf.Rect(72, 72, 360, 144)).samples
        after = result[0].get_pixmap(dpi=50, clip=pymupdf.Rect(72, 72, 360, 144)).samples
        assert sum(abs(a - b) for a, b in zip(before, after, strict=False)) / len(before) < 8


def test_compress_never_grows_a_tiny_file(make_pdf):
    src = make_pdf(["tiny"])
    out = compress(file=src, level="high")
    assert Path(out).stat().st_size <= Path(src).stat().st_size
    assert "tiny" in _text(out)


def test_compress_keeps_permissions_only_encryption(real):
    src = real("unstructured__copy-protected.pdf")
    out = compress(file=src)
    assert Path(out).stat().st_size < Path(src).stat().st_size
    status = check_password(file=out)
    assert status["encrypted"] and not status["needs_password"]


def test_compress_errors(make_pdf, real):
    with pytest.raises(ToolArgumentError):
        compress(file=make_pdf(["x"]), level="extreme")
    with pytest.raises(EncryptedPdfError):
        compress(file=real("pdfminer__aes-256.pdf"))


# --- combine -------------------------------------------------------------------------------


def test_combine_files_order_and_pages(make_pdf):
    a = make_pdf(["A1", "A2"], name="alpha.pdf")
    b = make_pdf(["B1"], name="beta.pdf")
    c = make_pdf(["C1", "C2", "C3"], name="gamma.pdf")
    out = combine_files(files=[b, a, c])
    assert Path(out).name == "beta_combined.pdf"
    with pymupdf.open(out) as doc:
        assert [p.get_text().strip() for p in doc] == ["B1", "A1", "A2", "C1", "C2", "C3"]


def test_combine_real_files_keeps_bookmarks(real):
    a = real("docling__bookmark_sample.pdf")
    b = real("pdfjs__tracemonkey.pdf")
    out = combine_files(files=[a, b], output="merged")
    assert Path(out).name == "merged.pdf"
    with pymupdf.open(out) as doc:
        assert doc.page_count == 3 + 14
        assert len(doc.get_toc()) == 8
        assert "Trace-based" in doc[3].get_text()


def test_combine_files_errors(make_pdf, real):
    a = make_pdf(["A"])
    with pytest.raises(ToolArgumentError):
        combine_files(files=[a])
    with pytest.raises(EncryptedPdfError):
        combine_files(files=[a, real("pdfminer__aes-256.pdf")])
    with pytest.raises(ToolArgumentError):
        combine_files(files=[a, "missing.pdf"])


# --- sanitize ------------------------------------------------------------------------------


def _all_objects(path: str) -> str:
    with pymupdf.open(path) as doc:
        parts = []
        for xref in range(1, doc.xref_length()):
            try:
                parts.append(doc.xref_object(xref))
            except RuntimeError:
                continue  # listed in the xref table, but not there
            if doc.xref_is_stream(xref):
                parts.append(doc.xref_stream(xref).decode("latin-1"))
        return "\n".join(parts)


def test_sanitize_removes_attachment(real):
    src = real("pypdfsamples__with-attachment.pdf")
    with pymupdf.open(src) as doc:
        assert doc.embfile_count() == 1
    out = sanitize(file=src)
    with pymupdf.open(out) as doc:
        assert doc.embfile_count() == 0
        assert not any(a.type[1] == "FileAttachment" for p in doc for a in p.annots())
        assert doc[0].get_text().strip()
    assert not re.search(r"/Type\s*/EmbeddedFile\b", _all_objects(out))


def test_sanitize_removes_javascript_metadata_and_links(tmp_path, guard):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Visible text", fontname="helv")
    page.insert_link({"kind": pymupdf.LINK_URI, "from": pymupdf.Rect(72, 60, 200, 80), "uri": "https://example.com"})
    js = doc.get_new_xref()
    doc.update_object(js, "<</S/JavaScript/JS(app.alert\\('pwned'\\);)>>")
    doc.xref_set_key(doc.pdf_catalog(), "OpenAction", f"{js} 0 R")
    doc.set_metadata({"author": "Jane Secret", "title": "Internal"})
    doc.embfile_add("notes.txt", b"hidden notes")
    path = tmp_path / "js.pdf"
    doc.save(path)
    src = guard(path)
    assert "app.alert" in _all_objects(src)

    out = sanitize(file=src)
    dump = _all_objects(out)
    assert "app.alert" not in dump and "/JavaScript" not in dump and "hidden notes" not in dump
    with pymupdf.open(out) as result:
        assert not result.metadata["author"] and not result.metadata["title"]
        assert result[0].get_links() == []
        assert "Visible text" in result[0].get_text()


# --- damaged cross-reference tables ---------------------------------------------------------


def _with_dangling_xref_entries(tmp_path: Path, guard) -> str:
    """A PDF (text and a drawn image) whose xref table skips two object numbers below its /Size.

    Viewers ignore such numbers; MuPDF raises when one is read. Scanners and old
    producers leave them behind (the corpus file camelot__image.pdf has 15).
    """
    doc = pymupdf.open()
    spare = [doc.get_new_xref() for _ in range(2)]  # numbered before the page's objects
    for xref in spare:
        doc.update_object(xref, "<</Unused true>>")
    page = doc.new_page()
    page.insert_text((72, 72), "Visible text", fontname="helv")
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 1200, 1200), False)
    pix.set_rect(pix.irect, (200, 40, 40))
    page.insert_image(pymupdf.Rect(72, 100, 216, 244), pixmap=pix)  # 600 dpi: compress resamples it
    js = doc.get_new_xref()
    doc.update_object(js, "<</S/JavaScript/JS(app.alert\\('pwned'\\);)>>")
    doc.xref_set_key(doc.pdf_catalog(), "OpenAction", f"{js} 0 R")
    size = doc.xref_length()
    data = doc.tobytes(garbage=0, deflate=True)
    table = data.rindex(b"xref\n0 %d\n" % size)
    start = table + len(b"xref\n0 %d\n" % size)
    entries = [data[start + 20 * i : start + 20 * (i + 1)] for i in range(size)]
    first, after = spare[0], spare[-1] + 1  # two subsections around the spare numbers
    xref = (
        b"xref\n0 %d\n" % first
        + b"".join(entries[:first])
        + b"%d %d\n" % (after, size - after)
        + b"".join(entries[after:])
    )
    path = tmp_path / "dangling.pdf"
    path.write_bytes(data[:table] + xref + data[start + 20 * size :])  # the trailer keeps /Size
    with pymupdf.open(path) as check:
        assert check.xref_length() == size and not check.is_repaired
        with pytest.raises(pymupdf.mupdf.FzErrorBase, match="cannot find object"):
            check.xref_get_key(spare[0], "Type")
    return guard(path)


def test_compress_and_sanitize_read_past_dangling_xref_entries(tmp_path, guard):
    src = _with_dangling_xref_entries(tmp_path, guard)
    compressed = compress(file=src)
    sanitized = sanitize(file=src)
    for out in (compressed, sanitized):
        with pymupdf.open(out) as doc:
            assert "Visible text" in doc[0].get_text()
            assert len(doc[0].get_images()) == 1
    with pymupdf.open(compressed) as doc:
        assert doc[0].get_images()[0][2] < 1200  # resampled
    assert "app.alert" in _all_objects(src) and "app.alert" not in _all_objects(sanitized)


def test_compress_and_sanitize_real_file_with_dangling_entries(real):
    src = real("camelot__image.pdf")
    for out in (compress(file=src), sanitize(file=src)):
        with pymupdf.open(out) as doc:
            assert doc.page_count == 1 and len(doc[0].get_images()) == 1
