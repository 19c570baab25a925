"""Records: the things a set of documents describes, each with its label → value fields.

A section that holds label/value pairs is a record ("Item C.1 Fund: Lakeshore Value Fund" with its
custodian, adviser and amounts; a form with its fields; an invoice with its totals). Records whose
first label repeats form a group: the entities a question can count, filter, total or rank. Tables
give records too: one per body row, keyed by the first cell. Nothing here knows a kind of document.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from docpilot.understanding.document import Document
from docpilot.understanding.tables import Table
from docpilot.understanding.textnorm import norm, parse_number, stems

__all__ = ["Field", "Record", "records_of", "match_label", "label_score", "find_named"]

_UNIT_WORDS = {"usd", "eur", "gbp", "million", "thousand", "billion", "percent"}


@dataclass
class Field:
    label: str
    value: str
    page: int
    quote: str  # text of the page that shows the value

    @property
    def number(self) -> float | None:
        return parse_number(self.value)


@dataclass
class Record:
    file: str
    title: str  # the section heading ("Item C.1 Fund: Lakeshore Value Fund") or the row's first cell
    name: str  # what it is called ("Lakeshore Value Fund")
    page: int
    fields: dict[str, Field] = field(default_factory=dict)
    group: str = ""  # records of one group share it (their first label, or the table's caption)
    noun: str = ""  # what a table's rows are, from the heading of its first column ("Fund", "Month")
    heading: str = ""  # the title of the section a table stands in ("3. Fees and Payment")

    def get(self, label: str) -> Field | None:
        return self.fields.get(label)


def records_of(documents: list[Document], with_tables: bool = True) -> list[Record]:
    """Every record of ``documents``, in reading order."""
    records: list[Record] = []
    for doc in documents:
        s = doc.structure
        by_section: dict[int | None, Record] = {}
        for pair in s.pairs:
            record = by_section.get(pair.section)
            if record is None:
                title = s.sections[pair.section].title if pair.section is not None else s.title
                record = Record(doc.name, title, _name(title), pair.page)
                by_section[pair.section] = record
                records.append(record)
            if pair.label not in record.fields:
                record.fields[pair.label] = Field(pair.label, pair.value, pair.page, f"{pair.label}: {pair.value}")
        if with_tables:
            for table in doc.tables():
                records += _table_records(doc.name, table, _heading(doc, table))
    groups = Counter(next(iter(r.fields), "") for r in records if r.fields)
    for record in records:
        first = next(iter(record.fields), "")
        if not record.group.startswith("table:"):
            record.group = first if groups[first] >= 2 else ""
    return [r for r in records if r.fields]


def _name(title: str) -> str:
    match = re.match(r"^[^:]{1,40}:\s*(.+)$", title)
    return match.group(1).strip() if match else title.strip()


def _heading(doc: Document, table: Table) -> str:
    """The title of the last section that starts before ``table``: what the table is about when its caption
    does not say ("Milestone | Due date | Amount" under "3. Fees and Payment")."""
    text = doc.page_text(table.page)
    start = text.find(table.header[0]) if table.header and table.header[0] else -1
    title = ""
    for section in doc.structure.sections:
        if section.page < table.page or (section.page == table.page and 0 <= text.find(section.title) < start):
            title = section.title
    return title


def _table_records(file: str, table: Table, heading: str = "") -> list[Record]:
    out: list[Record] = []
    group = table.caption or " | ".join(table.header)
    for i, row in enumerate(table.rows):
        if not row or not row[0]:
            continue
        noun = table.header[0] if table.header else ""
        record = Record(file, row[0], row[0], table.page, group="table:" + group, noun=noun, heading=heading)
        for col, header in enumerate(table.header[1:], start=1):
            if col < len(row) and re.search(r"\w", row[col]):  # a "$" set apart from its amount is no value
                record.fields[header] = Field(header, row[col], table.page, table.row_text(i))
        out.append(record)
    return out


def label_score(phrase: str, label: str) -> float:
    """How well a question's phrase names a label: the share of the phrase's words the label has,
    with a small bonus for covering the label's own words (units like "(USD)" are not words)."""
    want = set(stems(phrase)) - _UNIT_WORDS
    have = set(stems(label)) - _UNIT_WORDS
    if not want or not have:
        return 0.0
    common = want & have
    return len(common) / len(want) + 0.25 * len(common) / len(have)


def match_label(phrase: str, labels: list[str], minimum: float = 0.5) -> str | None:
    """The label ``phrase`` names best, if one does well enough (the shorter of two that score the same); None
    when two of the same length score the same."""
    scored = sorted(((label_score(phrase, lab), -len(lab), lab) for lab in set(labels)), reverse=True)
    if scored and scored[0][0] >= minimum and not (len(scored) > 1 and scored[0][:2] == scored[1][:2]):
        return scored[0][2]
    return None


def find_named(question: str, records: list[Record]) -> list[Record]:
    """Records the question names ("the Quarry Technology Fund"): all of the name's words appear in the
    question, and no other record's name matches more of them."""
    q = norm(question)
    best: list[Record] = []
    best_len = 0
    for record in records:
        name = norm(record.name)
        if len(name) < 3 or not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", q):
            continue
        if len(name) > best_len:
            best, best_len = [record], len(name)
        elif len(name) == best_len:
            best.append(record)
    return best
