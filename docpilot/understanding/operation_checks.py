"""The operation a question asks, held against what the program that answers it computed.

A model's program can read the right cells and still compute another thing: "by what percent did revenue change"
answered with ``new / old * 100`` (136.5 for a 36.5 % growth) or ``new - old / old * 100`` (a slip of brackets),
"the highest number of stores opened in a quarter" answered by picking the first quarter's row by its name. Both
pass every check of what the program reads. These checks look at what it computed instead, from the outside:

- a percent change asked: the value must be a figure the program read (the table states the change), or
  (a − b) / b × 100 of two figures it read (either sign: "by what percent did it fall" may be said as a size), or
  a − b in points when the figures are percents;
- a difference in percentage points asked: no division (the points are later − earlier);
- a rank asked (the most, the largest …): a program that keeps rows by a text the question does not say picked a
  row by its name instead of ranking the rows;
- any question: a sum of figures one of which is the total of the others counts the total twice, a rate asked
  by its noun ("the gross margin", "the current ratio") is not an amount in money or "in millions" as read, and a
  figure divided by itself (the same cells above and below the line) is no share.

:func:`operation_problem` says what is wrong, in words for the model's one retry ("" when nothing is);
:func:`as_percent_change` is the percent change of the two figures a program read, when their years tell which is
the earlier (run in its place, and checked, before the retry).
"""

from __future__ import annotations

import ast
import itertools
import math
import re
from collections import Counter

from docpilot.understanding.asked import asks_rank
from docpilot.understanding.frames import Frame, ProgramResult
from docpilot.understanding.frames.composing import years_spanned
from docpilot.understanding.frames.model import FILE_COLUMN
from docpilot.understanding.frames.running import is_number
from docpilot.understanding.frames.values import read_number
from docpilot.understanding.program_checks import comparisons, text_conditions
from docpilot.understanding.textnorm import STOPWORDS, alike, format_number, stems

__all__ = ["as_percent_change", "asks_percent_change", "operation_problem"]

_PERCENT = re.compile(r"%|\bper\s?cent(?:age)?\b", re.I)
_CHANGE = re.compile(
    r"\b(?:chang\w*|grow\w*|grew|increas\w*|decreas\w*|rise|rises|risen|rose|fall|falls|fell|fallen|declin\w*|"
    r"drop\w*|jump\w*|climb\w*|shr[iau]nk\w*)\b",
    re.I,
)
_POINTS = re.compile(r"\bpercentage[- ]points?\b|\b(?:how many|by)\s+(?:\w+\s+)?points\b|\bpp\b", re.I)
_PLAIN_RATE = re.compile(r"\bgrowth rate\b|\byear[- ]over[- ]year\b|\byoy\b", re.I)
_SHARE = re.compile(r"\b(?:percent(?:age)?|share|proportion|portion)\s+of\b", re.I)  # "what percent of sales"
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
    points = bool(_POINTS.search(question))  # "by how many percentage points did it drop": a difference
    if points and "/" in result.program:
        return (
            "The question asks for a difference in percentage points: subtract the two percents (later - earlier); "
            "do not divide them."
        )
    if asks_percent_change(question) and not points:
        problem = _not_a_change(result)
        if problem:
            return problem
    if asks_rank(question) and (problem := _picked_by_name(question, result)):
        return problem
    if _ASKS_TOTAL.search(question) and (problem := _picked_by_name(question, result, "a total over the rows")):
        return problem
    problem = _total_with_parts(result) or _amount_for_rate(question, result) or _with_itself(result)
    return problem or _named_twice(result) or _ends_of_span(question, result) or _percent_by_amount(result, frames)


def _with_itself(result: ProgramResult) -> str:
    """A division or a subtraction whose two sides read the same cells (``x.iloc[0] / x.sum()`` over the one row a
    text keeps; ``a.sum() - a.sum()`` over the same two payees): 100% or 0 whatever the table says; "" otherwise."""
    try:
        tree = ast.parse(result.program)
    except SyntaxError:
        return ""
    for node in ast.walk(tree):
        if not isinstance(node, ast.BinOp) or not isinstance(node.op, (ast.Div, ast.Sub)):
            continue
        if ast.dump(_selection(node.left)) != ast.dump(_selection(node.right)):
            continue
        if isinstance(node.op, ast.Div):
            return (
                "The program divides a figure by itself (the same rows and column above and below the line). A "
                "share divides the part by the whole: the whole is another row (a total) or the sum of all rows."
            )
        return (
            "The program subtracts a figure from itself (the same rows and column on both sides of the minus). A "
            "difference reads one row on each side: t1.loc[..., first].iloc[0] - t1.loc[..., second].iloc[0]."
        )
    return ""


