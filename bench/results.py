"""Where a bench's figures go: ``bench/results/<name>.json``, one file a bench (or a bench's part).

Each file holds the figures and how they were made — the command, the commit, the date, the machine's cores and
its load when the bench began — so a README figure can be traced to a run and checked against it
(``bench/check_readme.py``). A bench calls ``write_result`` once, at its end, with what it measured.

Labels say what a figure is (README "How figures are labelled"): ``label`` is ``"tuning"`` for a score on rows that
were read while building, ``"blind"`` only for a batch's first measurement before anything changed because of it,
and ``"measure"`` for timings, sizes and counts that are not scores on a set of rows.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
LABELS = ("tuning", "blind", "measure")


def _commit() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=RESULTS.parent, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            cwd=RESULTS.parent,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}+changes" if dirty else head


def load_average() -> float:
    """The machine's 1-minute load when a bench starts: timings taken beside other work say so."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return -1.0


def write_result(
    name: str,
    figures: dict[str, Any],
    command: str | None = None,
    *,
    label: str = "measure",
    load: float | None = None,
    notes: str = "",
) -> Path:
    """Write ``bench/results/<name>.json`` and return its path. ``command`` defaults to this process's argv."""
    if label not in LABELS:
        raise ValueError(f"label must be one of {LABELS}, not {label!r}")
    RESULTS.mkdir(exist_ok=True)
    record = {
        "name": name,
        "label": label,
        "figures": figures,
        "command": command or " ".join(["python", *sys.argv]),
        "commit": _commit(),
        "date": dt.date.today().isoformat(),
        "cores": os.cpu_count(),
        "load_at_start": load_average() if load is None else load,
        "notes": notes,
    }
    path = RESULTS / f"{name}.json"
    if label == "blind" and path.exists():  # a blind batch's figure is its first measurement, never written again
        raise SystemExit(f"{path.name} holds the first measurement of a blind batch: it is kept as it was")
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"results: {path.relative_to(RESULTS.parent.parent)}")
    return path


def write_batch_result(
    name: str, figures: dict[str, Any], *, tuning: bool, load: float | None, notes: str, command: str | None = None
) -> Path:
    """A blind batch's figure: its first measurement (``blind``, kept as it was, never written again), or with
    ``tuning`` a later measurement beside it (``<name>-tuning``)."""
    if tuning:
        again = "The batch measured again after its first measurement (a tuning set from then on)."
        return write_result(f"{name}-tuning", figures, command, label="tuning", load=load, notes=again)
    return write_result(name, figures, command, label="blind", load=load, notes=notes)
