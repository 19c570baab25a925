"""What a model is shown of the candidate frames: per frame its name, caption, page, columns with what they
hold, row labels and two sample rows — within a token budget (500 of the model's tokens for all the
candidates, counted as :func:`~docpilot.llm.tokens.model_tokens` does: a digit is one).

A frame is shown at full detail first; while the text is over the budget every frame is shown with less
(fewer row labels, a shorter caption, one sample row, none, fewer columns' types), and last the frames
at the end are left out (the candidates come best first). Column names are quoted exactly as a program
must write them. Given the question, the row labels that share a word with it are listed first, so the rows
it asks about are shown even when a long table's labels are cut.
"""

from __future__ import annotations

import math
from typing import Any

from docpilot.llm.tokens import model_tokens
from docpilot.understanding.frames.model import Frame
from docpilot.understanding.textnorm import stems

__all__ = ["schema_text", "tokens", "BUDGET_TOKENS"]

BUDGET_TOKENS = 500
_KIND = {"text": "text", "number": "number", "percent": "%"}
# (row labels shown, caption characters, sample rows, columns shown with their kinds), most detail first
_LEVELS = [(12, 120, 2, 99), (8, 80, 2, 99), (6, 60, 1, 99), (4, 50, 1, 12), (3, 40, 0, 8), (2, 30, 0, 4)]


def tokens(text: str) -> int:
    """About how many model tokens ``text`` takes (a table's figures are one token a digit)."""
    return model_tokens(text)


def schema_text(frames: list[Frame], budget: int = BUDGET_TOKENS, question: str = "") -> str:
    """The frames described for a program-writing prompt, in at most ``budget`` tokens (see module doc)."""
    if not frames:
        return ""
    asked = frozenset(stems(question))
    for level in _LEVELS:
        text = "\n".join(_describe(frame, asked, *level) for frame in frames)
        if tokens(text) <= budget:
            return text
    shown = list(frames)
    while len(shown) > 1:
        shown.pop()
        text = "\n".join(_describe(frame, asked, *_LEVELS[-1]) for frame in shown)
        if tokens(text) <= budget:
            return text
    text = _describe(shown[0], asked, *_LEVELS[-1])
    while tokens(text) > budget:  # one frame too wide even at the least detail: its end is left out
        text = text[: len(text) * 9 // 10].rstrip() + " …"
    return text


def _describe(frame: Frame, asked: frozenset[str], labels: int, caption: int, samples: int, typed: int) -> str:
    where = f"page {', '.join(str(p) for p in frame.pages)}"
    if len(frame.files) == 1:
        where += f" of {frame.files[0]}"
    title = _cut(frame.caption, caption) or "(no caption)"
    lines = [f"{frame.name}: {title} ({where})"]
    notes = []
    if frame.heading:
        notes.append(f"under '{_cut(frame.heading, 40)}'")
    if frame.scale:
        notes.append(f"amounts in {frame.scale}s")
    if len(frame.data) > 0:
        notes.append(f"{len(frame.data)} rows")
    if notes:
        lines[0] += "; " + ", ".join(notes)
    columns = []
    for i, name in enumerate(frame.columns):
        kind = frame.kinds.get(name, "text")
        shown = _KIND.get(kind, kind.replace("money ", "")) if i < typed else ""
        columns.append(f"{name!r} {shown}".rstrip())
    lines.append("  columns: " + ", ".join(columns))
    names = frame.row_labels()
    if asked:  # the rows the question names first
        names = sorted(names, key=lambda name: not asked & set(stems(name)))
    if names:
        listed = ", ".join(repr(_cut(n, 40)) for n in names[:labels])
        more = f" … +{len(names) - labels} more" if len(names) > labels else ""
        lines.append(f"  row labels ({frame.label!r}): {listed}{more}")
    for row in _samples(frame, samples):
        lines.append("  e.g. " + row)
    return "\n".join(lines)


def _samples(frame: Frame, count: int) -> list[str]:
    """Up to ``count`` rows with most of their cells filled, as lists in column order."""
    if count == 0:
        return []
    data = frame.data
    filled = data.notna().sum(axis=1) - (data == "").sum(axis=1)
    best = [i for i in filled.sort_values(ascending=False, kind="stable").index[:count]]
    return ["[" + ", ".join(_value(v) for v in data.loc[i].tolist()) + "]" for i in sorted(best)]


def _value(value: Any) -> str:
    if value == "":  # a blank text cell: a missing value to the program (frames.running)
        return "nan"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:g}"
    return repr(_cut(str(value), 30))


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
