"""Questions that add two things up ("the combined price of the iPad and the cover", "the total cost of the
wiring change and the sensor test"): read into one question per part, each answered on its own with its
citations, and the sum done in Python (FlowMind §3: the model never does arithmetic).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docpilot.understanding.textnorm import format_number, numbers_in

__all__ = ["Parts", "read_parts", "the_number", "total_text"]

# "<combined> <measure> <of|for> <X> and <Y>", Y ending where the question goes on ("on this invoice", ", before …")
_PARTS = re.compile(
    r"\b(?:combined|total|summed|sum)\s+(?P<measure>(?:[\w$%.'’-]+\s+){0,8}?)(?P<prep>of|for)\s+"
    r"(?P<first>[^,;?]+?)\s+and\s+(?P<second>[^,;?]+?)"
    r"(?=\s+(?:on|in|at|from|during|before|after|under|as of|according to|shown|listed)\b|\s*[,;?.]|\s*$)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Parts:
    measure: str  # "price", "fiscal 2023 adjusted EBIT"
    names: tuple[str, str]  # "the Apple iPad Air", "the Decoded leather cover"
    questions: tuple[str, str]  # the question asked of each part alone

    def steps(self, values: list[str]) -> list[str]:
        what = f"the {self.measure} of " if self.measure else ""
        found = [f"Find {what}{name}: {value}." for name, value in zip(self.names, values, strict=True)]
        return [*found, "Add the two values."]


def read_parts(question: str) -> Parts | None:
    """The two parts a "combined"/"total … of A and B" question adds up, or None."""
    match = _PARTS.search(question)
    if match is None:
        return None
    measure = match.group("measure").strip()
    first, second = match.group("first").strip(), match.group("second").strip()
    if len(first) < 2 or len(second) < 2 or (not measure and re.search(r"\b(?:of|for)\b", first)):
        return None  # "the sum of the totals of invoice 1001 and 1002": whose total, of what — not two parts
    head, tail = question[: match.start()], question[match.end() :]
    if measure:  # "the combined price of A and B": the price of A, the price of B
        questions = tuple(f"{head}{measure} {match.group('prep')} {name}{tail}" for name in (first, second))
    else:  # "the total of A and B": A, B
        head = re.sub(r"\bthe\s*$", "", head, flags=re.IGNORECASE)
        questions = tuple(f"{head}{name}{tail}" for name in (first, second))
    return Parts(measure, (first, second), (questions[0], questions[1]))


def the_number(answer: str, question: str) -> float | None:
    """The one number a part's answer gives (numbers the question itself says, such as years, aside)."""
    said = set(numbers_in(question))
    found = {n for n in numbers_in(answer) if n not in said}
    return found.pop() if len(found) == 1 else None


def total_text(values: list[float], shown: list[str]) -> str:
    return f"{format_number(sum(values))} = " + " + ".join(shown)
