"""Whether a program's answer answers the question asked: the checks a program passes before its value is given.

A program the model writes (or code composes) has run; its value may still answer another question: a column or
group the question does not name, a row it does not name, a condition looser than its words, a count of a thing
no table names, a share outside 0-100 %, a kind of value it does not ask for, a name no cell it read holds.
:func:`problem_with` says what is wrong, in words written for the model's one retry ("" when nothing is);
:func:`regrouped` is the same program over the twin columns of the group the question names, run in its place.
"""

from __future__ import annotations

import ast
import math
import re
from collections import Counter
from dataclasses import replace
from typing import Any

from docpilot.understanding.asked import SAID_BESIDE, asked_kind, count_unsaid, missing_kinds, untimed
from docpilot.understanding.cells import PERIOD_WORDS
from docpilot.understanding.entity_rules import believable_person
from docpilot.understanding.frames import Frame, ProgramResult, answer_column, named_in
from docpilot.understanding.frames.composing import WHO, years_spanned
from docpilot.understanding.frames.model import FILE_COLUMN, is_total
from docpilot.understanding.frames.running import MAX_CITATIONS, is_number
from docpilot.understanding.naming_checks import literals as _literals
from docpilot.understanding.naming_checks import other_period, row_passed_over
from docpilot.understanding.retrieve import EmbedFn
from docpilot.understanding.support import unsupported_numbers
from docpilot.understanding.textnorm import (
    alike,
    format_number,
    norm,
    numbers_in,
    parse_number,
    stem,
    stems,
    without_negated,
)

__all__ = [
    "ALONE",
    "CANNOT",
    "SYNONYM",
    "UNRELATED",
    "WHOLE",
    "comparisons",
    "named_figures",
    "labels",
    "is_number",
    "labelled",
    "one_figure",
    "word_pairs",
    "misread",
    "problem_with",
    "regrouped",
    "shown",
    "text_conditions",
]

UNRELATED = 0.15  # a question and a column name closer in meaning than this (MiniLM cosine) may name it

SYNONYM = 0.5  # a word of the question this close to a column name (MiniLM cosine) names it

# a table's only column of figures is read for any amount asked: the question must be this close to name it
# ("what is Grace Liu's pay" and "Annual salary" 0.24; "the performance bonus paid to Grace Liu" 0.15)
ALONE = 0.2

_PLAIN_FIGURES = frozenset(stem(w) for w in "column amount value total sum number figure price cost usd eur".split())

CANNOT = "NOT IN TABLES"

# a part of a whole: "of the total", "what percentage of 2023 revenue" (0-100 %, unlike a growth rate)
WHOLE = re.compile(
    r"\b(?:total|all|whole|overall|combined|share|proportion|fraction)\b|\b(?:percent(?:age)?|portion)\s+of\b", re.I
)


def problem_with(
    question: str,
    result: ProgramResult,
    frames: list[Frame],
    *,
    share: bool,
    counted: bool,
    embed: EmbedFn | None,
    written_by_model: bool,
) -> str:
    """What makes ``result`` no answer to ``question`` ("" when nothing does). ``share``: the question asks for a
    share of a whole; ``counted``: for a count; ``written_by_model``: a composed program reads only what the
    question names, so the checks of what it reads are for the model's programs."""
    if share and is_number(result.value) and not 0 <= float(result.value) <= 100:
        return (
            f"The question asks for a share of a whole, which lies between 0 and 100 percent, but the program "
            f"gave {format_number(float(result.value))}. Divide the part by the whole, then multiply by 100."
        )
    # (a number computed for "what percentage" is the percentage, and one for "how much more" the amount —
    # points, when the column holds percents: the kind is the number's, not its sign's)
    added = result.unit == "%" and bool(re.search(r"\.sum\(|\+", result.program))  # rates added up: no amount
    lacking = [
        m
        for m in missing_kinds(question, shown(result))
        if not (m in ("a percentage", "an amount") and is_number(result.value) and not (m == "an amount" and added))
        and not (m == "a count" and counted and labels(result.value))  # the rows named: counted below
    ]
    if lacking:
        return f"The question asks for {' and '.join(lacking)}, but the program's answer is {shown(result)!r}."
    other = _reads_other(question, result, frames) or _other_group(question, result, frames)
    other = other or _wrong_type(question, result)
    other = other or _not_whom(question, result, frames) or _not_counted(question, result, frames)
    other = other or _invented(question, result, frames) or _sums_totals(result, frames) or _tied(result, frames)
    other = other or _sums_echoes(result, frames)
    other = other or (_figure_unread(question, result, frames) if written_by_model else "")
    other = other or _percent_as_fraction(question, result, frames) or _mask_counted(result)
    if written_by_model:
        meant = without_negated(question)  # "(not the pawn or redemption columns)" names none to read
        other = other or _unnamed(question, result, frames, embed) or _unnamed_row(question, result, frames)
        other = other or _absent_value(result, frames) or _passed_over(meant, result, frames)
        other = other or _looser(question, result, frames) or _named_rows_unread(meant, result, frames)
        other = other or _files_unread(question, result, frames) or _named_values_unread(meant, result, frames)
        other = other or row_passed_over(meant, result, frames) or other_period(question, result, frames)
        other = other or (_uncounted(question, result, frames, embed) if counted else "")
    if other:
        return other
    missing = _not_cited(result, frames)
    if missing:
        listed = ", ".join(repr(m) for m in missing[:3])
        return (
            f"The answer names {listed}, which is not a cell the program read. Select the answer from the "
            'table\'s cells (e.g. t1.loc[..., "Name"]); do not write it into the program.'
        )
    return ""


def misread(result: ProgramResult, frames: list[Frame]) -> bool:
    """Whether a composed program's value is no answer: rows tied for first, a total row summed with its parts, or
    a text no cell it read holds."""
    return bool(
        _tied(result, frames)
        or _sums_totals(result, frames)
        or _sums_echoes(result, frames)
        or _not_cited(result, frames)
    )