def _percent_by_amount(result: ProgramResult, frames: list[Frame]) -> str:
    """A division of percents by an amount of money, or of money by percents ("the cost items' shares of revenue,
    added up, over 2023 revenue": 77 / 5,200): the kinds do not divide; "" otherwise."""
    try:
        tree = ast.parse(result.program)
    except SyntaxError:
        return ""
    kinds = {column: kind for frame in frames for column, kind in frame.kinds.items()}
    for node in ast.walk(tree):
        if not isinstance(node, ast.BinOp) or not isinstance(node.op, ast.Div):
            continue
        above, below = _kinds_read(node.left, kinds), _kinds_read(node.right, kinds)
        percents = {"percent"}
        if (
            above
            and below
            and (
                (above <= percents and all(k.startswith("money") for k in below))
                or (below <= percents and all(k.startswith("money") for k in above))
            )
        ):
            return (
                "The program divides percents by an amount of money (or money by percents). A column of percents "
                "already gives each row's share: add the shares up, or divide amounts by amounts."
            )
    return ""


def _kinds_read(node: ast.AST, kinds: dict[str, str]) -> set[str]:
    """The kinds of the columns a part of a program names (by their names as string constants)."""
    return {
        kinds[n.value]
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and kinds.get(n.value, "text") != "text"
    }


def _named_twice(result: ProgramResult) -> str:
    """A list of rows to keep that names one row twice (``.isin(["August 2015", "August 2015"])``): the program
    meant another row there, and which one it does not say; "" otherwise."""
    for (_, column), texts in comparisons(result.program):
        twice = [text for text, n in Counter(texts).items() if n > 1]
        if twice:
            return (
                f"The program names {twice[0]!r} of {column!r} twice in one list of rows. Name each row the "
                "question asks about once, as the table writes it."
            )
    return ""


# "between 2019 and 2023", "from Q1 to Q4": a span named by its two ends
_SPAN = r"\b(?:between|from)\s+(?:the\s+)?{first}\s*(?:and|to|through|thru|until|-|\u2013)\s*(?:the\s+)?{last}(?!\w)"


def _ends_of_span(question: str, result: ProgramResult) -> str:
    """The two ends of a span the question names ("how many did they add between 2019 and 2023") added up: the
    change over the span is the later figure less the earlier, its total adds every row from the one to the other,
    and the two ends alone are neither; "" otherwise."""
    if not re.search(r"\.sum\(|\+", result.program):
        return ""
    for (_, column), texts in comparisons(result.program):
        if len(set(texts)) != 2:
            continue
        for first, last in itertools.permutations(dict.fromkeys(texts), 2):
            span = _SPAN.format(first=re.escape(first), last=re.escape(last))
            if re.search(span, question, re.I):
                return (
                    f"The question names a span from {first!r} to {last!r}, but the program adds up those two rows "
                    f"alone. A change over the span is the {last!r} figure minus the {first!r} figure; a total "
                    f"over it adds every row of {column!r} from the one to the other."
                )
    return ""


def _selection(node: ast.AST) -> ast.AST:
    """``node`` without what reduces it to one figure (``.iloc[0]``, ``.sum()``, ``.max()`` …): the cells it reads."""
    while True:
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "iloc":
            node = node.value.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
            node = node.func.value
        else:
            return node


# "Summing the quarterly store-opening figures …", "in total", "altogether": a total over rows the question names
_ASKS_TOTAL = re.compile(r"\b(?:sum(?:ming|med|s)?|total|in all|altogether|combined|add(?:ing|ed)? up)\b", re.I)


def _total_with_parts(result: ProgramResult) -> str:
    """A sum of three or more figures one of which is the sum of the others ("Plan Total" + "Non-Plan Total" +
    "Total Plan & Non-Plan" for "the combined Plan and Non-Plan total": twice the total); "" otherwise."""
    if not is_number(result.value) or result.unit == "%":
        return ""
    figures = [f for f, _ in _read_figures(result)]
    if len(figures) < 3 or not _close(float(result.value), sum(figures)):
        return ""
    for i, whole in enumerate(figures):
        parts = figures[:i] + figures[i + 1 :]
        if whole and _close(whole, sum(parts)):
            return (
                f"The program adds up {format_number(whole)}, which is already the total of the other figures it "
                f"adds ({', '.join(format_number(p) for p in parts[:4])}). Read the total alone, or add up only "
                "its parts."
            )
    return ""


