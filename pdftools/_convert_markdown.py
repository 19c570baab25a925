"""PDF pages to Markdown with PyMuPDF alone: headings from font sizes, paragraphs, lists, tables.

pymupdf4llm is installed but runs an ONNX layout model (and tesseract on image pages),
about 1.5-3.5 s a page on a small CPU, and prints to stdout; this writer is fast enough
for whole books. Headings: text clearly larger than the body text (the size most
characters use), ranked by size into levels 1-4; short all-bold lines at body size become
the lowest level. Tables found by ``find_tables`` are written with ``Table.to_markdown``
in place of their text.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pymupdf

from ._tables import TEXT_FLAGS, page_tables

__all__ = ["pages_to_markdown"]

_BULLETS = "•●▪■◦‣∙·-*–"
_NUMBERED = re.compile(r"^\(?\d{1,3}[.)]\s")
_MAX_HEADING_CHARS = 160


def _size(value: float) -> float:
    return round(value * 2) / 2


def _block_lines(block: dict[str, Any]) -> list[tuple[str, float, bool]]:
    """(text, largest font size, all bold) for each line of a text block."""
    out = []
    for line in block.get("lines", []):
        spans = [s for s in line["spans"] if s["text"].strip()]
        if not spans:
            continue
        text = "".join(s["text"] for s in line["spans"]).strip()
        size = max(_size(s["size"]) for s in spans)
        bold = all(s["flags"] & pymupdf.TEXT_FONT_BOLD or "bold" in s["font"].lower() for s in spans)
        out.append((text, size, bold))
    return out


def _inside(bbox: tuple[float, ...], rects: list[pymupdf.Rect]) -> bool:
    x = (bbox[0] + bbox[2]) / 2
    y = (bbox[1] + bbox[3]) / 2
    return any(r.x0 <= x <= r.x1 and r.y0 <= y <= r.y1 for r in rects)


def _join(lines: list[str]) -> str:
    text = ""
    for line in lines:
        if not text:
            text = line
        elif text.endswith("-") and line[:1].islower() and not text.endswith(" -"):
            text = text[:-1] + line
        else:
            text += " " + line
    return text


def _escape(text: str) -> str:
    """Keep body text that starts like Markdown syntax from turning into it."""
    return "\\" + text if text.startswith(("#", ">")) else text


class _Page:
    """One page's text blocks (outside tables) and tables, in reading order."""

    def __init__(self, page: pymupdf.Page, thorough: bool) -> None:
        tables = page_tables(page, thorough)
        rects = [pymupdf.Rect(t.bbox) for t in tables]
        # (top, markdown), made now: a Table reads its page, which must still be alive
        self.tables = sorted((t.bbox[1], t.to_markdown().strip()) for t in tables)
        self.blocks = []
        data = page.get_text("dict", flags=TEXT_FLAGS)
        for block in data["blocks"]:
            if block.get("type") != 0:
                continue
            lines = (
                [
                    (text, size, bold)
                    for (text, size, bold), line in zip(_block_lines(block), block["lines"], strict=False)
                    if not _inside(line["bbox"], rects)
                ]
                if rects
                else _block_lines(block)
            )
            if lines:
                self.blocks.append((block["bbox"], lines))

    def sizes(self) -> Counter[float]:
        counts: Counter[float] = Counter()
        for _, lines in self.blocks:
            for text, size, _bold in lines:
                counts[size] += len(text)
        return counts


def _heading_levels(pages: list[_Page]) -> tuple[float, dict[float, int]]:
    """The body font size and a heading level for each larger size (1 = largest)."""
    counts: Counter[float] = Counter()
    for page in pages:
        counts += page.sizes()
    if not counts:
        return 0.0, {}
    body = counts.most_common(1)[0][0]
    bigger = sorted((s for s in counts if s >= body + 1.5 and s >= body * 1.12), reverse=True)
    return body, {size: min(level, 4) for level, size in enumerate(bigger, start=1)}


def _render_block(lines: list[tuple[str, float, bool]], body: float, levels: dict[float, int]) -> list[tuple[int, str]]:
    """(heading level or 0, text) pieces for one block: headings, list items, paragraphs."""
    out: list[tuple[int, str]] = []
    para: list[str] = []
    lowest = min(len(levels) + 1, 4)

    def flush() -> None:
        if para:
            out.append((0, _escape(_join(para))))
            para.clear()

    i = 0
    while i < len(lines):
        text, size, bold = lines[i]
        level = levels.get(size)
        if level is None and bold and size >= body and len(text) <= 80 and len(lines) <= 2:
            level = lowest
        if level is not None and any(ch.isalnum() for ch in text):
            heading = [text]
            while i + 1 < len(lines) and lines[i + 1][1] == size and len(" ".join(heading)) < _MAX_HEADING_CHARS:
                i += 1
                heading.append(lines[i][0])
            flush()
            joined = _join(heading)
            out.append((level, joined) if len(joined) <= _MAX_HEADING_CHARS else (0, joined))
        elif text[:1] in _BULLETS and (len(text) == 1 or text[1:2].isspace()):
            flush()  # a list item; the lines after it, up to the next item, continue it
            para.append("- " + text[1:].strip() if text[1:].strip() else "-")
        elif _NUMBERED.match(text):
            flush()
            para.append(text)
        else:
            para.append(text)
        i += 1
    flush()
    return out


def _page_pieces(page: _Page, body: float, levels: dict[float, int]) -> list[str]:
    """One page's Markdown pieces; tables go before the first block below their top."""
    pieces: list[str] = []
    tables = list(page.tables)
    last: tuple[int, float] | None = None  # (level, bottom) of the heading just written
    for bbox, lines in page.blocks:
        while tables and tables[0][0] <= bbox[1]:
            pieces.append(tables.pop(0)[1])
            last = None
        for level, text in _render_block(lines, body, levels):
            if level and last and last[0] == level and 0 <= bbox[1] - last[1] < lines[0][1] and len(lines) == 1:
                pieces[-1] += " " + text  # a heading wrapped over two blocks
            else:
                pieces.append("#" * level + " " + text if level else text)
            last = (level, bbox[3]) if level else None
    pieces.extend(table for _top, table in tables)
    return pieces


def pages_to_markdown(doc: pymupdf.Document, indices: list[int], thorough: bool) -> str:
    """Markdown for the 0-based pages ``indices`` (empty string when they have no text)."""
    pages = [_Page(doc[i], thorough) for i in indices]
    body, levels = _heading_levels(pages)
    pieces = [piece for page in pages for piece in _page_pieces(page, body, levels)]
    text = "\n\n".join(p for p in pieces if p.strip())
    return text + "\n" if text else ""
