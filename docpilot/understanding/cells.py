"""A value asked for by row and period ("operating income in 2018", "by how much did total assets grow
between December 31, 2018 and 2019"): table cells found by code, the arithmetic done in Python.

A question names a row by its words and a period by a year or a date. Every table row whose label's
words are all in the question is a candidate; the column is the one whose header holds the period's
year (and, when several do, its month or its "three"/"six months"). Nothing here knows a kind of
document: the same reading serves statements, invoices and reports. When candidates disagree the
caller decides (the model picks among them, or the question goes on to retrieval): no guessing.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from docpilot.understanding.document import Document
from docpilot.understanding.tables import Table
from docpilot.understanding.textnorm import STOPWORDS, norm, parse_number, stems

__all__ = ["Cell", "CellQuestion", "read_cell_question", "find_cells", "PERIOD_WORDS"]

MAX_PAGES = 15  # table pages read for one question (each is read once, then cached)
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_DATE = re.compile(rf"\b({_MONTHS})\s+\d{{1,2}},?\s+((?:19|20)\d\d)\b", re.I)
_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
_FISCAL = re.compile(r"\b(?:fiscal(?:\s+year)?|fy)\s*$", re.I)  # just before a year
_EARLY_END = re.compile(rf"\b(?:{'|'.join(_MONTHS.split('|')[:6])})\b", re.I)  # a year that ends by June
_SPAN = re.compile(r"\b(three|six|nine|twelve|3|6|9|12)[\s-]+months?\b|\b(\d{2})[\s-]+weeks?\b", re.I)
_CHANGE = re.compile(
    r"\bby how much\b|\bhow much did .* (?:increase|decrease|grow|rise|fall|decline|change)\b|"
    r"\b(?:increase|decrease|change|growth|decline) (?:in|of) .* (?:from|between)\b",
    re.I,
)
_NOT_LABEL = STOPWORDS | {
    "much", "did", "was", "were", "value", "amount", "million", "millions", "billion", "thousand", "dollars",
    "usd", "fiscal", "year", "years", "ended", "ending", "month", "months", "week", "weeks", "quarter", "period",
    "three", "six", "nine", "twelve", "increase", "decrease", "grow", "growth", "change", "rise", "fall",
    "between", "compared", "reported", "report", "total", "company", "company's", "full",
}  # fmt: skip


_UNIT_WORDS = "usd eur gbp $ million millions thousand thousands billion billions percent dollars"
# the words around a period that say it is one ("fiscal 2022", "the 52 weeks ended", "as of"), read with it
PERIOD_WORDS = "fiscal year years ended ending month months week weeks quarter period as of at"


@cache
def _stem_set(words: frozenset[str] | str) -> frozenset[str]:
    """The stems of a fixed word list, worked out once (on first use, not at import)."""
    return frozenset(stems(words if isinstance(words, str) else " ".join(sorted(words))))


@dataclass(frozen=True)
class Period:
    year: str
    month: str = ""  # lower case, "" for a bare year
    span: str = ""  # "three" / "six" / … months, when the question says
    fiscal: bool = False  # "fiscal 2022", "FY2022": a fiscal year named by its year, not a column's date

    def describe(self) -> str:
        return f"{self.month.title()} {self.year}".strip() if self.month else self.year


@dataclass
class CellQuestion:
    op: str  # "lookup" (one period) or "difference" (the second period less the first)
    periods: list[Period]
    said: tuple[str, ...] = ()  # the question's words read as periods ("three months ended July 29, 2023")


@dataclass
class Cell:
    file: str
    page: int
    label: str  # the row's first cell
    context: str  # the table's caption or the sub-heading row above, for telling rows apart
    values: list[str]  # one per period, as the table writes them
    unit: str
    heading: str = ""  # the top of its page ("CONSOLIDATED BALANCE SHEETS"), which names the table too

    def numbers(self) -> list[float]:
        return [n for n in (parse_number(v) for v in self.values) if n is not None]


def read_cell_question(question: str) -> CellQuestion | None:
    """The periods a question asks about and whether it asks for a change between two."""
    span_match = _SPAN.search(question)
    span = _span_word(span_match) if span_match else ""
    dates = [Period(m.group(2), m.group(1).lower(), span) for m in _DATE.finditer(question)]
    plain = _DATE.sub(" ", question)
    years = [Period(m.group(1), "", span, bool(_FISCAL.search(plain[: m.start()]))) for m in _YEAR.finditer(plain)]
    # "fiscal 2022, the 52 weeks ended January 28, 2023": a date says which column; bare years only without one
    periods = _unique(dates or years)
    said = tuple(m.group(0) for pattern in (_DATE, _YEAR, _SPAN) for m in pattern.finditer(question))
    change = bool(_CHANGE.search(question))
    if change and len(periods) == 2:
        return CellQuestion("difference", sorted(periods, key=lambda p: (p.year, _month_number(p.month))), said)
    if not change and len(periods) == 1:
        return CellQuestion("lookup", periods, said)
    return None


def find_cells(documents: list[Document], question: str, asked: CellQuestion) -> list[Cell]:
    """Rows whose label the question names, read at the asked periods; the most specific labels only."""
    # "Best Buy's revenue": the owner named before "'s" is whose figure it is, not a row ("Best Buy" stores)
    owner = re.findall(r"((?:[A-Z][\w&.-]*\s)*[A-Z][\w&.-]*)['’]s\b", question)
    asked_words = set(stems(question)) - set(stems(" ".join(owner)))
    percent = "%" in question or "percent" in question.lower()
    want = asked_words - _stem_set(_NOT_LABEL)
    units = _stem_set(_UNIT_WORDS)
    found: list[tuple[float, Cell]] = []
    for doc in documents:
        page_words = [set(stems(text)) for text in doc.structure.pages]
        # "Amazon" in a question about Amazon's 10-K names no row; nor do the periods' numbers
        core = {w.rstrip("'") for w in want if not w.isdigit()} - _everywhere(page_words)
        for table in doc.tables(_pages(doc, page_words, want, asked)):
            heads, own = _headers(table)
            # the statement's title at the top of its page ("CONSOLIDATED BALANCE SHEETS") names the table too
            heading = " ".join(doc.structure.pages[table.page - 1].splitlines()[:6])
            title = set(stems(heading))
            columns = [_column(heads, own, period) for period in asked.periods]
            if any(c is None for c in columns):
                continue
            for index, row in enumerate(table.rows):
                label = row[0] if row else ""
                words = set(stems(label))  # every content word of the label: "Revenue % change" is not revenue
                if not words or not words <= asked_words or words <= units:
                    continue
                if "%" in label and not percent:  # "% of revenue" is not the revenue
                    continue
                values = [_value(row, group) for group in columns if group is not None]
                if any(not v or _YEAR.fullmatch(v.strip()) for v in values):  # a year is a heading, not a value
                    continue
                if not percent and any("%" in v for v in values):
                    continue
                context = _context(table, index)
                context_words = set(stems(context))
                if not core <= words | context_words | title:
                    continue  # the question says more than the row does ("stores in North America", "Flexibles")
                bonus = 0.5 * len((context_words - words) & want)  # "Flexibles" above a "Net sales" row
                cell = Cell(doc.path, table.page, label, context, values, _unit(table, columns), heading)
                found.append((len(words) + bonus, cell))
    if not found:
        return []
    best = max(score for score, _ in found)
    return [cell for score, cell in found if score == best]


def _everywhere(page_words: list[set[str]]) -> set[str]:
    """Words on at least two fifths of the pages: the document's own name and trade, not a row's."""
    counts = Counter(word for words in page_words for word in words)
    return {word for word, count in counts.items() if count >= max(2, 0.4 * len(page_words))}


def _pages(doc: Document, page_words: list[set[str]], want: set[str], asked: CellQuestion) -> list[int]:
    """The likely table pages that show every asked year, those with most of the question's words first."""
    s = doc.structure
    years = {p.year for p in asked.periods}
    scored = []
    for page in s.table_pages:
        text = s.pages[page - 1] if page <= len(s.pages) else ""
        if all(year in text for year in years):
            scored.append((-len(want & page_words[page - 1]), page))
    return sorted(page for _, page in sorted(scored)[:MAX_PAGES])


