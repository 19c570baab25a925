"""Page selections: 1-based, inclusive, checked against the real page count."""

from __future__ import annotations

import pytest

from pdftools.errors import PageRangeError, ToolArgumentError
from pdftools.pages import describe_pages, parse_pages


@pytest.mark.parametrize(
    ("spec", "count", "expected"),
    [
        ("all", 4, [0, 1, 2, 3]),
        (None, 2, [0, 1]),
        ("1-3,5", 6, [0, 1, 2, 4]),
        ("last", 14, [13]),
        ("2-last", 4, [1, 2, 3]),
        ("first", 3, [0]),
        (3, 5, [2]),
        (-1, 5, [4]),
        ([1, 3], 5, [0, 2]),
        (["1-2", 5], 5, [0, 1, 4]),
        ("pages 2 and 3", 4, [1, 2]),
        ("4 to 9", 14, [3, 4, 5, 6, 7, 8]),
        ("odd", 5, [0, 2, 4]),
        ("even", 5, [1, 3]),
        ("3-1", 3, [2, 1, 0]),
        ("2,2,3", 3, [1, 2]),
        ("last-1", 5, [3]),
    ],
)
def test_parse_pages(spec: object, count: int, expected: list[int]) -> None:
    assert parse_pages(spec, count) == expected


@pytest.mark.parametrize("spec", ["40", 40, "1-40", [1, 40], 0, "0"])
def test_pages_past_the_end_name_the_valid_range(spec: object) -> None:
    with pytest.raises(PageRangeError, match=r"valid pages are 1-4"):
        parse_pages(spec, 4)


@pytest.mark.parametrize("spec", ["banana", True, 2.5, "1-x"])
def test_unreadable_selection(spec: object) -> None:
    with pytest.raises(ToolArgumentError):
        parse_pages(spec, 4)


def test_describe_pages() -> None:
    assert describe_pages([0, 1, 2, 4], 6) == "pages 1-3, 5"
    assert describe_pages([0, 1, 2], 3) == "all pages"
    assert describe_pages([3], 4) == "page 4"
