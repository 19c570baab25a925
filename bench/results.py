"""Where a bench's figures go: ``bench/results/<name>.json``, one file a bench.

Minimal version (the lead's fuller one replaces it): the figures and how they were made — the command, the
commit, the date and the machine's cores — so a README figure can be traced to a run.
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


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=RESULTS.parent, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_result(name: str, figures: dict[str, Any], command: str | None = None) -> Path:
    """Write ``bench/results/<name>.json`` and return its path. ``command`` defaults to this process's argv."""
    RESULTS.mkdir(exist_ok=True)
    record = {
        "name": name,
        "figures": figures,
        "command": command or " ".join(["python", *sys.argv]),
        "commit": _commit(),
        "date": dt.date.today().isoformat(),
        "cores": os.cpu_count(),
    }
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"results: {path}")
    return path
