"""Fetching more of a document when the first evidence did not hold the answer (PDFTriage §3).

The model is shown a short, numbered outline — the sections, tables and figures whose titles share most
words with the question, each with its pages — and picks one to read (schema ``{"choice": n}``, 0 for
none). The part it picks is fetched by code: a section's passages, a table page's rows, a figure's page,
or a page by number. One fetch per question: the loop is bounded, and the model never reads a whole book.
"""

from __future__ import annotations

from dataclasses import dataclass

from docpilot.llm.tokens import model_tokens
from docpilot.understanding.document import Document, Unit
from docpilot.understanding.structure import Structure
from docpilot.understanding.textnorm import stems

__all__ = ["Target", "targets", "fetch_target", "fetch_pages", "fetch_section", "fetch_table", "fetch_figure"]

MAX_TARGETS = 12
MAX_TOKENS = 800  # of fetched text, in model tokens (as a compose's first evidence)


@dataclass(frozen=True)
class Target:
    kind: str  # "section" | "table" | "figure" | "page"
    file: str
    title: str
    page: int
    index: int = -1  # the section's index in its structure

    def line(self) -> str:
        return f"{self.kind} '{self.title}' ({self.file}, p. {self.page})"


def targets(documents: list[Document], question: str, seen_pages: set[tuple[str, int]]) -> list[Target]:
    """The parts of the documents worth offering, those sharing most words with the question first; parts
    whose pages the first evidence already showed come last."""
    asked = set(stems(question))
    offered: list[Target] = []
    for doc in documents:
        s = doc.structure
        offered += [Target("section", doc.name, sec.title, sec.page, i) for i, sec in enumerate(s.sections)]
        for page in s.table_pages:
            title = _page_heading(s.pages[page - 1]) if page <= len(s.pages) else ""
            offered.append(Target("table", doc.name, title or f"table on page {page}", page))
        offered += [Target("figure", doc.name, f.caption, f.page) for f in s.figures]
    scored = [(_overlap(asked, t.title), t.page, t) for t in offered]
    fresh = [(score, page, t) for score, page, t in scored if score > 0 and (t.file, t.page) not in seen_pages]
    fresh.sort(key=lambda item: (-item[0], item[1]))
    return [t for _, _, t in fresh[:MAX_TARGETS]]


def fetch_target(documents: list[Document], target: Target) -> list[Unit]:
    doc = next(d for d in documents if d.name == target.file)
    if target.kind == "section":
        return fetch_section(doc, target.index)
    if target.kind == "table":
        return fetch_table(doc, target.page)
    if target.kind == "figure":
        return fetch_figure(doc, target.page)
    return fetch_pages(doc, [target.page])


def fetch_pages(doc: Document, pages: list[int]) -> list[Unit]:
    """The text of ``pages``, as passages of at most :data:`MAX_TOKENS` model tokens in all."""
    units = [Unit(doc.name, p, doc.page_text(p), "chunk") for p in pages if 1 <= p <= len(doc.structure.pages)]
    return _within_budget(units)


def fetch_section(doc: Document, index: int) -> list[Unit]:
    """The passages of a section (its subsections' too), in reading order."""
    s = doc.structure
    inside = {index} | {i for i in range(len(s.sections)) if _descends(s, i, index)}
    units = [Unit(doc.name, c.page, c.text, "chunk") for c in s.chunks if c.section in inside]
    return _within_budget(
        units or [Unit(doc.name, s.sections[index].page, doc.page_text(s.sections[index].page), "chunk")]
    )


def fetch_table(doc: Document, page: int) -> list[Unit]:
    """The rows of the tables on ``page``, each with its header (the way retrieval shows a row)."""
    units = []
    for table in doc.tables([page]):
        head = " | ".join(table.header)
        units += [
            Unit(doc.name, page, f"{table.caption} {head}: {table.row_text(i)}".strip(), "row")
            for i in range(len(table.rows))
        ]
    return _within_budget(units) or fetch_pages(doc, [page])


def fetch_figure(doc: Document, page: int) -> list[Unit]:
    """A figure's page: its caption and the text around it."""
    return fetch_pages(doc, [page])


def _within_budget(units: list[Unit]) -> list[Unit]:
    kept: list[Unit] = []
    used = 0
    for unit in units:
        cost = model_tokens(unit.text)
        if used + cost > MAX_TOKENS:
            if not kept:  # one long page: its first part
                kept.append(Unit(unit.file, unit.page, _first_part(unit.text), unit.kind))
            break
        kept.append(unit)
        used += cost
    return kept


def _first_part(text: str) -> str:
    """The first words of ``text`` that fit :data:`MAX_TOKENS`."""
    words = text.split()
    while words and model_tokens(" ".join(words)) > MAX_TOKENS:
        words = words[: len(words) * 9 // 10]
    return " ".join(words)


def _overlap(asked: set[str], title: str) -> int:
    return len(asked & set(stems(title)))


def _page_heading(text: str) -> str:
    """The first lines of a page that read as a title ("CONSOLIDATED BALANCE SHEETS")."""
    lines = [line.strip() for line in text.splitlines() if len(line.strip()) > 3]
    return " / ".join(lines[:3])[:120]


def _descends(s: Structure, child: int, ancestor: int) -> bool:
    sections = s.sections
    parent = sections[child].parent
    while parent is not None:
        if parent == ancestor:
            return True
        parent = sections[parent].parent
    return False
