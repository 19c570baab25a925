"""A document's structure, read once per file (PDFTriage §3): pages, sections, label/value pairs, passages.

Everything here is JSON-able, so :mod:`docpilot.understanding.cache` keeps it on disk by file hash.
Tables are read lazily, page by page (:mod:`docpilot.understanding.tables`): finding them costs
~0.4 s a page, too much for every page of a book.

- rows: a page's lines grouped by baseline, split into cells at wide gaps (a form's label and value
  sit in one row, two cells);
- sections: the outline when the PDF has one, else headings found by weight, size and numbering;
- pairs: label → value from two-cell rows and "Label: value" text (forms, filings, invoices);
- chunks: passages of about a hundred words within a section, the units retrieval ranks.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import pymupdf

from docpilot.understanding.textnorm import FOOTNOTE_MARK, words

__all__ = ["Row", "Pair", "Section", "Chunk", "Figure", "Structure", "read_structure", "EXTRACTOR_VERSION"]

EXTRACTOR_VERSION = "16"  # part of the cache key: change it when what is extracted changes

_FLAGS = (pymupdf.TEXTFLAGS_TEXT | pymupdf.TEXT_DEHYPHENATE) & ~pymupdf.TEXT_PRESERVE_LIGATURES
_CHUNK_WORDS = 90
_NUMBERED = re.compile(
    r"^(?:(?:part|item|section|chapter|article)\s+)?([A-Z]?\d+(?:\.\d+)*|[IVX]+|[A-Z])[.)]?\s+\S", re.I
)
_NOUN_NUMBERED = re.compile(r"^(?:part|item|section|chapter|article)\s+(?:\d+[A-Z]?|[IVX]+)\b", re.I)
_FIGURE = re.compile(r"^\s*(?:figure|fig\.|chart|graph|diagram|illustration)\s+[\w.]{1,6}\s*[:.\-–—]\s*\S", re.I)
_COLON_PAIR = re.compile(r"(?:^|(?<=[.;]\s))([A-Z][\w ()/'&.,-]{0,48}?):\s+(.+?)(?=(?<![A-Z])[.;]\s+[A-Z]|$)")


@dataclass
class Row:
    """One visual line: its cells left to right."""

    page: int  # 1-based
    cells: list[str]
    size: float
    bold: bool
    y: float

    @property
    def text(self) -> str:
        return " ".join(self.cells)


@dataclass
class Pair:
    label: str
    value: str
    page: int
    section: int | None  # index into Structure.sections


@dataclass
class Section:
    title: str
    level: int
    page: int
    end_page: int
    parent: int | None = None


@dataclass
class Chunk:
    page: int
    text: str
    section: int | None


@dataclass
class Figure:
    page: int
    caption: str  # "Figure 1: Installations per quarter"
    section: int | None


@dataclass
class Structure:
    """What a document holds, in the order a reader meets it."""

    name: str
    pages: list[str]  # each page's text (ligatures expanded)
    title: str
    author: str
    sections: list[Section] = field(default_factory=list)
    pairs: list[Pair] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    table_pages: list[int] = field(default_factory=list)  # pages likely to hold a table (1-based)
    has_outline: bool = False
    ocr_pages: list[int] = field(default_factory=list)  # pages whose text came from OCR
    figures: list[Figure] = field(default_factory=list)  # figures, by their captions

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Structure:
        return cls(
            name=data["name"],
            pages=data["pages"],
            title=data["title"],
            author=data["author"],
            sections=[Section(**s) for s in data["sections"]],
            pairs=[Pair(**p) for p in data["pairs"]],
            chunks=[Chunk(**c) for c in data["chunks"]],
            table_pages=data["table_pages"],
            has_outline=data["has_outline"],
            ocr_pages=data.get("ocr_pages", []),
            figures=[Figure(**f) for f in data.get("figures", [])],
        )

    def section_path(self, index: int | None) -> str:
        """ "2 Financial Results › 2.1 Revenue" for a section index."""
        titles: list[str] = []
        while index is not None:
            titles.append(self.sections[index].title)
            index = self.sections[index].parent
        return " › ".join(reversed(titles))

    def outline_text(self, limit: int = 40) -> str:
        """The compact rendering the model sees first: title, pages, sections with their pages."""
        lines = [f"{self.name}: {self.title or '(untitled)'} — {len(self.pages)} pages"]
        for section in self.sections[:limit]:
            lines.append(f"{'  ' * (section.level - 1)}{section.title} (p. {section.page})")
        if len(self.sections) > limit:
            lines.append(f"… {len(self.sections) - limit} more sections")
        lines += [f"{figure.caption} (p. {figure.page})" for figure in self.figures[:limit]]
        return "\n".join(lines)


def read_structure(doc: pymupdf.Document, name: str) -> Structure:
    """Read ``doc``'s structure (no tables: see :mod:`~docpilot.understanding.tables`)."""
    rows: list[Row] = []
    pages: list[str] = []
    table_pages: list[int] = []
    for page in doc:
        page_rows = _rows(page)
        rows += page_rows
        pages.append(page.get_text(flags=_FLAGS))
        if _may_hold_table(page_rows):
            table_pages.append(page.number + 1)
    body = _body_size(rows)
    toc = doc.get_toc(simple=True)
    sections, heading_rows = _outline_sections(toc, len(pages)) if toc else _found_sections(rows, body)
    meta = doc.metadata or {}
    structure = Structure(
        name=name,
        pages=pages,
        title=_title(rows, meta.get("title") or "", body),
        author=(meta.get("author") or "").strip(),
        sections=sections,
        table_pages=table_pages,
        has_outline=bool(toc),
    )
    _fill(structure, rows, heading_rows)
    return structure


