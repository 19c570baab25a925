"""A date answered as a piece of the date its passage prints: "2024" for "the fiscal year ended December 31, 2024",
"March 9, 2023" for a call "today, March 9, 2023, at 4:30 p.m. ET".

The piece is true and still not the answer: the person asked for the day, or when (the day and its hour). The
whole date the cited passage prints around the piece is given instead, when there is exactly one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from docpilot.understanding.textnorm import norm, stems

__all__ = ["whole_date"]

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_TIME = r"(?:,?\s+(?:at\s+)?\d{1,2}(?::\d\d)?\s*[ap]\.?\s?m\.?(?:\s+(?:[ECMP][SD]?T|GMT|UTC)\b)?)"
_WHOLE = re.compile(
    rf"\b(?:{_MONTH}\s+{_DAY},?\s+|{_DAY}\s+{_MONTH},?\s+)(?:19|20)\d\d\b{_TIME}?",
    re.I,
)
_SENTENCE = re.compile(r"(?<![aApP]\.[mM]\.)(?<=[.!?])\s+(?=[A-Z])|\n")  # not after "a.m." ("a.m. ET")
_ONLY_DATE = re.compile(
    rf"^\s*(?:{_MONTH}\s+{_DAY},?\s+|{_DAY}\s+{_MONTH},?\s+|{_MONTH},?\s+)?(?:19|20)\d\d\s*\.?$", re.I
)


def whole_date(question: str, answer: str, passages: Iterable[str]) -> str | None:
    """The whole date (its day, and its hour where printed after it) that ``passages`` print around ``answer``,
    when ``answer`` is only a date and shorter than it: of several, the one in the sentence that says most of the
    question's words, when one does; None otherwise."""
    if not _ONLY_DATE.match(answer):
        return None
    piece = norm(answer).rstrip(".")
    asked = set(stems(question))
    scored: dict[str, int] = {}
    for text in passages:
        for sentence in _SENTENCE.split(text):
            for match in _WHOLE.finditer(sentence):
                whole = re.sub(r"\s+", " ", match.group(0)).strip()
                if piece in norm(whole) and len(norm(whole)) > len(piece):
                    score = len(asked & set(stems(sentence)))
                    scored[whole] = max(score, scored.get(whole, 0))
    if not scored:
        return None
    best = max(scored.values())
    top = [whole for whole, score in scored.items() if score == best]
    return top[0] if len(top) == 1 else None
