"""Build the services from settings made in main(): no globals, nothing heavy until used."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from .planner import Planner

__all__ = ["make_planner", "LazyRetriever"]


class LazyRetriever:
    """The few-shot index, built on first use (the fast path never needs it)."""

    def __init__(self) -> None:
        self._index: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        with self._lock:
            if self._index is None:
                from .retrieval import ExampleIndex, load_examples

                self._index = ExampleIndex(load_examples())
            return self._index

    def nearest(self, request: str, k: int = 4) -> list[tuple[Any, float]]:
        return self._get().nearest(request, k)

    def similar_tools(self, request: str, k: int = 6) -> list[str]:
        return self._get().similar_tools(request, k)


def make_planner(backend: str | None, env: Mapping[str, str]) -> Planner:
    """The planner for ``--backend`` / ``DOCPILOT_BACKEND`` and the OpenAI settings in ``env``."""
    from .llm.select import choose_backend

    llm = choose_backend(backend, env)
    return Planner(llm=llm, retriever=LazyRetriever() if llm is not None else None)
