"""Which produced files a run delivers, under which names (DESIGN.md `outputs`), and their delivery.

Delivered, in creation order: every final document (a PDF from which no later step made
another PDF; a PDF converted to slides is still delivered),
every non-PDF product, and every file the request named. Auto-named files are
renamed ``<input stem>_<what>.<ext>`` after the uploaded file they come from, so a
chain of edits does not make ``contract_redacted_watermarked_protected.pdf``.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docpilot.folders import hold_new_folder, sweep_unheld

__all__ = ["STAGING", "choose_deliverables", "deliver", "link_new", "sweep_stale"]

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

STAGING = ".docpilot-partial-"  # a hidden folder in the output folder where a delivery is written first


def deliver(items: Iterable[Item], out_dir: str | Path, move_from: Path | None = None) -> list[str]:
    """Put files into ``out_dir`` (created when missing); return their absolute new paths.

    Each item is a path, or (path, name to deliver it under). Nothing is ever half-written or
    overwritten there:

    - every file is first written whole into a hidden staging folder inside ``out_dir`` (same file
      system), locked by this process (:mod:`docpilot.folders`); files directly in ``move_from`` (a
      scratch folder on the same file system) are renamed into it instead of copied;
    - then each is hard-linked under its name, which fails when the name exists, so a name taken in
      the meantime (another run delivering into the same folder) gets ``-2``, ``-3`` … instead;
    - the staging folder is removed. A run killed before that (even by SIGKILL) leaves only its
      hidden staging folder, which the next delivery into ``out_dir`` removes once no live process
      holds its lock.

    When anything fails, the files already delivered are removed again: all or nothing.
    """
    target_dir = Path(out_dir).expanduser().resolve()
    created = not target_dir.exists()
    target_dir.mkdir(parents=True, exist_ok=True)
    sweep_stale(target_dir)
    # made and locked under a name no sweep matches, then renamed: a sweep beside it (another run delivering into
    # the same folder) never sees a staging folder whose lock is not taken yet
    staging = hold_new_folder(target_dir, ".docpilot-new-", final_name=f"{STAGING}{secrets.token_hex(8)}")
    delivered: list[Path] = []
    try:
        staged: list[tuple[Path, str]] = []
        for index, item in enumerate(items):
            source, name = (Path(item[0]), item[1]) if isinstance(item, tuple) else (Path(item), Path(item).name)
            part = staging.path / f"{index}{Path(name).suffix}"
            if move_from is not None and source.parent == move_from:
                os.rename(source, part)
            else:
                shutil.copyfile(source, part)  # a new file owned by the caller, not by the sandbox user
            staged.append((part, Path(name).name))
        for part, name in staged:
            delivered.append(link_new(part, target_dir / name))
    except BaseException:
        for target in delivered:
            target.unlink(missing_ok=True)
        staging.remove()
        if created and not any(target_dir.iterdir()):
            target_dir.rmdir()
        raise
    staging.remove()
    return [str(p) for p in delivered]


def sweep_stale(folder: Path) -> list[Path]:
    """Remove the staging folders in ``folder`` that runs killed mid-delivery left (no live process holds them)."""
    return sweep_unheld(folder, lambda name: name.startswith(STAGING))


def link_new(source: Path, target: Path) -> Path:
    """Give the whole file ``source`` the name ``target``, or ``target-2``, ``-3`` … when that is taken.

    ``os.link`` never replaces an existing name, so two runs choosing the same name at once never
    overwrite each other. Where hard links are not allowed, the name is claimed with ``O_EXCL`` and
    the file renamed over the claim.
    """
    stem, suffix, n = target.stem, target.suffix, 2
    candidate = target
    while True:
        try:
            os.link(source, candidate)
            return candidate
        except FileExistsError:
            pass
        except OSError:  # no hard links on this file system
            try:
                os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                pass
            else:
                os.replace(source, candidate)
                return candidate
        candidate = target.with_name(f"{stem}-{n}{suffix}")
        n += 1
