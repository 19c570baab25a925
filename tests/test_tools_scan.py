"""Scanned pages on synthetic scans made here from real pages rendered to images, so the truth is known:
orientation (fix_orientation, detect_orientation), skew (deskew) and OCR languages."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pymupdf
import pytest
from conftest import word_recall, words
from PIL import Image, ImageChops

from pdftools import ToolArgumentError, _ocr, _scan, all_tools, call_tool
from pdftools.tools_extract import ocr
from pdftools.tools_scan import deskew, detect_orientation, fix_orientation

# Text pages of the synthetic corpus: (file, 0-based page)
TEXT_PAGES = [
    ("contract.pdf", 0),
    ("contract.pdf", 1),
    ("contract.pdf", 2),
    ("contract.pdf", 3),
    ("annual_report.pdf", 0),
    ("annual_report.pdf", 1),
    ("visa_application.pdf", 0),
    ("salaries.pdf", 0),
]

FRENCH = (
    "Le comité de direction s'est réuni à Lyon le mardi matin pour examiner les résultats de l'année. "
    "Après une longue discussion, les membres ont décidé de réduire les dépenses générales et "
    "d'accélérer la rénovation des bâtiments. La trésorière a présenté un rapport détaillé sur la "
    "situation financière, qui reste saine malgré la hausse des coûts de l'énergie. Chacun a été "
    "invité à préparer des propositions concrètes avant la prochaine réunion, prévue au début de l'été. "
    "Enfin, le président a remercié l'équipe pour son travail remarquable pendant une période difficile."
)
GERMAN = (
    "Der Vorstand traf sich am Dienstag in München, um die Ergebnisse des vergangenen Jahres zu prüfen. "
    "Nach einer ausführlichen Besprechung beschlossen die Mitglieder, die allgemeinen Ausgaben zu "
    "verringern und die Erneuerung der Gebäude zu beschleunigen. Die Schatzmeisterin legte einen "
    "gründlichen Bericht über die finanzielle Lage vor, die trotz höherer Energiekosten gesund bleibt. "
    "Jeder wurde gebeten, vor der nächsten Sitzung im Frühsommer konkrete Vorschläge auszuarbeiten. "
    "Zum Schluss dankte der Vorsitzende dem Team für seine großartige Arbeit in einer schwierigen Zeit."
)


def render(path: str, index: int, dpi: int) -> Image.Image:
    with pymupdf.open(path) as doc:
        pix = doc[index].get_pixmap(dpi=dpi, alpha=False)
        return Image.frombytes("RGB", (pix.width, pix.height), pix.samples)


def image_pdf(images: list[Image.Image], path: Path, dpi: int, fmt: str = "PNG") -> str:
    """A PDF of image-only pages, each page the image's size at ``dpi``."""
    doc = pymupdf.open()
    for img in images:
        page = doc.new_page(width=img.width * 72 / dpi, height=img.height * 72 / dpi)
        buf = io.BytesIO()
        img.save(buf, fmt, **({"quality": 92} if fmt == "JPEG" else {}))
        page.insert_image(page.rect, stream=buf.getvalue())
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    doc.close()
    return str(path)


def prose_pdf(text: str, path: Path) -> str:
    doc = pymupdf.open()
    page = doc.new_page()
    assert page.insert_textbox(pymupdf.Rect(72, 72, 540, 720), text, fontsize=12, fontname="helv") > 0
    doc.save(path)
    doc.close()
    return str(path)


def recall(expected: str, found: str) -> float:
    return word_recall(expected, found)


def needs_languages(*codes: str) -> None:
    missing = [c for c in codes if c not in _ocr.installed_languages(_ocr.tessdata_dir())]
    if missing:
        pytest.skip(
            f"Tesseract language data {', '.join(missing)} absent here; `make install` installs "
            + " ".join(_ocr.package_name(c) for c in missing)
        )


# --- orientation ----------------------------------------------------------------------------


