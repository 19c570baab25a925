"""End-to-end timing of the DocBench dev cases, sandbox overhead, peak memory (run by hand).

    .venv/bin/python bench/run.py [--cases ../shared/bench/workflows.jsonl] [--limit N]

Each case runs as `docpilot run REQUEST FILES --out DIR --yes --json` in a new process
(as DocBench does). Sandbox overhead per run is read from each run's record: the time the
sandbox added to the run beyond the program's own work (waiting for the sandbox process,
which starts before planning, copying inputs, forking the guarded worker). It is also measured
on a trivial program: cold (a new sandbox started just for it) and warm (a reused sandbox, as
the app pays per run).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from results import load_average, write_result  # noqa: E402

SHARED = HERE.parent.parent / "shared"


def run_cases(cases: Path, limit: int | None) -> list[dict]:
    rows = []
    lines = [json.loads(x) for x in cases.read_text().splitlines() if x.strip()][:limit]
    for case in lines:
        with tempfile.TemporaryDirectory() as out:
            files = [str(SHARED / "corpus" / f) for f in case["files"]]
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            start = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "docpilot", "run", case["request"], *files, "--out", out, "--yes", "--json"],
                capture_output=True,
                text=True,
            )
            seconds = time.perf_counter() - start
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            try:
                result = json.loads(proc.stdout.strip().splitlines()[-1])
            except (IndexError, json.JSONDecodeError):
                result = {"ok": False}
            rows.append(
                {
                    "id": case["id"],
                    "seconds": seconds,
                    "ok": result.get("ok"),
                    "backend": result.get("backend"),
                    "peak_mb": max(peak, before) / 1024,
                    "overhead_ms": _overhead(result.get("record")),
                }
            )
    return rows


def _overhead(record: str | None) -> float | None:
    try:
        data = json.loads((Path(record) / "record.json").read_text())  # type: ignore[arg-type]
    except (TypeError, OSError, ValueError):
        return None
    return data.get("sandbox", {}).get("stats", {}).get("overhead_ms")


def sandbox_overhead(runs: int = 20) -> tuple[float, float]:
    sys.path.insert(0, str(HERE.parent))
    from sandbox.runner import Sandbox, run_program

    start = time.perf_counter()
    run_program("x = 1\n", {}).cleanup()
    cold = time.perf_counter() - start
    warm = []
    with Sandbox() as box:
        run_program("x = 1\n", {}, sandbox=box).cleanup()
        for _ in range(runs):
            start = time.perf_counter()
            run_program("x = 1\n", {}, sandbox=box).cleanup()
            warm.append(time.perf_counter() - start)
    return cold, statistics.median(warm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=Path, default=SHARED / "bench" / "workflows.jsonl")
    parser.add_argument("--limit", type=int)
    opts = parser.parse_args()
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    load = load_average()
    rows = run_cases(opts.cases, opts.limit)
    times = [r["seconds"] for r in rows]
    print("| case | backend | ok | seconds | sandbox overhead ms | peak MB |\n|---|---|---|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['id']} | {r['backend']} | {r['ok']} | {r['seconds']:.2f} | {r['overhead_ms']} | {r['peak_mb']:.0f} |"
        )
    print(
        f"\n{len(rows)} cases: total {sum(times):.1f} s, median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s, peak memory of any process {max(r['peak_mb'] for r in rows):.0f} MB"
    )
    overheads = sorted(r["overhead_ms"] for r in rows if r["overhead_ms"] is not None)
    if overheads:
        print(
            f"sandbox overhead per CLI run ({len(overheads)} runs): median {statistics.median(overheads):.0f} ms, "
            f"max {overheads[-1]:.0f} ms"
        )
    cold, warm = sandbox_overhead()
    write_result(
        "sandbox-run",
        {
            "cases": len(rows),
            "total_seconds": round(sum(times), 1),
            "median_seconds": round(statistics.median(times), 2),
            "max_seconds": round(max(times), 2),
            "peak_mb": round(max(r["peak_mb"] for r in rows)),
            "overhead_median_ms": round(statistics.median(overheads)) if overheads else None,
            "overhead_max_ms": round(overheads[-1]) if overheads else None,
            "warm_run_ms": round(warm * 1000),
            "cold_start_ms": round(cold * 1000),
        },
        load=load,
    )
    print(
        f"sandbox overhead: cold start {cold * 1000:.0f} ms (one CLI call), warm run {warm * 1000:.0f} ms "
        "(median, reused sandbox as in the app)"
    )


if __name__ == "__main__":
    main()