def _rows(page: pymupdf.Page) -> list[Row]:
    """The page's lines grouped by baseline into rows of cells."""
    spans: list[tuple[float, float, float, str, float, bool]] = []  # y, x0, x1, text, size, bold
    turn = page.rotation_matrix  # a page shown turned (/Rotate 90: a landscape table) is read as it is shown
    for block in page.get_text("dict", flags=_FLAGS)["blocks"]:
        for line in block.get("lines", []):
            dx, dy = line["dir"]
            if abs(dx * turn.b + dy * turn.d) > 0.1:
                continue  # vertical text, as the page is shown
            gap_before, end = False, None
            for span in line["spans"]:
                if not span["text"].strip():
                    gap_before = True  # a space drawn as its own span separates a label from its value
                    continue
                if span["flags"] & 1 and end is not None and abs(span["bbox"][0] - end) < 1.5:
                    if FOOTNOTE_MARK.fullmatch(span["text"].strip()):
                        continue  # a footnote mark set above the line after a figure ("83,190,556²"): no part of it
                end = span["bbox"][2]
                box = pymupdf.Rect(span["bbox"]) * turn
                text = ("   " if gap_before else "") + span["text"]
                origin = pymupdf.Point(span["origin"]) * turn
                spans.append((round(origin.y, 1), box.x0, box.x1, text, span["size"], bool(span["flags"] & 16)))
                gap_before = False
    rows: list[Row] = []
    current: list[tuple[float, float, float, str, float, bool]] = []
    for item in spans:
        if current and abs(item[0] - current[-1][0]) <= 2.0:
            if item[1] >= current[-1][2] - 1:
                current.append(item)
                continue
            if item[2] <= current[0][1] + 1:  # drawn after the value it labels, left of it ("993548900" "Invoice No:")
                current.insert(0, item)
                continue
        if current:
            rows.append(_row(page.number + 1, current))
        current = [item]
    if current:
        rows.append(_row(page.number + 1, current))
    return rows


