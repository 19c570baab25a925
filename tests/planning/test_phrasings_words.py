"""The words around an instruction: chat shorthand and misspellings, asides that ask for nothing, statements read
with the instruction they explain, and "leave everything else alone".

Each capability is tested both ways: the phrasings it now reads (with the exact steps), and look-alikes that
still carry meaning and must be handed on (or asked about), because a confident wrong plan is the worst outcome.
"""

from __future__ import annotations

import pytest
from fast_steps import fast_steps

from docpilot.files import FileInfo
from docpilot.planning.fastpath.build import NeedInfo, fast_reading
from docpilot.planning.fastpath.text import normalise, split_request

TEN = {"paper.pdf": FileInfo("paper.pdf", "/x/paper.pdf", "pdf", pages=10)}


def steps(request: str, files: dict[str, FileInfo] = TEN) -> list[tuple[str, dict]] | None:
    return fast_steps(request, files)


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
        ("delete slides 2 and 19", "delete pages 2 and 19"),  # a deck's slides are its pages
        ("convert slide 7 to png", "convert page 7 to png"),
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
        "turn it into slides",  # slides to make, no page named
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
        (
            "delete slides 2 and 19, then convert the deck to powerpoint",
            [("delete_pages", {"pages": "2,19"}), ("convert_to_pptx", {})],
        ),
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


# --- a step said for one of the files acts on that file only -----------------------------------------------------

PARTS = {
    "part_a.pdf": FileInfo("part_a.pdf", "/x/part_a.pdf", "pdf", pages=3),
    "part_b.pdf": FileInfo("part_b.pdf", "/x/part_b.pdf", "pdf", pages=2),
}


def _planned(request: str) -> list[tuple[str, str, dict]] | None:
    plan = fast_reading(request, PARTS).plan
    if plan is None:
        return None
    return [(s.task, s.args.get("file", ""), {k: v for k, v in s.args.items() if k != "file"}) for s in plan.steps]


@pytest.mark.parametrize(
    "request_text",
    [
        "rotate page 1 of part_a.pdf and delete page 2 of part_b.pdf",
        "in the first file rotate page 1; in the second file delete page 2",
    ],
)
def test_each_step_acts_on_the_file_its_clause_names(request_text: str) -> None:
    assert _planned(request_text) == [
        ("rotate_pages", "part_a.pdf", {"pages": "1", "degrees": 90}),
        ("delete_pages", "part_b.pdf", {"pages": "2"}),
    ]


def test_a_step_said_for_every_file_acts_on_each() -> None:
    assert [(task, file) for task, file, _ in _planned("rotate page 1 of both files") or []] == [
        ("rotate_pages", "part_a.pdf"),
        ("rotate_pages", "part_b.pdf"),
    ]


@pytest.mark.parametrize(
    ("request_text", "order", "pages"),
    [
        ("merge the two files then rotate the pages from the second file by 90 degrees", ["part_a", "part_b"], "4-5"),
        ("combine part_b.pdf and part_a.pdf, then rotate the last page of part_a", ["part_b", "part_a"], "5"),
        ("merge both files, then rotate pages 1 and 3 of the first file", ["part_a", "part_b"], "1,3"),
    ],
)
def test_a_step_said_for_one_input_of_a_merge_acts_on_its_pages_in_the_merged_file(
    request_text: str, order: list[str], pages: str
) -> None:
    # of the merged file, only the pages that came from that input: never every page of it
    assert _planned(request_text) == [
        ("combine_files", "", {"files": [f"{name}.pdf" for name in order]}),
        ("rotate_pages", "$combined", {"pages": pages, "degrees": 90}),
    ]


@pytest.mark.parametrize(
    "request_text",
    [
        "merge them and watermark the first file DRAFT",  # a step without pages: not put on part of the merged file
        "merge them and delete page 5 of the first file",  # a page the first file does not have
    ],
)
def test_a_step_for_one_input_of_a_merge_that_cannot_be_put_on_its_pages_is_handed_on(request_text: str) -> None:
    assert _planned(request_text) is None


# --- a price is no step reference ------------------------------------------------------------------------------


def test_a_dollar_amount_is_text_to_find_not_a_step_reference() -> None:
    assert steps("strike out '$1,200'") == [("strikeout_text", {"terms": ["$1,200"], "pages": "all"})]
    assert steps("strike out '$total'") == [("strikeout_text", {"terms": ["$total"], "pages": "all"})]
    plan = fast_reading("strike out '$1,200'", TEN).plan
    assert plan is not None and plan.steps[0].dep == []


