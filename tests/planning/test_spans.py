"""Issue F item 0: every word of a clause is accounted for, or the fast path hands the request on.

The request is read once into spans (tests of :func:`tag`); the rules' steps must use each argument
word (a colour, a size, a count, a modifier) — a word left over means the fast path did not
understand, and it plans nothing rather than a plan that ignores the word.
"""

from __future__ import annotations

import pytest

from docpilot.files import FileInfo
from docpilot.planning.fastpath.build import fast_reading
from docpilot.planning.fastpath.spans import tag

ONE = {"paper.pdf": FileInfo("paper.pdf", "/x/paper.pdf", "pdf", pages=12)}


def steps(request: str) -> list[tuple[str, dict]] | None:
    plan = fast_reading(request, ONE).plan
    if plan is None:
        return None
    return [(s.task, {k: v for k, v in s.args.items() if k != "file"}) for s in plan.steps]


def test_tag_reads_each_word_once() -> None:
    spans = tag("put a red COPY stamp at the top of pages 2 through 4 at 50% opacity", [])
    kinds = {s.text: s.kind for s in spans}
    assert kinds["red"] == "colour"
    assert kinds["pages 2 through 4"] == "pages"
    assert kinds["50%"] == "measure"
    assert kinds["top"] == "position"
    assert kinds["COPY"] == "word"
    assert "2" not in kinds  # inside the page reference, not a number of its own
    covered = "".join(" " if any(s.start <= i < s.end for s in spans) else ch for i, ch in enumerate(spans[0].text))
    assert covered.strip() == ""


def test_the_issue_sentences() -> None:
    assert steps("put a red COPY stamp at the top of every page") == [
        ("add_watermark", {"pages": "all", "text": "COPY", "position": "top", "color": "red"})
    ]
    assert steps("split it into chunks of 5 pages") == [("split_pdf", {"every": 5})]
    assert steps("cut the paper down to pages 1 through 4 and export them as PNG images") == [
        ("extract_pages", {"pages": "1-4"}),
        ("convert_to_png", {}),
    ]


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("keep everything except page 2", ("delete_pages", "2")),
        ("delete everything except page 2", ("extract_pages", "2")),
        ("remove all but the first 3 pages", ("extract_pages", "1-3")),
        ("keep all pages except the last", ("delete_pages", "last")),
        ("get rid of every page except the first", ("extract_pages", "1")),
        ("keep only pages 2-5", ("extract_pages", "2-5")),
        ("delete pages 2-5", ("delete_pages", "2-5")),
        ("trim it down to the first two pages", ("extract_pages", "1-2")),
        ("drop pages 3 and 4", ("delete_pages", "3,4")),
    ],
)
def test_keep_and_except_flip_the_operation_both_ways(request_text: str, expected: tuple[str, str]) -> None:
    assert steps(request_text) == [(expected[0], {"pages": expected[1]})]


@pytest.mark.parametrize(
    "request_text",
    [
        "add a DRAFT watermark twice",
        "rotate every other page by 90 degrees",
        "compress it to under 2 MB",
        "convert it to Word in Spanish",
        "delete page 3 but keep page 4",
        "add page numbers in bold",
        "highlight 'ACME' on every page and email it",
        "number the pages and print them",
        "translate the document to French",
        "split it into 3 files",
        "make the watermark bigger",
    ],
)
def test_a_word_left_over_hands_the_request_on(request_text: str) -> None:
    reading = fast_reading(request_text, ONE)
    assert reading.plan is None
    assert reading.unread, "the words that were not understood are named"


def test_argument_words_are_bound_to_the_step_that_takes_them() -> None:
    assert steps("underline 'total' in blue") == [
        ("underline_text", {"terms": ["total"], "pages": "all", "color": "blue"})
    ]
    assert steps("add a DRAFT watermark at 20% opacity in 60 pt font") == [
        ("add_watermark", {"pages": "all", "text": "DRAFT", "opacity": 0.2, "font_size": 60.0})
    ]
    assert steps("save pages 1-2 as PNG at 300 dpi") == [("convert_to_png", {"pages": "1-2", "dpi": 300})]


def test_the_plan_says_which_words_decided_each_step() -> None:
    reading = fast_reading("rotate page 2 clockwise and add a red 'COPY' watermark", ONE)
    assert reading.plan is not None
    assert reading.words[1] == ["rotate", "page 2", "clockwise"]
    assert "red" in reading.words[2] and "COPY" in reading.words[2]


def test_plan_json_shows_the_deciding_words_with_secrets_masked() -> None:
    from docpilot.planning.planner import Planner

    outcome = Planner().plan("protect it with password s3cretPW and add a red 'COPY' watermark", ONE)
    shown = outcome.to_json()
    assert shown["words"]["1"] == ["add", "red", "COPY", "watermark"]
    assert "s3cretPW" not in str(shown) and "***" in shown["words"]["2"]


def test_paraphrase_bench_bugs_stay_fixed() -> None:
    # "remove the highlights" must not delete the comments too
    assert steps("Remove the highlights.") == [("delete_annotations", {"pages": "all", "types": ["highlight"]})]
    # a second verb without a comma starts its own clause; the quoted password is the password, not a term
    assert steps("scrub the metadata and then password protect it with 'Heron-31'") == [
        ("sanitize", {}),
        ("add_password", {"password": "Heron-31"}),
    ]
    # a password said and used by nothing hands the request on
    assert fast_reading("add page numbers; the password is 'x1'", ONE).plan is None


@pytest.mark.parametrize(
    ("clause", "text", "kind"),
    [
        ("pages 4 and 8 are upside-down", "upside-down", "modifier"),
        ("add it right in the centre", "right in the centre", "position"),
        ("add it on the right in the centre", "right", "position"),  # a side and the middle: two places
        ("rotate pages from 2 to 5", "pages from 2 to 5", "pages"),
        ("save from the sixth page onwards", "the sixth page onwards", "pages"),
        ("use it as a watermark, but only on page 1", "but only", "modifier"),
        ("Make a PDF from the screenshots", "screenshots", "format"),
    ],
)
def test_fifth_batch_spans(clause: str, text: str, kind: str) -> None:
    assert {s.text: s.kind for s in tag(clause, [])}.get(text) == kind
