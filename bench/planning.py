"""Planning speed (run by hand): fast-path CLI calls, share planned with 0 LLM calls, LLM-planned requests.

    .venv/bin/python bench/planning.py [--llm-requests 6] [--skip-cold]

Fast path: `docpilot plan` as a new process per DocBench dev request. LLM: requests the fast path hands over,
planned warm in one process (model loaded once), plus one cold CLI call; prompt tokens per request.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from results import load_average, write_result  # noqa: E402

SHARED = HERE.parent.parent / "shared"
CONTRACT = SHARED / "corpus" / "synthetic" / "contract.pdf"
QUESTION = "Who represents the Consultant, and what is the monthly fee?"  # answered by the model between plans
LLM_REQUESTS = [  # requests the fast path hands to the LLM (checked: each is planned with >= 1 LLM call)
    "Highlight where the agreement says when it ends",
    "Tidy up this file for the board meeting",
    "Make a version I can email to the client without any personal contact details",
    "I need just the payment schedule section as its own file",
    "Prepare the contract for archiving",
    "Mark up anything the lawyers should double-check",
]


def fast_path() -> tuple[list[float], int, int]:
    cases = [json.loads(x) for x in (SHARED / "bench" / "workflows.jsonl").read_text().splitlines() if x.strip()]
    times, zero = [], 0
    env = {**os.environ, "DOCPILOT_BACKEND": "rules"}
    for case in cases:
        files = [str(SHARED / "corpus" / f) for f in case["files"]]
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "docpilot", "plan", case["request"], *files, "--json"],
            capture_output=True,
            text=True,
            env=env,
        )
        times.append(time.perf_counter() - start)
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        zero += bool(result["ok"] or "valid pages" in (result.get("error") or ""))
    return times, zero, len(cases)


def llm_warm(n: int, interleave: bool = False) -> list[tuple[str, float, int, int, bool]]:
    sys.path.insert(0, str(HERE.parent))
    from docpilot.files import inspect_files
    from docpilot.service import make_pilot
    from docpilot.settings import Settings

    # one process, one model: with --interleave the answer job runs between rewrites, so each job's prefix
    # state must come back without being read again
    pilot = make_pilot(Settings.from_env("local"))
    planner = pilot.planner
    files = inspect_files([CONTRACT])
    planner.warm()
    rows = []
    for request in LLM_REQUESTS[:n]:
        outcome = planner.plan(request, files)
        parsed = outcome.ok or "could not make a valid plan" not in (outcome.error or "")
        rows.append((request, outcome.stats.seconds, outcome.stats.prompt_tokens, outcome.stats.llm_calls, parsed))
        if interleave:
            pilot.ask(QUESTION, files)
    return rows


def llm_cold() -> tuple[float, dict]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "docpilot", "plan", LLM_REQUESTS[0], str(CONTRACT), "--json", "--backend", "local"],
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - start, json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--llm-requests", type=int, default=len(LLM_REQUESTS))
    parser.add_argument("--skip-cold", action="store_true")
    parser.add_argument("--interleave", action="store_true", help="a model-answered question between plans")
    opts = parser.parse_args()
    load = load_average()
    times, zero, total = fast_path()
    figures: dict[str, object] = {
        "fast_planned": f"{zero}/{total}",
        "fast_median_seconds": round(statistics.median(times), 2),
        "fast_max_seconds": round(max(times), 2),
    }
    print(
        f"fast path: {total} dev requests, `docpilot plan` per call median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s; planned with 0 LLM calls: {zero}/{total} ({100 * zero / total:.0f}%)"
    )
    if not opts.skip_cold:
        seconds, result = llm_cold()
        figures["llm_cold_seconds"] = round(seconds, 1)
        print(
            f"LLM cold CLI call: {seconds:.1f} s, prompt tokens {result['stats']['prompt_tokens']}, ok {result['ok']}"
        )
    if opts.llm_requests <= 0:
        write_result("planning", figures, load=load)
        return
    rows = llm_warm(opts.llm_requests, opts.interleave)
    print("| request | seconds | prompt tokens | LLM calls | ok |\n|---|---:|---:|---:|---|")
    for request, seconds, tokens, calls, ok in rows:
        print(f"| {request[:60]} | {seconds:.1f} | {tokens} | {calls} | {ok} |")
    warm = [r[1] for r in rows[1:] if r[3] > 0] or [rows[0][1]]
    tokens = [r[2] for r in rows if r[3] > 0] or [0]
    print(
        f"LLM-planned warm median (after the first, LLM-planned only): {statistics.median(warm):.1f} s; "
        f"prompt tokens per request median {statistics.median(tokens):.0f}"
    )
    figures["llm_warm_median_seconds"] = round(statistics.median(warm), 1)
    figures["llm_warm_p95_seconds"] = round(sorted(warm)[max(0, round(0.95 * len(warm)) - 1)], 1)
    figures["llm_max_seconds"] = round(max(r[1] for r in rows), 1)
    figures["interleaved"] = opts.interleave
    figures["llm_prompt_tokens_median"] = round(statistics.median(tokens))
    figures["llm_parsed"] = f"{sum(r[4] for r in rows)}/{len(rows)}"  # every rewrite read (or a plain refusal)
    write_result("planning", figures, load=load)


if __name__ == "__main__":
    main()
