"""The operation a question asks, held against what the program that answers it computed.

A model's program can read the right cells and still compute another thing: "by what percent did revenue change"
answered with ``new / old * 100`` (136.5 for a 36.5 % growth) or ``new - old / old * 100`` (a slip of brackets),
"the highest number of stores opened in a quarter" answered by picking the first quarter's row by its name. Both
pass every check of what the program reads. These checks look at what it computed instead, from the outside:

- a percent change asked: the value must be a figure the program read (the table states the change), or
  (a − b) / b × 100 of two figures it read (either sign: "by what percent did it fall" may be said as a size), or
  a − b in points when the figures are percents;
- a rank asked (the most, the largest …): a program that keeps rows by a text the question does not say picked a
  row by its name instead of ranking the rows.

:func:`operation_problem` says what is wrong, in words for the model's one retry ("" when nothing is).
"""

from __future__ import annotations

import itertools
import math
import re

from docpilot.understanding.asked import asks_rank
from docpilot.understanding.frames import Frame, ProgramResult
from docpilot.understanding.frames.composing import years_spanned
from docpilot.understanding.frames.model import FILE_COLUMN
from docpilot.understanding.frames.running import is_number
from docpilot.understanding.frames.values import read_number
from docpilot.understanding.program_checks import alike, text_conditions
from docpilot.understanding.textnorm import STOPWORDS, format_number, stems

__all__ = ["asks_percent_change", "operation_problem"]

_PERCENT = re.compile(r"%|\bper\s?cent(?:age)?\b", re.I)
_CHANGE = re.compile(
    r"\b(?:chang\w*|grow\w*|grew|increas\w*|decreas\w*|rise|rises|risen|rose|fall|falls|fell|fallen|declin\w*|"
    r"drop\w*|jump\w*|climb\w*|shr[iau]nk\w*)\b",
    re.I,
)
_PLAIN_RATE = re.compile(r"\bgrowth rate\b|\byear[- ]over[- ]year\b|\byoy\b", re.I)
_SHARE = re.compile(r"\b(?:percent(?:age)?|share|proportion|portion)\s+of\b", re.I)  # "what percent of sales"
_POINTS = re.compile(r"\bpoints?\b|\bpp\b", re.I)
_RELATIVE = 0.005  # a printed figure's rounding: 36.53 against 36.5 computed from rounded cells
_ABSOLUTE = 0.05


def asks_percent_change(question: str) -> bool:
    """Whether ``question`` asks by what percent a figure changed ("By what percent did revenue change from 2022 to
    2023?", "What was the year-over-year growth of AWS net sales, in percent?"), not a share of a whole."""
    if _SHARE.search(question):
        return False
    return bool(_PERCENT.search(question) and (_CHANGE.search(question) or _PLAIN_RATE.search(question)))


def operation_problem(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """What the program computed in place of the operation ``question`` asks ("" when it computed that one)."""
    if asks_percent_change(question):
        problem = _not_a_change(result)
        if problem:
            return problem
    if asks_rank(question):
        return _picked_by_name(question, result)
    return ""


def _read_figures(result: ProgramResult) -> list[tuple[float, bool]]:
    """(value, is a percent) of each figure among the cells the program read (its citations), years left out."""
    figures = []
    for citation in result.citations:
        number = read_number(str(citation.get("quote", "")))
        if number is None or re.fullmatch(r"\s*(?:FY\s?)?(?:19|20)\d\d\s*", str(citation["quote"])):
            continue
        figures.append((number.value, number.percent))
    return figures


def _close(value: float, other: float) -> bool:
    return math.isclose(value, other, rel_tol=_RELATIVE, abs_tol=_ABSOLUTE)


def _not_a_change(result: ProgramResult) -> str:
    """The program's value is no percent change of the figures it read: not one of them, not (a − b) / b × 100 of
    two of them (either sign), not a − b of two percents; "" when it is one of those, or it is no number."""
    if not is_number(result.value):
        return ""
    value = float(result.value)
    figures = _read_figures(result)
    if any(_close(abs(value), abs(f)) for f, _ in figures):
        return ""  # the table states the change
    for (new, new_percent), (old, old_percent) in itertools.permutations(figures, 2):
        if old and _close(abs(value), abs((new - old) / old * 100)):
            return ""
        if new_percent and old_percent and _close(abs(value), abs(new - old)):
            return ""  # percentage points
    read = ", ".join(format_number(f) for f, _ in figures[:4]) or "no figure"
    return (
        f"The question asks for a percent change, but the program gave {format_number(value)} from the figures "
        f"{read}. A percent change is (new - old) / old * 100, with brackets around new - old: write "
        "(t1.loc[..., new].iloc[0] - t1.loc[..., old].iloc[0]) / t1.loc[..., old].iloc[0] * 100."
    )


def _picked_by_name(question: str, result: ProgramResult) -> str:
    """A rank asked, and the program keeps rows by a text with words the question does not say ("1st Quarter" for
    "the most stores opened in a single quarter", "AWS Data Transfer" for "the biggest line item"): it picked
    a row by its name instead of ranking the rows; "" otherwise."""
    asked = [w for w in stems(question) if len(w) > 1] + sorted(years_spanned(question))
    for (_, column), term, _whole in text_conditions(result.program):
        if column == FILE_COLUMN:
            continue
        unsaid = [w for w in stems(term) if len(w) > 1 and w not in STOPWORDS and not any(alike(w, a) for a in asked)]
        if unsaid:
            return (
                f"The question asks which ranks first or last, but the program keeps only the rows where {column!r} "
                f"says {term!r}, which the question does not name. Rank the rows instead (idxmax, idxmin, "
                "nlargest, sort_values) and read the label of the row that comes first."
            )
    return ""
