"""Every span of a clause accounted for by the steps the rules made, or the clause is not understood.

A colour, a size, a count, a page reference, a quoted term, a format, a modifier ("except",
"diagonally", "twice") — each must show in some step's arguments (or be a word that is known to mean
what the step does). What is left over is what the fast path did not understand: the request goes
to the model (or the person is asked) instead of a plan that silently ignores it. Before checking,
argument words the rules leave to every tool alike (a colour, a font size, an opacity, a resolution)
are bound to the one step in the clause whose tool takes them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from docpilot.planning.fastpath.extract import (
    FLAT,
    PII,
    all_but,
    categories_in,
    format_in,
    pages_in,
    points,
    unit_of,
)
from docpilot.planning.fastpath.rules import Intent
from docpilot.planning.fastpath.spans import VERB_TASKS, Span
from docpilot.planning.fastpath.targets import CASE_SENSITIVE, WHOLE_WORDS
from pdftools import get_tool
from pdftools.errors import PdfToolError
from pdftools.pages import parse_pages

__all__ = ["bind_arguments", "leftovers"]

_PAGE_KEYS = ("pages", "page", "after", "at", "order", "every")
_PLACES: list[tuple[str, Callable[[dict[str, Any]], bool]]] = [  # a position word, and the arguments that say it
    (r"top|upper|header", lambda a: "top" in str(a.get("position", "")) or "header" in a or "top" in a),
    (r"bottom|lower|footer", lambda a: "bottom" in str(a.get("position", "")) or "footer" in a or "bottom" in a),
    (
        r"left|left-hand",
        lambda a: "left" in str(a.get("position", "")) + str(a.get("align", "")) or "degrees" in a or "left" in a,
    ),
    (
        r"right|right-hand",
        lambda a: "right" in str(a.get("position", "")) + str(a.get("align", "")) or "degrees" in a or "right" in a,
    ),
    (
        r"(?:(?:right|dead|smack|bang)\s+(?:in\s+)?(?:the\s+)?)?(?:center|centre|middle)|centered|centred",
        lambda a: "center" in str(a.get("position", "")) + str(a.get("align")),
    ),
    (r"corners?", lambda a: "-" in str(a.get("position", "")) and "center" not in str(a.get("position"))),
    (r"margins?", lambda a: "margin" in a or "header" in a or "footer" in a),
    (r"beginning|start|front", lambda a: a.get("position") == "start" or a.get("after") in (0, "0") or "order" in a),
    (r"end", lambda a: a.get("position") == "end" or a.get("after") == "last" or "order" in a or "every" in a),
]


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key).lower()
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, str):
        yield value.lower()


def _numbers(value: Any) -> Iterable[float]:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield float(value)
    elif isinstance(value, dict | list | tuple):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _numbers(item)
    elif isinstance(value, str):
        for digits in re.findall(r"\d+(?:\.\d+)?", value):
            yield float(digits)


def _takes(task: str, arg: str) -> bool:
    return arg in get_tool(task).arg_docs


# "9pt" near these words is a width, a height or an amount to cut, not a font size ("from page 2" is no edge)
_CUT_OR_SIZE = re.compile(
    r"\b(?:wide|width|tall|high|height|margins?|edges?|sides?|inset)\b|"
    r"\b(?:off|from)\s+(?:the\s+)?(?:top|bottom|left|right|each|every|all|both|edges?|sides?|margins?)\b"
)
_SIDE = re.compile(r"\b(?:left|right)(?:[- ]hand)?\s+side\b")


def bind_arguments(spans: list[Span], intents: list[Intent], clause: str) -> None:
    """Colours, font sizes, opacities and resolutions said in the clause, set on the one step that takes them."""
    low = clause.lower()
    for span in spans:
        arg, value = _argument_of(span, low)
        if arg is None:
            continue
        open_ = [i for i in intents if _takes(i.task, arg) and arg not in i.args]
        if len(open_) == 1 and not any(arg in i.args and i.args[arg] == value for i in intents):
            open_[0].args[arg] = value


def _argument_of(span: Span, low: str) -> tuple[str | None, Any]:
    low = _SIDE.sub(" ", low)  # "left side, 9pt": where the text goes, no margin to cut
    if span.kind == "colour":
        return "color", span.text.lower()
    if span.kind == "measure":
        number, unit = span.value
        if unit in ("%", "percent") and re.search(r"opac|transparen|see-through|strength|faint", low):
            return "opacity", round(number / 100, 2)
        if unit == "dpi":
            return "dpi", int(number)
        if unit in ("pt", "pts", "point", "points") and (
            re.search(r"\bfont|\btext|\bsize|\bletters?\b", low) or not _CUT_OR_SIZE.search(low)
        ):  # "a DRAFT watermark in red, 60pt": the size of its letters
            return "font_size", number
    if span.kind == "number" and re.search(rf"\b(?:font(?:\s+size)?|size|font-size)\s+(?:of\s+)?{span.text}\b", low):
        return "font_size", span.value
    return None, None


def leftovers(
    spans: list[Span], intents: list[Intent], file_names: list[str], page_count: int | None = None
) -> list[Span]:
    """The spans no step accounts for (empty when the clause is fully understood)."""
    strings = [s for i in intents for s in _strings(i.args)]
    numbers = [n for i in intents for n in _numbers(i.args)]
    keys = {k for i in intents for k in i.args}
    tasks = {i.task for i in intents}
    said = {w for i in intents for w in i.words}
    names = [n.lower() for n in file_names]

    def in_args(text: str) -> bool:
        text = text.lower()
        return any(text == s or re.search(rf"(?<![\w]){re.escape(text)}(?![\w])", s) for s in strings)

    def has_number(value: float) -> bool:
        return any(abs(n - value) < 1e-9 or abs(abs(n) - abs(value)) < 1e-9 for n in numbers)

    checks: dict[str, Callable[[Span], bool]] = {
        "filler": lambda s: True,
        "file": lambda s: _file_exists(s.text, file_names),
        "quote": lambda s: (
            s.text in said or in_args(str(s.value)) or str(s.value).lower() in names or str(s.value).lower() in strings
        ),
        "pages": lambda s: _pages_used(s, spans, intents, page_count) or s.text.lower() in said,
        "number": lambda s: (
            has_number(float(s.value)) or bool(keys & {"count"}) and s.value == 1 or s.text.lower() in said
        ),
        "measure": lambda s: _measure_used(s, numbers, keys, intents) and not _converted_twice(s, spans),
        "colour": lambda s: (
            any(  # a whole word: "red" is not in "prepared"
                re.search(rf"(?<![\w#]){re.escape(_colour(s.text))}(?![\w])", x) for x in strings
            )
            or s.text.lower() in said
        ),  # "white boxes instead of black": the default a rule set aside
        "position": lambda s: _position_used(s.text.lower(), intents) or s.text.lower() in said,
        "format": lambda s: _format_used(s.text, intents) or s.text.lower() in said,
        "category": lambda s: _category_used(s.text, intents) or s.text.lower() in said,
        "verb": lambda s: bool(tasks & set(_verb_tasks(s.text))) or s.text.lower() in said,
        "modifier": lambda s: set(s.text.lower().split()) <= said or _modifier_used(s.text.lower(), intents),
        "word": lambda s: (
            s.text.lower() in said
            or in_args(s.text)
            or any(s.text.lower() in n for n in names)
            or re.fullmatch(r"\d*\.\d+", s.text) is not None
            and has_number(float(s.text))  # "0.25 opacity"
        ),
    }
    literal = ("word", "modifier", "position", "colour", "number", "format", "category")
    unused = [s for s in spans if not (checks[s.kind](s) or s.kind in literal and in_args(s.text))]
    unused = [s for s in unused if not _says_which_file(s, spans)]
    return unused or _dangling_object(spans)


_FILE_NOUNS = frozenset({"file", "document", "pdf", "doc", "report", "paper"})


def _says_which_file(span: Span, spans: list[Span]) -> bool:
    """A word that only says which file, set before a file noun: "this IRM file", "the Chelsea report"."""
    at = next((i for i, s in enumerate(spans) if s is span), -1)
    after = spans[at + 1] if 0 <= at < len(spans) - 1 else None
    return span.kind == "word" and after is not None and after.text.lower() in _FILE_NOUNS


# Filler words that name a thing or ask about one: said as a second object ("… and the totals"), they are
# something to act on that no rule read, not filler.
_THINGS = frozenset(
    "total blank blanks one ones thing what which where how who when text texts word words content contents "
    "image images picture pictures photo logo section sections part parts title author subject keyword keywords "
    "field fields value values entry entries margin margins header headers footer footers size font scan".split()
)  # not the words a sanitize names as what it strips ("javascript and hidden data", "… and hidden stuff")
_JOINS = ("and", "or", "&", "plus")


def _dangling_object(spans: list[Span]) -> list[Span]:
    """'highlight Acme and the totals', 'delete page 3 and the blank ones', 'rotate page 2 and what does it say':
    after the clause's last 'and', only filler words, one of them naming a thing — a second object that no step
    used (the rules read the first and stopped). Those words are left over."""
    joins = [i for i, s in enumerate(spans) if s.kind == "filler" and s.text.lower() in _JOINS]
    if not joins:
        return []
    tail = spans[joins[-1] + 1 :]
    if tail and all(s.kind == "filler" for s in tail) and any(_thing(s.text) for s in tail):
        return tail
    return []


def _thing(word: str) -> bool:
    low = word.lower()
    return low in _THINGS or low.endswith("s") and low[:-1] in _THINGS


_ORDINAL_FILE = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}


def _file_exists(text: str, file_names: list[str]) -> bool:
    """'the second file' with one file uploaded refers to nothing: the request means something else."""
    m = re.search(r"\b(first|1st|second|2nd|third|3rd|fourth|4th)\b", text, re.IGNORECASE)
    pdfs = [n for n in file_names if n.lower().endswith(".pdf")]
    return m is None or _ORDINAL_FILE[m.group(1).lower()] <= len(pdfs)


def _position_used(word: str, intents: list[Intent]) -> bool:
    for pattern, said in _PLACES:
        if re.fullmatch(pattern, word):
            return any(said(i.args) for i in intents)
    return False


def _page_set(spec: Any, count: int | None) -> frozenset[int] | str:
    if count:
        try:
            return frozenset(parse_pages(str(spec), count))
        except PdfToolError:
            pass
    return str(spec).replace(" ", "")


def _pages_used(span: Span, spans: list[Span], intents: list[Intent], count: int | None) -> bool:
    """A page reference is used when a step's pages are exactly what the clause's references say together."""
    if any(_placed(span.text, intent.args.get(key), key) for intent in intents for key in ("at", "after", "order")):
        return True
    if span.value == "except" and _flipped(span.text, intents, count):
        return True
    if (
        span.value == "except"
        and _DROPPED_OR_KEPT.match(span.text)
        and any(i.task in ("delete_pages", "extract_pages") for i in intents)
    ):
        # "all but the last two pages" with no step that read the exception: which pages go (or stay) is not
        # sure ("i need all but the last two pages, drop those" drops the two)
        return False
    said = pages_in(span.text, count)
    if said in ("odd", "even") and any(i.args.get("after") == said for i in intents):
        return True  # "after each odd-numbered page"
    if said is None or said == "all" or _means_all(span.text):
        return _means_all(span.text) or said == "all"
    mine = _page_set(said, count)
    others = [  # the other page references ("the whole pages" says how much of each, not which)
        _page_set(pages_in(s.text, count) or "", count)
        for s in spans
        if s.kind == "pages" and s is not span and not _means_all(s.text)
    ]
    others += [_page_set(b[0], count) for s in spans if s.value == "except" and (b := all_but(s.text, count))]
    for intent in intents:
        for key in ("pages", "page"):
            if key not in intent.args:
                continue
            value = _page_set(intent.args[key], count)
            if value == mine:
                return True
            if intent.args[key] == "all" and not _means_all(span.text):
                continue  # every page is what a tool does anyway: it does not use "page 4"
            if isinstance(mine, frozenset) and isinstance(value, frozenset) and mine <= value:
                # "pages 1-3 and page 5": each a part of the whole, none inside another
                return not any(isinstance(o, frozenset) and (o <= mine or mine <= o) for o in others)
    return False


# "everything except …", "all but …": an exception that no page word comes before
_DROPPED_OR_KEPT = re.compile(r"(?i)(?:everything|all)\s+(?!pages?\b|the\s+pages?\b|of\s+the\s+pages?\b)")
_EXCEPT_WORDS = {"except", "but", "other", "apart", "save", "excluding", "besides"}


def _flipped(text: str, intents: list[Intent], count: int | None) -> bool:
    """'delete all pages except 3 and 4': a rule that read the exception as the pages to keep (or to drop) and said
    so (its words hold the exception word) uses the pages named after it."""
    both = all_but(text, count)
    if both is None:
        return False
    inner = _page_set(both[0], count)
    return any(
        i.task in ("extract_pages", "delete_pages")
        and i.words & _EXCEPT_WORDS
        and _page_set(i.args.get("pages"), count) == inner
        for i in intents
    )


def _placed(text: str, value: Any, key: str = "at") -> bool:
    """A page reference that says where ("after page 3" → after 3 or at 4, "before page 2" → after 1, "after the last
    page" → last) or which pages move ("pages 2 and 5" in an order); None (no such argument) says nothing."""
    if value is None or re.search(r"(?i)\b(?:first|last|final|next|remaining)\s+\w+\s+pages\b", text):
        return False  # "the last 2 pages" counts pages; it does not say where
    said = {int(n) for n in re.findall(r"\d+", text)}
    given = {int(n) for n in re.findall(r"\d+", str(value))}
    named = pages_in(text)
    if not said and named and re.fullmatch(r"\d+", named):  # "the fourth page", "the cover": one page by name
        said = {int(named)}
        if key == "after":  # "after the fourth page" is after 4, "before the cover" after 0
            return said <= given | {n + 1 for n in given}
    if not said:
        words = set(re.findall(r"[a-z]+", text.lower()))
        if key == "order" and words & {"first", "last"}:  # "move the last page to the front": a whole new order
            return bool(re.fullmatch(r"\d+(?:,\d+)+", str(value)))
        return "last" in words and "last" in str(value) or "first" in words and str(value) in ("0", "1")
    if re.match(r"(?i)between\b", text):  # "between pages 3 and 4": after 3, before 4
        return said == {n for g in given for n in (g, g + 1)}
    if re.match(r"(?i)(?:after|before|from|starting)\b", text):
        return said <= given | {n + 1 for n in given} | {n - 1 for n in given}
    return said <= given


def _means_all(text: str) -> bool:
    """'every page', 'all pages', 'the whole page': the default of every tool that takes pages."""
    return (
        re.fullmatch(
            r"(?:every|each|all(?:\s+the)?|all\s+of\s+the|the\s+whole|the\s+entire|whole|entire|(?:the\s+)?remaining)"
            r"\s+pages?|(?:the\s+)?(?:rest|remainder)\s+of\s+the\s+pages",
            text,
            re.IGNORECASE,
        )
        is not None
    )


def _colour(text: str) -> str:
    return " ".join(text.lower().split())


def _measure_used(span: Span, numbers: list[float], keys: set[str], intents: list[Intent]) -> bool:
    number, unit = span.value
    if unit in ("kb", "mb", "gb", "byte", "bytes"):
        return False
    if unit in ("%", "percent"):
        return any(abs(n - number / 100) < 1e-9 or abs(n - number) < 1e-9 for n in numbers)
    if _LENGTH_UNIT.fullmatch(unit):
        wanted = unit_of(unit)
        if any(i.args.get("width") == points(number, wanted) for i in intents):
            return True  # "2 inches wide": a width, in points
        return any(i.args.get("unit") == wanted for i in intents) and number in numbers
    if unit in ("page", "pages"):
        return number in numbers or bool(keys & {"pages", "every", "at"})
    return any(abs(abs(n) - abs(number)) < 1e-9 for n in numbers)


_LENGTH_UNIT = re.compile(r"mm|cm|in|inch(?:es)?|centimet(?:er|re)s?|millimet(?:er|re)s?")


def _converted_twice(span: Span, spans: list[Span]) -> bool:
    """'1 inch wide at 72 pt': the width (72 pt) accounts for the inch; the same number cannot say a second size."""
    number, unit = span.value
    if unit not in ("pt", "pts", "point", "points"):
        return False
    return any(
        s.kind == "measure" and _LENGTH_UNIT.fullmatch(s.value[1]) and points(s.value[0], unit_of(s.value[1])) == number
        for s in spans
    )


def _verb_tasks(text: str) -> tuple[str, ...]:
    for pattern, tasks in VERB_TASKS.items():
        if re.fullmatch(pattern, text, re.IGNORECASE):
            return tasks
    return ()


def _format_used(text: str, intents: list[Intent]) -> bool:
    fmt = format_in(text) or ("png" if re.match(r"photo|screen", text, re.IGNORECASE) else None)
    for intent in intents:
        tool = get_tool(intent.task)
        if fmt and tool.converts_to == fmt:
            return True
        output = str(intent.args.get("output", "")).lower()
        if fmt and output.endswith(f".{fmt[:3]}"):
            return True
        if fmt in ("png", "jpeg") and (
            intent.task in ("extract_images", "images_to_pdf", "add_image")
            or "image" in intent.args
            or tool.converts_to in ("png", "jpeg", "tiff")
        ):
            return True
        if fmt == "text" and intent.task == "extract_text":
            return True
    return False


def _category_used(text: str, intents: list[Intent]) -> bool:
    wanted = categories_in(text) or PII
    found = {c for i in intents for c in i.args.get("categories", [])}
    return set(wanted) <= found


_MODIFIERS: list[tuple[str, Callable[[Intent], bool]]] = [
    (WHOLE_WORDS, lambda i: i.args.get("whole_words") is True),
    (CASE_SENSITIVE, lambda i: i.args.get("case_sensitive") is True),
    (r"diagonal(?:ly)?", lambda i: i.task == "add_watermark" and i.args.get("rotation", 45) == 45),
    (rf"horizontal(?:ly)?|{FLAT}", lambda i: i.args.get("rotation") == 0),
    (r"vertical(?:ly)?", lambda i: i.args.get("rotation") in (90, -90)),
    (r"clockwise", lambda i: i.args.get("degrees", 0) > 0),
    (r"counter-?clockwise|anti-?clockwise", lambda i: i.args.get("degrees", 0) < 0),
    (r"upside(?:[- ]down)?", lambda i: abs(i.args.get("degrees", 0)) == 180),
    (r"sideways", lambda i: abs(i.args.get("degrees", 0)) == 90),
    (r"reverse|reversed|backwards?|opposite", lambda i: i.args.get("order") == "reverse"),
    (r"lossless|gently|light|lightly|minimum|quality", lambda i: i.args.get("level") == "low"),
    (r"strongly|aggressive(?:ly)?|heavily|maximum|max|highest|lowest", lambda i: i.args.get("level") == "high"),
    (r"quality", lambda i: "quality" in i.args),
    (r"smaller", lambda i: i.task == "compress"),
    (r"small|tiny", lambda i: i.task == "compress" and i.args.get("level") == "high"),
    (r"small|tiny", lambda i: 0 < float(i.args.get("font_size") or 0) < _default_size(i.task)),  # "a small 8 pt footer"
    (r"light|transparent|semi-transparent|see-through", lambda i: float(i.args.get("opacity", 1)) < 1),
    # "a see-through watermark": one the tool draws see-through anyway (its documented default opacity is below 1)
    (r"transparent|semi-transparent|see-through", lambda i: float(i.args.get("opacity", _default_opacity(i.task))) < 1),
    (r"faint|faintly", lambda i: float(i.args.get("opacity", 1)) <= 0.3),  # barely there: "faintly … 15% opacity"
    (r"opaque|solid", lambda i: float(i.args.get("opacity", 0)) >= 0.9),  # "an opaque stamp at 30% opacity" is not
    (r"large|larger|big|bigger|huge", lambda i: float(i.args.get("font_size") or 0) > _default_size(i.task)),
    (
        r"(?:large|larger|big|bigger|huge)\s+(?:letters|font|print|type|writing)",
        lambda i: float(i.args.get("font_size") or 0) > _default_size(i.task),
    ),
    (
        r"english|german|french|spanish|italian|dutch|portuguese|chinese|japanese|arabic|russian",
        lambda i: "language" in i.args,
    ),
    (
        r"(?:but\s+)?only",
        lambda i: i.task == "extract_pages" or any(i.args.get(k) not in (None, "all") for k in _PAGE_KEYS),
    ),
    (r"each\s+side|all\s+sides|sides", lambda i: "margin" in i.args),
    (r"colou?r", lambda i: "color" in i.args),  # "with red colour": the colour the step uses
    # "at the very beginning": a new page or a moved one at an end of the file ("the very bottom" of a page is no
    # place any tool knows apart from "the bottom")
    (
        r"very\s+(?:beginning|start|front|end|back)",
        lambda i: (
            i.args.get("after") in (0, "0", "last") or i.args.get("position") in ("start", "end") or "order" in i.args
        ),
    ),
]


def _default_size(task: str) -> float:
    """The font size a tool uses when none is given: "in a larger font" with 9 pt is not larger."""
    return float(get_tool(task).defaults().get("font_size") or 12)


def _default_opacity(task: str) -> float:
    """The opacity a tool uses when none is given (1, solid, for a tool that takes none)."""
    return float(get_tool(task).defaults().get("opacity") or 1)


def _modifier_used(word: str, intents: list[Intent]) -> bool:
    for pattern, used in _MODIFIERS:
        if re.fullmatch(pattern, word, re.IGNORECASE) and any(used(i) for i in intents):
            return True
    return False
