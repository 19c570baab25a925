"""Each paraphrase batch's first measurement, reproduced with the fast path as it was when the batch was committed.

    .venv/bin/python bench/blind_batches.py [--only x5]

A batch's honest figure is the one measured before anything changed because of it. This bench checks out the
commit that added each batch (a detached git worktree in a temporary folder), plans the batch's rows with that
commit's fast path (in a subprocess that imports only the old tree), and judges the plans with today's judge
(``bench/paraphrases.py``), so the figure can be reproduced by anyone with the history. It writes
``bench/results/blind-<batch>.json``. Rows are never printed.

Which batches count as blind (README, "How figures are labelled"): a batch written by an author who had seen only
what a user sees and measured before any change it caused. Batches written in the style of rows already tuned on
are first measurements, labelled ``tuning``, not ``blind``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from paraphrases import files_of, judge  # noqa: E402
from results import write_result  # noqa: E402

from docpilot.plans.plan import Plan  # noqa: E402

# (name, the commit that added the batch, its file, the id prefix of its rows, label, who wrote it)
BATCHES = [
    ("first", "3c3c247", "paraphrases.jsonl", (), "blind", "written by a helper who had not read the fast path"),
    ("x1", "bcc8c36", "paraphrases_extra.jsonl", ("x",), "tuning", "written by the session that built the fast path"),
    ("x2", "182079e", "paraphrases_extra.jsonl", ("x2",), "tuning", "written by the session that built the fast path"),
    ("x3", "962a27c", "paraphrases_extra.jsonl", ("x3",), "tuning", "written by the session that built the fast path"),
    ("x4", "fa0a67b", "paraphrases_extra.jsonl", ("x4a", "x4b"), "blind", "two authors who had not read the rules"),
    ("x5", "743894f", "paraphrases_extra.jsonl", ("x5",), "tuning", "written in the style of the tuned rows"),
]

_PLAN_ROWS = """
import json, sys
from docpilot.files import FileInfo
from docpilot.planning.fastpath import NeedInfo, fast_plan
for line in sys.stdin:
    row = json.loads(line)
    files = {}
    for f in row.get("files") or [{"name": "report.pdf", "pages": 12}]:
        kind = f.get("kind") or ("pdf" if f["name"].lower().endswith(".pdf") else "image")
        pages = f.get("pages") if kind == "pdf" else None
        files[f["name"]] = FileInfo(f["name"], "/bench/" + f["name"], kind, pages=pages)
    try:
        plan = fast_plan(row["request"], files)
        out = plan.dump() if plan is not None else None
    except NeedInfo:
        out = "question"
    except Exception as exc:  # noqa: BLE001 - an old fast path's crash is part of its first measurement
        out = {"crash": type(exc).__name__}
    print(json.dumps({"id": row["id"], "plan": out}))
"""


def _plans(commit: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), commit], cwd=ROOT, check=True)
        try:
            env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
            done = subprocess.run(
                [sys.executable, "-c", _PLAN_ROWS],
                input="".join(json.dumps(r) + "\n" for r in rows),
                capture_output=True,
                text=True,
                env=env,
                cwd=tree,
                check=True,
            )
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=True)
    return {d["id"]: d["plan"] for d in map(json.loads, done.stdout.splitlines())}


def measure(name: str, commit: str, file: str, prefixes: tuple[str, ...], label: str, author: str) -> dict[str, Any]:
    """The batch's rows as committed then (later commits changed some expectations), planned as then."""
    shown = subprocess.run(
        ["git", "show", f"{commit}:bench/{file}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    rows = [json.loads(line) for line in shown.splitlines() if line.strip()]
    rows = [r for r in rows if not prefixes or r["id"].split("-")[0] in prefixes]
    plans = _plans(commit, rows)
    planned = right = wrong = crashed = 0
    for row in rows:
        got = plans.get(row["id"])
        if isinstance(got, dict) and "crash" in got:
            crashed += 1
            continue
        if not isinstance(got, dict):
            continue
        planned += 1
        plan = Plan.model_validate(got)
        ok = row["expect"] != "not_fast" and judge(plan, row["expect"], files_of(row)) is None
        right += ok
        wrong += not ok
    explicit = sum(1 for r in rows if r["expect"] != "not_fast")
    figures = {
        "requests": len(rows),
        "explicit": explicit,
        "planned": planned,
        "right": right,
        "wrong": wrong,
        "crashed": crashed,
        "coverage_pct": round(100 * right / max(explicit, 1), 1),
        "precision": f"{right}/{planned}",
    }
    print(f"{name} at {commit}: {figures}")
    write_result(
        f"blind-{name}",
        figures,
        f"python bench/blind_batches.py --only {name}",
        label=label,
        notes=f"{author}; fast path as at {commit}, the commit that added the batch",
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="", help="one batch by name")
    opts = parser.parse_args()
    for batch in BATCHES:
        if not opts.only or batch[0] == opts.only:
            measure(*batch)


if __name__ == "__main__":
    main()
