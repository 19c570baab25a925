"""An answer is only what the data or the text supports (issue K item 4).

A number in an answer must be a value a program produced or a number written in a cited cell or passage;
a name must be text of a cited cell or passage. What is not supported is listed, so the caller can refuse
the answer (``answered: false``) or send it back to the model that wrote it.

"A name" is read from the answer's capitalised words: a capitalised word that does not begin a sentence,
or one that begins it and is followed by another capitalised word ("David Chen", "The Consultant"). Each such
word must be a word of the sources (case and Unicode forms aside); a sentence's ordinary first word ("Yes",
"The") is not a name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from docpilot.understanding.textnorm import format_number, norm, numbers_in, words

__all__ = ["unsupported_numbers", "unsupported_names", "unsupported"]

_TOKEN = re.compile(r"[^\W_]+(?:['’.&-][^\W_]+)*")
_SENTENCE_END = re.compile(r"[.!?:;]\s*$")
# a number shown rounded ("13.1168" for 13.116847…, "1,234.57" for 1234.5678) is the value it was rounded from
_RELATIVE = 1e-4
_ROUNDED = 0.0051


def unsupported_numbers(answer: str, sources: Iterable[str], values: Iterable[float] = ()) -> list[str]:
    """The numbers written in ``answer`` that are neither in ``values`` nor written in any of ``sources``."""
    known = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)]
    for text in sources:
        known += numbers_in(text)
    missing = []
    for number in numbers_in(answer):
        if not any(_same(number, value) for value in known):
            missing.append(format_number(number))
    return missing


def unsupported_names(answer: str, sources: Iterable[str]) -> list[str]:
    """The capitalised words of ``answer`` (its names) that are not words of any of ``sources``."""
    have = {w for text in sources for w in words(text)}
    have |= {w.replace("’", "'") for w in have}
    missing = []
    for word in _names(answer):
        key = norm(word).replace("’", "'")
        parts = words(key)
        if parts and not all(p in have for p in parts):
            missing.append(word)
    return list(dict.fromkeys(missing))


def unsupported(answer: str, sources: Iterable[str], values: Iterable[float] = ()) -> list[str]:
    """Everything in ``answer`` its sources do not support: numbers first, then names."""
    sources = list(sources)
    return unsupported_numbers(answer, sources, values) + unsupported_names(answer, sources)


def _names(answer: str) -> list[str]:
    tokens = list(_TOKEN.finditer(answer))
    out = []
    for i, match in enumerate(tokens):
        word = match.group(0)
        if not word[0].isupper() or word.isdigit():
            continue
        before = answer[: match.start()]
        starts = not before.strip() or bool(_SENTENCE_END.search(before))
        following = tokens[i + 1].group(0) if i + 1 < len(tokens) else ""
        adjacent = i + 1 < len(tokens) and not answer[match.end() : tokens[i + 1].start()].strip(" ")
        if starts and not (following[:1].isupper() and adjacent):
            continue
        out.append(word)
    return out


def _same(a: float, b: float) -> bool:
    if a == b or abs(a) == abs(b):
        return True
    return abs(a - b) <= max(_RELATIVE * max(abs(a), abs(b)), _ROUNDED)
