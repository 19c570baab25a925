"""One page-selection type: what users say ("1-3,5", "last", "all") to 0-based indices.

Pages are 1-based and inclusive at the edge; inside the tools they are 0-based.
"""

from __future__ import annotations

import re
from typing import Annotated

from .argcheck import PageSelection
from .errors import PageRangeError, PdfToolError, ToolArgumentError

__all__ = ["Pages", "parse_pages", "fixed_pages", "describe_pages"]

# Pages, 1-based and inclusive: "all", "last", "1-3,5", "2-last", "odd", "even", a number,
# or a list of numbers. Each tool's docstring describes what its page argument selects.
Pages = Annotated[str | int | list[int | str], PageSelection()]

_WORDS = {"first": "1", "last": "last", "end": "last"}
_RANGE = re.compile(r"^(\w+)\s*(?:-|–|to|through|\.\.)\s*(\w+)$")
_CONNECTIVES = {"page", "pages", "to", "through", "and"}  # the only words a numbers-only selection has
_NEGATIVE = re.compile(r"(?:^|[,;])\s*-")


def _one(token: str, count: int) -> int:
    token = _WORDS.get(token, token)
    if token == "last":
        return count
    if token.startswith("last-") and token[5:].isdigit():
        return count - int(token[5:])
    if not token.lstrip("-").isdigit():
        raise ToolArgumentError(f'"{token}" is not a page. Use numbers like "1-3,5", or "first", "last", "all".')
    number = int(token)
    if number < 0:  # -1 is the last page, as in Python
        number = count + 1 + number
    return number


def _check(number: int, count: int, spec: object) -> int:
    if not 1 <= number <= count:
        raise PageRangeError(
            f"Page {number} is out of range in {spec!r}: the document has {count} "
            f"page{'s' if count != 1 else ''}, so valid pages are 1-{count}."
        )
    return number - 1


def parse_pages(spec: object, count: int) -> list[int]:
    """Turn a page selection into sorted-as-given, de-duplicated 0-based indices.

    Args:
        spec: "all", "last", "1-3,5", "odd", "even", an int or a list of ints/strings.
        count: The document's page count.

    Raises:
        PageRangeError: a page is outside 1..count.
        ToolArgumentError: the selection cannot be read.
    """
    if count < 1:
        raise PageRangeError("The document has no pages.")
    if spec is None:
        spec = "all"
    if isinstance(spec, bool):
        raise ToolArgumentError(f"{spec!r} is not a page selection.")
    if isinstance(spec, int):
        return [_check(spec if spec > 0 else count + 1 + spec, count, spec)]
    if isinstance(spec, (list, tuple)):
        out: list[int] = []
        for item in spec:
            for index in parse_pages(item, count):
                if index not in out:
                    out.append(index)
        if not out:
            raise ToolArgumentError("The page selection is empty.")
        return out
    if not isinstance(spec, str):
        raise ToolArgumentError(f"{spec!r} is not a page selection.")
    text = spec.strip().lower().replace(" and ", ",").replace(";", ",")
    text = re.sub(r"^pages?\s*", "", text)
    if text in ("", "all", "every", "*"):
        return list(range(count))
    if text in ("odd", "even"):
        return list(range(0 if text == "odd" else 1, count, 2))
    out = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        match = _RANGE.match(part)
        if match and not part.startswith("last-"):
            start, end = (_one(t, count) for t in match.groups())
            _check(start, count, spec)
            _check(end, count, spec)
            step = 1 if end >= start else -1
            numbers = list(range(start, end + step, step))
        else:
            numbers = [_one(part, count)]
        for number in numbers:
            index = _check(number, count, spec)
            if index not in out:
                out.append(index)
    if not out:
        raise ToolArgumentError(f"The page selection {spec!r} is empty.")
    return out


def fixed_pages(spec: object) -> list[int] | None:
    """The 0-based pages of a selection that names page numbers only ("1-3,5", [2, "4-6"]), else None.

    Such a selection means the same pages whatever the page count, so it can be resolved
    before the document is opened; whether the pages exist is for the caller to check.
    Selections with words ("last", "all", "odd") or negative numbers return None.
    """
    items = spec if isinstance(spec, list) else [spec]
    highest = 0
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, str)):
            return None
        if isinstance(item, int):
            if item < 1:
                return None
            highest = max(highest, item)
            continue
        text = item.strip().lower()
        if set(re.findall(r"[^\W\d_]+", text)) - _CONNECTIVES or _NEGATIVE.search(text):
            return None
        numbers = [int(n) for n in re.findall(r"\d+", text)]
        if not numbers or min(numbers) < 1:
            return None
        highest = max(highest, *numbers)
    try:
        return parse_pages(spec, highest)
    except PdfToolError:
        return None


def describe_pages(indices: list[int], count: int) -> str:
    """'all pages', 'page 3', 'pages 1-3, 5' for 0-based indices."""
    if sorted(indices) == list(range(count)) and count > 1:
        return "all pages"
    numbers = sorted(i + 1 for i in indices)
    runs: list[str] = []
    start = prev = numbers[0]
    for number in numbers[1:] + [None]:
        if number is not None and number == prev + 1:
            prev = number
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if number is not None:
            start = prev = number
    return ("page " if len(numbers) == 1 else "pages ") + ", ".join(runs)