# --- one verb, a list of pages after "and" (never a second object) -------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("delete everything except page 1 and page 10", [("extract_pages", {"pages": "1,10"})]),
        ("Get rid of page 1 and page 4", [("delete_pages", {"pages": "1,4"})]),
        ("delete page 3 and pages 7-9", [("delete_pages", {"pages": "3,7-9"})]),
        ("delete page 2 and the last page", [("delete_pages", {"pages": "2,last"})]),
        # a second object of another tool still splits
        (
            "add a DRAFT watermark and page numbers",
            [("add_watermark", {"pages": "all", "text": "DRAFT"}), ("add_page_numbers", {})],
        ),
    ],
)
def test_a_list_of_pages_is_not_two_objects(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


def test_kept_pages_then_a_named_page_is_handed_on() -> None:
    # is the back page kept too, or dropped as well?
    assert steps("drop all pages except the cover page and the back page") is None


# --- a clause of arguments only, read with the step before it ------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        (
            "add a watermark 'DRAFT'. Font size 40 please.",
            [("add_watermark", {"pages": "all", "text": "DRAFT", "font_size": 40.0})],
        ),
        (
            "add a header 'Q3'. Left-aligned please.",
            [("add_header_footer", {"header": "Q3", "pages": "all", "align": "left"})],
        ),
        (
            "Watermark: SUPERSEDED. Purple, top-left corner, no tilt at all.",
            [
                (
                    "add_watermark",
                    {"pages": "all", "text": "SUPERSEDED", "rotation": 0, "position": "top-left", "color": "purple"},
                )
            ],
        ),
        (
            "Footer text: © 2025 Northwind Traders. Left-aligned please.",
            [("add_header_footer", {"footer": "© 2025 Northwind Traders", "pages": "all", "align": "left"})],
        ),
        ("Header: Quarterly Review Q3", [("add_header_footer", {"header": "Quarterly Review Q3", "pages": "all"})]),
        ("add page numbers. Bottom right.", [("add_page_numbers", {"position": "bottom-right"})]),
    ],
)
def test_arguments_said_after_the_instruction(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "add a watermark 'DRAFT' in red. Blue please.",  # which colour?
        "delete page 3. Not page 4.",
        "add a watermark 'DRAFT'. Except page 1.",
        "add page numbers. No, bottom right.",
        "Footer: Northwind on every page",  # words of a place: not all of it is the footer's text
        "Footer text: Confidential. Make it red.",  # "it": the footer or the text?
        "rotate page 2. Show me.",  # a change has nothing to show
        "redact emails. phone numbers on page 2.",  # a second thing, with pages of its own
        "add page numbers. Page 3.",  # only page 3, or from page 3?
    ],
)
def test_arguments_that_disagree_or_limit_are_handed_on(request_text: str) -> None:
    assert _not_planned(request_text, TEN)


# --- a look-up asked twice, a question with the instruction that answers it, "list them" after a look-up -------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("who is the author? when was it created?", [("get_metadata", {})]),
        ("Are there any comments in this PDF? List them for me.", [("read_annotations", {"pages": "all"})]),
        ("What does page 1 say? Just give me its text.", [("extract_text", {"pages": "1"})]),
        (
            "look for the phrase 'governing law' and tell me where it is",
            [("search_text", {"terms": ["governing law"], "pages": "all"})],
        ),
    ],
)
def test_questions_around_a_look_up(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "reverse the pages. reverse the pages.",  # a change twice is no look-up asked twice
        "Is page 3 blank? Delete it.",  # a question that is a condition, before a change
        "what is on page 2? rotate it",
        "What does page 1 say?",  # the question alone
        "What does page 1 say? Convert it to Word.",  # a file made answers no question: which pages?
    ],
)
def test_questions_before_a_change_are_handed_on(request_text: str) -> None:
    assert _not_planned(request_text, TEN)


# --- what "them" is, said before: a topic and a colon, a state of the pages ---------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("Dates on the final page: underline them.", [("underline_text", {"categories": ["date"], "pages": "last"})]),
        ("Pages 4 and 8: rotate them 90 degrees", [("rotate_pages", {"pages": "4,8", "degrees": 90})]),
        (
            "pages 3 and 4 are the wrong way round, can you switch them?",
            [("reorder_pages", {"order": "1,2,4,3,5,6,7,8,9,10"})],
        ),
        ("pages 3 and 4 are the wrong way round, swap them", [("reorder_pages", {"order": "1,2,4,3,5,6,7,8,9,10"})]),
        (
            "the second and fifth pages came out upside down, can you turn them the right way up?",
            [("rotate_pages", {"pages": "2,5", "degrees": 180})],
        ),
        (  # which way is up (left or right) is not said: each page's orientation is detected
            "pages 2 and 5 are sideways, can you turn them the right way up?",
            [("fix_orientation", {"pages": "2,5"})],
        ),
    ],
)
def test_what_them_is_said_before(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "pages 3, 4 and 5 are in the wrong order, can you switch them?",  # three pages: which order?
    ],
)
def test_what_them_is_but_not_what_to_do_is_handed_on(request_text: str) -> None:
    assert _not_planned(request_text, TEN)