def test_fix_orientation_sets_every_turned_page_upright(synthetic: Callable[[str], str], tmp_path: Path, guard):
    turns = [90, 180, 270, 0, 90, 180, 270, 0]
    pages = []
    for (name, index), turn in zip(TEXT_PAGES, turns, strict=True):
        pages.append(render(synthetic(name), index, 150).rotate(turn, expand=True))  # turned counter-clockwise
    src = guard(image_pdf(pages, tmp_path / "in" / "turned.pdf", 150))
    out = fix_orientation(src)
    assert Path(out).name == "turned_upright.pdf"
    with pymupdf.open(src) as before, pymupdf.open(out) as after:
        assert [p.rotation for p in after] == turns  # each turned back clockwise by what turned it
        for old, new in zip(before, after, strict=True):  # the page content is untouched
            assert new.read_contents() == old.read_contents()
            xref_old, xref_new = old.get_images()[0][0], new.get_images()[0][0]
            assert pymupdf.Pixmap(after, xref_new).samples == pymupdf.Pixmap(before, xref_old).samples


def test_pages_without_enough_text_are_left_alone_and_listed(make_pdf: Callable[..., str], tmp_path: Path, guard):
    few = make_pdf(["Page 7", "", "Annex"], name="few.pdf")  # text pages with too little text for OSD
    turned = [render(few, 0, 150).rotate(180, expand=True)]
    src = guard(image_pdf(turned, tmp_path / "in" / "few_scan.pdf", 150))
    for path, count in ((few, 3), (src, 1)):
        found = detect_orientation(path)
        assert [p["left_alone"] for p in found] == [True] * count and all(p["turn"] == 0 for p in found)
        out = fix_orientation(path)
        with pymupdf.open(out) as result:
            assert [p.rotation for p in result] == [0] * count
    assert "Too little text to tell on pages 1, 2, 3" in all_tools()["detect_orientation"].answer_text(
        detect_orientation(few)
    )


def test_orientation_confidence_floor(synthetic: Callable[[str], str], tmp_path: Path, guard):
    src = guard(image_pdf([render(synthetic("contract.pdf"), 0, 150).rotate(90, expand=True)], tmp_path / "t.pdf", 150))
    unsure = detect_orientation(src, min_confidence=1000)[0]
    assert unsure["left_alone"] and unsure["turn"] == 0 and unsure["confidence"] > 2
    with pymupdf.open(fix_orientation(src, min_confidence=1000)) as doc:
        assert doc[0].rotation == 0
    with pytest.raises(ToolArgumentError, match="min_confidence"):
        fix_orientation(src, min_confidence=-1)


# --- deskew ---------------------------------------------------------------------------------


