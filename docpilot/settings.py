"""Settings made once in a face's ``main()`` and passed in: which backend, the environment, the cache folder.

Nothing here reads the environment at import time; :meth:`Settings.from_env` is called by the CLI
and the app with ``os.environ`` (tests pass their own mapping).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Settings", "cache_dir"]


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CACHE_HOME/docpilot`` (default ``~/.cache/docpilot``): run records, model and index caches."""
    env = os.environ if env is None else env
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "docpilot"


@dataclass(frozen=True)
class Settings:
    """What a face was started with.

    Attributes:
        backend: ``--backend`` (``auto``, ``local``, ``openai``, ``rules``) or None for
            ``DOCPILOT_BACKEND`` / ``auto``.
        env: the environment the backend settings are read from (``OPENAI_BASE_URL``, …).
    """

    backend: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, backend: str | None = None, env: Mapping[str, str] | None = None) -> Settings:
        return cls(backend, dict(os.environ if env is None else env))

    @property
    def cache(self) -> Path:
        return cache_dir(self.env)
