"""The words of the tool language: what names a tool, and what an argument's values are called.

A tool declares, with ``@tool(say=..., words=Words(...))``, the sentence that commands it (its
canonical head, e.g. ``"Delete {pages}"``) and the words people use for it (verbs, nouns, the result
it makes). An argument whose values are names from a set (colours, kinds of personal data) carries
them in its annotation: ``Annotated[str | None, Named("colour", COLORS)]``. The reader
(:mod:`docpilot.planning.language`) builds its lexicon and grammar from these, so a tool's words live
in one place: here, beside the tool.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

__all__ = ["Words", "Named", "spaced"]


class Words:
    """The words that name a tool: verbs ("delete", "drop"), nouns ("page"), the result ("copy")."""

    def __init__(self, verbs: Iterable[str] = (), nouns: Iterable[str] = (), makes: Iterable[str] = ()) -> None:
        self.verbs = tuple(verbs)
        self.nouns = tuple(nouns)
        self.makes = tuple(makes)
        odd = [w for w in (*self.verbs, *self.nouns, *self.makes) if w != w.strip().lower() or not w]
        if odd:
            raise TypeError(f"Words {odd} never match: write them stripped and in lower case")

    def all(self) -> tuple[str, ...]:
        return self.verbs + self.nouns + self.makes

    def __repr__(self) -> str:
        return f"Words(verbs={self.verbs!r}, nouns={self.nouns!r}, makes={self.makes!r})"


class Named:
    """Marks, in ``Annotated``, an argument whose values are names from a set (pydantic ignores it).

    ``names`` is the set itself or a function giving it (read when the language is built, never at
    import); ``many``: the argument takes several names (a list).
    """

    def __init__(self, what: str, names: Iterable[str] | Callable[[], Iterable[str]], many: bool = False) -> None:
        self.what = what
        self._names = names
        self.many = many

    def names(self) -> tuple[str, ...]:
        source = self._names() if callable(self._names) else self._names
        return tuple(dict.fromkeys(str(n) for n in source))

    def __repr__(self) -> str:
        return f"Named({self.what!r})"


def spaced(text: str, letters: str = "a-z0-9") -> str:
    """``text``'s words (runs of ``letters``), lower case, one space between and one on each side: the form a
    registry phrase is looked for in as a whole (``f" {phrase} " in spaced(request)``)."""
    return " " + " ".join(re.findall(f"[{letters}]+", text.lower())) + " "
