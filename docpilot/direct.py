"""Run one tool directly (``docpilot call``): bind files, run in a scratch folder, deliver outputs.

Kept light: a one-tool process loads only this, the registry and the tool's own module.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pdftools import get_tool
from pdftools.errors import ToolArgumentError
from pdftools.paths import IMAGE_SUFFIXES, unique_path

__all__ = ["call_tool_on_files", "bind_files"]

_FILE_ARGS = {"file": False, "files": True, "image": False, "images": True}


def _resolve(value: str, by_name: dict[str, Path]) -> str:
    if value in by_name:
        return str(by_name[value])
    path = Path(value).expanduser()
    if path.name in by_name:
        return str(by_name[path.name])
    return str(path.resolve())


def bind_files(tool_args: set[str], args: dict[str, Any], files: list[str]) -> dict[str, Any]:
    """Fill a tool's file arguments from the given files, and make every file path absolute.

    Arguments that name a file by its base name ("contract.pdf") are mapped to the
    given path; missing ``file``/``files``/``image``/``images`` arguments are taken from
    ``files`` (PDFs for ``file(s)``, images for ``image(s)``).
    """
    paths = [Path(f).expanduser().resolve() for f in files]
    by_name = {p.name: p for p in paths}
    bound = dict(args)
    pdfs = [str(p) for p in paths if p.suffix.lower() not in IMAGE_SUFFIXES]
    images = [str(p) for p in paths if p.suffix.lower() in IMAGE_SUFFIXES]
    for name, many in _FILE_ARGS.items():
        if name not in tool_args:
            continue
        if name in bound and bound[name] is not None:
            value = bound[name]
            bound[name] = [_resolve(v, by_name) for v in value] if isinstance(value, list) else _resolve(value, by_name)
            continue
        pool = images if name.startswith("image") else pdfs
        if not pool and name.startswith("image"):
            pool = [str(p) for p in paths]
        if not pool:
            continue
        bound[name] = pool if many else pool[0]
    return bound


def call_tool_on_files(name: str, args: dict[str, Any], files: list[str], out_dir: str) -> dict[str, Any]:
    """Validate and run tool ``name``; put its files into ``out_dir``; return the result.

    The tool runs in a hidden scratch folder inside ``out_dir`` (created when missing), so its
    files reach ``out_dir`` by renaming, under names that never replace a file already there
    (``-2``, ``-3`` …). When the tool fails, ``out_dir`` is left as it was.
    """
    entry = get_tool(name)
    if not isinstance(args, dict):
        raise ToolArgumentError("--args must be a JSON object, e.g. '{\"pages\": \"1-3\"}'.")
    bound = bind_files(set(entry.arg_docs), args, files)
    values = entry.validate(bound)
    target_dir = Path(out_dir).expanduser().resolve()
    created = not target_dir.exists()
    target_dir.mkdir(parents=True, exist_ok=True)
    scratch = _scratch_folder(target_dir)
    previous = os.getcwd()
    try:
        os.chdir(scratch)
        try:
            result = entry.func(**values)
        finally:
            os.chdir(previous)
        if entry.kind == "value":
            return {"tool": name, "outputs": [], "value": result}
        produced = [result] if isinstance(result, str) else list(result)
        return {"tool": name, "outputs": _move_out(produced, scratch, target_dir), "value": None}
    finally:
        _remove(scratch)
        if created and not any(target_dir.iterdir()):
            target_dir.rmdir()


def _scratch_folder(parent: Path) -> Path:
    for _ in range(100):
        folder = parent / f".docpilot-call-{os.urandom(4).hex()}"
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(f"could not create a scratch folder in {parent}")


def _move_out(produced: list[str], scratch: Path, target_dir: Path) -> list[str]:
    """Rename the tool's files from ``scratch`` into ``target_dir`` (all or nothing)."""
    moved: list[Path] = []
    try:
        for item in produced:
            source = Path(item)
            if source.parent != scratch:  # written elsewhere (an absolute output name): copy it in
                from .deliver import deliver

                moved += map(Path, deliver([source], target_dir))
                continue
            target = unique_path(target_dir / source.name)
            os.replace(source, target)
            moved.append(target)
    except BaseException:
        for target in moved:
            target.unlink(missing_ok=True)
        raise
    return [str(p) for p in moved]


def _remove(folder: Path) -> None:
    leftovers = list(folder.iterdir())
    if leftovers:  # a tool left temporary files behind
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    else:
        folder.rmdir()
