"""Seeded mutations of PDFs for ``bench/fuzz.py``: damaged bytes, broken structure, bombs.

Each mutator takes the source's bytes, its path and a seeded ``random.Random`` and returns the mutant's bytes and
a short description (what was done, for the report). Byte-level mutators work on any file (encrypted ones too);
the structural ones (deep nesting, bombs, the 50,000 x 50,000 image) add objects with PyMuPDF and write the file
without re-encoding any stream, so a bomb stays a bomb; values MuPDF would not parse back (a 100,000-deep
array) go in by replacing a placeholder of the same length, which keeps every byte offset right.
"""

from __future__ import annotations

import functools
import io
import random
import re
import zlib
from collections.abc import Callable
from pathlib import Path

import pymupdf

__all__ = ["MUTATORS", "STRUCTURAL", "mutate", "zeros_flate"]

BIG = 50_000  # the 50,000 x 50,000 pixel image


# ---------------------------------------------------------------- compressed zeros, made without compressing them


@functools.cache
def zeros_flate(total: int, chunk: int = 1 << 20) -> bytes:
    """A zlib (FlateDecode) stream that inflates to ``total`` zero bytes (``total`` a multiple of ``chunk``).

    After a full flush, deflate's output depends only on the input that follows, so the block for one chunk of
    zeros is repeated; the Adler-32 of n zeros is (n mod 65521) << 16 | 1. A gigabyte costs ~1 MB and no time.
    """
    if total % chunk:
        raise ValueError("total must be a multiple of chunk")
    zeros = b"\0" * chunk
    co = zlib.compressobj(9)
    head = co.compress(zeros) + co.flush(zlib.Z_FULL_FLUSH)
    block = co.compress(zeros) + co.flush(zlib.Z_FULL_FLUSH)
    end = co.flush()[:-4]  # the final empty block; the checksum is written below
    adler = ((total % 65521) << 16) | 1
    return head + block * (total // chunk - 1) + end + adler.to_bytes(4, "big")


# ---------------------------------------------------------------- byte-level mutators (any file)


def flip(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    buf = bytearray(data)
    n = rng.choice([1, 4, 16, 64, 256])
    for _ in range(n):
        i = rng.randrange(16, len(buf))
        buf[i] ^= rng.randrange(1, 256)
    return bytes(buf), f"flipped {n} bytes"


def burst(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    buf = bytearray(data)
    size = min(rng.choice([16, 256, 4096]), len(buf) // 4)
    at = rng.randrange(16, len(buf) - size)
    buf[at : at + size] = rng.randbytes(size)
    return bytes(buf), f"{size} random bytes at {at}"


def truncate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    cut = int(len(data) * rng.uniform(0.05, 0.98))
    mended = rng.random() < 0.5  # an end marker put back makes readers try to repair it
    return data[:cut] + (b"\n%%EOF\n" if mended else b""), f"cut at {cut}/{len(data)}" + (" + %%EOF" if mended else "")


def xref_damage(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(["startxref", "shift", "keyword", "zeroed", "root", "prev_loop"])
    out = data
    if kind == "startxref":
        out = re.sub(rb"startxref\s+\d+", lambda m: b"startxref\n" + str(rng.randrange(len(data) * 2)).encode(), data)
    elif kind == "shift":  # every offset in classic xref tables moved
        delta = rng.choice([-7, -1, 1, 13, 1000])

        def shifted(m: re.Match[bytes]) -> bytes:
            return b"%010d" % max(0, int(m.group(1)) + delta) + m.group(2)

        out = re.sub(rb"(\d{10})( \d{5} n)", shifted, data)
    elif kind == "keyword":
        out = data.replace(b"xref", b"xrfe").replace(b"/XRef", b"/XRfe")
    elif kind == "zeroed":
        at = data.rfind(b"startxref")
        start = max(0, at - rng.choice([200, 2000, 20000]))
        out = data[:start] + b"0" * (at - start) + data[at:]
    elif kind == "root":
        out = re.sub(rb"/Root\s+\d+\s+\d+\s+R", b"/Root 999999 0 R", data)
    elif kind == "prev_loop":  # the trailer's /Prev points at the xref it is in
        at = data.rfind(b"startxref")
        match = re.search(rb"startxref\s+(\d+)", data[at:])
        if match:
            out = re.sub(rb"/Prev\s+\d+", b"/Prev " + match.group(1), data)
            if out == data:
                out = data.replace(b"trailer\n<<", b"trailer\n<</Prev " + match.group(1) + b" ", 1)
    return out, f"xref: {kind}"


def huge_count(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(["size", "subsection", "page_count", "objstm", "obj_number"])
    huge = rng.choice([b"2147483647", b"99999999", b"4294967296", b"-1"])
    if kind == "size":
        out = re.sub(rb"/Size\s+\d+", b"/Size " + huge, data)
    elif kind == "subsection":
        out = re.sub(rb"xref\s+0\s+\d+", b"xref\n0 " + huge, data, count=1)
    elif kind == "page_count":
        out = re.sub(rb"(/Type\s*/Pages\b[^>]*?/Count\s+)\d+", lambda m: m.group(1) + huge, data)
        out = re.sub(rb"(/Count\s+)\d+(\s*/Type\s*/Pages)", lambda m: m.group(1) + huge + m.group(2), out)
    elif kind == "objstm":
        out = re.sub(rb"(/Type\s*/ObjStm[^>]*?/N\s+)\d+", lambda m: m.group(1) + huge, data)
        out = re.sub(rb"(/N\s+)\d+(\s*/Type\s*/ObjStm)", lambda m: m.group(1) + huge + m.group(2), out)
    else:  # an object numbered near the top of the range, appended
        out = data + b"\n" + huge + b" 0 obj\n<</Type/Page>>\nendobj\n%%EOF\n"
    return out, f"huge count: {kind} = {huge.decode()}"


def broken_stream(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(["length_long", "length_short", "flate_corrupt", "no_endstream", "wrong_filter"])
    streams = [m for m in re.finditer(rb"stream\r?\n", data) if data[max(0, m.start() - 3) : m.start()] != b"end"]
    if not streams:
        return flip(data, rng)
    match = rng.choice(streams)
    out = data
    if kind == "length_long":
        out = _near(data, match.start(), rb"/Length\s+(\d+)(?!\s+\d+\s+R)", lambda v: v * 50 + 100000)
    elif kind == "length_short":
        out = _near(data, match.start(), rb"/Length\s+(\d+)(?!\s+\d+\s+R)", lambda v: v // 3)
    elif kind == "flate_corrupt":
        buf = bytearray(data)
        for _ in range(8):
            i = match.end() + rng.randrange(0, 64)
            if i < len(buf):
                buf[i] ^= 0xFF
        out = bytes(buf)
    elif kind == "no_endstream":
        at = data.find(b"endstream", match.end())
        if at > 0:
            out = data[:at] + b"endstrea_" + data[at + 9 :]
    else:
        at = data.rfind(b"/FlateDecode", 0, match.start())
        if at > 0:
            out = (
                data[:at]
                + rng.choice([b"/DCTDecode  ", b"/LZWDecode  ", b"/JBIG2Decode", b"/Crypt      "])
                + data[at + 12 :]
            )
    return out, f"stream: {kind}"


def _near(data: bytes, at: int, pattern: bytes, change: Callable[[int], int]) -> bytes:
    """Rewrite the last match of ``pattern`` before ``at`` (the stream's dictionary)."""
    found = None
    for match in re.finditer(pattern, data[max(0, at - 400) : at]):
        found = match
    if found is None:
        return data
    start = max(0, at - 400) + found.start(1)
    end = max(0, at - 400) + found.end(1)
    return data[:start] + str(change(int(found.group(1)))).encode() + data[end:]


# ---------------------------------------------------------------- structural mutators (unencrypted files)


def _page1(doc: pymupdf.Document) -> tuple[int, float, float]:
    page = doc[0]
    return page.xref, page.rect.width, page.rect.height


def _own_resources(doc: pymupdf.Document, page: int) -> None:
    """Give the page its own /Resources when it inherits them, so adding to them keeps the inherited ones."""
    if doc.xref_get_key(page, "Resources")[0] != "null":
        return
    parent = doc.xref_get_key(page, "Parent")
    while parent[0] == "xref":
        xref = int(parent[1].split()[0])
        kind, value = doc.xref_get_key(xref, "Resources")
        if kind != "null":
            doc.xref_set_key(page, "Resources", value)
            return
        parent = doc.xref_get_key(xref, "Parent")


def _add_stream(doc: pymupdf.Document, dictionary: str, raw: bytes, filters: str | None) -> int:
    xref = doc.get_new_xref()
    doc.update_object(xref, dictionary)
    doc.update_stream(xref, raw, new=True, compress=False)
    if filters:
        doc.xref_set_key(xref, "Filter", filters)
    return xref


def _append_content(doc: pymupdf.Document, page: int, content: int) -> None:
    kind, value = doc.xref_get_key(page, "Contents")
    refs = value.strip("[]") if kind in ("xref", "array") else ""
    doc.xref_set_key(page, "Contents", f"[{refs} {content} 0 R]")


def _set_path(doc: pymupdf.Document, xref: int, path: str, value: str) -> None:
    *parents, key = path.split("/")
    prefix = ""
    for name in parents:
        kind, ref = doc.xref_get_key(xref, prefix + name)
        if kind == "xref":
            xref, prefix = int(ref.split()[0]), ""
        else:
            prefix += name + "/"
    doc.xref_set_key(xref, prefix + key, value)


def _save(doc: pymupdf.Document, swaps: tuple[tuple[bytes, bytes], ...] = ()) -> bytes:
    data = doc.tobytes(garbage=0, deflate=False, no_new_id=True)
    for placeholder, value in swaps:
        if len(placeholder) != len(value) or placeholder not in data:
            raise ValueError("placeholder lost")
        data = data.replace(placeholder, value, 1)
    return data


def deep_nesting(path: Path, rng: random.Random) -> tuple[bytes, str]:
    depth = rng.choice([1_000, 10_000, 100_000])
    kind = rng.choice(["catalog_array", "resources_dict", "annots_array", "content_q", "content_array"])
    with pymupdf.open(path) as doc:
        page, _, _ = _page1(doc)
        if kind.startswith("content"):
            if kind == "content_q":
                raw = b"q " * depth + b"0 0 m 10 10 l S " + b"Q " * depth
            else:
                raw = b"BT /F1 12 Tf " + b"[" * depth + b"(x)" + b"]" * depth + b" TJ ET"
            _append_content(doc, page, _add_stream(doc, "<<>>", raw, None))
            return _save(doc), f"deep nesting: {kind} {depth}"
        placeholder = b"(" + b"x" * (2 * depth) + b")"
        if kind == "resources_dict":  # "<</A " ... ">>" takes 7 bytes a level: as many as fit
            levels = (len(placeholder) - 1) // 7
            value = b"<</A " * levels + b" " * (len(placeholder) - 1 - 7 * levels) + b"1" + b">>" * levels
        else:
            value = b"[" * (depth + 1) + b"]" * (depth + 1)
        xref = doc.get_new_xref()
        doc.update_object(xref, "<</FzDeep " + placeholder.decode() + ">>")
        if kind == "catalog_array":
            doc.xref_set_key(doc.pdf_catalog(), "FzDeep", f"{xref} 0 R")
        elif kind == "resources_dict":
            _own_resources(doc, page)
            _set_path(doc, page, "Resources/Font/FzDeep", f"{xref} 0 R")
        else:
            doc.xref_set_key(page, "Annots", f"[{xref} 0 R]")
        return _save(doc, ((placeholder, value),)), f"deep nesting: {kind} {depth}"


def bomb(path: Path, rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(["content_1gb", "content_double_4gb", "image_1gb"])
    with pymupdf.open(path) as doc:
        page, width, height = _page1(doc)
        if kind == "content_1gb":
            _append_content(doc, page, _add_stream(doc, "<<>>", zeros_flate(1 << 30), "/FlateDecode"))
        elif kind == "content_double_4gb":
            outer = zlib.compress(zeros_flate(4 << 30, 1 << 22), 9)
            _append_content(doc, page, _add_stream(doc, "<<>>", outer, "[/FlateDecode /FlateDecode]"))
        else:  # a 1,000 x 1,000 grey image whose data inflates to a gigabyte
            image = "<</Type/XObject/Subtype/Image/Width 1000/Height 1000/ColorSpace/DeviceGray/BitsPerComponent 8>>"
            _draw_image(doc, page, width, height, _add_stream(doc, image, zeros_flate(1 << 30), "/FlateDecode"))
        return _save(doc), f"decompression bomb: {kind}"


def _draw_image(doc: pymupdf.Document, page: int, width: float, height: float, image: int) -> None:
    _own_resources(doc, page)
    _set_path(doc, page, "Resources/XObject/FzBig", f"{image} 0 R")
    draw = f"q {width:.0f} 0 0 {height:.0f} 0 0 cm /FzBig Do Q".encode()
    _append_content(doc, page, _add_stream(doc, "<<>>", draw, None))


@functools.cache
def _tiny_jpeg_as_big() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("L", (8, 8), 128).save(buf, "JPEG")
    data = buf.getvalue()
    sof = data.find(b"\xff\xc0")
    size = BIG.to_bytes(2, "big")
    return data[: sof + 5] + size + size + data[sof + 9 :]


def huge_image(path: Path, rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(["gray1", "gray8", "rgb8", "jpeg"])
    base = f"<</Type/XObject/Subtype/Image/Width {BIG}/Height {BIG}"
    if kind == "gray1":
        dictionary, raw, filt = (
            base + "/ColorSpace/DeviceGray/BitsPerComponent 1>>",
            zeros_flate(6250 * BIG, 6250 * 200),
            "/FlateDecode",
        )
    elif kind == "gray8":
        dictionary, raw, filt = (
            base + "/ColorSpace/DeviceGray/BitsPerComponent 8>>",
            zeros_flate(BIG * BIG, BIG * 200),
            "/FlateDecode",
        )
    elif kind == "rgb8":
        dictionary, raw, filt = (
            base + "/ColorSpace/DeviceRGB/BitsPerComponent 8>>",
            zeros_flate(3 * BIG * BIG, 3 * BIG * 200),
            "/FlateDecode",
        )
    else:
        dictionary, raw, filt = base + "/ColorSpace/DeviceGray/BitsPerComponent 8>>", _tiny_jpeg_as_big(), "/DCTDecode"
    with pymupdf.open(path) as doc:
        page, width, height = _page1(doc)
        _draw_image(doc, page, width, height, _add_stream(doc, dictionary, raw, filt))
        return _save(doc), f"50,000 x 50,000 image: {kind}"


BYTE_LEVEL: dict[str, Callable[[bytes, random.Random], tuple[bytes, str]]] = {
    "flip": flip,
    "burst": burst,
    "truncate": truncate,
    "xref_damage": xref_damage,
    "huge_count": huge_count,
    "broken_stream": broken_stream,
}
STRUCTURAL: dict[str, Callable[[Path, random.Random], tuple[bytes, str]]] = {
    "deep_nesting": deep_nesting,
    "bomb": bomb,
    "huge_image": huge_image,
}
MUTATORS = [*BYTE_LEVEL, *STRUCTURAL]


def mutate(kind: str, path: Path, rng: random.Random) -> tuple[bytes, str]:
    """The mutant of ``path`` made by mutator ``kind``."""
    if kind in STRUCTURAL:
        return STRUCTURAL[kind](path, rng)
    return BYTE_LEVEL[kind](path.read_bytes(), rng)
