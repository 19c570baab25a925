"""Table QA bench (issue K): questions over tables whose answers are known without the code under test.

    .venv/bin/python bench/tableqa.py [--part tuning|held|all] [--limit N] [--backend auto|local|openai|rules]
        [--via service|cli] [--timeout S] [--show]

Two sources of questions:
- synthetic: the known frames of ``bench/tableqa/frames.json`` printed into small PDFs in a temporary folder at bench
  time (``bench/tableqa_docs.py``: ruled and whitespace-aligned tables, two-line headings, units in captions,
  negatives in parentheses, thousands separators, percents, footnotes, text around, tables past page 1), asked with
  the templates of ``bench/tableqa/templates.jsonl``; the expected answers are computed from the frames with pandas;
- corpus: ``bench/tableqa/corpus.jsonl``, written by hand over corpus tables checked against their pages.
Operations: argmax, argmin, a cell, a sum of 2-4 named rows, a difference of two cells, the rows above or below a
threshold, a count with a condition, a share of a total, a mean over a filtered group.

Each op's templates (and each corpus table's questions) are split into a ``tuning`` and a ``held`` half by a seeded
shuffle recorded in the files. The held part prints its numbers only, never its rows (``--show`` prints tuning rows).
``--limit N`` asks the first N questions of each part (taken by op in turn, so every op is asked).

Per question (``bench/tableqa_score.py``): right, evidence (a citation on the table's page), cells (the quotes hold
every deciding cell), confident wrong (answered and not right), refused (``answered`` false), error (no reply: a
crash or the time limit); seconds; and rules or program (``stats.llm_calls`` 0 or more). ``--via service`` (the
default) asks ``DocPilot.ask`` in a worker process that stays up between questions (killed and restarted at the
time limit), and builds the same JSON as ``docpilot ask --json``; ``--via cli`` runs ``docpilot ask --json`` per
question. Figures go to ``bench/results/tableqa-<part>-<backend>.json`` (label ``tuning`` for the tuning part,
``measure`` for the held part).
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from results import load_average, write_result  # noqa: E402
from tableqa_docs import make_docs  # noqa: E402
from tableqa_questions import (  # noqa: E402
    CORPUS,
    OPS,
    TEMPLATES,
    corpus_questions,
    load_rows,
    make_questions,
    ordered,
    split_parts,
)
from tableqa_score import SHARED, judge  # noqa: E402

SEED = 20240611
PARTS = ("tuning", "held")


def check_splits() -> list[dict[str, Any]]:
    """The templates, after checking that the parts recorded in both files are the seeded shuffle's."""
    for path, key in ((TEMPLATES, "op"), (CORPUS, "table")):
        meta, rows = load_rows(path)
        groups: dict[str, list[str]] = {}
        for row in rows:
            groups.setdefault(row[key], []).append(row["id"])
        want = split_parts(groups, meta["split_seed"])
        wrong = [r["id"] for r in rows if r["part"] != want[r["id"]]]
        if wrong:
            raise SystemExit(f"{path.name}: parts differ from the recorded seeded split: {wrong[:5]}")
    return load_rows(TEMPLATES)[1]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}


class Asker:
    """Asks one question at a time: in a long-lived worker (``service``) or by ``docpilot ask --json`` (``cli``)."""

    def __init__(self, backend: str, via: str, timeout: float, log: Path) -> None:
        self.backend, self.via, self.timeout, self.log = backend, via, timeout, log
        self.proc: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--backend", self.backend]
        with self.log.open("a") as err:
            proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT, env=_env()
            )
        if self._line(proc, 900) is None:
            proc.kill()
            raise SystemExit("the worker did not start:\n" + self.log.read_text()[-2000:])
        return proc

    @staticmethod
    def _line(proc: subprocess.Popen[str], timeout: float) -> str | None:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        line = proc.stdout.readline() if ready else ""
        return line or None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def ask(self, question: str, file: str | list[str]) -> dict[str, Any]:
        files = [file] if isinstance(file, str) else file
        if self.via == "cli":
            return self._ask_cli(question, files)
        if self.proc is None:
            self.proc = self._start()
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"question": question, "files": files}) + "\n")
        self.proc.stdin.flush()
        line = self._line(self.proc, self.timeout)
        if line is None:
            self.stop()
            return {"error": f"no reply in {self.timeout:.0f} s"}
        return dict(json.loads(line))

    def _ask_cli(self, question: str, files: list[str]) -> dict[str, Any]:
        cmd = [sys.executable, "-m", "docpilot", "ask", question, *files, "--json", "--backend", self.backend]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout, cwd=ROOT, env=_env())
        except subprocess.TimeoutExpired:
            return {"error": f"no reply in {self.timeout:.0f} s"}
        lines = [ln for ln in done.stdout.splitlines() if ln.strip().startswith("{")]
        return dict(json.loads(lines[-1])) if lines else {"error": "no JSON"}


