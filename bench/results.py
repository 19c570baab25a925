"""Where a bench's figures go: ``bench/results/<name>.json``, one file a bench.

Minimal version made on the l-fuzz branch (the lead's fuller one replaces it): the figures with the command, the
commit, the date and the machine's cores, so a figure can be traced to a run.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


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


def write_result(name: str, figures: dict[str, Any], command: str) -> Path:
    """Write ``bench/results/<name>.json`` and return its path."""
    RESULTS.mkdir(exist_ok=True)
    record = {
        "name": name,
        "figures": figures,
        "command": command,
        "commit": _commit(),
        "date": dt.date.today().isoformat(),
        "cores": os.cpu_count(),
    }
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    return path