_RATE = re.compile(r"\b(?:margin|rate|ratio|yield)\b", re.I)
_AS_AMOUNT = re.compile(r"[$€£]|\b(?:amount|dollars?|euros?|thousands?|millions?|billions?|how much)\b", re.I)
_SCALED = re.compile(r"[$€£¥₹]|\(in \w+s\)")


def _amount_for_rate(question: str, result: ProgramResult) -> str:
    """A rate asked by its noun ("Amcor's gross margin", "the current ratio") answered with an amount read as it is
    (a money or "in millions" unit: the gross profit); "" when the question asks for an amount in its words ("the
    gross margin in $ million")."""
    rate = _RATE.search(question)
    value = result.value
    if isinstance(value, dict) and len(value) == 1:  # one row's figure, with its label ("Gross profit: 168")
        value = next(iter(value.values()))
    if rate is None or _AS_AMOUNT.search(question) or not is_number(value) or not _SCALED.search(result.unit):
        return ""
    return (
        f"The question asks for a {rate.group(0).lower()}, a rate, but the program gives an "
        f"amount ({result.unit}). Divide the amount by the one it is a rate of (gross profit / net sales * 100), "
        "or read a row or column of percents."
    )


def _read_figures(result: ProgramResult) -> list[tuple[float, bool]]:
    """(value, is a percent) of each figure among the cells the program read (its citations), years left out."""
    figures = []
    for citation in result.citations:
        quote = str(citation.get("quote", ""))
        number = read_number(quote)
        if number is None or re.fullmatch(r"\s*(?:FY\s?)?(?:19|20)\d\d\s*", quote):
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


def _picked_by_name(question: str, result: ProgramResult, asked_for: str = "") -> str:
    """A rank (or ``asked_for``, a total) asked, and the program keeps rows by a text with words the question does
    not say ("1st Quarter" for "the most stores opened in a single quarter" or for "summing the quarterly
    figures", "AWS Data Transfer" for "the biggest line item"): it picked a row by its name instead of ranking or
    adding up the rows; "" otherwise."""
    asked = [w for w in stems(question) if len(w) > 1] + sorted(years_spanned(question))
    for (_, column), term, _whole in text_conditions(result.program):
        if column == FILE_COLUMN:
            continue
        # a row's number ("14. Department of Telecommunications") is its place in the table, not a word of it
        unsaid = [
            w
            for w in stems(term)
            if len(w) > 1 and w not in STOPWORDS and not w.isdigit() and not any(alike(w, a) for a in asked)
        ]
        if unsaid and asked_for:
            return (
                f"The question asks for {asked_for}, but the program keeps only the rows where {column!r} says "
                f"{term!r}, which the question does not name. Add up the rows the question names (.sum())."
            )
        if unsaid:
            return (
                f"The question asks which ranks first or last, but the program keeps only the rows where {column!r} "
                f"says {term!r}, which the question does not name. Rank the rows instead (idxmax, idxmin, "
                "nlargest, sort_values) and read the label of the row that comes first."
            )
    return ""


_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def as_percent_change(question: str, result: ProgramResult) -> str | None:
    """The percent change of the two figures ``result``'s program reads, as a program: ``(new - old) / old * 100``,
    the later year's figure the new one ("t1.loc[…, "2019"] / t1.loc[…, "2018"] * 100" for "the growth of AWS
    net sales in 2019"); None when the question asks no percent change, or the program does not read exactly two
    figures each of one year, different years."""
    if not asks_percent_change(question):
        return None
    try:
        tree = ast.parse(result.program, mode="eval")
    except SyntaxError:
        return None
    leaves: dict[str, int] = {}
    for leaf in _leaves(tree.body):
        if isinstance(leaf, ast.Constant):
            continue
        text = ast.unparse(leaf)
        years = {int(y) for n in ast.walk(leaf) if isinstance(n, ast.Constant) for y in _YEAR.findall(str(n.value))}
        if len(years) != 1:
            return None
        leaves[text] = years.pop()
    if len(leaves) != 2 or len(set(leaves.values())) != 2:
        return None
    old, new = sorted(leaves, key=leaves.__getitem__)
    return f"({new} - {old}) / {old} * 100"


def _leaves(node: ast.expr) -> list[ast.expr]:
    """The operands of an arithmetic expression (what its +, -, *, / and signs join)."""
    if isinstance(node, ast.BinOp):
        return _leaves(node.left) + _leaves(node.right)
    if isinstance(node, ast.UnaryOp):
        return _leaves(node.operand)
    return [node]
