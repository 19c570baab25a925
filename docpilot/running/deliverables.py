"""Which produced files a run delivers, under which names (DESIGN.md `outputs`), and their delivery.

Delivered, in creation order: every final document (a PDF from which no later step made
another PDF; a PDF converted to slides is still delivered),
every non-PDF product, and every file the request named. Auto-named files are
renamed ``<input stem>_<what>.<ext>`` after the uploaded file they come from, so a
chain of edits does not make ``contract_redacted_watermarked_protected.pdf``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pdftools.paths import unique_path

__all__ = ["choose_deliverables", "deliver"]

_FILE_ARGS = ("file", "files", "image", "images")


def _names(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [os.path.basename(str(v)) for v in items if isinstance(v, str)]


def choose_deliverables(
    steps: list[dict[str, Any]], outputs: Iterable[str], uploaded: Iterable[str]
) -> list[tuple[str, str]]:
    """[(produced path, delivery name)] in creation order."""
    uploaded = list(uploaded)
    roots = {Path(n).name: Path(n).stem for n in uploaded}  # basename -> stem of the upload it derives from
    parent: dict[str, str] = {}  # produced basename -> input basename
    named: set[str] = set()
    for step in steps:
        args = step.get("args") or {}
        inputs = [n for key in _FILE_ARGS for n in _names(args.get(key))]
        for name in _produced(step):
            if inputs:
                parent[name] = inputs[0]
            if args.get("output") or args.get("new_name"):
                named.add(name)
    order = {name: i for i, step in enumerate(steps) for name in _produced(step)}
    delivered: list[tuple[str, str]] = []
    for path in outputs:
        name = os.path.basename(path)
        is_pdf = name.lower().endswith(".pdf")
        made_at = order.get(name, -1)
        edited_later = any(i > made_at and _makes_pdf(steps[i]) for _, i in _consumers(steps, name))
        if is_pdf and edited_later and name not in named:
            continue  # an intermediate document: a later step made a new PDF from it
        delivered.append((path, name if name in named else _display(name, parent, roots)))
    return _unique(delivered)


def _produced(step: dict[str, Any]) -> list[str]:
    """The names of the files a step made (its result: one path or a list)."""
    result = step.get("result")
    names = result if isinstance(result, list) else [result]
    return [n for n in names if isinstance(n, str)]


def _makes_pdf(step: dict[str, Any]) -> bool:
    return any(n.lower().endswith(".pdf") for n in _produced(step))


def _consumers(steps: list[dict[str, Any]], name: str) -> list[tuple[str, int]]:
    found = []
    for index, step in enumerate(steps):
        args = step.get("args") or {}
        if any(name in _names(args.get(key)) for key in _FILE_ARGS):
            found.append((name, index))
    return found


def _display(name: str, parent: dict[str, str], roots: dict[str, str]) -> str:
    """'<upload stem>_<what this step added>.<ext>' for an auto-named product."""
    stem, ext = os.path.splitext(name)
    source = parent.get(name)
    if source is None or source in roots:
        return name
    chain_root = source
    while chain_root in parent and chain_root not in roots:
        chain_root = parent[chain_root]
    root = roots.get(chain_root)
    source_stem = os.path.splitext(source)[0]
    if root is None:
        return name
    if stem.startswith(source_stem + "_"):
        return f"{root}_{stem[len(source_stem) + 1 :]}{ext}"
    if stem.startswith(source_stem):
        # a conversion keeps its source's name: name it after the source's delivered name
        return f"{os.path.splitext(_display(source, parent, roots))[0]}{stem[len(source_stem) :]}{ext}"
    return name


def _unique(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out = []
    for path, name in items:
        stem, ext = os.path.splitext(name)
        candidate, n = name, 2
        while candidate in seen:
            candidate, n = f"{stem}-{n}{ext}", n + 1
        seen.add(candidate)
        out.append((path, candidate))
    return out


Item = str | Path | tuple[str | Path, str]


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