def _headers(table: Table) -> tuple[list[str], list[str]]:
    """Each column's heading, from the header row and the rows above the first number: (with a heading
    that spans several columns, "Three Months Ended" over two dates, carried right across the empty
    cells; the column's own cells only)."""
    width = max([len(table.header)] + [len(r) for r in table.rows])
    heads, own = [""] * width, [""] * width
    for row in [table.header] + table.rows:
        if any(parse_number(c) is not None for c in row[1:] if c and not _YEAR.fullmatch(c.strip())):
            break
        carried = ""
        for i in range(1, width):
            cell = row[i] if i < len(row) else ""
            cell = "" if re.fullmatch(r"column \d+", cell) else cell
            carried = cell or carried
            heads[i] = f"{heads[i]} {carried}".strip()
            own[i] = f"{own[i]} {cell}".strip()
    return heads, own


def _column(heads: list[str], own: list[str], period: Period) -> list[int] | None:
    """The column whose own heading names ``period``'s year (a carried heading may say its month or
    span), with the unlabelled columns right of it under the same heading (values set beside a "$"
    column); None unless exactly one does, or when the table's headings name spans but not the one asked."""
    if period.span:  # a table of 13-week figures does not hold the 52 weeks asked for, whatever its dates
        named = {_span_word(m) for head in heads for m in _SPAN.finditer(head)}
        if named and period.span not in named:
            return None
    matching = [i for i in range(1, len(heads)) if period.year in own[i]]
    if period.month:
        matching = [i for i in matching if period.month in norm(heads[i])] or matching
    if period.span:
        matching = [i for i in matching if period.span in norm(heads[i])] or matching
    if len(matching) != 1:
        return None
    if period.fiscal and _EARLY_END.search(heads[matching[0]]):
        return None  # "fiscal 2022" and a year ended January 28, 2023: which year is fiscal 2022 is the filer's
    first = matching[0]
    group = [first]
    for j in range(first + 1, len(heads)):
        if own[j] or heads[j] != heads[first]:
            break
        group.append(j)
    return group


