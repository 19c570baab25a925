"""Summaries chosen extractively first (TextRank), then, when a model is there, written from those passages.

TextRank (Mihalcea and Tarau, 2004): sentences are nodes, TF-IDF cosine similarities (scikit-learn) are
edge weights, networkx's PageRank ranks them. The top sentences, near-duplicates dropped, are the
extractive summary, in reading order, each cited with its page. A model, when given, writes the bullets
from at most ~4,000 tokens of the best-ranked sentences and must cite the sentence numbers it used; a
bullet whose words are not in its cited sentences is dropped, and with none left the extractive
summary stands. A 352-page book is never read whole by the model.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from docpilot.understanding.drafts import Listener, drafting
from docpilot.understanding.textnorm import stems

__all__ = ["Sentence", "Summary", "summarize_pages", "MAX_MODEL_TOKENS"]

MAX_MODEL_TOKENS = 4000
_DUPLICATE = 0.8
_SCHEMA = {
    "type": "object",
    "properties": {
        "bullets": {
            "type": "array",
            "maxItems": 6,
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "maxLength": 240},
                    "sentences": {"type": "array", "items": {"type": "integer"}, "maxItems": 3},
                },
                "required": ["text", "sentences"],
            },
        }
    },
    "required": ["bullets"],
}


@dataclass(frozen=True)
class Sentence:
    page: int
    text: str


@dataclass
class Summary:
    bullets: list[str]
    citations: list[dict[str, Any]]  # one per bullet: {page, quote}
    written: bool  # True when a model wrote the bullets, False for the extractive summary

    def text(self) -> str:
        return "\n".join(f"- {b}" for b in self.bullets)


def split_sentences(pages: list[tuple[int, str]]) -> list[Sentence]:
    """Sentences of ``[(page, text)]`` with their pages (short fragments and headers dropped)."""
    out: list[Sentence] = []
    for page, text in pages:
        flat = re.sub(r"\s+", " ", text).strip()
        for piece in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9“\"(])", flat):
            piece = piece.strip()
            if _prose(piece):
                out.append(Sentence(page, piece[:600]))
    return out


_FUNCTION = frozenset("the a an of to in and or is are was were be for on with by as that this it at from".split())


def _prose(piece: str) -> bool:
    """A sentence someone wrote, not a figure's labels or a table row read as a line."""
    tokens = piece.split()
    if len(tokens) < 6 or not re.search(r"[a-z]", piece):
        return False
    function = sum(t.lower().strip(",.;:") in _FUNCTION for t in tokens)
    capitals = sum(t[:1].isupper() for t in tokens)
    return function >= 0.15 * len(tokens) and capitals <= 0.5 * len(tokens)


def rank(sentences: list[Sentence]) -> list[int]:
    """Sentence indices by TextRank score, best first."""
    if len(sentences) <= 2:
        return list(range(len(sentences)))
    import networkx as nx
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    matrix = TfidfVectorizer(analyzer=lambda t: stems(t)).fit_transform([s.text for s in sentences])
    similarity = cosine_similarity(matrix)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(sentences)))
    for i in range(len(sentences)):
        for j in range(i + 1, len(sentences)):
            if similarity[i, j] > 0.05:
                graph.add_edge(i, j, weight=float(similarity[i, j]))
    scores = nx.pagerank(graph, weight="weight")
    order = sorted(range(len(sentences)), key=lambda i: (-scores.get(i, 0.0), i))
    kept: list[int] = []
    for i in order:  # repeated paragraphs rank alike: keep one of each
        if all(similarity[i, j] < _DUPLICATE for j in kept):
            kept.append(i)
    return kept


def summarize_pages(
    pages: list[tuple[int, str]], count: int = 3, llm: Any = None, on_draft: Listener | None = None
) -> Summary:
    """A summary of ``[(page, text)]`` in ``count`` bullets, each cited (``on_draft``: told them as written)."""
    sentences = split_sentences(pages)
    if not sentences:
        return Summary([], [], False)
    ranked = rank(sentences)
    if llm is not None:
        written = _written(llm, sentences, ranked, count, on_draft)
        if written is not None:
            return written
    chosen = sorted(ranked[:count])
    return Summary(
        [sentences[i].text for i in chosen],
        [{"page": sentences[i].page, "quote": sentences[i].text} for i in chosen],
        False,
    )


def _written(
    llm: Any, sentences: list[Sentence], ranked: list[int], count: int, on_draft: Listener | None = None
) -> Summary | None:
    from docpilot.llm.untrusted import DATA_RULE, data_block

    budget, picked = 0, []
    for i in ranked:
        cost = int(len(sentences[i].text.split()) * 1.35) + 4
        if budget + cost > MAX_MODEL_TOKENS:
            break
        picked.append(i)
        budget += cost
    picked.sort()
    numbered = "\n".join(f"[{n}] {sentences[i].text}" for n, i in enumerate(picked, 1))
    messages = [
        {
            "role": "system",
            "content": "You summarise documents in short bullets, using only the numbered sentences given. "
            + DATA_RULE
            + ' Reply with JSON: {"bullets": [{"text": "...", "sentences": [numbers]}]}.',
        },
        {"role": "user", "content": f"{data_block(numbered)}\nWrite {count} bullets."},
    ]
    try:
        listen = drafting(on_draft, "text", bullets=True)
        extra = {"on_text": listen} if listen else {}
        reply = llm.chat(messages, schema=_SCHEMA, max_tokens=60 * count + 40, **extra)
        data = json.loads(reply.text)
    except (ValueError, Exception):  # noqa: BLE001 - a model that fails leaves the extractive summary
        return None
    bullets, citations = [], []
    for item in data.get("bullets", [])[:count]:
        numbers = [n for n in item.get("sentences", []) if isinstance(n, int) and 1 <= n <= len(picked)]
        text = str(item.get("text", "")).strip()
        if not text or not numbers:
            continue
        source = [sentences[picked[n - 1]] for n in numbers]
        have = set(stems(" ".join(s.text for s in source)))
        want = stems(text)
        if want and sum(w in have for w in want) < 0.6 * len(want):
            continue  # not said by the sentences it cites
        bullets.append(text)
        citations.append({"page": source[0].page, "quote": source[0].text})
    return Summary(bullets, citations, True) if bullets else None