def residual_skew(straightened: Image.Image, upright: Image.Image) -> float:
    """The angle (degrees) that best lines ``straightened`` up with the known upright page."""
    size = (upright.width // 4, upright.height // 4)
    target = upright.convert("L").resize(size, Image.Resampling.BOX)
    test = straightened.convert("L").resize(size, Image.Resampling.BOX)

    def difference(angle: float) -> int:
        turned = test.rotate(angle, resample=Image.Resampling.BILINEAR, fillcolor=255)
        return int(np.asarray(ImageChops.difference(turned, target), dtype=np.int64).sum())

    angles = [a / 20 for a in range(-30, 31)]  # -1.5° … 1.5° in 0.05° steps
    return min(angles, key=difference)


def test_deskew_straightens_pages_skewed_one_to_seven_degrees(synthetic: Callable[[str], str], tmp_path: Path, guard):
    skews = [-7.0, -4.5, -2.2, -1.0, 1.0, 2.8, 5.5, 7.0, 0.2]
    upright = [render(synthetic(name), index, 150) for name, index in TEXT_PAGES] + [
        render(synthetic("contract.pdf"), 0, 150)
    ]
    crooked = [
        img.rotate(skew, resample=Image.Resampling.BICUBIC, fillcolor=(255, 255, 255))
        for img, skew in zip(upright, skews, strict=True)
    ]
    src = guard(image_pdf(crooked, tmp_path / "in" / "crooked.pdf", 150))
    out = deskew(src)
    assert Path(out).name == "crooked_straightened.pdf"
    with pymupdf.open(src) as before, pymupdf.open(out) as after:
        for number, (old, new, skew, truth) in enumerate(zip(before, after, skews, upright, strict=True), 1):
            xref = new.get_images()[0][0]
            img, _ = _scan.image_of(after, xref)
            assert img.size == truth.size  # same resolution
            if abs(skew) < 0.3:  # a small skew (under 0.3°) is left alone: the very same image
                assert pymupdf.Pixmap(after, xref).samples == pymupdf.Pixmap(before, old.get_images()[0][0]).samples
                continue
            left = residual_skew(img, truth)
            assert abs(left) <= 0.5, f"page {number}: skewed {skew}°, {left}° left after deskew"


def test_deskew_redoes_the_text_layer_and_ocr_reads_more(tmp_path: Path, guard):
    needs_languages("fra")
    upright = render(prose_pdf(FRENCH, tmp_path / "fr.pdf"), 0, 300)
    crooked = upright.rotate(-4, resample=Image.Resampling.BICUBIC, fillcolor=(255, 255, 255))
    src = guard(image_pdf([crooked], tmp_path / "in" / "crooked_fr.pdf", 300))
    with_layer = ocr(src, language="fra", output="crooked_ocr.pdf")  # OCR of the crooked page
    out = deskew(with_layer, output="straight.pdf")
    with pymupdf.open(with_layer) as before, pymupdf.open(out) as after:
        text = after[0].get_text()
        assert recall(FRENCH, text) >= 0.95
        assert len(words(text)) <= len(words(FRENCH)) * 1.05  # the old layer is gone, not doubled
        assert recall(FRENCH, text) >= recall(FRENCH, before[0].get_text())
        hit = after[0].search_for("trésorière")
        assert hit and hit[0].height < 20  # a word of one straight line


# --- OCR languages ------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "code"), [(FRENCH, "fra"), (GERMAN, "deu")])
def test_ocr_reads_french_and_german_pages_detecting_their_language(text: str, code: str, tmp_path: Path, guard):
    needs_languages(code)
    scan = render(prose_pdf(text, tmp_path / f"{code}.pdf"), 0, 300)
    src = guard(image_pdf([scan], tmp_path / "in" / f"scan_{code}.pdf", 300))
    out = ocr(src)  # language "auto": the script by OSD, the language from a first reading
    with pymupdf.open(out) as doc:
        found = doc[0].get_text()
    assert _ocr.identify_language(found, _ocr.installed_languages(_ocr.tessdata_dir())) == code
    score = recall(text, found)
    assert score >= 0.95, f"OCR found {score:.1%} of the words"  # accents included: read in {code}, not English


def test_ocr_forced_on_a_page_with_text_reads_the_language_of_its_text_layer(
    tmp_path: Path, guard, monkeypatch: pytest.MonkeyPatch
):
    needs_languages("deu")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 720), GERMAN, fontsize=12, fontname="helv")
    src = tmp_path / "german_text.pdf"
    doc.save(src)
    doc.close()

    def no_first_pass(*args: object) -> None:
        raise AssertionError("the language was in the text layer; no first OCR pass was needed")

    monkeypatch.setattr(_ocr, "auto_language", no_first_pass)
    out = ocr(guard(src), force=True)
    with pymupdf.open(out) as result:
        assert result[0].get_text().count("großartige") == 2  # its own layer, and the new one read in German


def test_ocr_language_that_is_not_installed_names_its_package(make_pdf: Callable[..., str]):
    with pytest.raises(ToolArgumentError, match=r"vie is not installed.*apt install tesseract-ocr-vie"):
        ocr(make_pdf(["x"]), language="vie")
    assert _ocr.package_name("chi_sim") == "tesseract-ocr-chi-sim"


def test_the_scan_tools_are_in_the_catalogue(make_pdf: Callable[..., str]):
    tools = all_tools()
    for name in ("fix_orientation", "detect_orientation", "deskew"):
        assert name in tools and tools[name].category == "pages"
    assert tools["ocr"].defaults()["language"] == "auto"
    found = call_tool("detect_orientation", {"file": make_pdf(["x"]), "pages": "1"})
    assert found == [{"page": 1, "turn": 0, "confidence": 0.0, "script": "", "left_alone": True}]
