"""Whether a model's program reads the rows and the periods the question names, not neighbours of them.

A program that runs and returns a figure may still read the wrong line of the table: "net interest expense"
answered from the "Net income" row because both say "net", or "at January 28, 2023" from the column of January
29, 2022 beside it. Each check compares what the program reads with what the question says, over every frame
the model was shown, and says what to read instead ("" when nothing is wrong):

- :func:`row_passed_over`: a row of any frame shown says two or more of the question's words that nothing the
  program writes says;
- :func:`other_period`: the program reads a row or a column dated with another date than the question says, or
  a column of another year where a column carries the year it says. A year said "fiscal" is not judged: a
  fiscal year is named by the year it ends in, or begins in, as the company chooses.
"""

from __future__ import annotations

import ast
import re

from docpilot.understanding.frames import Frame, ProgramResult
from docpilot.understanding.textnorm import STOPWORDS, alike, stems

__all__ = ["literals", "other_period", "row_passed_over"]

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_DATE = re.compile(rf"\b(?:{_MONTHS})\.?\s+\d{{1,2}},?\s+(?:19|20)\d\d\b", re.I)
_YEAR = re.compile(r"(?<![\d.])(?:19|20)\d\d(?![\d.])")
_FISCAL = re.compile(r"\bfiscal\b|\bFY\s?'?\d", re.I)
# a period said beside the one named ("versus the same quarter last year"): the column read may carry neither
_RELATIVE = re.compile(
    r"\b(?:prior|previous|preceding|last|earlier|before|ago|same (?:quarter|period|month|half))\b", re.I
)
# words that say what is done with rows, not which rows: they name no row
_DOING = frozenset(
    stems(
        "total totals sum average mean median overall combined difference change percent percentage share ratio "
        "count number highest lowest largest smallest most least more less greater fewer maximum minimum rise fall "
        "grow growth increase decrease compared versus amount value figure"
    )
)


def _words(text: str) -> set[str]:
    return {w for w in stems(text) if len(w) > 2 and w not in STOPWORDS and w not in _DOING and not w.isdigit()}


def row_passed_over(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A row of any frame shown that says two or more of the question's words which nothing the program writes
    says (no row, column or value it names, no caption of a frame it reads): "Interest expense, net" passed over
    for the "Net income" row when "net interest expense" is asked, "Subscription services" for "Percent of Net
    Sales"."""
    asked = _words(question)
    if not asked:
        return ""
    written = literals(result.program)
    covered: set[str] = set()
    for text in written:
        covered |= _words(text)
    for frame in frames:
        if frame.name in result.frames:
            covered |= _words(f"{frame.caption} {frame.heading}")
    best: tuple[int, str, str] | None = None
    for frame in frames:
        for label in dict.fromkeys(frame.row_labels()):
            if label in written:
                continue
            says = _words(label)
            left = {a for a in asked if any(alike(a, w, 5) for w in says) and not any(alike(a, c, 5) for c in covered)}
            if len(left) >= 2 and (best is None or len(left) > best[0]):
                best = (len(left), label, frame.name)
    if best is None:
        return ""
    _, label, name = best
    return (
        f"The question names the row {label!r} of {name}, which the program does not read. Read the row the "
        "question names."
    )


def other_period(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A row or column dated with a date the question does not say, where it says one ("shares outstanding as of
    August 30, 2023" answered from the row of "July 2, 2023 through July 29, 2023"); a column of a year the
    question does not say, read where another column carries the year it says, unless a year is said "fiscal"."""
    if _RELATIVE.search(question):
        return ""
    dates = {_norm_date(d) for d in _DATE.findall(question)}
    years = set() if _FISCAL.search(question) else set(_YEAR.findall(_DATE.sub(" ", question)))
    said = literals(result.program)
    other = sorted(t for t in said if _dates_of(t) and not _dates_of(t) & dates) if dates else []
    if other:
        return (
            f"The question names the date {' and '.join(sorted(dates))}, but the program reads {other[0]!r}. Read "
            "the row or the column of the date the question names."
        )
    for frame in frames:
        if frame.name not in result.frames or not years or not any(_years_of(c) & years for c in frame.columns):
            continue
        read = [c for c in frame.columns if c in said and _years_of(c) and not _years_of(c) & years]
        if read:
            wanted = [c for c in frame.columns if _years_of(c) & years]
            return (
                f"The question names the year {' and '.join(sorted(years))}, but the program reads the column "
                f"{read[0]!r} of {frame.name}. Read {wanted[0]!r}."
            )
    return ""


def _norm_date(text: str) -> str:
    month, day, year = re.match(r"([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})", text).groups()  # type: ignore[union-attr]
    return f"{month[:3].lower()} {int(day)} {year}"


def _dates_of(column: str) -> set[str]:
    return {_norm_date(d) for d in _DATE.findall(column)}


def _years_of(column: str) -> set[str]:
    return set(_YEAR.findall(column))


def literals(program: str) -> set[str]:
    """The strings written in ``program`` (column names and row labels it reads)."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return set()
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
