"""compress on scanned pages made here from real pages rendered to images (the words are known), and on
every corpus file: scans get smaller, OCR still reads them, text layers survive, nothing grows."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest
from conftest import CORPUS, word_recall
from PIL import Image

from pdftools.errors import EncryptedPdfError
from pdftools.tools_extract import ocr
from pdftools.tools_security import compress


def scan_page(doc: pymupdf.Document, img: Image.Image, dpi: int, fmt: str, **save: object) -> pymupdf.Page:
    page = doc.new_page(width=img.width * 72 / dpi, height=img.height * 72 / dpi)
    buf = io.BytesIO()
    img.save(buf, fmt, **save)
    page.insert_image(page.rect, stream=buf.getvalue())
    return page


def render(path: str, index: int, dpi: int) -> Image.Image:
    with pymupdf.open(path) as doc:
        pix = doc[index].get_pixmap(dpi=dpi, alpha=False)
        return Image.frombytes("RGB", (pix.width, pix.height), pix.samples)


def recall(expected: str, found: str) -> float:
    return word_recall(expected, found, shortest=2)


SCANNED = [("contract.pdf", 0), ("contract.pdf", 1), ("annual_report.pdf", 0)]


def test_compress_halves_300_dpi_colour_scans_and_ocr_still_reads_them(
    synthetic: Callable[[str], str], tmp_path, guard
):
    doc = pymupdf.open()
    truth = []
    for name, index in SCANNED:
        source = synthetic(name)
        with pymupdf.open(source) as original:
            truth.append(original[index].get_text())
        scan_page(doc, render(source, index, 300), 300, "JPEG", quality=92)  # as a scanner writes them
    src = tmp_path / "scans.pdf"
    doc.save(src)
    doc.close()
    src_path = guard(src)
    out = compress(file=src_path)
    ratio = Path(out).stat().st_size / src.stat().st_size
    assert ratio <= 0.5, f"compressed to {ratio:.0%} of the input"
    with pymupdf.open(out) as result:
        assert result[0].get_image_info()[0]["width"] == pytest.approx(8.5 * 150, abs=2)  # 150 dpi
    searchable = ocr(out, language="eng", output="searchable.pdf")
    with pymupdf.open(searchable) as result:
        for number, (expected, page) in enumerate(zip(truth, result, strict=True), 1):
            score = recall(expected, page.get_text())
            assert score >= 0.95, f"page {number}: OCR found {score:.1%} of the words after compress"


def test_compress_keeps_the_text_layer_of_scans(synthetic: Callable[[str], str], tmp_path, guard):
    source = synthetic("contract.pdf")
    doc = pymupdf.open()
    page = scan_page(doc, render(source, 0, 300), 300, "PNG")
    with pymupdf.open(source) as original:
        for x0, y0, _, y1, word, *_ in original[0].get_text("words"):  # an invisible layer, as OCR lays it
            page.insert_text((x0, y1 - (y1 - y0) * 0.2), word, fontsize=(y1 - y0) * 0.8, render_mode=3)
    src = tmp_path / "scan_with_text.pdf"
    doc.save(src)
    doc.close()
    out = compress(file=guard(src))
    assert Path(out).stat().st_size < 0.5 * src.stat().st_size
    with pymupdf.open(src) as before, pymupdf.open(out) as after:
        assert after[0].get_text() == before[0].get_text() and "Agreement" in after[0].get_text()


def test_compress_recompresses_scans_already_at_their_target_resolution(
    synthetic: Callable[[str], str], tmp_path, guard
):
    """A black-and-white page at 300 dpi and a photographed page at 150 dpi, stored losslessly (Flate),
    are recompressed without resampling: CCITT G4 (lossless) and JPEG."""
    bw = render(synthetic("contract.pdf"), 0, 300).convert("L").point(lambda v: 255 if v >= 160 else 0).convert("1")
    with Image.open(synthetic("photo1.jpg")) as photo:
        grey = photo.convert("L").resize((1275, 1650))
    doc = pymupdf.open()
    scan_page(doc, bw, 300, "PNG")
    scan_page(doc, grey, 150, "PNG")
    src = tmp_path / "flate_scans.pdf"
    doc.save(src, deflate=True)
    doc.close()
    out = compress(file=guard(src))
    assert Path(out).stat().st_size < 0.7 * src.stat().st_size
    with pymupdf.open(src) as before, pymupdf.open(out) as after:
        filters = [after.xref_get_key(page.get_images()[0][0], "Filter")[1] for page in after]
        assert filters == ["/CCITTFaxDecode", "/DCTDecode"]
        sizes = [(page.get_images()[0][2], page.get_images()[0][3]) for page in after]
        assert sizes == [(2550, 3300), (1275, 1650)]  # not resampled
        old = pymupdf.Pixmap(before, before[0].get_images()[0][0])
        new = pymupdf.Pixmap(after, after[0].get_images()[0][0])
        assert new.samples == old.samples  # G4 is lossless


CORPUS_FILES = sorted(CORPUS.glob("**/*.pdf"))


@pytest.mark.skipif(not CORPUS_FILES, reason=f"corpus absent: {CORPUS} (../shared/corpus not beside the project)")
def test_compress_never_grows_any_corpus_file(tmp_path, guard):
    """Every corpus file at the default level (the one that resamples and recompresses images)."""
    grown, refused = [], []
    for number, path in enumerate(CORPUS_FILES):
        src = guard(path)
        try:
            out = compress(file=src, output=f"{number}.pdf")
        except EncryptedPdfError:
            refused.append(path.name)  # needs a password that compress does not take
            continue
        if Path(out).stat().st_size > path.stat().st_size:
            grown.append(path.name)
        with pymupdf.open(out) as doc, pymupdf.open(src) as orig:
            assert doc.page_count == orig.page_count, path.name
    assert not grown, f"compress made these larger: {grown}"
    assert len(refused) < len(CORPUS_FILES) // 10  # the password-protected few, nothing else
