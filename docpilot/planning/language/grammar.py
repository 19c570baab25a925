"""The tool language as a llama.cpp grammar (GBNF), built from the same forms the reader reads.

A model decoding under this grammar can only write sentences of the language, one per line, or one line
``Cannot: <reason>``. File references are limited to the uploaded files' names and earlier steps, so a
rewrite cannot name a file that was never uploaded.
"""

from __future__ import annotations

import json
import re
from typing import Any

from docpilot.planning.language.forms import Form, form_of
from docpilot.planning.language.slots import Slot
from pdftools import Tool

__all__ = ["language_grammar"]

_MAX_NAMES = 24  # names a grammar offers for one slot (the common colours; the reader takes every name)

_COMMON = r"""
quote ::= "'" [^'\n]+ "'" | "\"" [^"\n]+ "\""
quotes ::= quote (", " quote)*
number ::= "-"? [0-9]+ ("." [0-9]+)?
numbers ::= number (", " number)*
yesno ::= "yes" | "no"
page-item ::= page-one ("-" page-one)?
page-one ::= [0-9]+ | "last"
spec ::= page-item ("," page-item)*
pages ::= "all pages" | "the last page" | "the first page" | "the odd pages" | "the even pages" | page-n
page-n ::= "page " [0-9]+ | "pages " spec
step-ref ::= "the result of step " [1-9]
file ::= upload | step-ref
files ::= file (", " file)*
pair ::= quote " = " (quote | number | yesno)
mapping ::= pair (", " pair)*
reason ::= [^\n]+
"""


def _literal(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _rule(name: str) -> str:
    return re.sub(r"[^a-zA-Z0-9]+", "-", name).strip("-")


def _alternatives(words: tuple[str, ...]) -> str:
    return " | ".join(_literal(w) for w in words) if words else '"-"'


def _slot(form: Form, slot: Slot, rules: dict[str, str]) -> str:
    """The grammar symbol of a slot (adding a rule for choices and names)."""
    if slot.kind in ("choice", "name", "names", "spec"):
        name = _rule(f"{form.tool.name}-{slot.arg}")
        if slot.kind == "spec":
            body = "spec" + (" | " + _alternatives(slot.choices) if slot.choices else "")
        elif slot.kind == "names":
            one = _rule(f"{form.tool.name}-{slot.arg}-one")
            rules[one] = _alternatives(slot.choices[:_MAX_NAMES])
            body = f'{one} (", " {one})*'
        else:
            body = _alternatives(slot.choices[:_MAX_NAMES])
        rules[name] = body
        return name
    return slot.kind


def _pieces(form: Form, pieces: list[Any], rules: dict[str, str]) -> str:
    out = []
    for piece in pieces:
        if isinstance(piece, list):
            out.append("(" + _pieces(form, piece, rules) + ")?")
        elif isinstance(piece, tuple):
            out.append(_slot(form, form.slots[piece[1]], rules))
        elif piece:
            out.append(_literal(piece))
    return " ".join(out)


def _sentence(form: Form, rules: dict[str, str], leave_out: tuple[str, ...] = ()) -> str:
    name = _rule(f"say-{form.tool.name}")
    parts = [_pieces(form, form.pieces, rules)]
    if form.on_arg:
        parts.append(f'(" on " {_slot(form, form.slots[form.on_arg], rules)})?')
    if form.of_arg:
        parts.append('(" of " file)?')
    options = [a for a in form.options if a not in leave_out]
    if options:
        option = _rule(f"opt-{form.tool.name}")
        rules[option] = " | ".join(
            f"{_literal(form.slots[a].label + ' ')} {_slot(form, form.slots[a], rules)}" for a in options
        )
        parts.append(f'(" with " {option} (", " {option})*)?')
    rules[name] = " ".join(parts) + ' "."'
    return name


def language_grammar(
    tools: dict[str, Tool],
    uploads: list[str],
    max_sentences: int = 8,
    *,
    cannot: bool = True,
    leave_out: tuple[str, ...] = (),
) -> str:
    """A GBNF grammar for up to ``max_sentences`` sentences over ``tools`` naming only ``uploads``; with
    ``cannot`` one line "Cannot: <reason>" is allowed instead (not on a retry, which must fix the sentences).
    ``leave_out``: options no sentence may set (a result's name when the request gives none)."""
    rules: dict[str, str] = {}
    sentences = [_sentence(form_of(tool), rules, leave_out) for tool in tools.values()]
    rules["sentence"] = " | ".join(sentences)
    rules["upload"] = " | ".join(_literal(f"'{u}'" if "'" not in u else f'"{u}"') for u in uploads) or "\"'-'\""
    more = "".join(' ("\\n" sentence' for _ in range(max_sentences - 1)) + ")?" * (max_sentences - 1)
    root = f"root ::= sentence{more}" + (' | "Cannot: " reason' if cannot else "")
    return "\n".join([root, *(f"{k} ::= {v}" for k, v in rules.items())]) + _COMMON