# --- statements that ask: "… should go", "… need to be …", "I need X signed", a password said by "locked with" ----


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("any pages with nothing on them should go", [("remove_blank_pages", {})]),
        ("the blank pages should go", [("remove_blank_pages", {})]),
        ("page 3 has to be removed", [("delete_pages", {"pages": "3"})]),
        (
            "Any credit card numbers in here need to be blacked out.",
            [("redact_text", {"categories": ["card"], "pages": "all"})],
        ),
        (
            "I need my name, Olivia Grant, signed on every single page",
            [("add_signature", {"page": "all", "name": "Olivia Grant"})],
        ),
        ("This PDF is locked with 'abc123', unlock it", [("remove_password", {"password": "abc123"})]),
        ("Throw away every even page, I scanned the blank backs by mistake", [("delete_pages", {"pages": "even"})]),
    ],
)
def test_statements_that_ask_for_a_step(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


def test_locked_with_gives_the_password_of_an_encrypted_file() -> None:
    locked = {"paper.pdf": FileInfo("paper.pdf", "/x/paper.pdf", "pdf", pages=None, encrypted=True)}
    assert steps("This PDF is locked with 'abc123'. Rotate page 2", locked) == [
        ("remove_password", {"password": "abc123"}),
        ("rotate_pages", {"pages": "2", "degrees": 90}),
    ]


# The file's current password said as a state of the file: any subject, "is"/"was"/"has been"/"'s", any of the
# words for locked, with/by/using, the quote (examples written for this rule, not taken from any bench)
@pytest.mark.parametrize(
    ("request_text", "password"),
    [
        ("The file's locked with 'Heron-31', unlock it", "Heron-31"),
        ("It's encrypted using 'teal&Fox8'. Unlock it", "teal&Fox8"),
        ("this report has been password protected with the password 'Quill-17', please unlock it", "Quill-17"),
        ("My scan is secured by 'juniper 4'. Take the password off", "juniper 4"),
        ("that one was protected with the passcode 'ZX-880', remove the password", "ZX-880"),
    ],
)
def test_a_password_said_as_the_files_state_unlocks_it(request_text: str, password: str) -> None:
    assert steps(request_text) == [("remove_password", {"password": password})]


def test_a_password_said_as_the_files_state_opens_an_encrypted_file() -> None:
    locked = {"paper.pdf": FileInfo("paper.pdf", "/x/paper.pdf", "pdf", pages=None, encrypted=True)}
    assert steps("It's protected by 'Heron-31'. Delete page 3", locked) == [
        ("remove_password", {"password": "Heron-31"}),
        ("delete_pages", {"pages": "3"}),
    ]


@pytest.mark.parametrize(
    "request_text",
    [
        "take off the old password (test), compress it, and put a new password on it: N3w!Pass",
        "compress it, then set the password to 'Kite-44'",
        "unlock it with 'old-1', and a new password 'Wren-9'",
    ],
)
def test_a_password_to_be_set_is_never_read_as_the_current_one(request_text: str) -> None:
    """A password the file is to be given is not the one it has now: never a plan that drops that step (a
    plan that sets it, a question or a hand-on are all right)."""
    locked = {"paper.pdf": FileInfo("paper.pdf", "/x/paper.pdf", "pdf", pages=None, encrypted=True)}
    try:
        planned = steps(request_text, locked)
    except NeedInfo:
        return
    assert planned is None or any(task == "add_password" for task, _ in planned), planned


@pytest.mark.parametrize(
    "request_text",
    [
        "the logo should go on page 2",  # where it goes, not that it goes
        "all pages with text on them should go",  # a condition on the pages
        "any pages with nothing on them except page 2 should go",
        "I need the contract, the annex, signed on page 2",
        "Throw away every even page, I scanned page 3 twice",  # a page said in the story
        "Delete page 2, I needed only the blank ones",
        "unlock it. This PDF is locked with 'abc123' in red",
        "unlock it. The file's encrypted using 'Heron-31' twice",
    ],
)
def test_statements_with_more_meaning_are_handed_on(request_text: str) -> None:
    assert _not_planned(request_text, TEN)


# --- a statement before the instruction it explains ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("The scan is in Spanish. Make it searchable.", [("ocr", {"pages": "all", "language": "spa"})]),
        ("this is a scan in French; OCR it", [("ocr", {"pages": "all", "language": "fra"})]),
        ("The file is too big. Compress it.", [("compress", {})]),
    ],
)
def test_a_statement_before_the_instruction_is_read_with_it(
    request_text: str, expected: list[tuple[str, dict]]
) -> None:
    assert steps(request_text) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "The scan is in Spanish.",  # nothing asked
        "The scan is in Spanish. Rotate page 2.",  # said for nothing that is asked
        "the cover is wrong. delete page 3",
        "the file is too big and rotate page 2",
    ],
)
def test_a_statement_before_that_says_more_is_handed_on(request_text: str) -> None:
    assert _not_planned(request_text, TEN)


