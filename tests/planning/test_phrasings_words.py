"""The words around an instruction: chat shorthand and misspellings, asides that ask for nothing, statements read
with the instruction they explain, and "leave everything else alone".

Each capability is tested both ways: the phrasings it now reads (with the exact steps), and look-alikes that
still carry meaning and must be handed on (or asked about), because a confident wrong plan is the worst outcome.
"""

from __future__ import annotations

import pytest

from docpilot.files import FileInfo
from docpilot.planning.fastpath.build import NeedInfo, fast_reading
from docpilot.planning.fastpath.text import normalise, split_request

TEN = {"paper.pdf": FileInfo("paper.pdf", "/x/paper.pdf", "pdf", pages=10)}


def steps(request: str, files: dict[str, FileInfo] = TEN) -> list[tuple[str, dict]] | None:
    plan = fast_reading(request, files).plan
    if plan is None:
        return None
    return [(s.task, {k: v for k, v in s.args.items() if k not in ("file", "files")}) for s in plan.steps]


# --- chat shorthand and misspellings, read once before anything else -------------------------------------------


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("rotate pg 3 90 degrees", "rotate page 3 90 degrees"),
        ("rotate pg. 3", "rotate page 3"),
        ("rotate p3", "rotate page 3"),
        ("rotate p 3", "rotate page 3"),
        ("delete pgs 2-4", "delete pages 2-4"),
        ("can u do it pls", "can you do it please"),
        ("add page nums", "add page numbers"),
        ("the pw is orchard77", "the password is orchard77"),
        ("strike out teh word", "strike out the word"),
        ("find evry place", "find every place"),
        ("split into seperate files", "split into separate files"),
        ("compres it as much as posible", "compress it as much as possible"),
        ("whats the page count", "what's the page count"),
        ("quick q - whats the page count", "what's the page count"),
        ("its going by email", "it's going by email"),
        ("compress what's left", "compress it"),
        ("pls compress asap", "please compress quickly"),
        ("compress it cuz its too big", "compress it because it's too big"),
    ],
)
def test_shorthand_is_read_as_the_words_meant(said: str, meant: str) -> None:
    assert normalise(said) == meant


@pytest.mark.parametrize(
    "said",
    [
        "open notes_p3.pdf",  # a piece of a file name
        "the U.S. office",  # a letter with a dot after it
        "its pages",  # the possessive is right as it is
        "what's left of page 3",  # what remains of one page, not the result
        "u-turn",  # a piece of a hyphenated word
        "stamp ASAP on page 1",  # a word in capitals is text to write
    ],
)
def test_shorthand_leaves_other_words_alone(said: str) -> None:
    assert normalise(said) == said


