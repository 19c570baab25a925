"""A figure asked in one scale and printed in another: "net sales in millions of dollars" answered 3.2 from
"Net Sales of $3.2 Billion".

A passage's headline rounds to its own scale; the figure the person asked for is printed in the scale they
named elsewhere (the statement's "$ in millions" column), or not at all. :func:`other_scale` says how the cited
passages print the answer's number when every place gives it in another scale than the question asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from docpilot.understanding.textnorm import numbers_in, parse_number

__all__ = ["asked_scale", "other_scale"]

_ASKED = re.compile(r"\bin\s+(?:\$\s*|us\s*\$\s*|usd\s+|eur\s+|€\s*|£\s*)?(thousands|millions|billions)\b", re.I)
_PRINTED = re.compile(r"(?<![\d.])\d[\d,]*(?:\.\d+)?")
_SCALE_AFTER = re.compile(r"\s*(thousand|million|billion|bn\b|mn\b)", re.I)
_SHORT = {"bn": "billion", "mn": "million"}


def asked_scale(question: str) -> str | None:
    """ "million" for "in millions", "in $ millions", "in millions of dollars"; None when no scale is named."""
    match = _ASKED.search(question)
    return match.group(1).lower().rstrip("s") if match else None


def other_scale(question: str, answer: str, blocks: Iterable[str]) -> str | None:
    """The answer's number as ``blocks`` print it ("3.2 Billion") when the question asks another scale and every
    place they print that number, or the answer itself, names that other scale; None otherwise."""
    wanted = asked_scale(question)
    if wanted is None:
        return None
    texts = list(blocks)
    for value in numbers_in(answer):
        own = _scale_of(answer, value)
        printed = [(number, scale) for text in texts for number, scale in _printed(text, value)]
        scales = {scale for _, scale in printed}
        if own and own != wanted:
            return f"{value:g} {own}"
        if printed and "" not in scales and wanted not in scales:
            number, scale = printed[0]
            return f"{number} {scale}"
    return None


def _printed(text: str, value: float) -> list[tuple[str, str]]:
    """(the number as printed, the scale word after it or "") for each place ``text`` prints ``value``."""
    found = []
    for match in _PRINTED.finditer(text):
        if parse_number(match.group(0)) != value:
            continue
        scale = _SCALE_AFTER.match(text, match.end())
        word = scale.group(1).lower() if scale else ""
        found.append((match.group(0), _SHORT.get(word, word)))
    return found


def _scale_of(text: str, value: float) -> str:
    """The scale word the answer writes after ``value`` ("" when none)."""
    scales = {scale for _, scale in _printed(text, value)}
    return scales.pop() if len(scales) == 1 else ""
