"""About how many of the embedded model's tokens a text takes, without loading its tokenizer.

Qwen's tokenizer splits numbers into single digits, and a space before a digit or a sign is a token of its
own, so a page of figures takes three to four times what counting words says (a NICS page: 4,205 real
tokens, 1,166 counted by words). The estimate: a digit, a sign, a run of newlines and a space before a
digit or sign are one token each; a word one per nine letters, a word in capitals one per three. On pages of
figures, statements and prose it is within 15% of the tokenizer (tests/llm/test_model_tokens.py), mostly over.
"""

from __future__ import annotations

import re

__all__ = ["model_tokens"]

_PIECES = re.compile(r"\d|[^\W\d_]+|\n+|[^\w\s]| (?=\d|[^\w\s])")


def model_tokens(text: str) -> int:
    """About how many model tokens ``text`` takes (at least one)."""
    pieces = _PIECES.findall(text)
    return max(1, sum(-(-len(p) // (3 if p.isupper() and len(p) > 1 else 9)) if p.isalpha() else 1 for p in pieces))