def _value(row: list[str], group: list[int]) -> str:
    for i in group:
        if i < len(row) and parse_number(row[i]) is not None:
            return row[i]
    return ""


def _context(table: Table, index: int) -> str:
    for row in reversed(table.rows[:index]):
        if row and row[0] and not any(parse_number(c) is not None for c in row[1:] if c):
            return row[0].rstrip(":")
    return table.caption


def _unit(table: Table, columns: list[list[int] | None]) -> str:
    units = {table.units[c] for g in columns for c in g or [] if c < len(table.units) and table.units[c]}
    if len(units) == 1:
        return units.pop()
    text = norm(" ".join([table.caption, *table.header]))
    for word in ("billions", "millions", "thousands"):
        if f"in {word}" in text or f"$ in {word}" in text:
            return word
    return ""


def _span_word(match: re.Match[str]) -> str:
    if match.group(2):
        return f"{match.group(2)} weeks"
    word = match.group(1).lower()
    return {"3": "three", "6": "six", "9": "nine", "12": "twelve"}.get(word, word)


def _unique(periods: list[Period]) -> list[Period]:
    seen: list[Period] = []
    for period in periods:
        if period not in seen:
            seen.append(period)
    return seen


def _month_number(month: str) -> int:
    names = _MONTHS.split("|")
    return names.index(month) + 1 if month in names else 0
