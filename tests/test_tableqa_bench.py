"""The table QA bench (bench/tableqa.py) measures what it says: its PDFs hold its frames, its answers are right.

No model runs here: the PDFs are re-read with PyMuPDF, the scorer is given replies written by hand, and the
hand-written corpus answers are recomputed from the checked truths in tests/data/tables/.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pymupdf
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import tableqa  # noqa: E402
from tableqa_docs import Doc, make_docs, printed_cells  # noqa: E402
from tableqa_questions import CORPUS, OPS, load_rows, make_questions  # noqa: E402
from tableqa_score import judge  # noqa: E402

TRUTHS = ROOT / "tests" / "data" / "tables"


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Doc]:
    return make_docs(tmp_path_factory.mktemp("tableqa"), tableqa.SEED)


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_each_pdf_prints_its_frame_on_the_table_page(docs: dict[str, Doc]) -> None:
    assert len(docs) >= 12
    for doc in docs.values():
        pdf = pymupdf.open(doc.path)
        assert len(pdf) == doc.spec.get("pages", 1)
        page_text = _flat(pdf[doc.page - 1].get_text())
        missing = [cell for cell in printed_cells(doc) if cell not in page_text]
        assert not missing, f"{doc.name}: not on page {doc.page}: {missing}"
        caption = _flat(doc.spec["caption"])
        assert caption in page_text, doc.name
        others = [i + 1 for i, page in enumerate(pdf) if i + 1 != doc.page and caption in _flat(page.get_text())]
        assert not others, f"{doc.name}: caption also on pages {others}"
        # a row's cells are printed on one line, in the column order: the words of the row read left to right
        row = str(doc.frame.index[0])
        cols = doc.spec.get("order") or [c["key"] for c in doc.spec["columns"]]
        line = " ".join([row, *([str(doc.frame.at[row, "group"])] if "group" in doc.frame else [])])
        line += " " + " ".join(doc.cell(row, k) for k in cols)
        words = pdf[doc.page - 1].get_text("words", sort=True)
        assert _flat(line) in " ".join(w[4] for w in words), f"{doc.name}: first row not in order"


def test_layouts_vary(docs: dict[str, Doc]) -> None:
    specs = [d.spec for d in docs.values()]
    rulings = Counter(s["layout"]["ruling"] for s in specs)
    assert set(rulings) == {"grid", "booktabs", "none"}
    assert any(isinstance(c["header"], list) for s in specs for c in s["columns"]), "two-line headings"
    assert any(s["layout"].get("footnotes") for s in specs)
    assert any(re.search(r"thousand|million", s["caption"], re.I) for s in specs), "units in captions"
    assert any(
        c.get("negative") == "paren" and (docs[s["name"]].frame[c["key"]] < 0).any()
        for s in specs
        for c in s["columns"]
    ), "negatives in parentheses"
    assert any(c.get("percent") for s in specs for c in s["columns"])
    assert any(d.page > 1 for d in docs.values()), "a table past page 1"


def test_templates_and_questions_are_enough_and_split(docs: dict[str, Doc]) -> None:
    templates = tableqa.check_splits()
    for op in OPS:
        mine = [t for t in templates if t["op"] == op]
        assert len(mine) >= 10, op
        assert Counter(t["part"] for t in mine) == {"tuning": len(mine) // 2, "held": len(mine) - len(mine) // 2}
    questions = make_questions(docs, templates, tableqa.SEED) + tableqa.corpus_questions(Path("/nowhere"))
    assert len(questions) >= 150
    assert sum(q["part"] == "held" for q in questions) >= 75
    assert len({q["question"] for q in questions}) == len(questions), "no question asked twice"
    assert all("{" not in q["question"] for q in questions)
    assert len({q["table"] for q in questions if q["source"] == "corpus"}) >= 5


def _number(text: str) -> float:
    t = text.replace("$", "").replace("€", "").replace("%", "").strip()
    negative = t.startswith("(") and t.endswith(")")
    t = t.strip("()")
    t = t.replace(".", "").replace(",", ".") if re.fullmatch(r"[\d.]*,\d{2}", t) else t.replace(",", "")
    return -float(t) if negative else float(t)


def test_corpus_answers_follow_from_the_checked_truths() -> None:
    _, rows = load_rows(CORPUS)
    for r in rows:
        truth = json.loads((TRUTHS / f"{r['table']}.json").read_text())
        assert truth["file"] == r["file"] and truth["page"] == r["page"], r["id"]
        table = {row[0]: row for row in truth["rows"]}
        check, want = r["check"], r["expect"]["value"]

        def value(cell: list, table: dict = table) -> float:
            return _number(table[cell[0]][cell[1]])

        vals = [value(c) for c in check.get("cells", [])]
        do = check["do"]
        if do == "value":
            got: object = vals[0]
        elif do == "sum":
            got = sum(vals)
        elif do == "diff":
            got, want = abs(vals[0] - vals[1]), abs(want)
        elif do == "share":
            got = vals[0] / vals[1] * 100
        elif do == "mean":
            got = sum(vals) / len(vals)
        elif do in ("argmax", "argmin"):
            pick = max if do == "argmax" else min
            got = pick(check["cells"], key=value)[0]
        elif do in ("count", "above"):
            keep = [
                c[0]
                for c, v in zip(check["cells"], vals, strict=True)
                if (abs(v) if check.get("abs") else v) > check["gt"]
            ]
            got = len(keep) if do == "count" else keep
        elif do == "count_rise":
            a, b = check["cols"]
            got = sum(_number(table[row][a]) > _number(table[row][b]) for row in check["rows"])
        else:
            raise AssertionError(do)
        if isinstance(want, float | int) and not isinstance(want, bool):
            assert got == pytest.approx(want, rel=1e-4), r["id"]
        else:
            assert got == want, r["id"]
        page_text = (
            _flat(pymupdf.open(tableqa.SHARED / "corpus" / r["file"])[r["page"] - 1].get_text())
            if (tableqa.SHARED / "corpus" / r["file"]).exists()
            else None
        )
        if page_text is not None:
            assert all(cell in page_text for cell in r["cells"]), r["id"]


QUESTION = {
    "file": "/tmp/x/regional_sales.pdf",
    "page": 2,
    "cells": ["1,234"],
    "expect": {"type": "number", "value": 1234.0, "scale": 1000.0},
}
CITED = [{"file": "/elsewhere/regional_sales.pdf", "page": 2, "quote": "North Retail 1,234 1,100"}]


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ({"answered": True, "answer": "North sold 1,234 (USD thousands).", "citations": CITED}, "right"),
        ({"answered": True, "answer": "About $1.23 million.", "citations": CITED}, "right"),
        ({"answered": True, "answer": "North sold 1,100.", "citations": CITED}, "wrong"),
        ({"answered": True, "answer": "Table 2. Sales by region, 2024", "citations": CITED}, "wrong"),
        ({"answered": False, "answer": "The closest passage: North Retail 1,234", "citations": CITED}, "refused"),
        ({"error": "no reply in 120 s"}, "error"),
    ],
)
def test_scorer_counts_right_wrong_and_refused(reply: dict, verdict: str) -> None:
    got = judge(QUESTION, {**reply, "stats": {"llm_calls": 0}})
    assert got["verdict"] == verdict
    if verdict == "right":
        assert got["evidence"] and got["cells"] and got["source"] == "rules"
    if verdict in ("refused", "error"):
        assert got["source"] is None


def test_scorer_reads_names_lists_counts_and_shares() -> None:
    def q(expect: dict) -> dict:
        return {**QUESTION, "expect": expect}

    labels = ["North", "North East", "South", "Total"]
    name = q({"type": "name", "value": "North", "labels": labels})
    assert judge(name, {"answered": True, "answer": "North (2,058), ahead of South."})["verdict"] == "right"
    assert judge(name, {"answered": True, "answer": "North East had the most."})["verdict"] == "wrong"
    names = q({"type": "names", "value": ["North", "South"], "labels": labels})
    assert judge(names, {"answered": True, "answer": "South and North."})["verdict"] == "right"
    assert judge(names, {"answered": True, "answer": "North only."})["verdict"] == "wrong"
    assert judge(names, {"answered": True, "answer": "North, South and North East."})["verdict"] == "wrong"
    count = q({"type": "count", "value": 3})
    assert judge(count, {"answered": True, "answer": "Three regions."})["verdict"] == "right"
    assert judge(count, {"answered": True, "answer": "4"})["verdict"] == "wrong"
    share = q({"type": "percent", "value": 23.43})
    for text in ("23.4%", "about 23%", "0.234 of the total"):
        assert judge(share, {"answered": True, "answer": text})["verdict"] == "right", text
    assert judge(share, {"answered": True, "answer": "25%"})["verdict"] == "wrong"
    negative = q({"type": "number", "value": -153.0, "scale": 1e6})
    assert judge(negative, {"answered": True, "answer": "(153)"})["verdict"] == "right"
    assert judge(negative, {"answered": True, "answer": "a loss of $153 million"})["verdict"] == "right"
    assert judge(negative, {"answered": True, "answer": "153"})["verdict"] == "wrong"
    bracketed = q({"type": "number", "value": -0.8, "scale": 1})
    for text in ("(0.8%)", "(0.8)%", "-0.8%"):
        assert judge(bracketed, {"answered": True, "answer": text})["verdict"] == "right", text
    assert judge(bracketed, {"answered": True, "answer": "0.8%"})["verdict"] == "wrong"
    comma = q({"type": "number", "value": 233.99, "scale": 1})
    assert judge(comma, {"answered": True, "answer": "€ 233,99"})["verdict"] == "right"
    dump = q({"type": "count", "value": 3})
    assert judge(dump, {"answered": True, "answer": " ".join(str(i) for i in range(12))})["verdict"] == "wrong"