def worker(backend: str) -> None:
    """Answer questions from stdin (one JSON line each) with ``DocPilot.ask``, as ``docpilot ask --json`` prints
    them; whatever the product prints goes to stderr so stdout carries only the replies."""
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    from docpilot import service
    from docpilot.errors import USER_ERRORS
    from docpilot.files import inspect_files
    from docpilot.settings import Settings

    pilot = service.make_pilot(Settings.from_env(backend))
    pilot.warm()
    print(json.dumps({"ready": True}), file=out, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        question = request["question"]
        try:
            answer = pilot.ask(question, inspect_files(request["files"]))
            reply = {"ok": True, "question": question, **answer, "error": None}
        except USER_ERRORS as exc:
            reply = {"ok": False, "question": question, "answer": None, "answered": False, "citations": []}
            reply["error"] = str(exc)
        except Exception as exc:  # noqa: BLE001 - a crash is this question's reply (an error), not the bench's end
            reply = {"ok": False, "question": question, "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(reply, default=str), file=out, flush=True)


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    count = {v: sum(r["verdict"] == v for r in rows) for v in ("right", "wrong", "refused", "error")}
    secs = sorted(r["seconds"] for r in rows)
    return {
        "questions": n,
        "right": count["right"],
        "evidence": sum(r["evidence"] for r in rows),
        "cells": sum(r["cells"] for r in rows),
        "confident_wrong": count["wrong"],
        "refused": count["refused"],
        "errors": count["error"],
        "median_seconds": round(statistics.median(secs), 2) if secs else 0.0,
        "p95_seconds": round(secs[min(n - 1, int(0.95 * n))], 2) if secs else 0.0,
        "rules": sum(r["source"] == "rules" for r in rows),
        "programs": sum(r["source"] == "program" for r in rows),
        # where the confident wrong answers came from (rules, program, the passages): numbers only
        "confident_wrong_from": dict(Counter(r["source"] or "passages" for r in rows if r["verdict"] == "wrong")),
    }


def report(part: str, rows: list[dict[str, Any]], header: str) -> dict[str, Any]:
    """Print the part's table (per op and all) and return its figures."""
    print(f"\n{part}: {header}")
    cols = ["questions", "right", "evidence", "cells", "confident_wrong", "refused", "errors", "median_seconds"]
    cols += ["rules", "programs"]
    names = ["n", "right", "evidence", "cells", "conf.wrong", "refused", "errors", "median s", "rules", "programs"]
    print(f"{'op':<8}" + "".join(f"{h:>11}" for h in names))
    by_op = {op: _summary([r for r in rows if r["op"] == op]) for op in OPS if any(r["op"] == op for r in rows)}
    total = _summary(rows)
    for name, s in [*by_op.items(), ("all", total)]:
        print(f"{name:<8}" + "".join(f"{s[c]:>11}" for c in cols))
    n = max(total["questions"], 1)
    print(
        f"{part}: right {total['right']}/{n} ({100 * total['right'] / n:.0f}%), evidence {total['evidence']}/{n}, "
        f"cells {total['cells']}/{n}, confident wrong {total['confident_wrong']}/{n} "
        f"({100 * total['confident_wrong'] / n:.1f}%), refused {total['refused']}, errors {total['errors']}, "
        f"rules {total['rules']}, programs {total['programs']}"
    )
    sources = {s: _summary([r for r in rows if r["source_set"] == s]) for s in ("synthetic", "corpus")}
    return {**total, "by_op": by_op, "by_source": sources}


def _show(q: dict[str, Any], reply: dict[str, Any], row: dict[str, Any]) -> None:
    expect = q["expect"]
    print(
        f"{row['verdict']:<7} {q['id']} [{Path(q['file']).name} p{q['page']}] {q['question']}\n"
        f"        want {expect['value']!r} (scale {expect.get('scale', 1)}) cells {q['cells']}; "
        f"evidence {row['evidence']} cells {row['cells']} {row['seconds']:.1f}s {row['source'] or ''}\n"
        f"        got  {str(reply.get('answer') or reply.get('error') or '')[:200]!r}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=["tuning", "held", "all"], default="all")
    parser.add_argument("--limit", type=int, default=0, help="ask the first N questions of each part")
    parser.add_argument("--backend", choices=["auto", "local", "openai", "rules"], default="auto")
    parser.add_argument("--via", choices=["service", "cli"], default="service")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a question may take")
    parser.add_argument("--show", action="store_true", help="print each tuning row (held rows are never printed)")
    parser.add_argument("--corpus", type=Path, default=SHARED / "corpus")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.worker:
        worker(opts.backend)
        return
    load = load_average()
    templates = check_splits()
    parts = PARTS if opts.part == "all" else (opts.part,)
    with tempfile.TemporaryDirectory(prefix="tableqa-") as tmp:
        docs = make_docs(Path(tmp), SEED)
        questions = make_questions(docs, templates, SEED) + corpus_questions(opts.corpus)
        asker = Asker(opts.backend, opts.via, opts.timeout, Path(tmp) / "worker.log")
        try:
            for part in parts:
                chosen = ordered([q for q in questions if q["part"] == part], SEED)
                chosen = chosen[: opts.limit] if opts.limit else chosen
                rows = []
                for q in chosen:
                    started = time.perf_counter()
                    reply = asker.ask(q["question"], q["file"])
                    row = {**judge(q, reply), "seconds": time.perf_counter() - started}
                    row.update(op=q["op"], source_set=q["source"])
                    rows.append(row)
                    if opts.show and part == "tuning":
                        _show(q, reply, row)
                of = sum(q["part"] == part for q in questions)
                header = f"{len(rows)} of {of} questions, backend {opts.backend}, via {opts.via}"
                figures = report(part, rows, header)
                figures.update(backend=opts.backend, via=opts.via, limit=opts.limit, of=of, seed=SEED)
                notes = (
                    "held-out templates and corpus rows: numbers only, rows never printed"
                    if part == "held"
                    else "tuning half: rows may be read while building"
                )
                label = "tuning" if part == "tuning" else "measure"
                write_result(f"tableqa-{part}-{opts.backend}", figures, label=label, load=load, notes=notes)
        finally:
            asker.stop()


if __name__ == "__main__":
    main()
