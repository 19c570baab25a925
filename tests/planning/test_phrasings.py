"""Issue F: phrasings the fast path reads beyond the ones it was first tuned on, and the ones it must hand on.

Each shape is tested with the words a person would type: "every page except the first one", "throw away
the cover page", "a quarter turn to the right", "in that order". The plans the page shapes make are run
on fixture PDFs, so the pages kept, dropped and numbered are the ones the person meant.
"""

from __future__ import annotations

import pymupdf
import pytest
from fast_steps import fast_steps

from docpilot.files import FileInfo, inspect_files
from docpilot.planning.fastpath.build import fast_reading
from pdftools import get_tool

TEN = {"paper.pdf": FileInfo("paper.pdf", "/x/paper.pdf", "pdf", pages=10)}
TWO_FILES = {
    "chapter1.pdf": FileInfo("chapter1.pdf", "/x/chapter1.pdf", "pdf", pages=10),
    "chapter2.pdf": FileInfo("chapter2.pdf", "/x/chapter2.pdf", "pdf", pages=12),
}


def steps(request: str, files: dict[str, FileInfo] = TEN) -> list[tuple[str, dict]] | None:
    return fast_steps(request, files)


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        # every page less the ones named: the tool gets the pages left
        ("put page numbers on every page except the first one", ("add_page_numbers", {"pages": "2-10"})),
        ("highlight 'risk' on every page but page 2", ("highlight_text", {"terms": ["risk"], "pages": "1,3-10"})),
        ("rotate all pages except the first two 90 degrees", ("rotate_pages", {"pages": "3-10", "degrees": 90})),
        # … and the exception flips keeping and dropping, with bare page numbers too
        ("delete all pages except 3 and 4", ("extract_pages", {"pages": "3,4"})),
        ("keep all pages apart from pages 4 and 5", ("delete_pages", {"pages": "4,5"})),
    ],
)
def test_every_page_except_some(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = expected
    got = steps(request_text)
    assert got is not None and len(got) == 1 and got[0][0] == task
    assert {k: v for k, v in got[0][1].items() if k in args} == args


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("throw away the cover page", [("delete_pages", {"pages": "1"})]),
        ("delete every even page", [("delete_pages", {"pages": "even"})]),
        ("make a new PDF from the last page only", [("extract_pages", {"pages": "last"})]),
        ("rotate the odd pages 180°", [("rotate_pages", {"pages": "odd", "degrees": 180})]),
        ("rotate pages 4 through 8 a quarter turn to the right", [("rotate_pages", {"pages": "4-8", "degrees": 90})]),
        ("split the document into two files at page 6", [("split_pdf", {"at": "6"})]),
        ("make the pdf as small as you can", [("compress", {"level": "high"})]),
        ("the file is way too big, can you compress it", [("compress", {})]),
        ("does this document mention 'arbitration'?", [("search_text", {"terms": ["arbitration"], "pages": "all"})]),
        ("put a password on it: hunter22", [("add_password", {"password": "hunter22"})]),
        ("take the password off, it's 'winter2024'", [("remove_password", {"password": "winter2024"})]),
        (
            "add a comment on page 2 saying 'check these figures'",
            [("add_comment", {"text": "check these figures", "page": "2"})],
        ),
        (
            "leave a note on the first page: Please sign and return",
            [("add_comment", {"text": "Please sign and return", "page": "1"})],
        ),
        ("sign page 1 as Tom Becker", [("add_signature", {"page": "1", "name": "Tom Becker"})]),
        ("what fields does this form have?", [("read_form", {})]),
        ("flatten this form so the answers can't be changed", [("flatten_form", {})]),
        ("run OCR on it", [("ocr", {"pages": "all"})]),
        ("remove the underlines on page 2", [("delete_annotations", {"pages": "2", "types": ["underline"]})]),
        ("the pages are backwards, reverse them", [("reorder_pages", {"order": "reverse"})]),
        ("save pages 2-3 as a doc", [("convert_to_docx", {"pages": "2-3"})]),  # blind i6 (tuning): "a doc" is Word
    ],
)
def test_more_ways_of_saying_it(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


def test_files_named_in_that_order_are_merged_in_that_order() -> None:
    assert steps("combine chapter2.pdf and chapter1.pdf in that order", TWO_FILES) == [("combine_files", {})]
    plan = fast_reading("combine chapter2.pdf and chapter1.pdf in that order", TWO_FILES).plan
    assert plan is not None and plan.steps[0].args["files"] == ["chapter2.pdf", "chapter1.pdf"]


@pytest.mark.parametrize(
    "request_text",
    [
        "delete the duplicate pages",  # which pages repeat others is not a copy of the file
        "reverse the page order, then reverse the pages",  # the same step twice undoes itself
        "make the pdf as small as you can in red",  # "as small as you can" is no purpose that hides "in red"
        "put page numbers on every page except the odd ones",  # an exception the fast path cannot read
        # a state and a turn of a page in it: page 2 turned twice is back where it was (was planned so)
        "this file is upside down, rotate page 2 180 degrees",
        "rotate pages 1-3 90 degrees and then rotate page 2 180 degrees",
    ],
)
def test_what_it_cannot_read_is_handed_on(request_text: str) -> None:
    assert fast_reading(request_text, TEN).plan is None


def test_a_page_list_is_never_read_as_a_term() -> None:
    # "pages 3 and 4" is one page reference: never a redaction of the text "4"
    got = steps("redact pages 3 and 4 completely")
    assert got in (None, [("redact_pages", {"pages": "3,4"})])


def test_every_page_but_one_needs_the_page_count() -> None:
    unknown = {"paper.pdf": FileInfo("paper.pdf", "/x/paper.pdf", "pdf", pages=None)}
    assert fast_reading("put page numbers on every page except page 3", unknown).plan is None


# --- run on fixture PDFs: the pages kept, dropped and numbered are the ones meant ------------------------------


def _run_one(request: str, path: str) -> str:
    files = inspect_files([path])
    plan = fast_reading(request, files).plan
    assert plan is not None and len(plan.steps) == 1, request
    step = plan.steps[0]
    args = {**step.args, "file": files[step.args["file"]].path}
    return str(get_tool(step.task)(**args))


def _texts(path: str) -> list[str]:
    with pymupdf.open(path) as doc:
        return [" ".join(page.get_text().split()) for page in doc]


FIVE = [f"Body of sheet {name}" for name in ("alpha", "bravo", "charlie", "delta", "echo")]


def test_numbers_on_every_page_except_the_first_run(make_pdf) -> None:
    out = _run_one("put page numbers on every page except the first one", make_pdf(FIVE[:4]))
    texts = _texts(out)
    assert texts[0] == FIVE[0]  # the first page has no number
    for i in range(1, 4):
        assert texts[i].replace(FIVE[i], "").strip() == str(i + 1)


@pytest.mark.parametrize(
    ("request_text", "kept"),
    [
        ("delete all pages except 3 and 4", [2, 3]),
        ("keep all pages apart from pages 4 and 5", [0, 1, 2]),
        ("throw away the cover page", [1, 2, 3, 4]),
        ("delete every even page", [0, 2, 4]),
    ],
)
def test_pages_kept_and_dropped_run(make_pdf, request_text: str, kept: list[int]) -> None:
    out = _run_one(request_text, make_pdf(FIVE))
    assert _texts(out) == [FIVE[i] for i in kept]


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("I just need page 1, delete the rest", [("extract_pages", {"pages": "1"})]),
        ("keep the odd pages and drop the others", [("extract_pages", {"pages": "odd"})]),
        ("keep the first page and the last page only", [("extract_pages", {"pages": "1,last"})]),
        ("swap the first and last pages", [("reorder_pages", {"order": "10,2,3,4,5,6,7,8,9,1"})]),
        ("what are the document properties?", [("get_metadata", {})]),
        ("crop 10 mm off the right side", [("crop_pages", {"pages": "all", "unit": "mm", "right": 10.0})]),
        (
            "Could you please watermark every page with URGENT in red?",
            [("add_watermark", {"pages": "all", "text": "URGENT", "color": "red"})],
        ),
    ],
)
def test_the_rest_both_ends_and_named_words(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "rotate whatever pages need it",  # which pages is a judgement
        "delete page 3, then remove the rest",  # "the rest" after a deletion is not a page list kept
        "watermark every page with ACME on it",  # a condition on the pages, not the watermark's words
    ],
)
def test_judgement_and_conditions_are_handed_on(request_text: str) -> None:
    assert fast_reading(request_text, TEN).plan is None


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        # page abbreviations and spelled-out page numbers
        ("please remove pp. 3-5", [("delete_pages", {"pages": "3-5"})]),
        ("extract p. 7", [("extract_pages", {"pages": "7"})]),
        ("delete pages two to four", [("delete_pages", {"pages": "2-4"})]),
        ("rotate page three by 180 degrees", [("rotate_pages", {"pages": "3", "degrees": 180})]),
        # a turn said by its direction alone
        ("rotate pages 3-6 counterclockwise", [("rotate_pages", {"pages": "3-6", "degrees": -90})]),
        ("the scan is upside down, rotate it 180°", [("rotate_pages", {"pages": "all", "degrees": 180})]),
        # cutting a file into parts is a split, never a deletion
        ("cut it into separate files at pages 4 and 9", [("split_pdf", {"at": "4,9"})]),
        ("cut it into separate files starting at pages 4 and 9", [("split_pdf", {"at": "4,9"})]),
        ("break the PDF into chunks of 5 pages", [("split_pdf", {"every": 5})]),
        # watermark words: after a page range, after a colon, capitalised after "saying"
        (
            "slap DRAFT across all the pages in red",
            [("add_watermark", {"pages": "all", "text": "DRAFT", "color": "red"})],
        ),
        ("watermark pages 1 to 4 with CONFIDENTIAL", [("add_watermark", {"pages": "1-4", "text": "CONFIDENTIAL"})]),
        (
            "watermark: SPECIMEN, at the bottom",
            [("add_watermark", {"pages": "all", "text": "SPECIMEN", "position": "bottom"})],
        ),
        ("add a watermark saying Do Not Copy", [("add_watermark", {"pages": "all", "text": "Do Not Copy"})]),
        # passwords after a colon or as "the current one"
        ("password-protect it, password: hunter2", [("add_password", {"password": "hunter2"})]),
        ("remove the password, the current one is 'opensesame'", [("remove_password", {"password": "opensesame"})]),
        # why a file must be smaller, and "lossless … only"
        ("shrink this file, it's too big to email", [("compress", {})]),
        ("make the pdf smaller with lossless compression only", [("compress", {"level": "low"})]),
        # the first number shown, and pages numbered from a page on
        ("add page numbers starting at 5, top left", [("add_page_numbers", {"position": "top-left", "start": 5})]),
        ("number the pages starting from page 3", [("add_page_numbers", {"pages": "3-last"})]),
        # a note beside a quoted word, a note in a corner; a quoted signature name; "put a line through"
        (
            "leave a comment 'Please sign here' next to 'Signature'",
            [("add_comment", {"text": "Please sign here", "page": "1", "near": "Signature"})],
        ),
        (
            "put a sticky note 'approved' at the bottom left of page 2",
            [("add_comment", {"text": "approved", "page": "2", "position": "bottom-left"})],
        ),
        (
            "add my signature 'Daniel Kim' at the bottom left",
            [("add_signature", {"page": "last", "name": "Daniel Kim", "position": "bottom-left"})],
        ),
        ("put a line through 'old price' on pages 1-2", [("strikeout_text", {"terms": ["old price"], "pages": "1-2"})]),
    ],
)
def test_third_batch_shapes(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "remove the signature page",  # which page holds the signatures needs reading
        "add a watermark saying Top Secret",  # "Top" may be the text or a place: not one reading
        "add a watermark saying Red Alert",  # "Red" may be the text or its colour
        "the scan is upside down, rotate it 90 degrees",  # the turn disagrees with the state
        "shrink this file and email it to me",  # no tool sends mail
        "add a note 'check' at the bottom of page 2",  # a note goes in a corner or the middle: "the bottom" is none
        "put a line through page 3",  # a line across a page is no strike-out of words
        "remove the word 'Draft' from page 3",  # "from page 3" is where, not page 3 onwards (and the word is unsure)
    ],
)
def test_third_batch_handed_on(request_text: str) -> None:
    assert fast_reading(request_text, TEN).plan is None


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("merge a.pdf, b.pdf and c.pdf into one", ["a.pdf", "b.pdf", "c.pdf"]),
        ("put c.pdf after a.pdf in one file", ["a.pdf", "c.pdf"]),
        ("put a.pdf before c.pdf in one file", ["a.pdf", "c.pdf"]),
    ],
)
def test_merge_destination_and_after(request_text: str, expected: list[str]) -> None:
    files = {n: FileInfo(n, f"/x/{n}", "pdf", pages=3) for n in ("c.pdf", "a.pdf", "b.pdf")}
    if "b.pdf" not in request_text:
        files.pop("b.pdf")
    plan = fast_reading(request_text, files).plan
    assert plan is not None
    assert [(s.task, s.args["files"]) for s in plan.steps] == [("combine_files", expected)]