def _row(page: int, spans: list[tuple[float, float, float, str, float, bool]]) -> Row:
    cells: list[str] = []
    last_end = None
    last_text = ""
    for _y, x0, x1, text, size, _bold in spans:
        gap = x0 - last_end if last_end is not None else 0
        pieces = [p for p in re.split(r"\s{3,}", text) if p.strip()]
        if cells and gap <= max(3.0, size * 0.9) and not text.startswith("   "):
            joined = gap < 0.5 and not text.startswith(" ") and not last_text.endswith(" ")  # "Kick-o" "ff"
            cells[-1] = (cells[-1] + ("" if joined else " ") + pieces[0].strip()).strip()
            pieces = pieces[1:]
        cells += [p.strip() for p in pieces]
        last_end, last_text = x1, text
    sizes: Counter[tuple[float, bool]] = Counter()
    for _, _, _, text, size, bold in spans:
        sizes[(round(size, 1), bold)] += len(text)
    (size, bold), _ = sizes.most_common(1)[0]
    return Row(page=page, cells=[c for c in cells if c], size=size, bold=bold, y=spans[0][0])


def _body_size(rows: list[Row]) -> float:
    sizes: Counter[float] = Counter()
    for row in rows:
        sizes[row.size] += len(row.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _may_hold_table(rows: list[Row]) -> bool:
    if any(re.match(r"^table\s+\d", row.text, re.I) for row in rows):
        return True
    multi = sum(len(row.cells) >= 3 for row in rows)
    tokens = [w for row in rows for w in row.text.split()]
    numeric = sum(bool(re.fullmatch(r"[-($]*\d[\d,.]*%?\)?", t)) for t in tokens)
    return multi >= 3 or (bool(tokens) and numeric >= 0.2 * len(tokens))


def _title(rows: list[Row], meta_title: str, body: float) -> str:
    first = [r for r in rows if r.page == 1] or rows[:40]
    if first:
        biggest = max(r.size for r in first)
        if biggest > body * 1.15:
            title_rows = [r.text for r in first if r.size == biggest]
            return " ".join(title_rows)[:200]
    return meta_title.strip()


def _is_heading(row: Row, body: float) -> bool:
    text = row.text
    # a filing's or statute's part says its noun and number before a long title ("Item 7. Management's
    # Discussion and Analysis of Financial Condition and Results of Operations")
    longest, most, most_bold = (140, 20, 20) if row.bold and _NOUN_NUMBERED.match(text) else (90, 14, 12)
    if len(row.cells) > 2 or len(text) > longest or not re.search(r"[A-Za-z]", text) or len(words(text)) > most:
        return False
    if text.rstrip().endswith((".", ",", ";")) and not re.match(r"^\d+\.$", text):
        return False
    bigger = row.size > body * 1.12
    if bigger or (row.bold and len(words(text)) <= most_bold):
        return True
    return bool(_NUMBERED.match(text)) and len(words(text)) <= 6 and text[0].isdigit() and not text[-1].isdigit()


def _capitals(text: str) -> bool:
    """Whether ``text`` is set in capitals: a title set in mixed case does not run on in capitals ("Item 8.
    Financial Statements and Supplementary Data" above "INDEX TO CONSOLIDATED FINANCIAL STATEMENTS")."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


def _found_sections(rows: list[Row], body: float) -> tuple[list[Section], set[int]]:
    heading_rows = [i for i, row in enumerate(rows) if _is_heading(row, body)]
    if len(heading_rows) > max(60, len(rows) // 3):
        heading_rows = [i for i in heading_rows if rows[i].size > body * 1.12]  # bold everywhere: size only
    merged: list[list[int]] = []  # a heading set on two lines ("… for Dynamic" / "Languages") is one heading
    for i in heading_rows:
        if not rows[i].text[:1].isalnum() and not rows[i].text.startswith(("“", '"', "(")):
            continue  # ", Brendan Eich": a fragment of a line, not a heading
        last = merged[-1][-1] if merged else None
        if (
            last == i - 1
            and rows[last].size == rows[i].size
            and rows[last].page == rows[i].page
            and (rows[last].bold == rows[i].bold and not _NUMBERED.match(rows[i].text))
            and _capitals(rows[last].text) == _capitals(rows[i].text)
            and rows[i].y - rows[last].y <= 1.8 * rows[i].size  # the next line, not a heading below it
        ):
            merged[-1].append(i)
        else:
            merged.append([i])
    sizes = sorted({rows[group[0]].size for group in merged}, reverse=True)
    sections: list[Section] = []
    for group in merged:
        row = Row(
            rows[group[0]].page,
            [" ".join(rows[i].text for i in group)],
            rows[group[0]].size,
            rows[group[0]].bold,
            rows[group[0]].y,
        )
        number = re.match(r"^(\d+(?:\.\d+)*)[.)]?\s", row.text)
        level = number.group(1).count(".") + 1 if number else sizes.index(row.size) + 1
        sections.append(Section(title=row.text, level=level, page=row.page, end_page=row.page))
    _link(sections, rows[-1].page if rows else 1)
    return sections, {group[0] for group in merged}


def _outline_sections(toc: list[list[Any]], page_count: int) -> tuple[list[Section], set[int]]:
    sections = [
        Section(title=str(title).strip(), level=int(level), page=max(1, min(int(page), page_count)), end_page=1)
        for level, title, page, *_ in toc
        if str(title).strip()
    ]
    _link(sections, page_count)
    return sections, set()


def _link(sections: list[Section], last_page: int) -> None:
    """Parents by level; a section ends where the next one at its level or above starts."""
    stack: list[int] = []
    for index, section in enumerate(sections):
        while stack and sections[stack[-1]].level >= section.level:
            stack.pop()
        section.parent = stack[-1] if stack else None
        stack.append(index)
    for index, section in enumerate(sections):
        following = next((s for s in sections[index + 1 :] if s.level <= section.level), None)
        section.end_page = max(section.page, following.page if following else last_page)


def _fill(structure: Structure, rows: list[Row], heading_rows: set[int]) -> None:
    """Pairs and chunks, each under the section it is read in."""
    sections = structure.sections
    by_page_start = sorted(range(len(sections)), key=lambda i: (sections[i].page, i))
    heading_order = iter(sorted(heading_rows))
    next_heading = next(heading_order, None)
    section: int | None = None
    outline_iter = iter(by_page_start) if structure.has_outline else iter(())
    pending_outline = next(outline_iter, None)
    found = 0
    words_in_chunk: list[str] = []
    chunk_page = 1

    def flush() -> None:
        nonlocal words_in_chunk
        if words_in_chunk:
            structure.chunks.append(Chunk(page=chunk_page, text=" ".join(words_in_chunk), section=section))
        words_in_chunk = []

    previous_page = 0
    for index, row in enumerate(rows):
        if row.page != previous_page:
            flush()
            previous_page = row.page
            while pending_outline is not None and sections[pending_outline].page <= row.page:
                section = pending_outline
                pending_outline = next(outline_iter, None)
        if index == next_heading:
            flush()
            section = found
            found += 1
            next_heading = next(heading_order, None)
        if _FIGURE.match(row.text):
            structure.figures.append(Figure(row.page, row.text.strip(), section))
        else:
            structure.pairs += [Pair(label, value, row.page, section) for label, value in _pairs(row)]
        if not words_in_chunk:
            chunk_page = row.page
        words_in_chunk.append(row.text)
        if sum(len(t.split()) for t in words_in_chunk) >= _CHUNK_WORDS:
            flush()
    flush()


def _pairs(row: Row) -> list[tuple[str, str]]:
    if len(row.cells) == 2 and _label_like(row.cells[0]) and len(row.cells[1].split()) <= 16:
        return [(row.cells[0].rstrip(":").strip(), row.cells[1].strip())]
    found: list[tuple[str, str]] = []
    for cell in row.cells:
        for match in _COLON_PAIR.finditer(cell):
            label, value = match.group(1).strip(), match.group(2).strip().rstrip(".;").strip()
            if _label_like(label) and value and not re.fullmatch(r"_+", value):
                found.append((label, value))
    return found


def _label_like(text: str) -> bool:
    count = len(text.split())
    return 0 < count <= 8 and bool(re.search(r"[A-Za-z]", text)) and not text.rstrip(":").endswith((".", ","))
