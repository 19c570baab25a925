"""The program job's output as a llama.cpp grammar (GBNF) made from the frames it runs over.

A model decoding under this grammar can only write programs of the shapes the examples teach, over the frames
it was shown, and every name it writes is one the data holds: a frame's own columns (``t2["2023 $ million"]``
only for ``t2``), and for a comparison with a text column, one of that column's values (``t1["label"] ==
"Net sales"``). So the retry after "no row matched" or "is not a column" picks among what is there instead of
writing the same name again. Numbers, arithmetic between values, the allowed reductions, ``len`` of a
selection, ``idxmax``/``idxmin``, ``nlargest`` and ``sort_values`` are in it; what the checker refuses is not.
A text column with more than :data:`MAX_VALUES` values, or past :data:`MAX_LISTED` in all, takes any quoted text
(the checks still read it).
"""

from __future__ import annotations

import json
import re

from docpilot.understanding.frames.model import Frame

__all__ = ["program_grammar"]

MAX_VALUES = 300  # values of one text column the grammar lists; a longer column takes any text
MAX_LISTED = 900  # values listed over all frames (a large grammar slows every token's sampling); past it, any text
MAX_ASSIGNMENTS = 3  # "part = …" lines before the program's last line

_COMMON = r"""
root ::= "NOT IN TABLES" | (assign "\n"){0,3} expr
assign ::= var " = " expr
var ::= [a-z] [a-z_]{0,11}
expr ::= term (" " op " " term)*
op ::= "+" | "-" | "*" | "/"
term ::= value | number | var | "(" expr ")" | "abs(" expr ")" | "round(" expr ", " [0-9] ")" | "len(" rows ")"
number ::= "-"? [0-9]+ ("." [0-9]+)?
cmp ::= "==" | "!=" | ">" | ">=" | "<" | "<="
any-text ::= "\"" [^"\\\n]+ "\""
reduce ::= ".sum()" | ".mean()" | ".median()" | ".max()" | ".min()" | ".count()" | ".nunique()"
listed ::= ".tolist()" | ".unique().tolist()"
n ::= [1-9] [0-9]?
"""


def _literal(text: str) -> str:
    """A GBNF literal that matches ``text`` as a Python string literal in double quotes."""
    return json.dumps(json.dumps(text, ensure_ascii=False), ensure_ascii=False)


def _choice(texts: list[str]) -> str:
    return " | ".join(_literal(t) for t in dict.fromkeys(texts)) if texts else "any-text"


def _frame_rules(frame: Frame, room: list[int]) -> tuple[list[str], str, str]:
    """A frame's rules, and the symbols of its values and of its row selections; ``room``: how many more values
    may be listed (taken from)."""
    f = re.sub(r"[^a-z0-9]+", "-", frame.name.lower()).strip("-") or "t"
    name = json.dumps(frame.name)  # the frame's name as code, not as a string
    columns = frame.columns
    texts = [c for c in columns if frame.kinds.get(c, "text") == "text"]
    figures = [c for c in columns if c not in texts]
    at = f'{name} "["'
    rules = [
        f"{f}-col ::= {_choice(columns)}",
        f"{f}-fig ::= {_choice(figures)}" if figures else f"{f}-fig ::= {f}-col",
    ]
    compare = [f'{at} {f}-fig "] " cmp " " (number | {at} {f}-fig "]")']
    for k, column in enumerate(texts):
        values = [str(v) for v in frame.data[column].tolist() if str(v).strip()]
        values = list(dict.fromkeys(values))
        listed = 0 < len(values) <= min(MAX_VALUES, room[0])
        room[0] -= len(values) if listed else 0
        body = _choice(values) if listed else "any-text"
        rules.append(f"{f}-v{k} ::= {body}")
        column_at = f'{at} {_literal(column)} "]"'
        compare += [
            f'{column_at} " " ("==" | "!=") " " {f}-v{k}',
            f'{column_at} ".isin([" {f}-v{k} (", " {f}-v{k})* "])"',
            f'{column_at} ".str.contains(" {f}-v{k} (", case=False")? ")"',
        ]
    rules += [
        f"{f}-cmp ::= " + " | ".join(compare),
        f'{f}-mask ::= {f}-cmp | "(" {f}-cmp ")" (" & " "(" {f}-cmp ")")+ | "(" {f}-cmp ")" (" | " "(" {f}-cmp ")")+',
        f'{f}-rows ::= {at} {f}-mask "]" | {name}',
        f'{f}-arg ::= {at} {f}-fig "]." ("idxmax" | "idxmin") "()"',
        f'{f}-sorted ::= {name} ".sort_values(" {f}-fig (", ascending=False")? ")" | '
        f'{name} (".nlargest(" | ".nsmallest(") n ", " {f}-fig ")"',
        f"{f}-value ::= "
        f'{name} ".loc[" {f}-arg ", " {f}-col "]" | '
        f'{name} ".loc[" {f}-mask ", " {f}-col "]" (".iloc[0]" | reduce | listed)? | '
        f'{at} {f}-col "]" (reduce | listed) | '
        f'{f}-sorted "[" {f}-col "]" (".iloc[" [0-9] "]" | ".head(" n ")" listed | listed)',
    ]
    return rules, f"{f}-value", f"{f}-rows"


def program_grammar(frames: list[Frame]) -> str:
    """The grammar of a program over ``frames`` (named ``t1`` …)."""
    rules, values, rows = [], [], []
    room = [MAX_LISTED]
    for frame in frames:
        more, value, selection = _frame_rules(frame, room)
        rules += more
        values.append(value)
        rows.append(selection)
    head = [f"value ::= {' | '.join(values) or 'number'}", f"rows ::= {' | '.join(rows) or 'number'}"]
    return "\n".join([_COMMON.strip(), *head, *rules]) + "\n"
