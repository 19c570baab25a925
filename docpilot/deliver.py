"""Copy results into the user's output folder without overwriting anything."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterable

from pdftools.docio import unique_path

__all__ = ["deliver"]


def deliver(paths: Iterable[str | Path], out_dir: str | Path) -> list[str]:
    """Move ``paths`` into ``out_dir`` (created when missing); return absolute new paths.

    A name already taken in ``out_dir`` gets ``-2``, ``-3`` … so nothing is overwritten.
    When a move fails, the files already moved are removed again: all or nothing.
    """
    target_dir = Path(out_dir).expanduser().resolve()
    created = not target_dir.exists()
    target_dir.mkdir(parents=True, exist_ok=True)
    moved: list[Path] = []
    try:
        for path in paths:
            source = Path(path)
            target = unique_path(target_dir / source.name)
            shutil.move(str(source), target)
            moved.append(target)
    except BaseException:
        for target in moved:
            target.unlink(missing_ok=True)
        if created and not any(target_dir.iterdir()):
            target_dir.rmdir()
        raise
    return [str(p) for p in moved]
