"""Whether a passage states a figure the question asks to be computed.

A question that asks for a figure computed from others — a percent change, a ratio, a share of a whole, a total
of several, a difference, an average, "A minus B" — is answered by a program over the tables; the passages
answer it only when a sentence states that figure. A model reading passages copies some figure near the words
instead: "free cash flow (operating cash flow minus capex)" answered with the operating cash flow, or with "the
$104.2 million increase" of another thing; "what percentage of net sales came from Rigid Packaging" answered
with a segment's 4 % growth (q11, q12: six confident wrong answers, none right but one stated in a sentence).

:func:`stated` holds a passage answer to such a question to the sentence it cites: the answer's figures are
written there, and so are a third or more of the words naming what the question computes (the words of the
operation, its units and periods left out).
"""

from __future__ import annotations

import math
import re

from docpilot.understanding.operation_checks import asks_percent_change
from docpilot.understanding.textnorm import alike, numbers_in, stem, stems

__all__ = ["computes", "stated"]

_COMPUTED = re.compile(
    r"\b(?:ratio|minus|plus|divided by|subtract\w*|add(?:ed)? up|in total|total|combined|altogether|sum|"
    r"average|mean|difference|(?:per\s?cent(?:age)?|share|proportion|fraction|portion)\s+of|"
    r"how (?:much|many) (?:more|less|fewer|higher|lower|bigger|smaller))\b",
    re.I,
)
# the words of the operation, of periods and of asking: they do not name what is computed
_OPERATION = frozenset(
    stem(w)
    for w in "ratio minus plus divided subtract added total combined altogether sum average mean difference "
    "percent percentage share proportion fraction portion change grow growth increase decrease rise fall "
    "compute calculate much many more less fewer higher lower bigger smaller fiscal year quarter month "
    "according report document give tell what which million millions billion thousand thousands dollar dollars "
    "usd eur euro euros amount figure number value".split()
)
_DIGITS = re.compile(r"\d[\d.,]*")
_ENOUGH = 1 / 3  # of the words naming what is computed, the share the cited sentence must say


def computes(question: str) -> bool:
    """Whether ``question`` asks for a figure computed from others (see the module's doc)."""
    return asks_percent_change(question) or bool(_COMPUTED.search(question))


def stated(question: str, answer: str, sentences: list[str]) -> bool:
    """Whether one of ``sentences`` (the answer's cited sentences) writes each figure of ``answer`` and at least
    a third of the question's words naming what it computes; an answer with no digit is not judged here."""
    figures = numbers_in(answer)
    digits = _DIGITS.findall(answer)  # "1.681,775": digits no reading of a number takes, matched as written
    if not digits:
        return True
    named = {w for w in stems(question) if len(w) > 1 and not w.isdigit() and w not in _OPERATION}
    for sentence in sentences:
        printed = numbers_in(sentence)
        if figures and not all(any(math.isclose(f, p, rel_tol=1e-6) for p in printed) for f in figures):
            continue
        if not figures and not all(d in sentence for d in digits):
            continue
        said = set(stems(sentence))
        found = sum(any(alike(w, s) for s in said) for w in named)  # a word, or another form of it
        if not named or found >= _ENOUGH * len(named):
            return True
    return False
