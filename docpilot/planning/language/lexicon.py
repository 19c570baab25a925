"""The lexicon generated from the registry: which tools a request's words name.

Every tool's ``words`` (verbs, nouns, the result it makes) and the words of its sentence head are
collected once per tool set; a request names a tool when one of its words or phrases appears in it
as whole words. Used to choose the tools offered to the model (the grammar admits only those).
"""

from __future__ import annotations

import functools
import re

from pdftools import Tool
from pdftools.words import spaced

__all__ = ["named_tools"]

_SMALL = frozenset({"the", "a", "an", "it", "of", "to", "on", "with", "and", "or", "as", "into", "in", "every"})


@functools.cache
def _lexicon(entries: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, tuple[str, ...]]:
    """Phrase → the tools it names, from (tool, words) pairs."""
    out: dict[str, list[str]] = {}
    for name, words in entries:
        for word in words:
            out.setdefault(word, []).append(name)
    return {phrase: tuple(names) for phrase, names in out.items()}


def _entries(tools: dict[str, Tool]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    out = []
    for name, tool in sorted(tools.items()):
        head = re.sub(r"\{[^}]*\}|[\[\]]", " ", tool.say).lower()
        words = {w for w in re.findall(r"[a-z]+", head) if w not in _SMALL and len(w) > 2}
        out.append((name, tuple(sorted(set(tool.words.all()) | words))))
    return tuple(out)


def named_tools(request: str, tools: dict[str, Tool]) -> list[str]:
    """The tools whose words the request uses, those naming it with more (and longer) words first."""
    text = spaced(request)
    scores: dict[str, float] = {}
    for phrase, names in _lexicon(_entries(tools)).items():
        if f" {phrase} " in text:
            for name in names:
                scores[name] = scores.get(name, 0.0) + len(phrase.split()) / len(names)
    return sorted(scores, key=lambda n: -scores[n])