def test_quoted_words_are_never_rewritten() -> None:
    req = split_request("highlight 'pg 3 pls' on pg 3")
    assert req.quotes == ["pg 3 pls"] and "page 3" in req.text


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("rotate pg 3 90 degrees clockwise", [("rotate_pages", {"pages": "3", "degrees": 90})]),
        ("rotate p3 90° clockwise", [("rotate_pages", {"pages": "3", "degrees": 90})]),
        (
            "strike out teh word preliminary everywhere",
            [("strikeout_text", {"terms": ["preliminary"], "pages": "all"})],
        ),
        ("remove the password from it, the pw is orchard77", [("remove_password", {"password": "orchard77"})]),
        ("quick q - whats the page count", [("count_pages", {})]),
    ],
)
def test_shorthand_plans(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


def test_logic_in_shorthand_is_still_logic() -> None:
    assert fast_reading("highlight 'risk' on evry page that mentions 'loss'", TEN).plan is None


# --- asides: a reason or context that asks for nothing -----------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        (
            "Remove the last page (it's just an advert) and then compress what's left.",
            [("delete_pages", {"pages": "last"}), ("compress", {})],
        ),
        (
            "Can you highlight all the dates in green? It's for my Year 9 class",
            [("highlight_text", {"categories": ["date"], "pages": "all", "color": "green"})],
        ),
        ("the scanner doubled everything - drop all the even pages", [("delete_pages", {"pages": "even"})]),
        ("sanitise this before it goes on the website please", [("sanitize", {})]),
        (
            "Before this goes to the landlord I need all the phone numbers and email addresses blacked out.",
            [("redact_text", {"categories": ["email", "phone"], "pages": "all"})],
        ),
        ("Highlight 'risk'. This is for the audit team", [("highlight_text", {"terms": ["risk"], "pages": "all"})]),
    ],
)
def test_asides_are_set_aside(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "Remove the last page (it's the one with the chart)",  # which page: "one" limits
        "Delete page 3. It's a duplicate",  # said of the page, never "make a copy"
        "redact the emails, they're confidential",  # a judgement word
        "Compress it. It's for Bob",  # a name after "for" may say how
        "Add page numbers. It's a 40 page report",  # a number
        "Highlight the dates. It's for my Year 9 class in red",  # a colour after the aside
        "Highlight the dates. It's for my Year 9 class in Comic Sans",  # a font
        "Highlight the dates. It's for my Year 9 class faintly",  # how
        "take out page 6 please, it shouldn't be in there",  # a negation
        "sanitise this before it goes on the website please in red",
        "compress it, it's too big to email and email it to me",  # a second instruction, not a reason
    ],
)
def test_look_alike_asides_are_handed_on(request_text: str) -> None:
    assert fast_reading(request_text, TEN).plan is None


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("Hello! compress this pdf", [("compress", {})]),
        ("hey there, rotate pg3 90 degrees", [("rotate_pages", {"pages": "3", "degrees": 90})]),
        (
            "I'm sending this to a client, so remove the comments",
            [("delete_annotations", {"pages": "all", "types": ["comment"]})],
        ),
        ("This is urgent - compress it", [("compress", {})]),
    ],
)
def test_greetings_and_context_ask_for_nothing(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "Thank you in red",  # politeness, then a colour: not politeness only
        "Hello! compress this pdf. Thanks in blue",
        "I'm not sending this to anyone, so remove the comments",
        "we're printing it tomorrow, so remove the comments",
        "I'm making a new version, so remove the comments",
    ],
)
def test_greetings_and_context_with_meaning_are_handed_on(request_text: str) -> None:
    assert fast_reading(request_text, TEN).plan is None


def test_a_statement_is_read_with_the_instruction_it_explains() -> None:
    assert steps("can you make this smaller? it's too big to email") == [("compress", {})]
    assert steps("protect it with a password, it's hunter22") == [("add_password", {"password": "hunter22"})]


def test_what_there_is_says_what_them_is() -> None:
    assert steps("there are loads of empty pages in my scan, remove them") == [("remove_blank_pages", {})]
    assert steps("my scan came out backwards, reverse the page order") == [("reorder_pages", {"order": "reverse"})]


# --- "leave everything else alone" after a step that only changes the pages named ------------------------------


def test_the_rest_stays_as_it_is_when_the_step_only_touches_the_pages_named() -> None:
    assert steps("Please remove the comments from pages 1-3; leave everything else alone.") == [
        ("delete_annotations", {"pages": "1-3", "types": ["comment"]})
    ]


@pytest.mark.parametrize(
    "request_text",
    [
        "compress it, leave everything else alone",  # compression changes every page
        "remove the comments; leave everything else alone",  # every page's comments go
        "remove page 3, otherwise leave everything else alone",  # "otherwise" is logic
    ],
)
def test_the_rest_stays_is_handed_on_when_the_step_touches_everything(request_text: str) -> None:
    assert fast_reading(request_text, TEN).plan is None


# --- a file's name in brackets after the words that describe it -------------------------------------------------


TWO = {
    "carta_banco.pdf": FileInfo("carta_banco.pdf", "/x/carta_banco.pdf", "pdf", pages=2),
    "other.pdf": FileInfo("other.pdf", "/x/other.pdf", "pdf", pages=2),
}


def test_a_description_then_the_file_name_in_brackets() -> None:
    assert steps("OCR the letter from the bank (carta_banco.pdf), it's in Spanish", TWO) == [
        ("ocr", {"pages": "all", "language": "spa"})
    ]


def test_a_description_with_meaning_stays() -> None:
    # "the names on page 2" says what to redact: never swallowed as a description of the file
    assert fast_reading("redact the names on page 2 (carta_banco.pdf)", TWO).plan is None
    assert _not_planned("OCR the letter from the bank (unknown.pdf)", TWO)  # a name not uploaded: no file said


def _not_planned(request: str, files: dict[str, FileInfo]) -> bool:
    try:
        return fast_reading(request, files).plan is None
    except NeedInfo:
        return True
