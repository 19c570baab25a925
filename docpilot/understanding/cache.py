"""The structure cache: what was read from a file, kept on disk by the file's hash.

It holds confidential text, so the folder is private (mode 0700), the extractor version is part of
the key (a new reader never trusts an old reading), and it is capped in size and age: the oldest
entries go first. ``docpilot cache clear`` empties it; the app gives each session its own folder and
removes it with the session.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from docpilot.understanding.structure import EXTRACTOR_VERSION

__all__ = ["StructureCache", "file_key"]

MAX_BYTES = 512 * 1024 * 1024
MAX_AGE_SECONDS = 30 * 24 * 3600


def file_key(path: str | os.PathLike[str]) -> str:
    """The file's content hash with the extractor's version."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return f"{digest.hexdigest()[:32]}-v{EXTRACTOR_VERSION}"


class StructureCache:
    """Entries ``<root>/<key>/<part>.json|.npy``; ``root=None`` keeps nothing (every read is fresh)."""

    def __init__(self, root: Path | None, max_bytes: int = MAX_BYTES, max_age: float = MAX_AGE_SECONDS) -> None:
        self.root = root
        self.max_bytes = max_bytes
        self.max_age = max_age

    def _folder(self, key: str) -> Path | None:
        if self.root is None:
            return None
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.root, 0o700)
        folder = self.root / key
        folder.mkdir(exist_ok=True, mode=0o700)
        return folder

    def load_json(self, key: str, part: str) -> Any:
        folder = self._folder(key)
        if folder is None or not (path := folder / f"{part}.json").exists():
            return None
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return None
        os.utime(folder)  # recently used: pruned last
        return data

    def save_json(self, key: str, part: str, data: Any) -> None:
        folder = self._folder(key)
        if folder is not None:
            _atomic_write(folder / f"{part}.json", json.dumps(data).encode("utf-8"))
            self.prune()

    def load_array(self, key: str, part: str) -> np.ndarray | None:
        folder = self._folder(key)
        path = folder / f"{part}.npy" if folder else None
        if path is None or not path.exists():
            return None
        try:
            return np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None

    def save_array(self, key: str, part: str, array: np.ndarray) -> None:
        folder = self._folder(key)
        if folder is not None:
            tmp = folder / f".{part}.{os.getpid()}.npy"
            np.save(tmp, array, allow_pickle=False)
            os.replace(tmp, folder / f"{part}.npy")
            self.prune()

    def prune(self) -> None:
        """Drop entries older than the age cap, then the least recently used beyond the size cap."""
        if self.root is None or not self.root.exists():
            return
        entries = []
        now = time.time()
        for folder in self.root.iterdir():
            if not folder.is_dir():
                continue
            size = sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
            used = folder.stat().st_mtime
            if now - used > self.max_age:
                shutil.rmtree(folder, ignore_errors=True)
            else:
                entries.append((used, size, folder))
        total = sum(size for _, size, _ in entries)
        for _, size, folder in sorted(entries)[:-1]:  # the entry in use now stays, whatever its size
            if total <= self.max_bytes:
                break
            shutil.rmtree(folder, ignore_errors=True)
            total -= size

    def clear(self) -> int:
        """Remove every entry; returns how many files were cached."""
        if self.root is None or not self.root.exists():
            return 0
        count = sum(1 for folder in self.root.iterdir() if folder.is_dir())
        shutil.rmtree(self.root, ignore_errors=True)
        return count


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(tmp, path)
