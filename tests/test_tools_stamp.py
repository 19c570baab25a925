"""Stamping tools: watermarks, signatures, page numbers, headers/footers and images.

Positions are checked as the reader sees the page: PyMuPDF's text and image boxes
are in unrotated page space, so they go through ``page.rotation_matrix`` first.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pdftools import call_tool
from pdftools.colors import parse_color
from pdftools.errors import PageRangeError, ToolArgumentError
from pdftools.tools_stamp import add_header_footer, add_image, add_page_numbers, add_signature, add_watermark

ROTATIONS = [0, 90, 180, 270]
THREE = ["Alpha page body", "Beta page body", "Gamma page body"]


def shown(page: pymupdf.Page, rect) -> pymupdf.Rect:
    """A box from text/image extraction, in displayed coordinates (page.rect)."""
    return (pymupdf.Rect(rect) * page.rotation_matrix).normalize()


def words(page: pymupdf.Page) -> list[tuple[str, pymupdf.Rect]]:
    return [(w[4], shown(page, w[:4])) for w in page.get_text("words")]


def find_word(page: pymupdf.Page, text: str) -> pymupdf.Rect:
    hits = [r for w, r in words(page) if w == text]
    assert hits, f"{text!r} not on page {page.number + 1}: {[w for w, _ in words(page)]}"
    return hits[0]


def spans(page: pymupdf.Page, text: str) -> list[tuple[dict, tuple[float, float]]]:
    """Spans containing ``text`` with their line direction as the reader sees it."""
    m = page.rotation_matrix
    linear = pymupdf.Matrix(m.a, m.b, m.c, m.d, 0, 0)
    out = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                if text in span["text"]:
                    d = pymupdf.Point(line["dir"]) * linear
                    out.append((span, (d.x, d.y)))
    assert out, f"no span with {text!r} on page {page.number + 1}"
    return out


def in_bottom(rect: pymupdf.Rect, page: pymupdf.Page, share: float = 0.15) -> bool:
    area = page.rect
    return rect.y0 >= area.y1 - share * area.height and rect.y1 <= area.y1 and area.contains(rect)


def in_top(rect: pymupdf.Rect, page: pymupdf.Page, share: float = 0.15) -> bool:
    area = page.rect
    return rect.y1 <= area.y0 + share * area.height and rect.y0 >= area.y0 and area.contains(rect)


def drawn_images(page: pymupdf.Page) -> list[pymupdf.Rect]:
    return [shown(page, info["bbox"]) for info in page.get_image_info()]


# --------------------------------------------------------------------------- watermark


def test_watermark_text_on_every_page(make_pdf):
    src = make_pdf(THREE)
    out = add_watermark(src, text="DRAFT")
    assert Path(out).name == "fixture_watermarked.pdf" and Path(out).parent == Path.cwd()
    with pymupdf.open(out) as doc:
        assert doc.page_count == 3
        for page, body in zip(doc, THREE, strict=False):
            text = page.get_text()
            assert "DRAFT" in text and body in text
            span, direction = spans(page, "DRAFT")[0]
            assert span["alpha"] == pytest.approx(0.3 * 255, abs=2)
            assert span["color"] == 0x808080
            assert direction == pytest.approx((0.7071, -0.7071), abs=0.01)  # rising at 45° as seen


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_watermark_centered_and_upright_on_rotated_pages(make_pdf, rotation):
    src = make_pdf(THREE, rotation=rotation)
    out = add_watermark(src, text="CONFIDENTIAL", rotation=0, color="red", opacity=0.5)
    with pymupdf.open(out) as doc:
        for page in doc:
            assert page.rotation == rotation
            box = find_word(page, "CONFIDENTIAL")
            center = page.rect.tl + (page.rect.br - page.rect.tl) / 2
            mid = box.tl + (box.br - box.tl) / 2
            assert abs(mid.x - center.x) < 5 and abs(mid.y - center.y) < 5
            assert box.width > page.rect.width * 0.5  # auto-fit makes it large, but inside the page
            assert page.rect.contains(box)
            span, direction = spans(page, "CONFIDENTIAL")[0]
            assert direction == pytest.approx((1, 0), abs=0.01)  # reads left to right for the reader
            red, green, blue = pymupdf.sRGB_to_rgb(span["color"])
            assert red > 200 and green < 40 and blue < 40
            assert span["alpha"] == pytest.approx(0.5 * 255, abs=2)


def test_watermark_positions_and_font_size(make_pdf):
    src = make_pdf(THREE, rotation=90)
    out = add_watermark(src, text="COPY", position="top", font_size=30, rotation=0, pages="2", color="#0000FF")
    with pymupdf.open(out) as doc:
        assert "COPY" not in doc[0].get_text() and "COPY" not in doc[2].get_text()
        page = doc[1]
        assert in_top(find_word(page, "COPY"), page, 0.2)
        span, _ = spans(page, "COPY")[0]
        assert span["size"] == pytest.approx(30, abs=0.5)
        assert span["color"] == 0x0000FF


def test_watermark_real_file_every_page(real):
    src = real("pdfjs__tracemonkey.pdf")
    out = add_watermark(src, text="DRAFT", output="wm.pdf")
    assert Path(out) == Path.cwd() / "wm.pdf"
    with pymupdf.open(out) as doc, pymupdf.open(src) as before:
        assert doc.page_count == 14
        for page, old in zip(doc, before, strict=False):
            text = page.get_text()
            assert "DRAFT" in text
            assert old.get_text().split()[:5] == [w for w in text.split() if w != "DRAFT"][:5]


def test_watermark_image_with_opacity(make_pdf, synthetic):
    src = make_pdf(THREE, rotation=90)
    logo = synthetic("logo.png")
    out = add_watermark(src, image=logo, opacity=0.5)
    with pymupdf.open(out) as doc:
        for page in doc:
            images = page.get_images(full=True)
            assert len(images) == 1
            smask = images[0][1]
            assert smask, "the faded image needs a soft mask"
            alpha = pymupdf.Pixmap(doc, smask)
            assert max(alpha.samples) <= 128  # 50% of the logo's full opacity
            (box,) = drawn_images(page)
            center = page.rect.tl + (page.rect.br - page.rect.tl) / 2
            assert abs((box.x0 + box.x1) / 2 - center.x) < 3 and abs((box.y0 + box.y1) / 2 - center.y) < 3
            assert box.width / box.height == pytest.approx(300 / 120, rel=0.03)  # upright, aspect kept
        # one image object shared by all pages
        assert len({page.get_images()[0][0] for page in doc}) == 1


def test_watermark_keeps_input_and_registry_validates(make_pdf):
    src = make_pdf(["one"])
    out = call_tool("add_watermark", {"file": src, "text": "DRAFT", "position": "bottom-left"})
    with pymupdf.open(out) as doc:
        box = find_word(doc[0], "DRAFT")
        assert box.x0 < doc[0].rect.width / 2 and box.y0 > doc[0].rect.height / 2
    with pytest.raises(ToolArgumentError, match="position"):
        call_tool("add_watermark", {"file": src, "text": "DRAFT", "position": "middle"})


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({}, ToolArgumentError, "exactly one of text"),
        ({"text": "   "}, ToolArgumentError, "exactly one of text"),
        ({"text": "DRAFT", "image": "logo.png"}, ToolArgumentError, "exactly one of text"),
        ({"image": "missing.png"}, ToolArgumentError, "File not found"),
        ({"text": "DRAFT", "color": "blurple"}, ToolArgumentError, "not a colou?r"),
        ({"text": "DRAFT", "color": "#12345G"}, ToolArgumentError, "not a colou?r"),
        ({"text": "DRAFT", "pages": "5"}, PageRangeError, "valid pages are 1-3"),
        ({"text": "DRAFT", "opacity": 1.5}, ToolArgumentError, "between 0 and 1"),
        ({"text": "DRAFT", "font_size": -3}, ToolArgumentError, "positive"),
    ],
)
def test_watermark_errors(make_pdf, kwargs, error, message):
    src = make_pdf(THREE)
    with pytest.raises(error, match=message):
        add_watermark(src, **kwargs)
    assert not list(Path.cwd().glob("*.pdf")), "a failed tool must not leave a file behind"


def test_watermark_image_that_is_not_an_image(make_pdf, guard, tmp_path):
    fake = tmp_path / "fake.png"
    fake.write_text("not an image")
    with pytest.raises(ToolArgumentError, match="not an image"):
        add_watermark(make_pdf(["x"]), image=guard(fake))


def test_colors():
    assert parse_color("red") == pytest.approx((0.85, 0.1, 0.1))
    assert parse_color("#FF8000") == pytest.approx((1.0, 128 / 255, 0.0))
    assert parse_color("#fff") == (1.0, 1.0, 1.0)
    assert parse_color(" Gray ") == (0.5, 0.5, 0.5)
    with pytest.raises(ToolArgumentError):
        parse_color("")


# --------------------------------------------------------------------------- page numbers


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_page_numbers_bottom_as_seen(make_pdf, rotation):
    src = make_pdf(["first", "second", "third", "fourth"], rotation=rotation)
    out = add_page_numbers(src)
    with pymupdf.open(out) as doc:
        for i, page in enumerate(doc, start=1):
            box = find_word(page, str(i))
            assert in_bottom(box, page), (rotation, i, box, page.rect)
            assert abs((box.x0 + box.x1) / 2 - page.rect.width / 2) < 3  # bottom-center
            _, direction = spans(page, str(i))[0]
            assert direction == pytest.approx((1, 0), abs=0.01)


def test_page_numbers_format_on_real_file(real):
    src = real("pdfjs__tracemonkey.pdf")
    out = add_page_numbers(src, format="Page {n} of {total}", position="bottom-right", font_size=9)
    with pymupdf.open(out) as doc:
        assert doc.page_count == 14
        for i in (0, 6, 13):
            page = doc[i]
            hits = page.search_for(f"Page {i + 1} of 14")
            assert len(hits) == 1
            box = shown(page, hits[0])
            assert in_bottom(box, page) and box.x0 > page.rect.width / 2


def test_page_numbers_top_and_start(make_pdf):
    src = make_pdf(["cover", "b", "c", "d"], rotation=270)
    out = add_page_numbers(src, pages="2-last", position="top-left", format="p.{n}/{total}")
    with pymupdf.open(out) as doc:
        assert "p." not in doc[0].get_text()
        for i in (1, 2, 3):
            box = find_word(doc[i], f"p.{i + 1}/4")
            assert in_top(box, doc[i]) and box.x1 < doc[i].rect.width / 2
    out = add_page_numbers(src, pages="2-last", start=1, format="{n}/{total}")
    with pymupdf.open(out) as doc:
        assert [find_word(doc[i], f"{i}/3") for i in (1, 2, 3)]


def test_page_numbers_errors(make_pdf):
    src = make_pdf(THREE)
    with pytest.raises(ToolArgumentError, match="no {n}"):
        add_page_numbers(src, format="Page")
    with pytest.raises(PageRangeError):
        add_page_numbers(src, pages="2-9")
    with pytest.raises(ToolArgumentError, match="positive"):
        add_page_numbers(src, font_size=0)


# --------------------------------------------------------------------------- header / footer


@pytest.mark.parametrize("rotation", [0, 90, 270])
def test_header_footer_in_margins(make_pdf, rotation):
    src = make_pdf(THREE, rotation=rotation)
    out = add_header_footer(src, header="ACME Confidential", footer="Page {n} of {total}")
    with pymupdf.open(out) as doc:
        for i, page in enumerate(doc, start=1):
            assert in_top(find_word(page, "Confidential"), page)
            footer = page.search_for(f"Page {i} of 3")
            assert len(footer) == 1 and in_bottom(shown(page, footer[0]), page)
            _, direction = spans(page, "ACME")[0]
            assert direction == pytest.approx((1, 0), abs=0.01)


def test_header_align_pages_and_unicode(make_pdf):
    src = make_pdf(THREE)
    out = add_header_footer(src, header="Smith & Co — Q3 “draft”", align="right", pages="1,3", font_size=12)
    with pymupdf.open(out) as doc:
        assert "Smith & Co — Q3 “draft”" in doc[0].get_text()
        assert "Smith" not in doc[1].get_text()
        box = find_word(doc[2], "Smith")
        assert box.x0 > doc[2].rect.width / 2 and in_top(box, doc[2])
        assert spans(doc[2], "Smith")[0][0]["size"] == pytest.approx(12, abs=0.1)


def test_footer_on_real_contract(synthetic):
    src = synthetic("contract.pdf")
    out = add_header_footer(src, footer="Contract draft {n}", align="left")
    with pymupdf.open(out) as doc, pymupdf.open(src) as before:
        assert doc.page_count == before.page_count
        for i, page in enumerate(doc, start=1):
            hits = page.search_for(f"Contract draft {i}")
            assert hits and in_bottom(shown(page, hits[0]), page)
            assert shown(page, hits[0]).x0 < page.rect.width / 4


def test_header_footer_errors(make_pdf):
    src = make_pdf(THREE)
    with pytest.raises(ToolArgumentError, match="header, a footer"):
        add_header_footer(src)
    with pytest.raises(ToolArgumentError, match="header, a footer"):
        add_header_footer(src, header=" ", footer="")
    with pytest.raises(PageRangeError):
        add_header_footer(src, header="x", pages=4)


# --------------------------------------------------------------------------- signature


@pytest.mark.parametrize("rotation", [0, 90])
def test_signature_image_on_last_page_only(make_pdf, synthetic, rotation):
    src = make_pdf(THREE, rotation=rotation)
    out = add_signature(src, image=synthetic("signature.png"))
    assert Path(out).name == "fixture_signed.pdf"
    with pymupdf.open(out) as doc:
        assert [len(p.get_images()) for p in doc] == [0, 0, 1]
        assert [len(p.get_image_info()) for p in doc] == [0, 0, 1]
        page = doc[-1]
        (box,) = drawn_images(page)
        assert box.width == pytest.approx(150, abs=1)
        assert box.width / box.height == pytest.approx(480 / 160, rel=0.03)
        assert box.x0 > page.rect.width / 2 and in_bottom(box, page, 0.3)


def test_signature_on_real_file_keeps_other_pages(real, synthetic):
    src = real("pdfjs__tracemonkey.pdf")
    out = add_signature(src, image=synthetic("signature.png"), position="bottom-left", width=120)
    with pymupdf.open(out) as doc, pymupdf.open(src) as before:
        assert doc.page_count == 14
        for i in (0, 5, 12):
            assert len(doc[i].get_image_info()) == len(before[i].get_image_info())
        new = len(doc[13].get_image_info()) - len(before[13].get_image_info())
        assert new == 1
        sig = [b for b in drawn_images(doc[13]) if b.width == pytest.approx(120, abs=1)]
        assert sig and sig[0].x1 < doc[13].rect.width / 2


def test_typed_signature(make_pdf):
    src = make_pdf(THREE, rotation=270)
    out = add_signature(src, name="Jane Doe", page=2, position="bottom-center")
    with pymupdf.open(out) as doc:
        assert "Jane Doe" not in doc[2].get_text() and "Jane Doe" not in doc[0].get_text()
        page = doc[1]
        assert "Jane Doe" in page.get_text()
        box = find_word(page, "Doe")
        assert in_bottom(box, page, 0.2)
        _, direction = spans(page, "Jane")[0]
        assert direction == pytest.approx((1, 0), abs=0.01)
        lines = [d for d in page.get_drawings() if any(item[0] == "l" for item in d["items"])]
        assert lines, "a signature line is drawn under the name"


def test_signature_image_with_name(make_pdf, synthetic):
    out = add_signature(make_pdf(THREE), image=synthetic("signature.png"), name="John Smith", page="1,3")
    with pymupdf.open(out) as doc:
        assert [len(p.get_image_info()) for p in doc] == [1, 0, 1]
        assert "John Smith" in doc[2].get_text()
        name = find_word(doc[2], "Smith")
        (image,) = drawn_images(doc[2])
        assert name.y0 >= image.y1 - 1  # the name sits under the signature


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({}, ToolArgumentError, "signature image"),
        ({"image": "nowhere.png"}, ToolArgumentError, "File not found"),
        ({"name": "Jane", "page": 7}, PageRangeError, "valid pages are 1-3"),
        ({"name": "Jane", "width": 0}, ToolArgumentError, "positive"),
    ],
)
def test_signature_errors(make_pdf, kwargs, error, message):
    with pytest.raises(error, match=message):
        add_signature(make_pdf(THREE), **kwargs)


# --------------------------------------------------------------------------- add_image


def test_add_image_default_and_aspect(make_pdf, synthetic):
    src = make_pdf(THREE)
    out = add_image(src, image=synthetic("logo.png"), width=100)
    with pymupdf.open(out) as doc:
        assert [len(p.get_image_info()) for p in doc] == [1, 0, 0]
        (box,) = drawn_images(doc[0])
        assert box.width == pytest.approx(100, abs=0.5) and box.height == pytest.approx(40, abs=0.5)
        assert box.x0 > doc[0].rect.width / 2 and in_top(box, doc[0])


@pytest.mark.parametrize("rotation", [0, 90, 270])
def test_add_image_in_rect_as_seen(make_pdf, synthetic, rotation):
    src = make_pdf(THREE, rotation=rotation)
    out = add_image(src, image=synthetic("signature.png"), page="all", rect=[100, 100, 400, 400])
    with pymupdf.open(out) as doc:
        for page in doc:
            (box,) = drawn_images(page)
            assert pymupdf.Rect(99, 99, 401, 401).contains(box)
            assert box.width == pytest.approx(300, abs=1) and box.height == pytest.approx(100, abs=1)


def test_add_image_center_on_real_file(real, synthetic):
    src = real("pdfjs__tracemonkey.pdf")
    out = add_image(src, image=synthetic("photo1.jpg"), page="last", position="center")
    with pymupdf.open(out) as doc, pymupdf.open(src) as before:
        assert doc.page_count == 14
        boxes = drawn_images(doc[13])
        assert len(boxes) == len(before[13].get_image_info()) + 1
        center = [b for b in boxes if abs((b.x0 + b.x1) / 2 - doc[13].rect.width / 2) < 2]
        assert center and center[0].width / center[0].height == pytest.approx(800 / 600, rel=0.02)


def test_add_image_errors(make_pdf, synthetic):
    src = make_pdf(THREE)
    logo = synthetic("logo.png")
    with pytest.raises(ToolArgumentError, match="4 numbers"):
        add_image(src, image=logo, rect=[1, 2, 3])
    with pytest.raises(ToolArgumentError, match="empty"):
        add_image(src, image=logo, rect=[300, 300, 100, 400])
    with pytest.raises(ToolArgumentError, match="outside page"):
        add_image(src, image=logo, rect=[500, 700, 900, 900])
    with pytest.raises(ToolArgumentError, match="File not found"):
        add_image(src, image="no_logo.png")
    with pytest.raises(PageRangeError):
        add_image(src, image=logo, page=4)


def test_chained_stamps_keep_images_on_their_pages(make_pdf, synthetic):
    """Saving merges identical page resources; a later stamp must not leak onto other pages."""
    out = add_watermark(make_pdf(THREE), text="DRAFT")
    out = add_signature(out, image=synthetic("signature.png"))
    with pymupdf.open(out) as doc:
        assert [len(p.get_images()) for p in doc] == [0, 0, 1]
        assert all("DRAFT" in p.get_text() for p in doc)


# --- pages whose resources are separate objects ---------------------------------------------


def _with_shared_resource_objects(make_pdf, guard, tmp_path: Path) -> str:
    """Two pages sharing one /Resources object whose /Font is another object, as many producers write."""
    src = make_pdf(THREE[:2])
    with pymupdf.open(src) as doc:
        fonts = doc.get_new_xref()
        doc.update_object(fonts, doc.xref_get_key(doc[0].xref, "Resources/Font")[1])
        shared = doc.get_new_xref()
        doc.update_object(shared, f"<</Font {fonts} 0 R/ProcSet[/PDF/Text]>>")
        for page in doc:
            doc.xref_set_key(page.xref, "Resources", f"{shared} 0 R")
        path = tmp_path / "shared.pdf"
        doc.save(path)
    with pymupdf.open(path) as doc:
        assert [p.get_text().strip() for p in doc] == THREE[:2]
        assert doc.xref_get_key(doc[1].xref, "Resources") == ("xref", f"{shared} 0 R")
    return guard(path)


def _object_dump(path: str) -> str:
    with pymupdf.open(path) as doc:
        return "\n".join(doc.xref_object(x) for x in range(1, doc.xref_length()))


@pytest.mark.parametrize(
    "tool, kwargs, added",
    [
        (add_header_footer, {"header": "ACME Corp"}, "ACME Corp"),
        (add_page_numbers, {"format": "Page {page}"}, "Page 1"),
        (add_watermark, {"text": "DRAFT"}, "DRAFT"),
        (add_signature, {"name": "Jane Doe", "page": "all"}, "Jane Doe"),
    ],
)
def test_stamps_on_pages_with_resource_objects(make_pdf, guard, tmp_path, tool, kwargs, added):
    src = _with_shared_resource_objects(make_pdf, guard, tmp_path)
    out = tool(file=src, **kwargs)
    assert "replace me" not in _object_dump(out)  # PyMuPDF's placeholder for a key it could not set
    with pymupdf.open(out) as doc:
        for page, body in zip(doc, THREE, strict=False):
            text = page.get_text()
            assert body in text  # the page's own fonts still resolve
        assert added in doc[0].get_text()


def test_header_footer_on_real_invoice_with_resource_objects(real):
    src = real("invoice2data__coolblue1.pdf")  # /Resources 20 0 R holding /Font 19 0 R
    out = add_header_footer(file=src, header="ACME Corp", footer="Confidential")
    with pymupdf.open(src) as before, pymupdf.open(out) as after:
        text = after[0].get_text()
        assert "ACME Corp" in text and "Confidential" in text
        assert all(word in text for word in before[0].get_text().split())
