"""Is a page's text English? Only "clearly not" counts: the English entity model is then no use there.

Two signals, measured on every readable file of ../shared/corpus (first six pages each):
- script: under half of the letters are Latin (Chinese, Japanese, Korean, Arabic, Persian pages);
- function words: the share of words that are another language's stop words (German, French,
  Spanish, Italian, Portuguese, Dutch; spaCy's lists) is at least 0.15 and over three times the
  English share. English pages scored English 0.02-0.54 and other 0.00-0.24 (a slide deck: 0.28
  vs 0.24; a table of names: 0.02 vs 0.09), the French, German, Spanish and Dutch ones 0.18-0.52
  against English 0.00-0.04.
A page with too little text to tell (under 40 letters or 15 words) counts as English.
"""

from __future__ import annotations

import importlib
import re
from functools import cache

__all__ = ["looks_english"]

_OTHERS = ("de", "fr", "es", "it", "pt", "nl")
_WORD = re.compile(r"[^\W\d_]+")
_MIN_LETTERS = 40
_MIN_WORDS = 15
_LATIN_END = 0x250  # Basic Latin to Latin Extended-B
_OTHER_SHARE = 0.15
_OTHER_RATIO = 3.0


@cache
def _stop_words(code: str) -> frozenset[str]:
    return frozenset(importlib.import_module(f"spacy.lang.{code}.stop_words").STOP_WORDS)


def looks_english(text: str) -> bool:
    """False only when ``text`` is clearly in another language or script."""
    letters = [c for c in text if c.isalpha()]
    if len(letters) < _MIN_LETTERS:
        return True
    if sum(1 for c in letters if ord(c) < _LATIN_END) < len(letters) / 2:
        return False
    words = _WORD.findall(text.lower())
    if len(words) < _MIN_WORDS:
        return True
    english = sum(w in _stop_words("en") for w in words) / len(words)
    other = max(sum(w in _stop_words(code) for w in words) / len(words) for code in _OTHERS)
    return not (other >= _OTHER_SHARE and other > _OTHER_RATIO * english)
