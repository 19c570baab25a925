"""Fuzzed files (issue L): the fixed sample of ``bench/fuzz.py`` gives results or clear errors, nothing else.

18 seeded mutants of two small corpus files (two of each kind: byte flips, random bursts, truncation, xref damage,
huge object counts, broken streams, deep nesting, decompression bombs, a 50,000 x 50,000 pixel image) go through the
upload path, five tools and, for two of them, ``docpilot run``: no unexpected exception, no hang (5x the
unmutated file's time + 10 s), no crash, no file outside the output folder, no input changed.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import CORPUS, ROOT

# The sample's own bound: 18 mutants take about a minute here; a hang in one costs at most ~10 s.
SAMPLE_SECONDS = 180


def test_fuzz_sample_gives_results_or_clear_errors() -> None:
    if not (CORPUS / "real" / "MANIFEST.tsv").exists():
        pytest.skip(f"corpus {CORPUS} is absent (../shared/corpus not beside the project)")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "fuzz.py"), "--sample", "--corpus", str(CORPUS)],
        capture_output=True,
        text=True,
        timeout=SAMPLE_SECONDS,
    )
    assert proc.stdout.strip(), proc.stderr[-3000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    problems = json.dumps(summary["problems"], indent=1)[:4000]
    assert summary["mutants"] == 18
    assert summary["unexpected_exceptions"] == 0, problems
    assert summary["hangs"] == 0, problems
    assert summary["crashes"] == 0, problems
    assert summary["outside_writes"] == 0, summary["outside_write_examples"]
    assert summary["inputs_modified"] == 0
    assert summary["errors_without_message"] == 0
    # Every kind of mutant was made and went through every operation.
    assert len(summary["mutators"]) == 9 and set(summary["mutators"].values()) == {2}
    assert {op for op in summary["outcomes"]} >= {"inspect", "count_pages", "compress", "convert_to_png", "run"}
    assert proc.returncode == 0, proc.stderr[-3000:]
