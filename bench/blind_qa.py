"""A blind QA batch through ``docpilot ask`` (the embedded default), measured once: answers, evidence, confident wrong.

    .venv/bin/python bench/blind_qa.py [--batch q1] [--backend local] [--via service|cli] [--write]

A batch (``bench/blind_<batch>.jsonl``, qa_dev.jsonl's row shape) was written by an author who saw only the corpus
files and the row format. Each row is asked as ``docpilot ask --json`` answers it (``--via service``: one warm
worker, as the app asks; ``--via cli``: a new process per question, as ``../shared/bench/qa_check.py`` asks) and
judged by the rules of ``qa_check.py`` (its own ``norm`` and ``numbers``): an answer is right when it holds what the
row asks and is ``answered``; a reply that composes no answer is a miss; an unanswerable row passes only when the
reply says the documents do not answer it. A confident wrong answer is one given as an answer (``answered`` true)
that is not right, or any answer to an unanswerable row. Rows are never printed, only counts, so the batch stays
blind until its first measurement is kept (``--write``: ``bench/results/blind-<batch>.json``, label ``blind``).
``--dump FILE`` writes each row with its reply and verdict for study; it is refused until the batch's first
measurement is kept (or beside ``--write``, the file to be read only after the figure is kept), since a batch read is
a tuning set from then on.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from results import load_average, write_batch_result  # noqa: E402
from tableqa import Asker  # noqa: E402
from tableqa_score import SHARED  # noqa: E402


def _qa_check() -> Any:
    """The shared scorer's module, for its own ``norm`` and ``numbers``."""
    spec = importlib.util.spec_from_file_location("qa_check", SHARED / "bench" / "qa_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def judge(row: dict[str, Any], out: dict[str, Any], qa: Any) -> dict[str, bool | None]:
    """right / evidence (None when the row has none) / confident_wrong for one reply, as qa_check.py judges."""
    answer = str(out.get("answer") or "")
    a = qa.norm(answer)
    answered = bool(out.get("answered")) and bool(answer)
    if row.get("unanswerable"):
        right = not answered
        return {"right": right, "evidence": None, "confident_wrong": answered}
    if not answered or len(answer) > 600 or len(re.findall(r"\d[\d,]*\.?\d*", answer)) > 8:
        right = False
    elif row.get("answer_contains"):
        right = all(qa.norm(k) in a for k in row["answer_contains"])
    else:
        want_n = row.get("answer_number")
        right = any(qa.norm(k) in a for k in row.get("answer_any") or []) or (
            want_n is not None
            and any(
                math.isclose(v, want_n, rel_tol=row.get("rel_tol", 0.005), abs_tol=1e-12) for v in qa.numbers(answer)
            )
        )
    evidence = None
    if row.get("evidence_pages"):
        name = Path((row.get("files") or [row["file"]])[0]).name
        cites = [c for c in out.get("citations") or [] if isinstance(c, dict)]
        pages = {c.get("page") for c in cites if not c.get("file") or Path(str(c["file"])).name == name}
        evidence = len(pages) <= 5 and bool(pages & set(row["evidence_pages"]))
    return {"right": right, "evidence": evidence, "confident_wrong": answered and not right}


def _over_tables(row: dict[str, Any]) -> bool:
    """Whether the row's author says it is over a table or a record: its ``over`` ("table", "record" or "text"),
    or, in batches written before rows had one (q1–q8), a note (the author's computation) — which q8's author
    wrote on every row, so its count is all its rows."""
    if "over" in row:
        return row["over"] in ("table", "record")
    return bool(row.get("note"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", default="q1")
    parser.add_argument("--backend", default="local")
    parser.add_argument("--via", choices=["service", "cli"], default="service")
    parser.add_argument("--timeout", type=float, default=240)
    parser.add_argument("--write", action="store_true", help="keep the figure in bench/results/")
    parser.add_argument("--tuning", action="store_true", help="with --write: a measured batch again (-tuning)")
    parser.add_argument("--dump", type=Path, help="each row, its reply and verdict, as JSON lines (a measured batch)")
    parser.add_argument("--only", help="with --dump: only these rows (ids, comma-separated)")
    opts = parser.parse_args()
    if (opts.tuning or (opts.dump and not opts.write)) and not (HERE / "results" / f"blind-{opts.batch}.json").exists():
        parser.error(f"--dump reads the rows: measure batch {opts.batch} once with --write first")
    if opts.write and opts.only:
        parser.error("--write keeps a whole batch's first measurement: no --only")
    qa = _qa_check()
    rows = [json.loads(x) for x in (HERE / f"blind_{opts.batch}.jsonl").read_text().splitlines() if x.strip()]
    rows = [r for r in rows if not opts.only or r["id"] in opts.only.split(",")]
    dump = opts.dump.open("w") if opts.dump else None
    load = load_average()
    verdicts: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        asker = Asker(opts.backend, opts.via, opts.timeout, Path(tmp) / "worker.log")
        try:
            for number, row in enumerate(rows, 1):
                files = [str(SHARED / "corpus" / f) for f in (row.get("files") or [row["file"]])]
                started = time.perf_counter()
                out = asker.ask(row["question"], files)
                verdict = judge(row, out, qa)
                verdict.update(
                    seconds=time.perf_counter() - started, error=bool(out.get("error")) and not out.get("ok")
                )
                verdict["tables"] = _over_tables(row)
                verdicts.append(verdict)
                if dump is not None:
                    dump.write(json.dumps({"row": row, "reply": out, "verdict": verdict}) + "\n")
                    dump.flush()
                done = {k: sum(bool(v[k]) for v in verdicts) for k in ("right", "confident_wrong")}
                print(f"{number}/{len(rows)} {done}", file=sys.stderr, flush=True)
        finally:
            asker.stop()
    with_evidence = [v for v in verdicts if v["evidence"] is not None]
    tables = [v for v in verdicts if v["tables"]]
    secs = sorted(v["seconds"] for v in verdicts)
    n = len(verdicts)
    figures = {
        "questions": n,
        "answers": f"{sum(v['right'] for v in verdicts)}/{n}",
        "answers_share": round(sum(v["right"] for v in verdicts) / max(n, 1), 4),
        "evidence": f"{sum(bool(v['evidence']) for v in with_evidence)}/{len(with_evidence)}",
        "confident_wrong": f"{sum(v['confident_wrong'] for v in verdicts)}/{n}",
        "confident_wrong_share": round(sum(v["confident_wrong"] for v in verdicts) / max(n, 1), 4),
        "tables_and_records": f"{sum(v['right'] for v in tables)}/{len(tables)}",
        "errors": sum(v["error"] for v in verdicts),
        "median_seconds": round(statistics.median(secs), 1) if secs else None,
        "p95_seconds": round(secs[min(n - 1, int(0.95 * n))], 1) if secs else None,
        "backend": opts.backend,
        "via": opts.via,
    }
    print(json.dumps(figures, indent=1))
    if opts.write:
        write_batch_result(
            f"blind-{opts.batch}",
            figures,
            tuning=opts.tuning,
            command=f"python bench/blind_qa.py --batch {opts.batch} --backend {opts.backend} --via {opts.via} --write",
            load=load,
            notes="First measurement of the batch; rows never printed. 'tables_and_records': rows whose 'over' is "
            "table or record (before rows had one: rows with a note, the author's computation).",
        )


if __name__ == "__main__":
    main()
