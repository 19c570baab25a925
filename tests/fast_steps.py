"""The steps the fast path plans for a request, file arguments left out: what the phrasing tests compare."""

from __future__ import annotations

from docpilot.files import FileInfo
from docpilot.planning.fastpath.build import fast_reading


def fast_steps(request: str, files: dict[str, FileInfo]) -> list[tuple[str, dict]] | None:
    """``[(task, args)]`` of the fast path's plan, or None when it hands the request on."""
    plan = fast_reading(request, files).plan
    if plan is None:
        return None
    return [(s.task, {k: v for k, v in s.args.items() if k not in ("file", "files")}) for s in plan.steps]
