"""Section headings read from the page layout: lines set larger than the body text, or bold and numbered.

The body size is the font size most characters on the selected pages have. A heading is a text block
of at most three lines, no more than 20 words, whose every span is either at least 15% larger than
the body (titles, "1. Parties and Contacts") or bold with a section number in front ("4.2 Fees",
"SECTION 2 - ...", "Article IV"). Bold lines at body size without a number are table headers and
emphasis, not headings. Running headers and footers are smaller than the body and never qualify.
"""

from __future__ import annotations

import re
from collections import Counter

import pymupdf

from .textmatch import Match, normalize

__all__ = ["heading_matches"]

_LARGER = 1.15
_MAX_LINES = 3
_MAX_WORDS = 20
_NUMBERED = re.compile(
    r"^\s*(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.|(?:section|article|part|chapter|schedule|annex)\s+[\dIVXLC]+\b)\s*\S",
    re.IGNORECASE,
)
_BOLD = 1 << 4


def _lines(block: dict) -> list[list[dict]]:
    return [[s for s in line["spans"] if s["text"].strip()] for line in block.get("lines", ())]


def _body_size(pages: list[dict]) -> float:
    sizes: Counter[float] = Counter()
    for page in pages:
        for block in page["blocks"]:
            for spans in _lines(block):
                for span in spans:
                    sizes[round(span["size"], 1)] += len(span["text"].strip())
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _is_bold(span: dict) -> bool:
    return bool(span["flags"] & _BOLD) or "bold" in span["font"].lower() or "black" in span["font"].lower()


def _heading(block: dict, body: float) -> tuple[str, list[pymupdf.Rect]] | None:
    lines = [spans for spans in _lines(block) if spans]
    if not lines or len(lines) > _MAX_LINES:
        return None
    text = " ".join(normalize("".join(s["text"] for s in spans)).strip() for spans in lines)
    text = " ".join(text.split())
    if not re.search(r"[^\W\d_]{2}", text) or len(text.split()) > _MAX_WORDS:
        return None
    spans = [s for line in lines for s in line]
    larger = all(s["size"] >= body * _LARGER for s in spans)
    numbered_bold = all(_is_bold(s) for s in spans) and _NUMBERED.match(text) is not None
    if not (larger or numbered_bold):
        return None
    rects = [pymupdf.Rect(line[0]["bbox"]) | pymupdf.Rect(line[-1]["bbox"]) for line in lines]
    return text, rects


def heading_matches(doc: pymupdf.Document, indices: list[int]) -> list[Match]:
    """The section headings on the pages ``indices`` (0-based), in page order."""
    pages = {index: doc[index].get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP) for index in indices}
    body = _body_size(list(pages.values()))
    found: list[Match] = []
    if not body:
        return found
    for index, page in pages.items():
        for block in page["blocks"]:
            if block.get("type", 0) != 0:
                continue
            heading = _heading(block, body)
            if heading:
                text, rects = heading
                found.append(Match(index, text, rects, "heading", text))
    return found
