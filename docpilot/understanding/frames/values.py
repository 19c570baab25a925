"""Numbers as tables print them, read once: "$1,234.5", "(4,378)", "(0.1%)", "€ 399,00", "1.234.567", "12 345".

One reader for a cell's number (:func:`read_number`) and one for the scale a caption or heading states
("in millions", "($ million, except per share amounts)", :func:`read_scale`). A number keeps what it
was printed with (a percent sign, a currency) so a frame can say what its columns hold; its value is the
number as printed, never multiplied by the table's scale (the frame carries the scale beside it).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["Number", "read_number", "read_scale", "is_year", "SCALES", "NIL"]

SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}

_CURRENCY = r"US\$|\$|€|£|¥|USD|EUR|GBP|CHF|JPY|CAD|AUD"
# what a cell prints for nothing: a dash, "n/a", the dots of an Indian budget's empty cell ("...")
NIL = frozenset({"", "-", "–", "—", "n/a", "na", "n.a.", "nil", "none", "—%", "-%", "..", "...", "…", ". . ."})
_FOOTNOTE = re.compile(r"\s*(?:\(\*+\)|\*+|\(\d\)|\[\d+\])$")
_WORD_SCALE = re.compile(r"\s*(thousand|million|billion|bn|mn)s?\.?$", re.I)
_BODY = re.compile(r"\d[\d.,' ]*\d|\d")
_SCALE_IN = re.compile(r"\bin\s+(?:(?:us\s*)?\$|usd|eur|€|£|gbp)?\s*(thousand|million|billion)s?\b", re.I)
_SCALE_NOTE = re.compile(
    rf"(?:\(|\b)(?:{_CURRENCY}|dollars|euros?)?\s*(thousand|million|billion|mn|bn)s?\b(?=[^()]*\))", re.I
)
_SCALE_UNIT = re.compile(rf"(?:{_CURRENCY})\s*(thousand|million|billion|mn|bn)s?\b", re.I)
_SHORT = {"mn": "million", "bn": "billion"}
_TIMES = re.compile(r"(?<=\d)\s?[x×]$")
_YEAR = re.compile(r"(?:19|20)\d\d")


@dataclass(frozen=True)
class Number:
    """A number read from a cell: its value as printed, and what it was printed with."""

    value: float
    percent: bool = False
    currency: str = ""  # "$", "€", "USD" … as printed; "" for none


def read_number(text: str) -> Number | None:
    """The number a cell holds, or None (text, a blank, a dash for nil).

    Thousands separators (",", ".", "'", spaces), decimal commas ("399,00", "1.234,56"), a multiple ("2.20x"), a
    minus or parentheses for negatives ("(4,378)", "(0.1%)", "(6.4)%", "(1)", "€-9,32"), "%", a currency before or
    after, a scale word ("1.2 million" → 1,200,000), a footnote mark ("3.5*", "2006 (*)") and a closing full stop
    ("$6,205.") are read; "1,234" is 1234 (English); a single "." is a decimal point ("1.234" → 1.234) unless it
    groups thousands twice.
    """
    clean = unicodedata.normalize("NFKC", text).strip().replace("\u2212", "-")
    clean = _FOOTNOTE.sub("", clean).strip() or clean  # "3.5 (1)": a footnote mark; "(1)" alone: minus one
    clean = re.sub(r"(?<=\d)\.$", "", clean)  # "$248,200.": a figure ending a sentence in its cell
    if clean.lower() in NIL:
        return None
    negative = False
    clean = re.sub(r"^\((.*)\)\s*%$", r"(\1%)", clean)  # "(6.4)%" as "(6.4%)"
    if clean.startswith("(") and clean.endswith(")"):
        negative, clean = True, clean[1:-1].strip()
    currency = ""
    found = re.match(rf"^({_CURRENCY})\s*", clean) or re.search(rf"\s*({_CURRENCY})$", clean)
    if found:
        currency = found.group(1)
        clean = (clean[: found.start()] + clean[found.end() :]).strip()
    if clean.startswith("(") and clean.endswith(")"):  # "$(12)"
        negative, clean = not negative, clean[1:-1].strip()
    if clean[:1] in "-–":
        negative, clean = not negative, clean[1:].strip()
    percent = clean.endswith("%")
    clean = clean.rstrip("%").strip()
    clean = _TIMES.sub("", clean)  # "2.20x", "25×": a multiple, its number as printed
    factor = 1.0
    scaled = _WORD_SCALE.search(clean)
    if scaled and scaled.start() > 0:
        factor = SCALES[_SHORT.get(scaled.group(1).lower(), scaled.group(1).lower())]
        clean = clean[: scaled.start()].strip()
    if not clean or _BODY.fullmatch(clean) is None:
        return None
    value = _digits(clean)
    if value is None:
        return None
    value *= factor
    return Number(-value if negative else value, percent, currency)


def _digits(body: str) -> float | None:
    """The value of a run of digits and separators, deciding which separator is the decimal one."""
    body = body.replace("'", ",").strip()
    if " " in body:
        if not re.fullmatch(r"\d{1,3}(?: \d{3})+(?:[.,]\d+)?", body):
            return None
        body = body.replace(" ", "")
    if "," in body and "." in body:
        decimal = "," if body.rfind(",") > body.rfind(".") else "."
        thousands = "." if decimal == "," else ","
        whole, _, frac = body.rpartition(decimal)
        if not re.fullmatch(rf"\d{{1,3}}(?:\{thousands}\d{{3}})*", whole) or not frac.isdigit():
            return None
        return float(whole.replace(thousands, "") + "." + frac)
    if "," in body:
        if re.fullmatch(r"\d{1,3}(?:,\d{3})+", body):
            return float(body.replace(",", ""))
        if re.fullmatch(r"\d+,\d+", body):
            return float(body.replace(",", "."))
        return None
    if "." in body:
        if re.fullmatch(r"\d{1,3}(?:\.\d{3}){2,}", body):
            return float(body.replace(".", ""))
        return float(body) if re.fullmatch(r"\d*\.\d+|\d+\.", body) else None
    return float(body)


def read_scale(text: str) -> str:
    """The scale a caption or heading states: "thousand", "million", "billion", or "" for none.

    "(In thousands)", "in millions of dollars", "($ million, except per share amounts)", "USD bn" count;
    a scale word in running prose ("3 million visitors") does not.
    """
    clean = unicodedata.normalize("NFKC", text)
    for pattern in (_SCALE_IN, _SCALE_NOTE, _SCALE_UNIT):
        found = pattern.search(clean)
        if found:
            word = found.group(1).lower()
            return _SHORT.get(word, word)
    return ""


def is_year(text: str) -> bool:
    """Whether ``text`` is a year printed alone ("2023"): a heading or a row's name, not an amount."""
    return _YEAR.fullmatch(text.strip()) is not None
