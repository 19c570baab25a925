"""Copy (or move) results into the user's output folder without overwriting anything."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Iterable, Union

from pdftools.paths import unique_path

__all__ = ["deliver"]

Item = Union[str, Path, tuple[Union[str, Path], str]]


def deliver(items: Iterable[Item], out_dir: str | Path, move_from: Path | None = None) -> list[str]:
    """Copy files into ``out_dir`` (created when missing); return their absolute new paths.

    Each item is a path, or (path, name to deliver it under). A name already taken in
    ``out_dir`` gets ``-2``, ``-3`` … so nothing is overwritten. Files directly in
    ``move_from`` (a scratch folder on the same file system) are renamed instead of copied.
    When a copy fails, the files already delivered are removed again: all or nothing.
    """
    target_dir = Path(out_dir).expanduser().resolve()
    created = not target_dir.exists()
    target_dir.mkdir(parents=True, exist_ok=True)
    moved: list[Path] = []
    try:
        for item in items:
            source, name = (Path(item[0]), item[1]) if isinstance(item, tuple) else (Path(item), Path(item).name)
            target = unique_path(target_dir / Path(name).name)
            if move_from is not None and source.parent == move_from:
                os.replace(source, target)
            else:
                shutil.copyfile(source, target)  # a new file owned by the caller, not by the sandbox user
            moved.append(target)
    except BaseException:
        for target in moved:
            target.unlink(missing_ok=True)
        if created and not any(target_dir.iterdir()):
            target_dir.rmdir()
        raise
    return [str(p) for p in moved]