# --- page numbers in words up to twenty, the output's name said on its own, a story beside the one file's name ----


def test_pages_in_words_up_to_twenty() -> None:
    twenty = {"paper.pdf": FileInfo("paper.pdf", "/x/paper.pdf", "pdf", pages=20)}
    assert steps("dump the text of pages ten through fourteen", twenty) == [("extract_text", {"pages": "10-14"})]
    assert normalise("fourteen copies") == "fourteen copies"  # only after "page(s)"


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("please sanitize, output file name public_version.pdf", [("sanitize", {"output": "public_version.pdf"})]),
        (
            "copy out all the text and put it in contract_text.txt",
            [("extract_text", {"output": "contract_text.txt"})],
        ),
    ],
)
def test_the_output_name_said_on_its_own(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


def test_put_it_in_a_pdf_is_no_output_name() -> None:
    assert _not_planned("rotate page 2 and put it in other.pdf", TEN)  # into another file: a merge?


def test_a_file_of_a_format_asked_as_a_want() -> None:
    assert steps("I need a TIFF of the whole document") == [("convert_to_tiff", {})]
    assert steps("I'd like a Word version of it") == [("convert_to_docx", {})]
    assert _not_planned("I need a TIFF of the whole document if it has images", TEN)
    assert _not_planned("I need a word count", TEN)


SCANNED = {"scanned_letters.pdf": FileInfo("scanned_letters.pdf", "/x/scanned_letters.pdf", "pdf", pages=20)}


def test_a_story_may_say_a_word_of_the_one_files_name() -> None:
    assert steps("Throw away every even page, I scanned the blank backs by mistake", SCANNED) == [
        ("delete_pages", {"pages": "even"})
    ]
    assert _not_planned("Throw away every even page, I scanned the letters twice", SCANNED)


# --- what the user does with the result after ("before we publish it"), "…, and what does it say?" ----------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("scrub the hidden data and any JavaScript out of this before we publish it", [("sanitize", {})]),
        ("sanitize it before I send it to the client", [("sanitize", {})]),
        (
            "which pages from 2 to 5 have markup on them, and what does it say?",
            [("read_annotations", {"pages": "2-5"})],
        ),
        ("find 'fee' and where is it?", [("search_text", {"terms": ["fee"], "pages": "all"})]),
    ],
)
def test_what_is_done_after_or_shown_anyway(request_text: str, expected: list[tuple[str, dict]]) -> None:
    assert steps(request_text) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "redact page 2 before I send it to page 3",  # a page in the purpose
        "sanitize it before I print it in red",  # a colour in the purpose
    ],
)
def test_a_purpose_with_meaning_is_handed_on(request_text: str) -> None:
    assert _not_planned(request_text, TEN)


# --- what no step read is never dropped -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_",
    [
        "highlight Acme and the totals",  # the totals: no rule read them, the plan would highlight Acme alone
        "delete page 3 and the blank ones",  # the blank pages would stay
        "rotate page 2 and what does it say",  # the question would go unanswered
        "count the pages and the words",
        "The scan is crooked. Rotate it.",  # crooked is not a quarter turn: no 90° rotation for it
        "The scan is blurry, compress it",  # what is wrong with the file says what to do
    ],
)
def test_a_second_object_or_a_state_no_step_read_hands_on(request_: str) -> None:
    assert steps(request_) is None


@pytest.mark.parametrize(
    ("request_", "want"),
    [
        ("redact the emails and phone numbers", [("redact_text", {"categories": ["email", "phone"], "pages": "all"})]),
        ("strip all the hidden data and scripts", [("sanitize", {})]),
        ("it's going by email, compress it", [("compress", {})]),
        ("Remove the last page (it's just an advert)", [("delete_pages", {"pages": "last"})]),
    ],
)
def test_look_alikes_of_a_dropped_object_still_plan(request_: str, want: list) -> None:
    assert steps(request_) == want
