"""Run the shared scorers (DocBench and document QA in ../shared/bench) and keep their figures in bench/results/.

    .venv/bin/python bench/shared_sets.py docbench                 DocBench dev (check.py workflows.jsonl)
    .venv/bin/python bench/shared_sets.py qa_dev [--backend rules] qa_check.py qa_dev.jsonl
    .venv/bin/python bench/shared_sets.py ncen_dev                 qa_check.py ncen_dev.jsonl

The scorers are not ours: this only runs them with this checkout's `docpilot` and reads their closing lines.
Both dev sets were read while building, so their figures are tuning scores. With ``--backend rules`` the QA
scorer counts a reply that composes no answer (``"answered": false``) as a miss.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared"))
sys.path.insert(0, str(HERE))

from results import load_average, write_result  # noqa: E402


def _run(argv: list[str], backend: str | None) -> str:
    env = dict(os.environ)
    docpilot = str(ROOT / ".venv" / "bin" / "docpilot")
    env["DOCBENCH_CMD"] = docpilot if Path(docpilot).exists() else "docpilot"
    if backend:
        env["DOCPILOT_BACKEND"] = backend
    done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, cwd=ROOT)
    print(done.stdout[-4000:], done.stderr[-2000:], sep="\n")
    return done.stdout


def docbench() -> None:
    load = load_average()
    out = _run([str(SHARED / "bench" / "check.py"), str(SHARED / "bench" / "workflows.jsonl")], None)
    passed, failed = map(int, re.findall(r"^(\d+) passed, (\d+) failed$", out, re.M)[-1])
    mean = re.search(r"mean per case: ([\d.]+)s, llm_calls ([\d.]+)", out)
    assert mean, "check.py printed no mean line"
    figures = {
        "score": f"{passed}/{passed + failed}",
        "passed": passed,
        "failed": failed,
        "mean_seconds": float(mean.group(1)),
        "mean_llm_calls": float(mean.group(2)),
        "failing": re.findall(r"^FAIL (\S+)", out, re.M),
    }
    write_result("docbench", figures, "python bench/shared_sets.py docbench", label="tuning", load=load)


def qa(name: str, backend: str | None) -> None:
    load = load_average()
    out = _run([str(SHARED / "bench" / "qa_check.py"), str(SHARED / "bench" / f"{name}.jsonl")], backend)
    found = re.search(
        r"answers (\d+)/(\d+), evidence (\d+)/(\d+), mean context tokens (\d+), mean seconds ([\d.]+)", out
    )
    assert found, "qa_check.py printed no summary line"
    a, n, e, m, tokens, seconds = found.groups()
    figures = {
        "answers": f"{a}/{n}",
        "evidence": f"{e}/{m}",
        "mean_context_tokens": int(tokens),
        "mean_seconds": float(seconds),
        "misses": re.findall(r"^MISS (\S+?):", out, re.M),
    }
    suffix = f"-{backend}" if backend else ""
    command = f"python bench/shared_sets.py {name}" + (f" --backend {backend}" if backend else "")
    write_result(f"{name}{suffix}", figures, command, label="tuning", load=load)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("set", choices=["docbench", "qa_dev", "ncen_dev"])
    parser.add_argument("--backend", choices=["local", "rules", "openai"], default=None)
    opts = parser.parse_args()
    if opts.set == "docbench":
        docbench()
    else:
        qa(opts.set, opts.backend)


if __name__ == "__main__":
    main()
