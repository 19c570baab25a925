"""Grounding bench (issue F): does a plan touch the files the person meant, over two- and three-file uploads
and two-turn conversations (an answer to "which file?", "the same for …", a revision)?

    .venv/bin/python bench/grounding.py [--backend rules] [--show]

Each line of ``bench/grounding.jsonl``: the uploaded files (name, pages; no file is read), the turns (a
request, or ``{"revise": …}`` for a critique of the waiting plan), and what the last turn must give: the
files the plan touches and its tools, or ``{"question": true}``. Prints the accuracy; the target is ≥95%.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from results import write_result  # noqa: E402

from docpilot.conversation import Conversation  # noqa: E402
from docpilot.files import FileInfo  # noqa: E402
from docpilot.planning.planner import make_planner  # noqa: E402


def files_of(case: dict[str, Any]) -> dict[str, FileInfo]:
    out = {}
    for f in case["files"]:
        kind = f.get("kind", "pdf")
        out[f["name"]] = FileInfo(f["name"], f"/bench/{f['name']}", kind, pages=f.get("pages"))
    return out


def touched(plan: Any, files: dict[str, FileInfo]) -> set[str]:
    names: set[str] = set()
    for step in plan.steps:
        for key in ("file", "files"):
            value = step.args.get(key)
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and item in files and files[item].kind == "pdf":
                    names.add(item)
    return names


def judge(case: dict[str, Any], planner: Any) -> str | None:
    """None when the last turn gives what the line expects, else what it gave."""
    files = files_of(case)
    talk = Conversation(files)
    outcome = None
    for turn in case["turns"]:
        outcome = talk.revise(planner, turn["revise"]) if isinstance(turn, dict) else talk.request(planner, turn)
    assert outcome is not None
    want = case["expect"]
    if want.get("question"):
        return None if outcome.question is not None else f"no question: {outcome.error or _show(outcome)}"
    if outcome.plan is None:
        return f"no plan: {outcome.question.text if outcome.question else outcome.error}"
    got_files, got_tasks = touched(outcome.plan, files), {s.task for s in outcome.plan.steps}
    if got_files != set(want["files"]) or got_tasks != set(want["tasks"]):
        return f"files {sorted(got_files)} tools {sorted(got_tasks)}"
    return None


def _show(outcome: Any) -> str:
    return outcome.plan.dumps() if outcome.plan is not None else "nothing"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, default=HERE / "grounding.jsonl")
    parser.add_argument("--backend", default="rules")
    parser.add_argument("--show", action="store_true", help="print every case, not only the misses")
    opts = parser.parse_args()
    planner = make_planner(opts.backend, os.environ)
    cases = [json.loads(line) for line in opts.file.read_text().splitlines() if line.strip()]
    right = 0
    for case in cases:
        why = judge(case, planner)
        right += why is None
        if why is not None or opts.show:
            turns = " → ".join(t["revise"] if isinstance(t, dict) else t for t in case["turns"])
            print(f"{'ok  ' if why is None else 'MISS'} {case['id']}: {turns}" + (f"\n      {why}" if why else ""))
    print(f"grounding accuracy ({opts.backend}): {right}/{len(cases)} = {right / len(cases):.1%}")
    write_result(
        f"grounding-{opts.backend}",
        {"right": right, "cases": len(cases), "score": f"{right}/{len(cases)}"},
        label="tuning",
        notes="bench/grounding.jsonl was read while the grounding rules were built: a tuning score",
    )


if __name__ == "__main__":
    main()