def _reads_other(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """What the program reads in place of a row or a column the question names by all its words ("Corporate
    Bond's 1-year return" answered from the 3-year column); "" when it reads them, or names none of the kind."""
    said = _literals(result.program)
    for frame in frames:
        if frame.name not in result.frames:
            continue
        rows, columns = named_in(question, frame)
        for named, kind, among in ((columns, "column", frame.columns), (rows, "row", frame.row_labels())):
            read = [x for x in among if x in said]
            if named and read and not set(named) & set(read):
                return (
                    f"The question names the {kind} {' / '.join(repr(n) for n in named)} of {frame.name}, but the "
                    f"program reads {', '.join(repr(r) for r in read[:3])}. Read the {kind} the question names."
                )
    return ""


def _named_rows_unread(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """Rows the question names by all their words that the program selects by nothing it writes: "by how much do
    the net assets of the Quarry Technology Fund exceed those of the Cedar Technology Fund" computed over the rows
    of one file (q9 asked again, tuning: a confident wrong 706,123,300). A text the program compares that is part
    of a named row's label selects it; "" else."""
    said = [text.casefold() for text in _literals(result.program)]
    for frame in frames:
        if frame.name not in result.frames:
            continue
        rows, _ = named_in(question, frame)
        if rows and not any(text and text in row.casefold() for row in rows for text in said):
            return (
                f"The question names the row{'s' if len(rows) > 1 else ''} {', '.join(repr(r) for r in rows[:3])} of "
                f"{frame.name}, but the program reads none of them. Select them by {frame.label!r}."
            )
    return ""


def _named_values_unread(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A text cell the question names by all its words ("Scripps Health" of the Company column, for "total
    employees across all Scripps Health notices") that the program selects by nothing it writes: it reads every
    row instead (q18, tuning: the whole column's 53,515 for 69); "" when each named text is part of a condition."""
    asked = set(stems(question))
    said = [text.casefold() for text in _literals(result.program)]
    for frame in frames:
        if frame.name not in result.frames:
            continue
        for column in frame.columns:
            if column == frame.label or frame.kinds.get(column, "text") != "text":
                continue
            for value in dict.fromkeys(v for v in frame.data[column].tolist() if isinstance(v, str)):
                have = {w for w in stems(value) if len(w) > 1}
                if not have or not have <= asked or not any(len(w) > 3 and w.isalpha() for w in have):
                    continue
                key = value.casefold()
                if not any(text and (text in key or key in text) for text in said):
                    return (
                        f"The question names {value!r} of the column {column!r} in {frame.name}, but the program "
                        f"keeps rows without it. Select the rows where {column!r} is {value!r}."
                    )
    return ""


def _files_unread(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """Files the question names that a program choosing rows by their file leaves out: "comparing the Cedar Grove
    and Northgate trusts, which fund …" computed over the rows of ncen_01_cedar.pdf alone (q10 asked again, tuning:
    a confident wrong Cedar fund). A file is named by a word of its name no other file's name has ("northgate");
    "" when the program chooses no rows by file, or reads every file named."""
    said = _literals(result.program)
    asked = set(stems(question))
    for frame in frames:
        if frame.name not in result.frames or FILE_COLUMN not in frame.columns:
            continue
        files = [str(f) for f in dict.fromkeys(frame.data[FILE_COLUMN].tolist())]
        chosen = [f for f in files if f in said]
        if not chosen:
            continue
        words = {f: {w for w in stems(re.sub(r"[^A-Za-z]+", " ", f.rsplit(".", 1)[0])) if len(w) > 3} for f in files}
        named = [f for f in files if (words[f] - set().union(*(words[g] for g in files if g != f))) & asked]
        left = [f for f in named if f not in chosen]
        if left:
            return (
                f"The question names {', '.join(repr(f) for f in named)}, but the program reads the rows of "
                f"{', '.join(repr(f) for f in chosen)} only. Read the rows of every file the question names."
            )
    return ""


def _other_group(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """Columns of another group than the one the question names, where a frame's columns come in groups under a
    heading printed over them ("Finland Female … Finland 15-24", "EU-25 Female … EU-25 15-24"): "the rate for
    under-25s in Finland" answered from "EU-25 15-24" (q8, after its measurement). Judged only when the question
    names one group and no other; "" else."""
    said = _literals(result.program)
    asked = {w.lower() for w in re.findall(r"[\w][\w.-]*\w|\w", question)}
    for frame in frames:
        if frame.name not in result.frames:
            continue
        groups = _column_groups(frame.columns)
        named = [g for g in groups if g.lower() in asked]
        if len(named) != 1:
            continue
        read = [c for group, members in groups.items() if group != named[0] for c in members if c in said]
        if read:
            return (
                f"The question names {named[0]!r}, whose columns in {frame.name} are "
                f"{', '.join(repr(c) for c in groups[named[0]][:4])}, but the program reads "
                f"{', '.join(repr(c) for c in read[:3])}. Read {named[0]!r}'s columns."
            )
    return ""


def _passed_over(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A column of figures that names more of the question's words than each one the program reads: "how many
    stores were open at the end of Q2" answered from "Stores Opened" beside "Total Stores at End of Second
    Quarter" (q8, after its measurement). Words that name an operation ("total", "average") do not count; a
    column only as well named is not judged (which one is meant, the words do not tell); "" else."""
    found = _better_named(question, result, frames)
    if found is None:
        return ""
    frame, better, read = found
    return (
        f"The question names the column {better[0]!r} of {frame.name} better than the program's "
        f"{', '.join(repr(c) for c in read[:3])}. Read the column the question names."
    )


def _better_named(
    question: str, result: ProgramResult, frames: list[Frame]
) -> tuple[Frame, list[str], list[str]] | None:
    """(frame, the columns better named than any the program reads, those it reads) for :func:`_passed_over`."""
    said = _literals(result.program)
    asked = {w for w in _named_words(question) if len(w) > 2 and w not in _OPERATION_WORDS}
    for frame in frames:
        figures = frame.figure_columns()
        read = [c for c in figures if c in said]
        if frame.name not in result.frames or not read:
            continue
        named = {c: _words_named(c, asked) for c in figures}
        best = max(len(named[c]) for c in read)
        better = [c for c in figures if c not in said and len(named[c]) > best]
        if better:
            return frame, better, read
    return None


def regrouped(question: str, result: ProgramResult, frames: list[Frame]) -> str | None:
    """The program reading the group of columns the question names in place of the one it reads, where the two
    groups hold the same columns under another heading: "Three Months Ended June 30 Flexibles" and "… Total"
    read for "FY2023" become "Twelve Months Ended June 30 Flexibles" and "… Total". None when no such swap is
    whole (a column of the group it reads has no twin in the other)."""
    found = _better_named(question, result, frames)
    if found is None:
        return None
    frame, better, read = found
    for target in better:
        for source in read:
            a, b = source.split(), target.split()
            same = next((k for k in range(min(len(a), len(b)), 0, -1) if a[-k:] == b[-k:]), 0)
            if not same or same == len(a) or same == len(b):
                continue
            old, new = " ".join(a[:-same]) + " ", " ".join(b[:-same]) + " "
            swaps = {c: new + c[len(old) :] for c in read if c.startswith(old)}
            if not all(twin in frame.columns for twin in swaps.values()):
                continue
            program = result.program
            for column, twin in swaps.items():
                for quote in ('"', "'"):
                    program = program.replace(f"{quote}{column}{quote}", f"{quote}{twin}{quote}")
            return program if program != result.program else None
    return None


def labelled(question: str, result: ProgramResult, frames: list[Frame]) -> str | None:
    """The program's largest or smallest value made the row that holds it, when the question asks which one and
    the program gives the figure: ``t1.loc[rows, "Net assets"].max()`` becomes
    ``t1.loc[t1.loc[rows, "Net assets"].idxmax(), "Record"]`` (q10 asked again, tuning: "which single fund has the
    highest monthly average net assets" answered with the assets twice, the retry told to select the row's label).
    None when the question asks no name, or the program does not end in one frame's ``.max()`` or ``.min()``."""
    if asked_kind(question) != "name" or not is_number(result.value):
        return None
    tree, call = _last_expression(result.program)
    if tree is None or not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and not call.args):
        return None
    if call.func.attr not in ("max", "min") or call.keywords:
        return None
    series = call.func.value
    used = {n.id for n in ast.walk(series) if isinstance(n, ast.Name)}
    by_name = {f.name: f for f in frames}
    named = [by_name[n] for n in used if n in by_name]
    if len(named) != 1 or not named[0].label or not (used - {named[0].name}) <= _SAFE_NAMES:
        return None
    frame = named[0]
    row = ast.Call(func=ast.Attribute(value=series, attr=f"idx{call.func.attr}", ctx=ast.Load()), args=[], keywords=[])
    pick = ast.Subscript(
        value=ast.Attribute(value=ast.Name(id=frame.name, ctx=ast.Load()), attr="loc", ctx=ast.Load()),
        slice=ast.Tuple(elts=[row, ast.Constant(value=frame.label)], ctx=ast.Load()),
        ctx=ast.Load(),
    )
    tree.body[-1] = ast.Expr(value=pick)
    return ast.unparse(ast.fix_missing_locations(tree))


_SAFE_NAMES = frozenset({"len", "abs", "round", "sum", "min", "max"})


def _last_expression(program: str) -> tuple[ast.Module | None, ast.expr | None]:
    """The program parsed and the expression its last line computes; (None, None) when it does not parse."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return None, None
    last = tree.body[-1] if tree.body else None
    return tree, last.value if isinstance(last, ast.Expr) else None


def scalar_operands(program: str) -> str | None:
    """The program with each cell selection it computes with (``t1.loc[<rows>, "col"]`` beside an operator) taken
    as its one value (``.item()``, which fails on any other number of rows), or None when it has none: a division
    of two one-row selections aligns them by row and comes out empty (q15 asked again, tuning: a gross margin,
    "Gross profit" over "Revenue", empty twice)."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return None
    changed = False

    def one(node: ast.expr) -> ast.expr:
        nonlocal changed
        index = node.slice if isinstance(node, ast.Subscript) else None
        if not (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "loc"
            and isinstance(index, ast.Tuple)
            and len(index.elts) == 2
            and isinstance(index.elts[1], ast.Constant)
        ):
            return node
        changed = True
        return ast.Call(func=ast.Attribute(value=node, attr="item", ctx=ast.Load()), args=[], keywords=[])

    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            node.left, node.right = one(node.left), one(node.right)
    return ast.unparse(ast.fix_missing_locations(tree)) if changed else None


def extreme_value(question: str, result: ProgramResult) -> str | None:
    """The row a program picked at an extreme made the value it was picked by, when the question asks a number
    and the program gives the row's name: ``t1.loc[t1["Stores opened"].idxmax(), "Fiscal 2022"]`` becomes
    ``t1["Stores opened"].max()`` (q15 asked again, tuning: "the highest number of stores opened in any single
    quarter" answered "3rd Quarter", twice). The inverse of :func:`labelled`. None when the question asks no number,
    or the program does not end in one ``.loc[<series>.idxmax() | .idxmin(), <label>]``."""
    if asked_kind(question) not in ("count", "amount") or is_number(result.value):
        return None
    tree, pick = _last_expression(result.program)
    if tree is None or not isinstance(pick, ast.Subscript) or not isinstance(pick.value, ast.Attribute):
        return None
    if pick.value.attr != "loc":
        return None
    index = pick.slice
    row = index.elts[0] if isinstance(index, ast.Tuple) and len(index.elts) == 2 else None
    if not (isinstance(row, ast.Call) and isinstance(row.func, ast.Attribute) and not row.args and not row.keywords):
        return None
    if row.func.attr not in ("idxmax", "idxmin"):
        return None
    value = ast.Call(
        func=ast.Attribute(value=row.func.value, attr=row.func.attr[3:], ctx=ast.Load()), args=[], keywords=[]
    )
    tree.body[-1] = ast.Expr(value=value)
    return ast.unparse(ast.fix_missing_locations(tree))


def _words_named(column: str, asked: set[str]) -> set[str]:
    """The question's words (stems) that ``column`` has."""
    return {a for a in asked if any(alike(a, w) for w in _named_words(column))}


def _named_words(text: str) -> list[str]:
    """The stems of ``text`` with a quarter or half written short also written out ("Q2": second quarter), and a
    fiscal year said as the twelve months it is ("FY2023": the "Twelve Months Ended" column, not "Three Months")."""
    spelled = _SHORT_PERIOD.sub(
        lambda m: f"{m.group(0)} {_ORDINALS[int(m.group(2)) - 1]} {_PERIODS[m.group(1).lower()]}", text
    )
    return stems(_FISCAL_YEAR.sub(lambda m: f"{m.group(0)} twelve months year", spelled))


_SHORT_PERIOD = re.compile(r"\b([QqHh])([1-4])\b")
_FISCAL_YEAR = re.compile(r"\bFY\s?'?\d{2,4}\b|\b(?:fiscal|full)[\s-]year\b", re.I)
_ORDINALS = ("first", "second", "third", "fourth")
_PERIODS = {"q": "quarter", "h": "half"}
_OPERATION_WORDS = frozenset(
    stem(w)
    for w in "total totals sum average mean median overall combined difference change percent percentage share "
    "ratio count number highest lowest largest smallest most least more less greater fewer maximum minimum".split()
)


def _column_groups(columns: list[str]) -> dict[str, list[str]]:
    """The columns grouped by their first word when two or more groups of two or more columns share one: the
    heading printed over each group ("Finland", "EU-15"); empty else."""
    groups: dict[str, list[str]] = {}
    for column in columns:
        words = column.split()
        if len(words) > 1 and len(words[0]) > 1:
            groups.setdefault(words[0], []).append(column)
    groups = {g: members for g, members in groups.items() if len(members) > 1}
    return groups if len(groups) > 1 else {}


def one_figure(result: ProgramResult, kind: str | None) -> ProgramResult:
    """A figure asked for and computed as a column of one row (``t1.loc[t1["label"] == "2005", "Male"] - …``,
    {"2005": 3.8}): the figure itself; else the result as it is."""
    value = result.value
    if kind not in ("amount", "percent", "count") or not isinstance(value, dict) or len(value) != 1:
        return result
    (figure,) = value.values()
    if not is_number(figure):
        return result
    return replace(result, value=figure, text=format_number(float(figure)))


def _wrong_type(question: str, result: ProgramResult) -> str:
    """A text (a row's label) computed for a question that asks for a figure ("what was the most stores opened
    in a quarter?" answered "4th Quarter"), or a figure for one that asks which thing; "" when it fits."""
    kind = asked_kind(question)
    texts, numbers = bool(_texts(result.value)), bool(_numbers(result.value))
    if kind == "count" and labels(result.value):
        return ""  # the rows' names: counted for the answer
    if kind in ("amount", "count", "percent") and texts and not numbers:
        return f"The question asks for {'a count' if kind == 'count' else 'a figure'}, but the program gives a text."
    if kind == "name" and numbers and not texts:
        return "The question asks which one, but the program gives a figure: select the row's label."
    if kind == "percent" and numbers and result.unit and "%" not in result.unit and _MONEY.search(result.unit):
        return (
            f"The question asks for a percentage, but the program gives an amount ({result.unit}): divide the part "
            "by the whole and multiply by 100, or read a column of percents."
        )
    if untimed(question, shown(result)):
        return f"The question asks when, but the program's answer {shown(result)!r} is no date or time."
    return ""


_MONEY = re.compile(r"[$€£¥₹]|\b(?:USD|EUR|GBP|INR|Rs)\b|\(in \w+s\)")  # "(in millions)": an amount


def _invented(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A number the program computes with that neither the question nor the tables print (a "15 %" bonus rate the
    model assumed: "salary * 0.15"); small whole numbers (an average of two) and powers of ten (a scale) pass."""
    try:
        tree = ast.parse(result.program)
    except SyntaxError:
        return ""
    operands = [
        side.value
        for node in ast.walk(tree)
        if isinstance(node, ast.BinOp)
        for side in (node.left, node.right)
        if isinstance(side, ast.Constant) and isinstance(side.value, (int, float)) and not isinstance(side.value, bool)
    ]
    printed = " ".join([question] + [f"{f.caption} {f.heading}" for f in frames])
    printed += " " + " ".join(c.text for f in frames for row in f.cells for c in row if c)
    numbers = numbers_in(printed)
    known = set(numbers) | {n / 100 for n in numbers}
    for value in operands:
        whole = float(value).is_integer()
        if (whole and abs(value) <= 12) or (whole and value > 0 and math.log10(value).is_integer()):
            continue
        if not any(math.isclose(float(value), k, rel_tol=1e-9) for k in known):
            return (
                f"The program computes with {value}, which neither the question nor the tables give. Compute only "
                f"from the tables' values; if they do not hold what is asked, reply {CANNOT}."
            )
    return ""


def _sums_totals(result: ProgramResult, frames: list[Frame]) -> str:
    """A whole column added up although it holds total rows among its parts ("Total revenue" above the product
    categories): the sum counts them twice; "" otherwise."""
    for _, frame, _ in _column_calls(result.program, frames, {"sum"}):
        totals = [label for label in frame.row_labels() if is_total(label)]
        if totals:
            return (
                f"The column holds total rows ({', '.join(repr(t) for t in totals[:2])}): adding up the whole "
                f"column counts them twice. Read the total row itself, or add up only the rows of the parts."
            )
    return ""


def _sums_echoes(result: ProgramResult, frames: list[Frame]) -> str:
    """A whole column added up where rows the frame repeats under each item ("Charges" under "Amazon Glacier")
    print the item's figure again: the sum counts each item twice; "" otherwise."""
    for _, frame, subscript in _column_calls(result.program, frames, {"sum"}):
        column = _column_of(subscript)
        if frame.label is None or column is None or column[1] not in frame.columns:
            continue
        echoes = _echo_labels(frame, column[1])
        if echoes:
            return (
                f"The rows {', '.join(repr(e) for e in echoes[:2])} of {frame.name} repeat the figure of the item "
                f"above them: adding up the whole column counts each item twice. Add up only the items' rows."
            )
    return ""


def _echo_labels(frame: Frame, column: str) -> list[str]:
    """The labels ``frame`` repeats under its items whose figures are each the figure of the item above (a line
    item's "Charges"); none when a repeated row's figure differs from its item's or no repeated row holds one."""
    assert frame.label is not None
    labels = [str(v) for v in frame.data[frame.label].tolist()]
    values = frame.data[column].tolist()
    counts = Counter(labels)
    item: Any = None
    echoed: list[str] = []
    for label, value in zip(labels, values, strict=True):
        if counts[label] == 1:
            item = value
        elif is_number(value) and float(value) != 0:
            if item is None or not is_number(item) or float(item) != float(value):
                return []
            echoed.append(label)
    return list(dict.fromkeys(echoed))


# a figure the question names to pick its row by: "$618", "the 1,250.40 payment" (not a year, not a small count)
_NAMED_FIGURE = re.compile(
    r"(?<![\w.,])\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,])|(?<![\w.,])\$\d+(?:\.\d+)?(?![\w,])|(?<![\w.,])\d+\.\d+(?![\w,])"
)


def named_figures(question: str) -> list[float]:
    """The figures ``question`` names to pick a row by ("$618", "1,250.40"; not a year or a small count)."""
    return [v for m in _NAMED_FIGURE.finditer(question) if (v := parse_number(m.group(0))) is not None]


def _figure_unread(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A figure the question names ("what was the $618 charge for?") that one row of a frame it reads holds, and
    the program neither compares with nor reads: it answers from another row; "" otherwise."""
    try:
        constants = {
            float(n.value)
            for n in ast.walk(ast.parse(result.program))
            if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) and not isinstance(n.value, bool)
        }
    except SyntaxError:
        return ""
    read = {n for c in result.citations for n in numbers_in(str(c.get("quote", "")))} | set(_numbers(result.value))
    cited = {(c.get("page"), tuple(c["box"])) for c in result.citations if c.get("box")}
    for match in _NAMED_FIGURE.finditer(question):
        value = parse_number(match.group(0))
        if value is None or value in constants or value in read:
            continue
        for frame in frames:
            if frame.name not in result.frames:
                continue
            rows = {
                i
                for column in frame.figure_columns()
                for i, cell in enumerate(frame.data[column].tolist())
                if is_number(cell) and float(cell) == value
            }
            if len(rows) == 1 and not _row_cited(frame, next(iter(rows)), cited):
                label = frame.row_labels()[rows.pop()] if frame.label is not None else ""
                where = f"the row {label!r}" if label else "one row"
                return (
                    f"The question names {match.group(0)}, which {where} of {frame.name} holds, but the program "
                    "reads another row. Select the row that holds that figure."
                )
    return ""


def _row_cited(frame: Frame, row: int, cited: set[tuple[Any, tuple[Any, ...]]]) -> bool:
    """Whether a cell of ``row`` of ``frame`` is among the cited (page, box) pairs."""
    return any(c is not None and c.box and (c.page, tuple(c.box)) in cited for c in frame.cells[row])


def _column_calls(program: str, frames: list[Frame], methods: set[str]) -> list[tuple[str, Frame, ast.Subscript]]:
    """(method, frame, ``t1[...]``) for each call of one of ``methods`` on a subscript of a frame in ``program``
    (``t1["Sales"].sum()``); none when the program does not parse."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return []
    by_name = {frame.name: frame for frame in frames}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in methods:
            column = node.func.value
            if isinstance(column, ast.Subscript) and isinstance(column.value, ast.Name) and column.value.id in by_name:
                found.append((node.func.attr, by_name[column.value.id], column))
    return found


_COUNTS = re.compile(r"(?<!\bby )\bhow many\b(?!\s+(?:more|fewer|less|times)\b)|\bthe number of\b", re.I)
_COUNTING = re.compile(r"\blen\(|\.(?:count|nunique|shape)\b")


def _not_counted(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """ "How many categories had higher revenue …" answered with an amount: a program that counts nothing and reads
    only columns of money or percents gives no count of things; "" otherwise."""
    if not _COUNTS.search(question) or _COUNTING.search(result.program) or not _numbers(result.value):
        return ""
    said = _literals(result.program)
    read = [
        frame.kinds.get(column, "")
        for frame in frames
        if frame.name in result.frames
        for column in frame.figure_columns()
        if column in said
    ]
    if read and all(kind.startswith("money") or kind == "percent" for kind in read):
        return "The question asks how many (a count of rows), but the program gives an amount: count with len(...)."
    return ""


def _uncounted(question: str, result: ProgramResult, frames: list[Frame], embed: EmbedFn | None) -> str:
    """What "how many X" counts when no table the program reads names X, in a word of its caption, heading, columns
    or cells, or (with ``embed``) close in meaning to one of them ("how many municipalities does Finland have"
    answered 3 by counting a table's years; q9, after its measurement); "" else."""
    if not _COUNTING.search(result.program):  # a figure read or computed ("headcount grew by …"), not rows counted
        return ""
    used = [f for f in frames if f.name in result.frames]
    texts = [t for f in used for t in [f.caption, f.heading, *f.columns, *_texts_of(f)] if t]
    thing = count_unsaid(question, texts)
    if not thing or not texts or _rows_named(thing, used):
        return ""
    if embed is not None:  # "items" names a column "Units" (MiniLM cosine 0.42), "municipalities" a "label" not (0.23)
        vectors = embed([thing, *[t for f in used for t in [f.caption, f.heading, *f.columns] if t]])
        if float(max(vectors[1:] @ vectors[0])) >= SAID_BESIDE:
            return ""
    return (
        f"No table the program reads names {thing}, which the question counts. Reply {CANNOT} when no table holds them."
    )


# nouns that name a table's rows whatever the table ("how many expense entries are classified as …")
_ROW_NOUNS = frozenset("entries entry records record rows row items item lines line listings cases".split())
# nouns that name people: a table's rows when one of its columns lists people by name
_PEOPLE = frozenset("people persons individuals staff workers employees names".split())


def _rows_named(thing: str, used: list[Frame]) -> bool:
    """Whether what "how many X" counts is the rows of the tables the program read: X ends in a noun every table's
    rows are ("expense entries"), or in one for people and a column of one of them lists people by name ("how many
    people … earn more than $100k" over a column "Employee" of "Lena Fischer", "Omar Haddad"; q10 asked again,
    tuning: a right 2 sent back)."""
    head = thing.split()[-1]
    if head in _ROW_NOUNS:
        return True
    return head in _PEOPLE and any(_lists_people(f) for f in used)


def _lists_people(frame: Frame) -> bool:
    """Whether most cells of one of ``frame``'s text columns are people's names."""
    for column in frame.columns:
        cells = [str(v) for v in frame.data[column].tolist() if v] if frame.kinds.get(column) == "text" else []
        if len(cells) >= 2 and sum(believable_person(c) for c in cells) > len(cells) / 2:
            return True
    return False


def _texts_of(frame: Frame) -> list[str]:
    """The texts of a frame's text columns (row labels, names, categories)."""
    return [str(v) for c in frame.columns if frame.kinds.get(c) == "text" for v in frame.data[c].tolist() if v]


def _percent_as_fraction(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A column of percents (held as printed: 34 for "34%", most of its values 1 or more) compared with the
    question's percent as a fraction
    ("at least 30%" written ``>= 0.3``: every row passes; q9, after its measurement); "" else."""
    try:
        tree = ast.parse(result.program)
    except SyntaxError:
        return ""
    asked = set(numbers_in(question))
    by_name = {f.name: f for f in frames}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.comparators) != 1:
            continue
        column, value = _column_of(node.left), node.comparators[0]
        if column is None or not isinstance(value, ast.Constant):
            continue
        frame = by_name.get(column[0])
        if frame is None or column[1] not in frame.figure_columns():
            continue
        number, held = value.value, frame.data[column[1]].dropna().abs()
        if not isinstance(number, (int, float)) or not 0 < abs(number) < 1 or round(number * 100, 6) not in asked:
            continue
        if len(held) and (held >= 1).mean() > 0.5:  # figures printed as percents, not as fractions
            return (
                f"The column {column[1]!r} holds percents as printed (34 for 34%): compare it with "
                f"{format_number(number * 100)}, not {number}."
            )
    return ""


def _mask_counted(result: ProgramResult) -> str:
    """``.count()`` of a condition (``(t1["X"] > 5).count()``), which counts every row, true or false; "" else."""
    try:
        tree = ast.parse(result.program)
    except SyntaxError:
        return ""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "count"
            and isinstance(node.func.value, ast.Compare)
        ):
            return "count() of a condition counts every row, true or false: count the rows it keeps with len(t1[...])."
    return ""


def _not_whom(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A "who" question answered with texts of another column than the one that names people ("Product Manager"
    from "Position" where the table has an "Employee" column); "" when it fits or no one column names people."""
    texts = _texts(result.value)
    if not texts or not WHO.search(question):
        return ""
    for frame in frames:
        if frame.name not in result.frames:
            continue
        people = answer_column(question, frame)
        if people is None:  # several text columns, none named for people: not judged
            continue
        if not all(t in set(frame.data[people].astype(str)) for t in texts):
            return f'The question asks who: answer with the names in the "{people}" column.'
    return ""


def _unnamed(question: str, result: ProgramResult, frames: list[Frame], embed: EmbedFn | None = None) -> str:
    """A column of figures the program reads that the question does not name: no word shared ("how many
    employees" answered from "Total gross square feet") and, with the embedding model, no closeness of meaning
    either (below :data:`UNRELATED`: "output" does name "Production", 0.33); "" when every column it reads is
    named. Initials ("IGST") are not judged."""
    said = _literals(result.program)
    asked = {w for w in stems(question) if len(w) > 2}
    for frame in frames:
        if frame.name not in result.frames:
            continue
        figures = frame.figure_columns()
        whole = _TOTAL_WORDS if WHOLE.search(question) else frozenset()  # "what share of …": the Total column
        named = [c for c in figures if c in said and any(alike(w, a) for w in _measure_words(c) for a in asked)]
        for column in figures:
            # the heading it shares with a column the question names ("Three Months Ended June 30") is named too
            shared = set().union(*(_column_words(other) for other in named if other != column))
            words = _measure_words(column) - shared  # named by what it measures, not by its period alone
            if column not in said or not words or re.fullmatch(r"[A-Z0-9&/ .-]{2,6}", column):
                continue
            alone = len(figures) == 1  # the model reads it whatever is asked: judged only by a measure it names
            if alone and (embed is None or words <= _PLAIN_FIGURES):
                continue
            if any(alike(w, a) for w in words for a in asked) or words & whole:
                continue
            if embed is not None and _close_in_meaning(question, column, embed, ALONE if alone else UNRELATED):
                continue
            if _whole_count(words, asked, frame, figures):
                continue
            return (
                f"The program reads the column {column!r}, which the question does not name. Read the column "
                f"the question asks about, or reply {CANNOT} when no table holds it."
            )
    return ""


_TOTAL_WORDS = frozenset({"total", "grand", "overall"})  # a column of the whole: "Totals", "Grand total"


# the words of a column's period ("Fiscal 2024 … at End of Second Quarter"): a question saying "quarter" does not
# name a column of store counts by them
_PERIOD_WORDS = frozenset(
    stem(w)
    for w in f"{PERIOD_WORDS} annual quarters end beginning three six nine twelve first second third fourth half "
    "january february march april may june july august september october november december".split()
)


def _measure_words(column: str) -> set[str]:
    """A column's words without those of its period, unless it has no others ("2023", "Three Months Ended")."""
    words = _column_words(column)
    return (words - _PERIOD_WORDS) or words


def _column_words(column: str) -> set[str]:
    return {w for w in stems(column) if len(w) > 2 and not w.isdigit()}


def _whole_count(words: set[str], asked: set[str], frame: Frame, figures: list[str]) -> bool:
    """A "Total(s)" column is what a question over the table's own subject asks when it names no other column:
    "the most firearm background checks" of the table "NICS Firearm Background Checks" is its Totals column."""
    if not words <= _TOTAL_WORDS:
        return False
    subject = {w for w in stems(f"{frame.caption} {frame.name}") if len(w) > 2 and not w.isdigit()}
    if not any(alike(w, a) for w in subject for a in asked):
        return False
    others = [c for c in figures if not {w for w in stems(c) if len(w) > 2} <= _TOTAL_WORDS]
    return not any(alike(w, a) for c in others for w in stems(c) if len(w) > 2 for a in asked)


def _close_in_meaning(question: str, column: str, embed: EmbedFn, bar: float) -> bool:
    """Whether the question as a whole, or one of its words, is close in meaning to ``column`` (MiniLM cosine at
    least ``bar`` for the question, :data:`SYNONYM` for a word: "headcount" names "Employees")."""
    asked = [w for w in re.findall(r"[A-Za-z][\w-]{3,}", question) if w.lower() not in _QUESTION_WORDS]
    vectors = embed([column, question, *asked])
    closeness = vectors[1:] @ vectors[0]
    return float(closeness[0]) >= bar or any(float(c) >= SYNONYM for c in closeness[1:])


_QUESTION_WORDS = frozenset("what which when where does have were many much that this there their with from".split())


def _unnamed_row(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A row the program picks by its label that no word of the question names (the 'Modules' row's share
    multiplied into "by how many people did headcount grow"); "" when each label it reads shares a word with the
    question. Rows kept by a comparison or a column's order are not picked by label and are not judged."""
    picked = _picked(result.program)
    asked = {w for w in stems(question) if len(w) > 1} | years_spanned(question)
    for frame in frames:
        if frame.name not in result.frames:
            continue
        for label in frame.row_labels():
            words = {w for w in stems(label) if len(w) > 1}
            if (frame.name, label) not in picked or not words:
                continue
            if not any(alike(w, a) for w in words for a in asked):
                return (
                    f"The program reads the row {label!r} of {frame.name}, which the question does not name. Read "
                    f"only the rows the question asks about, or reply {CANNOT} when no table holds them."
                )
    return ""


def _tied(result: ProgramResult, frames: list[Frame]) -> str:
    """A row taken as the largest or smallest of a whole column (``t1["Price"].idxmax()``) when other rows print the
    same value: which one is meant the table does not say ("the most expensive pizza", three at 15$); "" else.
    Rows whose label the frame repeats do not tie with the first of them when its label is the frame's only once:
    a line item's "Charges" under "Amazon Glacier", the same 2.22, is a part of that row, not another answer."""
    for method, frame, subscript in _column_calls(result.program, frames, {"idxmax", "idxmin"}):
        column = _column_of(subscript)
        if column is None or column[1] not in frame.columns:
            continue
        values = frame.data[column[1]].dropna()
        best = values.max() if method == "idxmax" else values.min()
        tied = [i for i, v in values.items() if v == best]
        if len(tied) > 1 and not _parts_of_first(frame, tied):
            end = "largest" if method == "idxmax" else "smallest"
            return f"Several rows of {frame.name} tie at the {end} {column[1]!r}: no one row is it."
    return ""


def _parts_of_first(frame: Frame, tied: list[Any]) -> bool:
    """Whether, of the tied rows (index labels, in order), only the first has a label printed once in the frame's
    label column: the others are rows like "Charges" that the frame repeats under each of its items."""
    if frame.label is None:
        return False
    counts = Counter(str(v) for v in frame.data[frame.label].tolist())
    once = [i for i in tied if counts[str(frame.data.loc[i, frame.label])] == 1]
    return once == tied[:1]


def _picked(program: str) -> set[tuple[str, str]]:
    """(frame, text) for each text ``program`` compares a column of that frame with: the rows it picks by label."""
    return {(frame, text) for (frame, _), texts in comparisons(program) for text in texts}


def _absent_value(result: ProgramResult, frames: list[Frame]) -> str:
    """A text the program compares a column with (``t1["Type"] == "X"``, ``.isin(["X", "Y"])``) that no cell of
    that column holds: rows kept by a value the table does not print (a count of none, "0", from a value the
    model made up or a column it mistook); "" when each compared text is a cell of its column."""
    by_name = {frame.name: frame for frame in frames}
    for (name, column), texts in comparisons(result.program):
        frame = by_name.get(name)
        if frame is None or column not in frame.columns:
            continue
        held = {norm(str(v)) for v in frame.data[column].tolist() if v != ""}
        missing = [t for t in texts if norm(t) not in held]
        if "" in missing:
            return (
                f"A blank cell of {name} is a missing value, not '': test blank cells with .isna(), filled ones "
                f"with .notna(), and count filled cells with .count()."
            )
        if missing:
            return (
                f"No row of {name} holds {missing[0]!r} in the column {column!r}. Compare with a value the column "
                f"holds, or reply {CANNOT} when no table holds it."
            )
    return ""


def _looser(question: str, result: ProgramResult, frames: list[Frame]) -> str:
    """A text condition that keeps rows the question's words leave out: ``.str.contains("TRANSPORTATION")`` for
    "senator's transportation" where some kept cells say "SENATOR'S TRANSPORTATION" and others "STAFF
    TRANSPORTATION". Told by two words the question says together, one of them the condition's: when some kept
    cells say both together and others do not, the question names the narrower rows; "" otherwise."""
    pairs = set(word_pairs(stems(question)))
    by_name = {frame.name: frame for frame in frames}
    for (name, column), term, whole in text_conditions(result.program):
        frame = by_name.get(name)
        if frame is None or column not in frame.columns or frame.kinds.get(column) != "text":
            continue
        key = norm(term)
        texts = [v for v in frame.data[column] if isinstance(v, str)]
        kept = [v for v in texts if (key == norm(v) if whole else key in norm(v))]
        have = set(stems(term))
        for pair in pairs:
            if not have & set(pair) or set(pair) <= have:
                continue
            saying = [v for v in kept if pair in set(word_pairs(stems(v)))]
            if saying and len(saying) < len(kept):
                other = next(v for v in kept if v not in saying)
                said = _said_together(saying[0], pair)
                return (
                    f"The question says {said!r}, but the condition {term!r} on {column!r} also keeps "
                    f"{len(kept) - len(saying)} rows that do not say it (such as {other[:60]!r}). Match the words "
                    "the question uses."
                )
    return ""


def _said_together(text: str, pair: tuple[str, str]) -> str:
    """The words of ``text`` that ``pair`` (two stems) stands for, as the text writes them."""
    tokens = re.findall(r"[^\W_]+(?:['’][^\W_]+)?", text)
    for first, second in zip(tokens, tokens[1:], strict=False):
        if stems(first)[:1] == [pair[0]] and stems(second)[:1] == [pair[1]]:
            return f"{first} {second}"
    return " ".join(pair)


def text_conditions(program: str) -> list[tuple[tuple[str, str], str, bool]]:
    """((frame, column), text, whole) for each ``t1["C"].str.contains("x")`` (whole False) and ``t1["C"] == "x"``
    (whole True) in ``program``; none when it does not parse."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "contains"
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "str"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (column := _column_of(node.func.value.value))
        ):
            found.append((column, node.args[0].value, False))
        elif (pair := _compared_texts(node)) is not None and isinstance(node, ast.Compare):
            found += [(pair[0], text, True) for text in pair[1] if text]
    return found


def comparisons(program: str) -> list[tuple[tuple[str, str], list[str]]]:
    """((frame, column), texts) for each comparison of a column with texts in ``program``; none when it does not
    parse."""
    try:
        tree = ast.parse(program)
    except SyntaxError:
        return []
    return [pair for node in ast.walk(tree) if (pair := _compared_texts(node)) is not None]


def _compared_texts(node: ast.AST) -> tuple[tuple[str, str], list[str]] | None:
    """((frame, column), texts) for ``t1["C"] == "x"`` and ``t1["C"].isin(["x", "y"])``, and for ``t1["C"] != ""``
    (a test for blank cells); None for other nodes."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        column, value = _column_of(node.left), node.comparators[0]
        if column and isinstance(value, ast.Constant) and isinstance(value.value, str):
            if isinstance(node.ops[0], ast.Eq) or value.value == "":
                return column, [value.value]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "isin":
        column = _column_of(node.func.value)
        listed = node.args[0] if node.args else None
        if column and isinstance(listed, (ast.List, ast.Tuple)):
            texts = [e.value for e in listed.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            return (column, texts) if texts else None
    return None


def _column_of(node: ast.AST) -> tuple[str, str] | None:
    """(frame, column) for ``t1["C"]``; None otherwise."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.value.id, node.slice.value
    return None


def _not_cited(result: ProgramResult, frames: list[Frame]) -> list[str]:
    """Texts in the answer that are not cells the program read (the cited cells; beyond the citation limit, any
    cell of its frames), and numbers the program did not produce."""
    quotes = {norm(c["quote"]) for c in result.citations}
    if len(result.citations) >= MAX_CITATIONS:
        quotes |= {norm(c.text) for f in frames if f.name in result.frames for row in f.cells for c in row if c}
    texts = [t for t in _texts(result.value) if t.strip()]
    missing = [t for t in texts if norm(t) not in quotes]
    # a number inside a text the program picked ("2022", a year labelling a row) is that cell's, not computed
    return missing + unsupported_numbers(shown(result), [c["quote"] for c in result.citations], _numbers(result.value))


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _numbers(value: Any) -> list[float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


def word_pairs(words: list[str]) -> list[tuple[str, str]]:
    return list(zip(words, words[1:], strict=False))


def shown(result: ProgramResult) -> str:
    """The program's value as a person reads it: "$5,700 (in thousands)", "12.5%", "West", "North, East"."""
    value = result.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return _amount(float(value), result.unit)
    if isinstance(value, dict):
        if value and all(isinstance(v, str) for v in value.values()):
            return ", ".join(dict.fromkeys(value.values()))
        return "; ".join(f"{k}: {_amount(v, result.unit) if is_number(v) else v}" for k, v in value.items())
    if isinstance(value, list):
        if not value:
            return "none"
        return ", ".join(_item(v, result.unit) for v in value)
    return str(value)


def labels(value: Any) -> bool:
    """Whether ``value`` is a non-empty list of texts (the names of the rows a program selected)."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _item(value: Any, unit: str) -> str:
    if is_number(value):
        return _amount(float(value), unit)
    if isinstance(value, dict):
        texts = [str(v) for v in value.values() if isinstance(v, str) and v]
        return texts[0] if texts else str(value)
    return str(value)


def _amount(value: float, unit: str) -> str:
    """A number with its unit: "%" after it, a currency sign before it, "(in thousands)" last."""
    text = format_number(value)
    scale = re.search(r"\(in \w+\)", unit)
    money = unit[: scale.start()].strip() if scale else unit.strip()
    if money == "%":
        text = f"{text}%"
    elif money and len(money) == 1:
        text = f"-{money}{text[1:]}" if text.startswith("-") else f"{money}{text}"
    elif money:
        text = f"{text} {money}"
    return f"{text} {scale.group(0)}" if scale else text
