"""Run one tool directly (``docpilot call``): bind files, run in a scratch folder, deliver outputs.

Kept light: a one-tool process loads only this, the registry and the tool's own module.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from docpilot.folders import hold_new_folder
from docpilot.running.deliverables import STAGING, deliver, sweep_stale
from pdftools import get_tool
from pdftools.errors import ToolArgumentError
from pdftools.hosted import hosting
from pdftools.paths import IMAGE_SUFFIXES

__all__ = ["call_tool_on_files", "bind_files"]

_FILE_ARGS = {"file": False, "files": True, "image": False, "images": True}


def _resolve(value: str, by_name: dict[str, Path]) -> str:
    if value in by_name:
        return str(by_name[value])
    path = Path(value).expanduser()
    if path.name in by_name:
        return str(by_name[path.name])
    return str(path.resolve())


def bind_files(fields: dict[str, tuple[Any, Any]], args: dict[str, Any], files: list[str]) -> dict[str, Any]:
    """Fill a tool's file arguments from the given files, and make every file path absolute.

    ``fields`` are the tool's arguments (name -> (type, default; ``...`` when required)).
    Arguments that name a file by its base name ("contract.pdf") are mapped to the
    given path; missing ``file``/``files``/``image``/``images`` arguments are taken from
    ``files`` (PDFs for ``file(s)``, images for ``image(s)``). An image argument the tool
    requires takes any file when none looks like an image; an optional one (a watermark
    that may be text instead) is left out.
    """
    paths = [Path(f).expanduser().resolve() for f in files]
    by_name = {p.name: p for p in paths}
    bound = dict(args)
    pdfs = [str(p) for p in paths if p.suffix.lower() not in IMAGE_SUFFIXES]
    images = [str(p) for p in paths if p.suffix.lower() in IMAGE_SUFFIXES]
    for name, many in _FILE_ARGS.items():
        if name not in fields:
            continue
        if name in bound and bound[name] is not None:
            value = bound[name]
            bound[name] = [_resolve(v, by_name) for v in value] if isinstance(value, list) else _resolve(value, by_name)
            continue
        pool = images if name.startswith("image") else pdfs
        if not pool and name.startswith("image") and fields[name][1] is ...:
            pool = [str(p) for p in paths]
        if not pool:
            continue
        bound[name] = pool if many else pool[0]
    return bound


def call_tool_on_files(
    name: str, args: dict[str, Any], files: list[str], out_dir: str, host: Any = None
) -> dict[str, Any]:
    """Validate and run tool ``name``; put its files into ``out_dir``; return the result.

    The tool runs in a hidden scratch folder inside ``out_dir`` (created when missing), so its
    files reach ``out_dir`` by renaming, under names that never replace a file already there
    (``-2``, ``-3`` …). When the tool fails, ``out_dir`` is left as it was.
    """
    entry = get_tool(name)
    if not isinstance(args, dict):
        raise ToolArgumentError('--args must be a JSON object, e.g. \'{"pages": "1-3"}\'.')
    bound = bind_files(entry.fields, args, files)
    values = entry.validate(bound)
    target_dir = Path(out_dir).expanduser().resolve()
    created = not target_dir.exists()
    target_dir.mkdir(parents=True, exist_ok=True)
    # The scratch folder is on the same file system as the outputs' folder: they reach it by renaming.
    # It is hidden and locked like a delivery's staging folder, so one left by a killed call is swept.
    sweep_stale(target_dir)
    held = hold_new_folder(target_dir, STAGING)
    scratch = held.path
    previous = os.getcwd()
    try:
        os.chdir(scratch)
        try:
            with hosting(host) if host is not None else contextlib.nullcontext():  # model work: the host's
                result = entry.func(**values)
        finally:
            os.chdir(previous)
        if entry.kind == "value":
            return {"tool": name, "outputs": [], "value": result}
        produced = [result] if isinstance(result, str) else list(result)
        return {"tool": name, "outputs": deliver(produced, target_dir, move_from=scratch), "value": None}
    finally:
        held.remove()
        if created and not any(target_dir.iterdir()):
            target_dir.rmdir()
