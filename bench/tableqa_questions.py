"""Questions for ``bench/tableqa.py``: templates filled from the known frames, and hand-written corpus questions.

A template (``bench/tableqa/templates.jsonl``) has an ``op`` and placeholders; :func:`make_questions` fills each one
from the synthetic documents with a seeded generator and computes the expected answer from the frame with pandas
(never from the product). Each op's templates are split into a ``tuning`` and a ``held`` half by a seeded shuffle
(:func:`split_parts`), recorded in the file. The corpus questions (``bench/tableqa/corpus.jsonl``) were written by
hand over tables whose cells were checked against the page text; their parts are recorded the same way.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pandas as pd
from tableqa_docs import Doc, format_value

__all__ = ["TEMPLATES", "CORPUS", "OPS", "load_rows", "split_parts", "make_questions", "corpus_questions", "ordered"]

HERE = Path(__file__).resolve().parent / "tableqa"
TEMPLATES = HERE / "templates.jsonl"
CORPUS = HERE / "corpus.jsonl"
OPS = ("argmax", "argmin", "cell", "sum", "diff", "above", "count", "share", "mean")
PER_TEMPLATE = 2


def load_rows(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The file's first line (how it was split) and its rows."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return lines[0], lines[1:]


def split_parts(ids_by_group: dict[str, list[str]], seed: int) -> dict[str, str]:
    """Per group (an op, or a corpus table), shuffle the sorted ids with ``Random(f"{seed}-{group}")``: the first
    half (rounded down) is ``tuning``, the rest ``held``."""
    parts: dict[str, str] = {}
    for group, ids in ids_by_group.items():
        order = sorted(ids)
        random.Random(f"{seed}-{group}").shuffle(order)
        half = len(order) // 2
        parts.update({i: "tuning" if k < half else "held" for k, i in enumerate(order)})
    return parts


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _unique_extreme(s: pd.Series, largest: bool) -> bool:
    top = s.nlargest(2) if largest else s.nsmallest(2)
    return bool(top.iloc[0] != top.iloc[1])


def _threshold(col: dict[str, Any], values: pd.Series, rng: random.Random) -> tuple[float, str] | None:
    """A round number strictly between two neighbouring values, so 2 to n-2 rows are on each side; as printed."""
    vals = sorted(set(float(v) for v in values))
    if len(vals) < 4:
        return None
    i = rng.randint(2, len(vals) - 2)
    lo, hi = vals[i - 1], vals[i]
    for step in (1000, 500, 100, 50, 10, 5, 1, 0.5, 0.1, 0.05, 0.01):
        t = round(math.floor(lo / step) * step + step, 6)
        if lo < t < hi:
            break
    else:
        t = round((lo + hi) / 2, 4)
    decimals = 0 if t == int(t) else len(f"{t}".split(".")[1])
    text = format_value({**col, "decimals": decimals, "negative": "minus"}, t)
    return t, text


def _numeric(doc: Doc, op: str = "") -> list[dict[str, Any]]:
    """The columns an op may ask about: a sum needs a column that adds up, a share one that adds up and is positive."""
    cols = doc.spec["columns"]
    if op in ("sum", "share"):
        cols = [c for c in cols if c.get("sum")]
    if op == "share":
        cols = [c for c in cols if (doc.frame[c["key"]] > 0).all()]
    return cols


def _groups(doc: Doc) -> list[str]:
    if "group" not in doc.frame:
        return []
    sizes = doc.frame["group"].value_counts()
    return sorted(str(g) for g, n in sizes.items() if 2 <= n < len(doc.frame))


def eligible(template: dict[str, Any], doc: Doc) -> bool:
    text = template["text"]
    if "{period1}" in text and not doc.spec.get("pairs"):
        return False
    if "{group}" in text and not _groups(doc):
        return False
    if not _numeric(doc, template["op"]):
        return False
    return not ("{col2}" in text and len(doc.spec["columns"]) < 2)


def _fill(template: dict[str, Any], doc: Doc, rng: random.Random) -> dict[str, Any] | None:
    """One question from ``template`` over ``doc``: the wording, the expected answer and the deciding cells."""
    op, text, df, spec = template["op"], template["text"], doc.frame, doc.spec
    rows = list(df.index)
    slots: dict[str, str] = {"row_noun": spec["row_noun"], "row_nouns": spec["row_nouns"]}
    col = rng.choice(_numeric(doc, op))
    key = col["key"]
    slots["col"] = rng.choice(col["say"])
    scale = float(spec["scale"]) if col.get("scaled") else 1.0
    s = df[key]
    labels = [str(r) for r in rows]
    expect: dict[str, Any]
    cells: list[str]
    gt = template.get("cmp", "gt") == "gt"
    if op in ("argmax", "argmin"):
        if not _unique_extreme(s, op == "argmax"):
            return None
        win = str(s.idxmax() if op == "argmax" else s.idxmin())
        expect, cells = {"type": "name", "value": win, "labels": labels}, [doc.cell(win, key)]
    elif op == "cell":
        row = rng.choice(rows)
        slots["row"] = row
        expect = {"type": "number", "value": float(s[row]), "scale": scale}
        cells = [doc.cell(row, key)]
    elif op == "sum":
        chosen = rng.sample(rows, rng.randint(2, 4))
        slots["rows"] = _join(chosen)
        expect = {"type": "number", "value": float(s[chosen].sum()), "scale": scale}
        cells = [doc.cell(r, key) for r in chosen]
    elif op == "diff" and "{period1}" in text:
        pair = rng.choice(spec["pairs"])
        row = rng.choice([r for r in rows if df.at[r, pair["a"]] != df.at[r, pair["b"]]])
        slots.update(row=row, measure=pair["measure"], period1=pair["a_say"], period2=pair["b_say"])
        a_col = doc.column(pair["a"])
        scale = float(spec["scale"]) if a_col.get("scaled") else 1.0
        value = float(df.at[row, pair["b"]] - df.at[row, pair["a"]])
        expect = {"type": "number", "value": value, "scale": scale, "signless": True}
        cells = [doc.cell(row, pair["a"]), doc.cell(row, pair["b"])]
    elif op == "diff":
        one, two = sorted(rng.sample(rows, 2), key=lambda r: -float(s[r]))
        if s[one] == s[two]:
            return None
        slots.update(row1=one, row2=two)
        expect = {"type": "number", "value": float(s[one] - s[two]), "scale": scale, "signless": True}
        cells = [doc.cell(one, key), doc.cell(two, key)]
    elif op in ("above", "count"):
        found = _threshold(col, s, rng)
        if found is None:
            return None
        t, slots["threshold"] = found
        members = [str(r) for r in rows if (s[r] > t if gt else s[r] < t)]
        if op == "above":
            expect = {"type": "names", "value": members, "labels": labels}
        else:
            expect = {"type": "count", "value": len(members)}
        cells = [doc.cell(r, key) for r in members]
    elif op == "share":
        row = rng.choice(rows)
        slots["row"] = row
        expect = {"type": "percent", "value": float(s[row] / s.sum() * 100)}
        cells = [doc.cell(row, key)]
    elif op == "mean" and "{group}" in text:
        group = rng.choice(_groups(doc))
        slots.update(group=group, group_noun=spec["group"]["noun"])
        members = [str(r) for r in rows if df.at[r, "group"] == group]
        expect = {"type": "number", "value": float(s[members].mean()), "scale": scale}
        cells = [doc.cell(r, key) for r in members]
    elif op == "mean":
        other = rng.choice([c for c in spec["columns"] if c["key"] != key])
        slots["col2"] = rng.choice(other["say"])
        found = _threshold(other, df[other["key"]], rng)
        if found is None:
            return None
        t, slots["threshold"] = found
        members = [str(r) for r in rows if (df.at[r, other["key"]] > t if gt else df.at[r, other["key"]] < t)]
        expect = {"type": "number", "value": float(s[members].mean()), "scale": scale}
        cells = [doc.cell(r, key) for r in members]
    else:
        raise ValueError(f"unknown op {op!r}")
    question = text.format(**slots)
    return {"question": question, "expect": expect, "cells": cells}


def make_questions(docs: dict[str, Doc], templates: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """``PER_TEMPLATE`` questions per template, each over the next document (in a seeded order per op) it fits."""
    out: list[dict[str, Any]] = []
    for op in OPS:
        names = sorted(docs)
        random.Random(f"{seed}-{op}-docs").shuffle(names)
        turn = 0
        for template in sorted((t for t in templates if t["op"] == op), key=lambda t: t["id"]):
            for k in range(PER_TEMPLATE):
                rng = random.Random(f"{seed}-{template['id']}-{k}")
                made = None
                for _ in range(len(names) * 3):
                    doc = docs[names[turn % len(names)]]
                    turn += 1
                    if eligible(template, doc):
                        made = _fill(template, doc, rng)
                        if made:
                            break
                if made is None:
                    raise ValueError(f"template {template['id']} fits no document")
                out.append(
                    {
                        "id": f"{template['id']}-{k + 1}",
                        "part": template["part"],
                        "op": op,
                        "source": "synthetic",
                        "template": template["id"],
                        "doc": doc.name,
                        "file": str(doc.path),
                        "page": doc.page,
                        **made,
                    }
                )
    return out


def corpus_questions(corpus_root: Path) -> list[dict[str, Any]]:
    """The hand-written questions over corpus tables, with their files made absolute."""
    _, rows = load_rows(CORPUS)
    return [
        {**{k: v for k, v in r.items() if k != "check"}, "source": "corpus", "file": str(corpus_root / r["file"])}
        for r in rows
    ]


def ordered(questions: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """Questions in a seeded order that takes the ops in turn, so ``--limit N`` sees every op."""
    by_op: dict[str, list[dict[str, Any]]] = {op: [] for op in OPS}
    for q in questions:
        by_op[q["op"]].append(q)
    for op, qs in by_op.items():
        random.Random(f"{seed}-{op}-order").shuffle(qs)
    out: list[dict[str, Any]] = []
    while any(by_op.values()):
        for op in OPS:
            if by_op[op]:
                out.append(by_op[op].pop())
    return out
