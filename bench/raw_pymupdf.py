"""The baseline: a raw PyMuPDF script doing what each benchmarked tool does, nothing more.

    python bench/raw_pymupdf.py redact IN OUT TERM
    python bench/raw_pymupdf.py highlight IN OUT TERM
    python bench/raw_pymupdf.py extract IN OUT FIRST LAST
    python bench/raw_pymupdf.py rotate IN OUT DEGREES
    python bench/raw_pymupdf.py compress IN OUT

Save options match what the tools use, so the comparison is of the work around them.
"""

from __future__ import annotations

import sys

import pymupdf


def main(op: str, src: str, dst: str, *rest: str) -> None:
    doc = pymupdf.open(src)
    if op == "redact":
        for page in doc:
            rects = page.search_for(rest[0])
            for rect in rects:
                page.add_redact_annot(rect)
            if rects:
                page.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_PIXELS)
        doc.save(dst, garbage=1, deflate=True)
    elif op == "highlight":
        for page in doc:
            quads = page.search_for(rest[0], quads=True)
            if quads:
                page.add_highlight_annot(quads)
        doc.save(dst, garbage=1, deflate=True)
    elif op == "extract":
        doc.select(list(range(int(rest[0]) - 1, int(rest[1]))))
        doc.save(dst, garbage=3, deflate=True)
    elif op == "rotate":
        for page in doc:
            page.set_rotation((page.rotation + int(rest[0])) % 360)
        doc.save(dst, garbage=3, deflate=True)
    elif op == "compress":
        doc.rewrite_images(dpi_threshold=225, dpi_target=150, quality=75)
        doc.subset_fonts()
        doc.save(dst, garbage=4, deflate=True, use_objstms=1)
    else:
        raise SystemExit(f"unknown op {op}")


if __name__ == "__main__":
    main(*sys.argv[1:])
