"""A blind batch through the whole planner (fast path, then the model's rewrite), measured once.

    .venv/bin/python bench/blind_planner.py --batch i1 [--planner local|rules] [--write]

A batch (``bench/blind_<batch>.jsonl``) was written by an author who saw only the tool catalogue and the
corpus files. Its rows name real corpus files (``{"path": "real/x.pdf"}``, inspected here as an upload
would be: page count, outline, headings) or made-up ones (``{"name", "pages"}``), and expect steps or
``"question"``. Each row is planned as the product plans it and judged with ``bench/paraphrases.py``'s
judge: right, wrong (a plan that is not the expected one, or a plan where a question was expected), or
safe (a question, a refusal or no plan where steps were expected). Rows are never printed: only counts,
so the batch stays blind for the next change. ``--write`` keeps the figure in
``bench/results/blind-<batch>-<planner>.json``; the first measurement of a batch is the one to keep.
``--dump FILE`` writes each row's outcome (request, expected, reading, plan, why it was judged so) for study; it is
refused until the batch's first measurement is kept, since a batch read is a tuning set from then on.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from paraphrases import judge  # noqa: E402
from results import load_average, write_batch_result  # noqa: E402

from docpilot.errors import DocPilotError  # noqa: E402
from docpilot.files import FileInfo, inspect_files  # noqa: E402

SHARED = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared"))


def files_of(row: dict[str, Any]) -> dict[str, FileInfo]:
    out: dict[str, FileInfo] = {}
    for f in row.get("files") or [{"name": "report.pdf", "pages": 12}]:
        if "path" in f:
            out.update(inspect_files([SHARED / "corpus" / f["path"]]))
        else:
            kind = "pdf" if f["name"].lower().endswith(".pdf") else "image"
            out[f["name"]] = FileInfo(f["name"], f"/bench/{f['name']}", kind, pages=f.get("pages"))
    return out


def verdict(outcome: Any, row: dict[str, Any], files: dict[str, FileInfo]) -> str:
    expect = row["expect"]
    if outcome.plan is not None:
        if expect == "question":
            return "wrong"
        return "right" if judge(outcome.plan, expect, files) is None else "wrong"
    if outcome.question is not None:
        return "right" if expect == "question" else "safe"
    return "safe"


def _fast_planned(request: str, files: dict[str, FileInfo]) -> bool:
    """Whether the fast path plans (or asks about) the request without the model."""
    from docpilot.planning.fastpath import NeedInfo, fast_plan

    try:
        return fast_plan(request, files) is not None
    except NeedInfo:
        return True


def _outcome_row(row: dict[str, Any], outcome: Any, files: dict[str, FileInfo], result: str) -> dict[str, Any]:
    why = None
    if outcome.plan is not None and row["expect"] != "question":
        why = judge(outcome.plan, row["expect"], files)
    return {
        "id": row["id"],
        "request": row["request"],
        "expect": row["expect"],
        "result": result,
        "backend": outcome.backend,
        "reading": outcome.reading,
        "plan": outcome.plan.dump()["steps"] if outcome.plan is not None else None,
        "question": outcome.question.text if outcome.question is not None else None,
        "error": outcome.error,
        "why": why,
        "seconds": round(outcome.stats.seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", default="i1")
    parser.add_argument("--planner", choices=("local", "openai", "rules"), default="local")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--write", action="store_true", help="keep the figure in bench/results/")
    parser.add_argument(
        "--tuning", action="store_true", help="with --write: a measured batch again (blind-<batch>-<planner>-tuning)"
    )
    parser.add_argument("--dump", type=Path, help="each row's outcome, as JSON lines (a measured batch only)")
    parser.add_argument("--only", choices=("model",), help="only the rows the fast path hands to the model")
    opts = parser.parse_args()
    if opts.only and opts.write:
        raise SystemExit("--only measures part of the batch: it cannot be its figure")
    if (opts.dump or opts.tuning) and not list((HERE / "results").glob(f"blind-{opts.batch}-*.json")):
        raise SystemExit(f"batch {opts.batch} has no first measurement kept: measure it (--write) before reading it")
    from docpilot.planning.planner import make_planner

    rows = [json.loads(x) for x in (HERE / f"blind_{opts.batch}.jsonl").read_text().splitlines() if x.strip()]
    rows = rows[: opts.limit] if opts.limit else rows
    planner = make_planner(opts.planner, os.environ)
    load = load_average()
    if planner.llm is not None:
        planner.warm()
    counts: Counter[str] = Counter()
    structure: Counter[str] = Counter()
    by_path: Counter[str] = Counter()
    seconds: list[float] = []
    tracebacks = 0
    dump = opts.dump.open("w") if opts.dump else None
    for number, row in enumerate(rows, 1):
        files = files_of(row)
        if opts.only == "model" and _fast_planned(row["request"], files):
            continue
        started = time.perf_counter()
        try:
            outcome = planner.plan(row["request"], files)
        except DocPilotError:
            counts["safe"] += 1
            continue
        except Exception:  # noqa: BLE001 - a traceback is a failure of the product: counted, never hidden
            tracebacks += 1
            counts["wrong"] += 1
            continue
        seconds.append(time.perf_counter() - started)
        result = verdict(outcome, row, files)
        counts[result] += 1
        by_path[f"{outcome.backend}:{result}"] += 1
        if dump is not None:
            dump.write(json.dumps(_outcome_row(row, outcome, files, result)) + "\n")
            dump.flush()
        if row.get("note"):
            structure[result] += 1
        print(f"{number}/{len(rows)} {dict(counts)}", file=sys.stderr, flush=True)
    n = len(rows)
    figures = {
        "rows": n,
        "right": counts["right"],
        "wrong": counts["wrong"],
        "safe": counts["safe"],
        "right_share": round(counts["right"] / max(n, 1), 4),
        "wrong_share": round(counts["wrong"] / max(n, 1), 4),
        "structure_rows": sum(structure.values()),
        "structure_right": structure["right"],
        "structure_wrong": structure["wrong"],
        "by_path": dict(sorted(by_path.items())),
        "tracebacks": tracebacks,
        "median_seconds": round(statistics.median(seconds), 2) if seconds else None,
        "max_seconds": round(max(seconds), 1) if seconds else None,
        "planner": opts.planner,
    }
    print(json.dumps(figures, indent=1))
    if opts.write:
        write_batch_result(
            f"blind-{opts.batch}-{opts.planner}",
            figures,
            tuning=opts.tuning,
            load=load,
            notes="First measurement of the batch through the whole planner; rows never printed.",
        )
    if tracebacks:
        raise SystemExit(f"{tracebacks} request(s) ended in a traceback")


if __name__ == "__main__":
    main()
