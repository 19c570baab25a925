"""The baseline: a raw PyMuPDF script doing what each benchmarked tool does, nothing more.

    python bench/raw_pymupdf.py redact IN OUT TERM
    python bench/raw_pymupdf.py highlight IN OUT TERM
    python bench/raw_pymupdf.py extract IN OUT FIRST LAST
    python bench/raw_pymupdf.py rotate IN OUT DEGREES
    python bench/raw_pymupdf.py compress IN OUT

Save options match what the tools use, so the comparison is of the work around them.

PyMuPDF 2 also imports its layout analyser, pymupdf4llm and onnxruntime on `import pymupdf`
when they are installed (~0.6 s here); none of these operations uses them, and pdftools skips
them the same way, so this script does too. `--plain-import` (first argument) keeps the
plain import, for the slower baseline a script copied from PyMuPDF's docs would be.
"""

from __future__ import annotations

import sys

if sys.argv[1:2] != ["--plain-import"]:
    sys.modules["pymupdf.layout"] = sys.modules["pymupdf4llm"] = None  # type: ignore[assignment]
import pymupdf  # noqa: E402


def main(op: str, src: str, dst: str, *rest: str) -> None:
    doc = pymupdf.open(src)
    if op == "redact":
        # As a redaction tool must: black boxes, images under them blanked, drawings kept, and each
        # redacted page searched again until nothing matches (a second round catches text the first
        # boxes missed, as the tool's verification does).
        for page in doc:
            for _ in range(2):
                rects = page.search_for(rest[0])
                if not rects:
                    break
                for rect in rects:
                    page.add_redact_annot(rect, fill=(0, 0, 0), cross_out=False)
                page.apply_redactions(images=pymupdf.PDF_REDACT_IMAGE_PIXELS, graphics=pymupdf.PDF_REDACT_LINE_ART_NONE)
            else:
                if page.search_for(rest[0]):
                    raise SystemExit(f"page {page.number + 1}: a match is still readable after redaction")
        doc.save(dst, garbage=1, deflate=True)
    elif op == "highlight":
        for page in doc:
            # One highlight per occurrence, as the tool makes (each can be selected and removed alone).
            for quad in page.search_for(rest[0], quads=True):
                page.add_highlight_annot(quad)
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
    main(*[arg for arg in sys.argv[1:] if arg != "--plain-import"])
