"""How ``bench/tableqa.py`` judges one reply of ``docpilot ask --json`` against a question's expected answer.

- right: the reply is an answer (``answered`` true, not a dump: the shared scorer's 600 characters / 8 numbers)
  and holds the expected value: a number within tolerance of formatting, rounding and scale ("1,234" in a table in
  thousands is also "1.23 million" or "1234000"; "(56)" is -56; "399,00" is 399), a count as a number or a word,
  a percent to the answer's own precision, a name as the first row named, a list with every member and no other row;
- evidence: a citation names the table's page of the asked file (and no more than 5 pages, as the shared scorer);
- cells: every deciding cell's text is in some citation's quote (the citations hold the deciding cells);
- confident wrong: an answer (``answered`` true) that is not right; refused: ``answered`` false; error: no reply.

Text is normalised, and numbers are read, with the shared QA scorer's functions (``../shared/bench/qa_check.py``)
where that file is present.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["judge", "answer_numbers", "names_in", "SHARED"]

ROOT = Path(__file__).resolve().parents[1]


def _shared() -> Path:
    """``$DOCPILOT_SHARED``, else ``../shared`` beside the checkout (or beside its worktree folder)."""
    if os.environ.get("DOCPILOT_SHARED"):
        return Path(os.environ["DOCPILOT_SHARED"])
    near = [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
    return next((p for p in near if p.exists()), near[0])


SHARED = _shared()
NEGATIVE_WORDS = re.compile(
    r"\b(loss|negative|deficit|minus|decrease[ds]?|decline[ds]?|fell|lower|less|down|overspen\w*)\b"
)
SCALES = {
    "thousand": 1e3,
    "thousands": 1e3,
    "k": 1e3,
    "million": 1e6,
    "millions": 1e6,
    "m": 1e6,
    "mn": 1e6,
    "mln": 1e6,
    "billion": 1e9,
    "billions": 1e9,
    "bn": 1e9,
    "b": 1e9,
}
WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
NUMBER = re.compile(
    r"(?P<open>\()?\s*(?P<sign>[-\u2212])?\s*[$€£]?\s*(?P<num>\d[\d,.]*\d|\d)(?P<inner>\s*%)?(?:\s*(?P<close>\)))?"
    r"(?:\s*(?P<pct>%|percent\b)|\s*(?P<scale>thousands?|millions?|billions?|mn|mln|bn|k|m|b)\b)?",
    re.I,
)


def _load_shared() -> tuple[Callable[[object], str], Callable[[str], list[float]]] | None:
    path = SHARED / "bench" / "qa_check.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("qa_check", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.norm, module.numbers


def _norm(s: object) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", str(s))).lower().strip()


_SHARED = _load_shared()
norm: Callable[[object], str] = _SHARED[0] if _SHARED else _norm


def _readings(num: str) -> list[tuple[float, int]]:
    """The values a written number may mean, each with the decimals written: "1,234" 1234; "1.234,5" 1234.5;
    "399,00" 399 and "1,5" 1.5 (a decimal comma); "12.5" 12.5."""
    out: list[tuple[float, int]] = []
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?|\d+(\.\d+)?", num):
        out.append((float(num.replace(",", "")), len(num.split(".")[1]) if "." in num else 0))
    if re.fullmatch(r"\d{1,3}(\.\d{3})+(,\d+)?|\d+,\d{1,2}", num):
        out.append((float(num.replace(".", "").replace(",", ".")), len(num.split(",")[1]) if "," in num else 0))
    return out


def answer_numbers(text: str) -> list[tuple[float, float, int, bool]]:
    """Each reading of each number in ``text``: (value, multiplier of a scale word after it, decimals written, is a
    percent). "(56)" and "(5.6%)" read as negative and as positive (a figure in brackets after a name); "-56" as -56
    unless the dash joins it to a word or number before ("2010-2020")."""
    text = text.replace("\u00a0", " ")
    found: list[tuple[float, float, int, bool]] = []
    for m in NUMBER.finditer(text):
        signs = {1.0}
        if m["open"] and m["close"]:
            signs = {1.0, -1.0}
        if m["sign"]:
            joined = m.start("sign") > 0 and text[m.start("sign") - 1].isalnum()
            signs = {1.0, -1.0} if joined else {-1.0}
        scale = SCALES.get((m["scale"] or "").lower(), 1.0)
        for value, decimals in _readings(m["num"]):
            found += [(sign * value, scale, decimals, bool(m["pct"] or m["inner"])) for sign in signs]
    if _SHARED:
        found += [(v, 1.0, 0, False) for v in _SHARED[1](text)]
    return found


def _close(got: float, want: float, decimals: int, unit: float = 1.0) -> bool:
    """Within 0.5% (the shared scorer's tolerance), or as rounded to the decimals written (in the answer's unit)
    and within 2%."""
    if math.isclose(got, want, rel_tol=0.005, abs_tol=1e-9):
        return True
    return abs(got - want) <= 0.5 * 10**-decimals * unit + 1e-9 and abs(got - want) <= 0.02 * abs(want)


def _number_right(answer: str, expect: dict[str, Any]) -> bool:
    want, scale = float(expect["value"]), float(expect.get("scale", 1.0))
    signless = bool(expect.get("signless")) or (want < 0 and bool(NEGATIVE_WORDS.search(answer.lower())))
    for value, mult, decimals, _ in answer_numbers(answer):
        for got in (value, -value) if signless else (value,):
            if _close(got, want, decimals) or _close(got * mult, want * scale, decimals, mult):
                return True
            if mult == 1.0 and scale != 1.0 and _close(got, want * scale, decimals):
                return True
    return False


def _count_right(answer: str, want: int) -> bool:
    words = set(re.findall(r"[a-z]+", answer.lower()))
    return any(v == want for v, _, _, _ in answer_numbers(answer)) or any(WORDS.get(w) == want for w in words)


def _percent_right(answer: str, want: float) -> bool:
    for value, _, decimals, pct in answer_numbers(answer):
        if _close(value, want, decimals) or (not pct and _close(value * 100, want, decimals + 2)):
            return True
    return False


def _key(s: str) -> str:
    return " " + re.sub(r"[^0-9a-z]+", " ", norm(s)).strip() + " "


def names_in(answer: str, labels: list[str], aliases: dict[str, list[str]] | None = None) -> list[str]:
    """The labels ``answer`` names, in the order it first names them; a name inside a longer named label is that
    label ("North" in "North East"). A label is also named by its text before a comma ("Receivables, net")."""
    text = _key(answer)
    spans: list[tuple[int, int, str]] = []
    for label in labels:
        forms = {label, *(aliases or {}).get(label, [])}
        if "," in label and len(label.split(",")[0]) >= 4:
            forms.add(label.split(",")[0])
        for form in forms:
            k = _key(form)
            if k.strip():
                spans += [(m.start(), m.start() + len(k), label) for m in re.finditer(re.escape(k), text)]
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    named: list[str] = []
    end = -1
    for start, stop, label in spans:
        if start < end:  # inside a longer name already taken
            continue
        end = stop - 1
        if label not in named:
            named.append(label)
    return named


def _holds(quote: str, cell: str) -> bool:
    q, c = norm(quote), norm(cell).lstrip("$€£ ")
    return re.search(r"(?<![\d.,])" + re.escape(c) + r"(?![\d])", q) is not None


def judge(q: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
    """The verdict on one reply: right / wrong / refused / error, evidence, cells, and where the answer came from."""
    answer = str(reply.get("answer") or "")
    if reply.get("answered") is None:
        verdict = "error"
    elif not reply["answered"]:
        verdict = "refused"
    else:
        expect = q["expect"]
        dump = len(answer) > 600 or len(re.findall(r"\d[\d,]*\.?\d*", answer)) > 8
        kind = expect["type"]
        if dump:
            ok = False
        elif kind == "number":
            ok = _number_right(answer, expect)
        elif kind == "count":
            ok = _count_right(answer, int(expect["value"]))
        elif kind == "percent":
            ok = _percent_right(answer, float(expect["value"]))
        elif kind == "name":
            named = names_in(answer, expect["labels"], expect.get("aliases"))
            ok = bool(named) and named[0] == expect["value"]
        elif kind == "names":
            named = names_in(answer, expect["labels"], expect.get("aliases"))
            ok = set(named) == set(expect["value"])
        else:
            raise ValueError(f"unknown expectation {kind!r}")
        verdict = "right" if ok else "wrong"
    name = os.path.basename(q["file"])
    cites = [c for c in reply.get("citations") or [] if isinstance(c, dict)]
    mine = [c for c in cites if not c.get("file") or os.path.basename(str(c["file"])) == name]
    pages = {c.get("page") for c in mine}
    evidence = len(pages) <= 5 and q["page"] in pages
    quotes = [str(c.get("quote") or "") for c in mine if c.get("page") == q["page"]]
    cells = evidence and all(any(_holds(quote, cell) for quote in quotes) for cell in q["cells"])
    calls = (reply.get("stats") or {}).get("llm_calls")
    source = None if verdict in ("refused", "error") or calls is None else "rules" if calls == 0 else "program"
    return {"verdict": verdict, "evidence": evidence, "cells": cells, "source": source}
