"""Text as questions and pages are compared: normalised, split into words, crudely stemmed, numbers read."""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "norm", "words", "stems", "stem", "parse_number", "numbers_in", "format_number", "STOPWORDS", "FOOTNOTE_MARK",
    "alike", "without_negated",
]  # fmt: skip

FOOTNOTE_MARK = re.compile(r"[\d*†‡§]{1,3}")  # what a footnote mark set above the line is made of ("²", "*", "†")

STOPWORDS = frozenset(
    "a an the of to in on at for by with from and or is are was were be been this that these those it its "
    "what which who whom whose when where how do does did has have had there their they them as than into "
    "according per all any each much many me my i you your please tell give show find about".split()
)

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")


# what a question says is not meant: "the Handgun column (not the pawn or redemption columns)"
_NEGATED = re.compile(
    r"\b(?:not\s+(?:the|a|an|any|including)|excluding|except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|"
    r"but\s+not|rather\s+than|instead\s+of)\b[^,.;:?!()]*",
    re.IGNORECASE,
)


def without_negated(text: str) -> str:
    """``text`` less what it says is not meant ("…, not the pawn or redemption columns", "excluding Guam"): the
    words that name what to read, for the checks of what a program reads."""
    return _NEGATED.sub(" ", text)


def norm(text: str) -> str:
    """NFKC, whitespace collapsed, lower case: how quotes and answers are compared."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().lower()


def words(text: str) -> list[str]:
    """The words of ``text``, lower case."""
    return _WORD.findall(norm(text))


_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ies", "ied", "ers", "er", "ed", "es", "s", "y", "e")


def stem(word: str) -> str:
    """A crude stem, enough to match "billed"/"bill", "expire"/"expiry", "salaries"/"salary"."""
    word = word.lower()
    if word.endswith("'s"):  # "Beauty's" is Beauty
        word = word[:-2]
    for suffix in _SUFFIXES:
        if len(word) - len(suffix) >= 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def stems(text: str, keep_stopwords: bool = False) -> list[str]:
    """The stems of the content words of ``text``."""
    return [stem(w) for w in words(text) if keep_stopwords or w not in STOPWORDS]


# a number stands apart from Latin letters and digits ("A320" is a name), not from a counter word ("9,661명")
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[-−(]?\$?\s?(?:\d[\d,.]*\d|\d)\)?(?:\s?%)?(?![A-Za-z0-9_])")


def parse_number(text: str) -> float | None:
    """The number a cell or value holds ("$134,000" → 134000, "(12)" → -12, "31%" → 31), or None."""
    clean = unicodedata.normalize("NFKC", text).strip().replace("−", "-")
    clean = re.sub(r"^(USD|EUR|GBP|US\$|\$|€|£)\s*", "", clean, flags=re.I)
    clean = re.sub(r"\s*(USD|EUR|GBP|€|£|million|billion|thousand)$", "", clean, flags=re.I)
    # a decimal comma, as invoices in Europe write amounts: "€ 717,97", "1.234,56" (two decimals: "1,234" is 1234)
    euro = re.fullmatch(r"(-|\()?\s*(\d{1,3}(?:\.\d{3})+|\d+),(\d{2})\s*\)?\s*%?", clean)
    if euro:
        value = float(euro.group(2).replace(".", "") + "." + euro.group(3))
        return -value if euro.group(1) else value
    match = re.fullmatch(r"(-|\()?\s*\$?\s*(\d{1,3}(?:[, ]\d{3})+|\d+)(\.\d+)?\s*\)?\s*%?", clean)
    if not match:
        return None
    value = float(match.group(2).replace(",", "").replace(" ", "") + (match.group(3) or ""))
    return -value if match.group(1) else value


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text``."""
    found: list[float] = []
    for match in _NUMBER.finditer(unicodedata.normalize("NFKC", text)):
        value = parse_number(match.group(0))
        if value is not None:
            found.append(value)
    return found


def format_number(value: float) -> str:
    """A computed number as a person writes it: 194750 → "194,750", 0.000576 → "0.000576"."""
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 100:
        return f"{value:,.2f}"
    return f"{value:.6g}"


def alike(word: str, other: str, prefix: int = 4) -> bool:
    """The same word, or two forms of one sharing their first ``prefix`` letters ("employ" / "employees", "profit" /
    "profitability"; with 5, "expense" / "expenses" but not "interest" / "internal")."""
    return word == other or (min(len(word), len(other)) >= prefix and word[:prefix] == other[:prefix])
