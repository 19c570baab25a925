"""Hybrid retrieval over a document's units: TF-IDF (scikit-learn) and MiniLM + FAISS, fused by rank.

Lexical matching finds the exact label or number a question names; the embeddings find the passage
that says it in other words. Reciprocal rank fusion joins the two lists without tuning weights.
Unit vectors are cached with the document's structure, so a warm question embeds only itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from docpilot.understanding.document import Document, Unit
from docpilot.understanding.textnorm import stems

__all__ = ["Retriever", "EmbedFn"]

EmbedFn = Callable[[Sequence[str]], np.ndarray]
_RRF_K = 60
_VECTORS = "vectors-minilm"


class Retriever:
    """Ranks units of ``documents`` for a question; ``embed=None`` ranks lexically only (no model)."""

    def __init__(self, documents: list[Document], embed: EmbedFn | None) -> None:
        self.documents = documents
        self.embed = embed

    def _vectors(self, doc: Document, units: list[Unit]) -> np.ndarray | None:
        if self.embed is None:
            return None
        vectors = doc.cache.load_array(doc.key, _VECTORS)
        if vectors is None or len(vectors) != len(units):
            vectors = self.embed([u.text for u in units])
            doc.cache.save_array(doc.key, _VECTORS, vectors)
        return vectors

    def rank(
        self, question: str, k: int = 12, extra: list[Unit] | None = None, files: set[str] | None = None
    ) -> list[tuple[Unit, float]]:
        """The ``k`` best units for ``question`` (optionally only of ``files``), best first."""
        units: list[Unit] = []
        vector_parts: list[np.ndarray] = []
        dense_ok = self.embed is not None
        for doc in self.documents:
            if files is not None and doc.name not in files:
                continue
            doc_units = doc.units()
            units += doc_units
            vectors = self._vectors(doc, doc_units)
            if vectors is not None:
                vector_parts.append(vectors)
        extra = [u for u in extra or [] if files is None or u.file in files]
        if extra and dense_ok and self.embed is not None:
            vector_parts.append(self.embed([u.text for u in extra]))
        units += extra
        if not units:
            return []
        lexical = _lexical_scores(question, [u.text for u in units])
        scores = _rrf(lexical)
        if dense_ok and self.embed is not None and vector_parts:
            query = self.embed([question])[0]
            dense = _dense_scores(np.vstack(vector_parts), query)
            scores = scores + _rrf(dense)
        order = np.argsort(-scores, kind="stable")[:k]
        return [(units[i], float(scores[i])) for i in order if lexical[i] > 0 or dense_ok]


def _lexical_scores(question: str, texts: list[str]) -> np.ndarray:
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(analyzer=lambda t: stems(t), sublinear_tf=True)
    try:
        matrix = vectorizer.fit_transform([*texts, question])
    except ValueError:  # nothing but stopwords
        return np.zeros(len(texts))
    return (matrix[:-1] @ matrix[-1].T).toarray().ravel()


def _dense_scores(vectors: np.ndarray, query: np.ndarray) -> np.ndarray:
    import faiss

    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(np.ascontiguousarray(vectors, dtype=np.float32))
    scores, ids = index.search(query.reshape(1, -1).astype(np.float32), len(vectors))
    out = np.zeros(len(vectors))
    out[ids[0]] = scores[0]
    return out


def _rrf(scores: np.ndarray) -> np.ndarray:
    ranks = np.empty(len(scores))
    ranks[np.argsort(-scores, kind="stable")] = np.arange(len(scores))
    return 1.0 / (_RRF_K + ranks)
