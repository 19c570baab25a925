"""Rule capabilities for fresh phrasings (the fourth blind batch's misses, made general): page references by name
("the cover", "the fourth page", "everything except the cover"), watermark looks (opacity, rotation, "straight
across"), lengths in inches and centimetres, passwords after "with", unquoted form values, yes-or-no questions a
search answers, case wording, compression wording, notes beside words, split places, merge orders and more.

Each capability is tested both ways: what must now plan, with its exact arguments, and the look-alikes that must
still hand on (a wrong plan is worse than none).
"""

from __future__ import annotations

import pytest
from fast_steps import fast_steps

from docpilot.files import FileInfo
from docpilot.planning.fastpath.build import fast_reading
from docpilot.planning.fastpath.extract import lengths_in, pages_in, password_in, width_in

TWELVE = {"report.pdf": FileInfo("report.pdf", "/x/report.pdf", "pdf", pages=12)}
WITH_IMAGE = {**TWELVE, "sig.png": FileInfo("sig.png", "/x/sig.png", "image")}
WITH_STAMP = {**TWELVE, "paid.png": FileInfo("paid.png", "/x/paid.png", "image")}
THREE = {name: FileInfo(name, f"/x/{name}", "pdf", pages=3) for name in ("intro.pdf", "methods.pdf", "results.pdf")}


def steps(request: str, files: dict[str, FileInfo] = TWELVE) -> list[tuple[str, dict]] | None:
    return fast_steps(request, files)


def one(request: str, files: dict[str, FileInfo] = TWELVE) -> tuple[str, dict]:
    got = steps(request, files)
    assert got is not None and len(got) == 1, (request, got)
    return got[0]


def handed_on(request: str, files: dict[str, FileInfo] = TWELVE) -> bool:
    try:
        return fast_reading(request, files).plan is None
    except Exception:  # noqa: BLE001 - a question (NeedInfo) hands on too
        return True


# --- page references by name ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clause", "pages"),
    [
        ("remove the cover", "1"),
        ("the front cover", "1"),
        ("the back cover", "last"),
        ("the cover and the back page", "1,last"),
        ("page 4 and the last page", "4,last"),
        ("page 1 and page 10", "1,10"),
        ("the seventh page and the cover", "7,1"),
        ("everything except the cover", "2-12"),
        ("all but the last two pages", "1-10"),
        ("everything but pages 3 and 4", "1-2,5-12"),
    ],
)
def test_pages_named(clause: str, pages: str) -> None:
    assert pages_in(clause, 12) == pages


@pytest.mark.parametrize(
    "clause",
    ["merge the cover letter and the cv", "cover the logo", "all but the first occurrence", "everything except 3"],
)
def test_not_pages_by_name(clause: str) -> None:
    assert pages_in(clause, 12) in (None, "3")  # "except 3" alone is no page reference without the word page
    assert pages_in(clause, 12) != "1"


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("remove the cover and the back page", ("delete_pages", {"pages": "1,last"})),
        ("delete the cover", ("delete_pages", {"pages": "1"})),
        ("export the cover as a JPG, quality 70", ("convert_to_jpeg", {"pages": "1", "quality": 70})),
        ("put page numbers on everything except the cover, starting at 1", ("add_page_numbers", {"pages": "2-12"})),
        ("rotate all but the last two pages 90 degrees", ("rotate_pages", {"pages": "1-10", "degrees": 90})),
        ("insert a blank page after the fourth page", ("insert_blank_pages", {"after": "4"})),
        ("Add an empty page at the very beginning", ("insert_blank_pages", {"after": 0})),
        ("add a blank page before the cover", ("insert_blank_pages", {"after": 0})),
        ("insert a blank page between pages 3 and 4", ("insert_blank_pages", {"after": "3"})),
        ("wipe page 4 and the last page completely (redact the whole pages)", ("redact_pages", {"pages": "4,last"})),
        ("Kindly redact page 6 in its entirety", ("redact_pages", {"pages": "6"})),
    ],
)
def test_page_references_plan(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


@pytest.mark.parametrize(
    "request_text",
    [
        "i need all but the last two pages, drop those",  # which pages go is not sure: the two, or the rest?
        "wipe page 4",  # blank it, delete it or redact it?
        "insert a blank page between pages 3 and 7",  # not neighbours: no one place
        "insert a blank page after the introduction",
        "crop 2 cm from the top at the very bottom",
    ],
)
def test_page_references_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


def test_a_file_named_cover_is_no_page() -> None:
    files = {
        "cover.pdf": FileInfo("cover.pdf", "/x/cover.pdf", "pdf", pages=2),
        "body.pdf": FileInfo("body.pdf", "/x/body.pdf", "pdf", pages=9),
    }
    got = steps("merge the cover and the body", files)
    assert got is None or got[0][0] == "combine_files"


# --- watermarks ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        (
            "pls put a red CONFIDENTIAL watermark across every page, 45 degrees",
            {"text": "CONFIDENTIAL", "color": "red", "rotation": 45},
        ),
        (
            "Could you add the word SAMPLE as a watermark at 20% opacity, tilted 30 degrees, only on pages 2 to 5?",
            {"text": "SAMPLE", "opacity": 0.2, "rotation": 30, "pages": "2-5"},
        ),
        ("pls put CONFIDENTIAL on every page in red, half opacity", {"text": "CONFIDENTIAL", "opacity": 0.5}),
        (
            "add the word SAMPLE as a watermark in light blue, top right corner of each page",
            {"text": "SAMPLE", "color": "light blue", "position": "top-right"},
        ),
        (
            "I need DO NOT DISTRIBUTE stamped along the bottom of pages 1 to 3, straight across, not at an angle",
            {"text": "DO NOT DISTRIBUTE", "pages": "1-3", "position": "bottom", "rotation": 0},
        ),
        ("add SAMPLE as a watermark, font size 40", {"text": "SAMPLE", "font_size": 40}),
    ],
)
def test_watermark_looks(request_text: str, expected: dict) -> None:
    task, args = one(request_text)
    assert task == "add_watermark"
    assert {k: v for k, v in args.items() if k in expected} == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "pls put a big red CONFIDENTIAL watermark across every page, 45 degrees",  # big is no size
        "add an opaque DRAFT watermark at 30% opacity",  # opaque and 30% disagree
        "add a DRAFT watermark, 30 degrees, straight across",  # tilted and straight disagree
        "add a DRAFT watermark at 30 degrees and 60 degrees",
        "put a faint DRAFT watermark on all pages",  # how faint?
    ],
)
def test_watermark_looks_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


# --- lengths -------------------------------------------------------------------------------------------------------


def test_lengths_and_widths() -> None:
    assert lengths_in("trim half an inch from the top and 2 cm from the left, 14pt, an inch") == [
        (0.5, "in"),
        (2.0, "cm"),
        (14.0, "pt"),
        (1.0, "in"),
    ]
    assert width_in("about 2 inches wide") == 144.0
    assert width_in("1 inch wide") == 72.0
    assert width_in("200 points wide") == 200.0
    assert width_in("half an inch wide") == 36.0
    assert width_in("30 px wide") is None
    assert width_in("50% wide") is None


@pytest.mark.parametrize(
    ("request_text", "files", "expected"),
    [
        (
            "add my signature (sig.png) at the bottom left of page 2, about 2 inches wide",
            WITH_IMAGE,
            ("add_signature", {"page": "2", "position": "bottom-left", "width": 144.0}),
        ),
        (
            "stamp paid.png on every page, bottom right, 1 inch wide",
            WITH_STAMP,
            ("add_image", {"page": "all", "position": "bottom-right", "width": 72.0}),
        ),
        (
            "trim half an inch from the top and bottom of pages 1-4",
            TWELVE,
            ("crop_pages", {"pages": "1-4", "unit": "in", "top": 0.5, "bottom": 0.5}),
        ),
        ("crop half an inch from each side", TWELVE, ("crop_pages", {"unit": "in", "margin": 0.5})),
        ("trim 1 cm off the left and right", TWELVE, ("crop_pages", {"unit": "cm", "left": 1.0, "right": 1.0})),
    ],
)
def test_lengths_plan(request_text: str, files: dict[str, FileInfo], expected: tuple[str, dict]) -> None:
    task, args = one(request_text, files)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


@pytest.mark.parametrize(
    "request_text",
    [
        "stamp paid.png on every page, bottom right, 1 inch wide at 72 pt",  # 72 pt is the inch again: two sizes
        "stamp paid.png on every page, 3 px wide",
    ],
)
def test_lengths_handed_on(request_text: str) -> None:
    assert handed_on(request_text, WITH_STAMP)


# --- passwords -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clause", "password"),
    [
        ("password protect this with Tulip#2291", "Tulip#2291"),
        ("unlock it with otter55", "otter55"),
        ("then password protect it with Birch!884", "Birch!884"),
        ("protect it with care", None),  # a word with no digit or sign is no password
        ("lock it with a password", None),
    ],
)
def test_password_after_with(clause: str, password: str | None) -> None:
    assert password_in(clause, []) == password


@pytest.mark.parametrize(
    "request_text",
    [
        "Password-protect this with Bl4ckbird!",  # "Bl4ckbird" or "Bl4ckbird!"?
        "unlock it with otter55!",
    ],
)
def test_password_before_a_sign_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


def test_passwords_plan() -> None:
    assert steps("password protect this with Tulip#2291") == [("add_password", {"password": "Tulip#2291"})]
    got = steps("unlock it with otter55 and then strip out scripts, attachments and hidden metadata")
    assert got is not None and got[0] == ("remove_password", {"password": "otter55"}) and got[1][0] == "sanitize"


# --- forms ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "values"),
    [
        ("fill in the form: Name = Grace Liu, Date = 12/05/2025", {"Name": "Grace Liu", "Date": "12/05/2025"}),
        (
            "fill in the form with Full Name = Harriet Vance, Date of Birth = 14/02/1989, Member ID = RV-55821",
            {"Full Name": "Harriet Vance", "Date of Birth": "14/02/1989", "Member ID": "RV-55821"},
        ),
        ("fill Company with Brightwater Ltd", {"Company": "Brightwater Ltd"}),
        ("fill in Name with 'Jane Doe'", {"Name": "Jane Doe"}),
        ("fill the form: Name 'Jane', Email 'jane@x.com'", {"Name": "Jane", "Email": "jane@x.com"}),
        ("fill in the form with Name 'Jane' and City 'Oslo'", {"Name": "Jane", "City": "Oslo"}),
        ("fill in Name = Smith and Sons, City = Oslo", {"Name": "Smith and Sons", "City": "Oslo"}),
    ],
)
def test_form_values(request_text: str, values: dict) -> None:
    assert one(request_text) == ("fill_form", {"values": values})


@pytest.mark.parametrize(
    "request_text",
    [
        "fill in the form with Name = Bo on page 2",  # a value and a page: which is which?
        "fill it with John",
        "fill Company with brightwater and more",
        # another action after a value is not the value's words (blind batch i4, tuning)
        "fill in Last Name = Moreau, Nationality = Belgian and tick the consent box",
    ],
)
def test_form_values_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


# --- questions a tool answers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("are there any email addresses anywhere in this document?", ("search_text", {"categories": ["email"]})),
        ("are there any phone numbers on page 2?", ("search_text", {"categories": ["phone"], "pages": "2"})),
        ("does 'indemnify' show up anywhere in here?", ("search_text", {"terms": ["indemnify"]})),
        ("does the contract mention arbitration?", ("search_text", {"terms": ["arbitration"]})),
        ("who is listed as the author of this file, and when was it created?", ("get_metadata", {})),
        ("what's the page count?", ("count_pages", {})),
    ],
)
def test_questions(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


@pytest.mark.parametrize(
    "request_text",
    [
        "are there any blank pages?",
        "is there any text on page 3?",
        "does it mention anything?",
        "does it contain images?",
    ],
)
def test_questions_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


# --- case and whole words ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        (
            "Please underline every occurrence of ACME Corp, matching upper and lower case exactly.",
            ("underline_text", {"terms": ["ACME Corp"], "case_sensitive": True}),
        ),
        (
            "cross out Tuesday on the 2nd page - match the capital T exactly",
            ("strikeout_text", {"terms": ["Tuesday"], "pages": "2", "case_sensitive": True}),
        ),
        ("look for ACME - capitals only, not acme", ("search_text", {"terms": ["ACME"], "case_sensitive": True})),
        ("underline 'total' whole words only", ("underline_text", {"terms": ["total"], "whole_words": True})),
    ],
)
def test_case_wording(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


@pytest.mark.parametrize(
    "request_text",
    [
        "look for ACME - capitals only, not the footer",  # "not the footer" is no other spelling of ACME
        "highlight Acme in capitals only",  # the term is not in capitals: which case is meant?
    ],
)
def test_case_wording_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


# --- compression ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "level"),
    [
        ("compress this as much as possible, max compression", "high"),
        ("compress it as much as you can, I don't care about image quality", "high"),
        ("make the file smaller using lossless compression only, i don't want the photos to get any worse", "low"),
        ("shrink it a little, lossless only", "low"),
        ("compress it slightly", "low"),
        ("compress the pdf for email", None),
        ("compress the file so it's small enough to email", None),
    ],
)
def test_compression_wording(request_text: str, level: str | None) -> None:
    task, args = one(request_text)
    assert task == "compress" and args.get("level") == level


@pytest.mark.parametrize(
    "request_text",
    [
        "compress it as much as you can but lossless",  # the two levels disagree
        "compress it with high quality",
        "compress it as much as you can, I don't care about image quality in small letters",
    ],
)
def test_compression_wording_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


# --- notes, strike-outs, redactions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        (
            "put a sticky note next to the word indemnification on page 7 that says: does this cover subcontractors?",
            {"text": "does this cover subcontractors?", "page": "7", "near": "indemnification"},
        ),
        (
            "Leave a comment beside 'Invoice Total' on page 1 - 'wrong VAT rate?'",
            {"text": "wrong VAT rate?", "page": "1", "near": "Invoice Total"},
        ),
        (
            "stick a note in the bottom-left corner of the cover page that reads Approved - MK",
            {"text": "Approved - MK", "page": "1", "position": "bottom-left"},
        ),
    ],
)
def test_notes(request_text: str, expected: dict) -> None:
    assert one(request_text) == ("add_comment", expected)


def test_a_note_beside_what_the_step_before_marks() -> None:
    """ "beside his name", "next to it": beside the one text the step before marks (blind batch i4, tuning)."""
    got = steps("strike through Ivo Brandt and add a comment beside his name: Left the company in March")
    assert got == [
        ("strikeout_text", {"terms": ["Ivo Brandt"], "pages": "all"}),
        ("add_comment", {"text": "Left the company in March", "page": "1", "near": "Ivo Brandt"}),
    ]


@pytest.mark.parametrize(
    "request_text",
    ["add a comment next to it: check this", "highlight the dates and add a comment next to it: check"],
)
def test_a_note_beside_nothing_named_is_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("put a blue line through every email address", ("strikeout_text", {"categories": ["email"], "color": "blue"})),
        ("strike through the old price £1,200 wherever it appears", ("strikeout_text", {"terms": ["£1,200"]})),
        (
            "Please black out the name Deborah Okafor and the account number 4417-2290-18 wherever they appear",
            ("redact_text", {"terms": ["Deborah Okafor", "4417-2290-18"]}),
        ),
        (
            "redact the name John Smith and all phone numbers",
            ("redact_text", {"terms": ["John Smith"], "categories": ["phone"]}),
        ),
        ("Please underline 'Net 30' with red colour", ("underline_text", {"terms": ["Net 30"], "color": "red"})),
    ],
)
def test_markup_wording(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


@pytest.mark.parametrize(
    "request_text",
    [
        "strike through the old price $1,200 wherever it appears",  # "$…" reads as a step's result in a plan
        "highlight all prices over £1,000",
        "highlight 'x' and change the colour",
        "add a comment 'a' and 'b' on page 2",
    ],
)
def test_markup_wording_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


# --- split, merge, order, extraction, OCR, page numbers, headers, metadata -------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("Please split the PDF so that new parts start at page 4 and at page 11.", {"at": "4,11"}),
        ("break this into separate PDFs, new ones starting at page 5 and page 11", {"at": "5,11"}),
        ("cut it into two files right after page 6", {"at": "7"}),
        ("can you make every page its own pdf?", {"every": 1}),
        ("separate each page into its own file", {"every": 1}),
    ],
)
def test_split_places(request_text: str, expected: dict) -> None:
    assert one(request_text) == ("split_pdf", expected)


def test_split_places_out_of_order_handed_on() -> None:
    assert handed_on("split at page 8 and at page 2")


def test_merge_in_that_order_into_a_name() -> None:
    plan = fast_reading("merge intro, methods and results in that order into full_paper.pdf", THREE).plan
    assert plan is not None and [s.task for s in plan.steps] == ["combine_files"]
    assert plan.steps[0].args == {"files": ["intro.pdf", "methods.pdf", "results.pdf"], "output": "full_paper.pdf"}
    assert handed_on("merge results, intro and methods into intro.pdf", THREE)  # a name of theirs is no new name


@pytest.mark.parametrize(
    ("request_text", "order"),
    [
        ("swap pages 1 and 2, the rest stays as it is", "2,1,3,4,5,6,7,8,9,10,11,12"),
        ("move page 4 to the end, the other pages stay where they are", "1,2,3,5,6,7,8,9,10,11,12,4"),
    ],
)
def test_the_rest_stays(request_text: str, order: str) -> None:
    assert one(request_text) == ("reorder_pages", {"order": order})


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        (
            "copy the text off pages 2-4 and save it as chapter3_text.txt",
            ("extract_text", {"pages": "2-4", "output": "chapter3_text.txt"}),
        ),
        ("Save all the pictures embedded in this PDF as separate image files.", ("extract_images", {})),
        ("save the odd pages separately as fronts.pdf", ("extract_pages", {"pages": "odd", "output": "fronts.pdf"})),
        (
            "run text recognition on pages 3-6 again even though they already have text - English and French",
            ("ocr", {"pages": "3-6", "force": True, "language": "eng+fra"}),
        ),
        (
            "add 'Page X of Y' at the top centre",
            ("add_page_numbers", {"format": "Page {n} of {total}", "position": "top-center"}),
        ),
        (
            "footer 'Internal use only', left side, 9pt, from page 2 onwards",
            (
                "add_header_footer",
                {"footer": "Internal use only", "align": "left", "font_size": 9.0, "pages": "2-last"},
            ),
        ),
        (
            "Add a header that says Privileged & Confidential on every page.",
            ("add_header_footer", {"header": "Privileged & Confidential"}),
        ),
        ("change the keywords to: solar, rooftop, grants", ("set_metadata", {"keywords": "solar, rooftop, grants"})),
    ],
)
def test_more_wording(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


def test_extract_as_a_new_name() -> None:
    assert steps("rotate page 2 clockwise, then extract pages 1-3 as summary.pdf") == [
        ("rotate_pages", {"pages": "2", "degrees": 90}),
        ("extract_pages", {"pages": "1-3", "output": "summary.pdf"}),
    ]


@pytest.mark.parametrize(
    "request_text",
    [
        "run text recognition on pages 3-6 again",  # again: after what?
        "add '3' at the top",  # a bare number is no page-number format
        "Add a footer saying Acme Ltd in red",
        "change the keywords to solar, rooftop and grants, and the title to Hi",
    ],
)
def test_more_wording_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("Crop 10mm from the top and bottom.", ("crop_pages", {"unit": "mm", "top": 10.0, "bottom": 10.0})),
        (
            "crop pages 2-4: 2 cm from the left and the right",
            ("crop_pages", {"pages": "2-4", "unit": "cm", "left": 2.0, "right": 2.0}),
        ),
        ("Sign this document as John Smith.", ("add_signature", {"name": "John Smith"})),
        ("sign page 3 of the annual report as 'Lena Ruiz'", ("add_signature", {"name": "Lena Ruiz", "page": "3"})),
        ("Who wrote this document?", ("get_metadata", {})),
        (
            "Please number the pages, starting at page 3 with the number 1.",
            ("add_page_numbers", {"pages": "3-last", "start": 1}),
        ),
        (
            "Fill in the form with Name: John Doe and Date: 2024-01-01.",
            ("fill_form", {"values": {"Name": "John Doe", "Date": "2024-01-01"}}),
        ),
        (
            "Lock it: it should open with greenfield and the owner password is Adm1n-only",
            ("add_password", {"password": "greenfield", "owner_password": "Adm1n-only"}),
        ),
        ("Lock it, it should open with greenfield", ("add_password", {"password": "greenfield"})),
    ],
)
def test_sides_names_and_values(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


@pytest.mark.parametrize(
    "request_text",
    [
        "crop the bottom",  # how much? (the model asks)
        "Lock it, it should open with the cover page",  # no password said
        "Sign it as the Director",  # a role, not a name
    ],
)
def test_sides_names_and_values_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


# --- pages on one side of another, and places that are no pages -------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("delete everything after page 9", ("delete_pages", {"pages": "10-last"})),
        ("rotate the pages before page 3", ("rotate_pages", {"pages": "1-2", "degrees": 90})),
        ("extract everything after page 9", ("extract_pages", {"pages": "10-last"})),
        ("remove the fourth and fifth pages", ("delete_pages", {"pages": "4,5"})),
        ("Take out the 1st, 3rd and 6th pages.", ("delete_pages", {"pages": "1,3,6"})),
        ("Grab the words off every even-numbered page.", ("extract_text", {"pages": "even"})),
        ("Add a blank page after page 2 and page 5.", ("insert_blank_pages", {"after": "2,5"})),
        ("put CONFIDENTIAL on every page except the cover", ("add_watermark", {"pages": "2-12"})),
    ],
)
def test_pages_beside_pages(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


@pytest.mark.parametrize(
    "request_text",
    [
        "cut after page 9",  # split or delete?
        "add page numbers after page 2",  # from page 3, or something else?
        "rotate the page after the cover",  # page 2: no rule reads "the page after"
        "delete the page before the last page",
        "remove every page after the cover",
        "drop all pages except the cover page and the back page",
        "put CONFIDENTIAL on every page except the cover letter",  # a letter is no page
        "split after page 12",  # past the last page
        "split at page 1",
    ],
)
def test_pages_beside_pages_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


# --- more wording, and old wrong readings now handed on ------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("What's the table of contents?", ("get_outline", {})),
        ("Remove all the strikeouts on page 3.", ("delete_annotations", {"pages": "3", "types": ["strikeout"]})),
        ("Add a cover page with the text 'Annual Report 2025'.", ("add_page_with_text", {"position": "start"})),
        ("I'd like the pages numbered in the bottom left corner, please.", ("add_page_numbers", {})),
        ("Break this up into single-page PDFs.", ("split_pdf", {"every": 1})),
        ("Compress it lightly so the images still look good.", ("compress", {"level": "low"})),
        ("Remove the password - it's 'oldpass'.", ("remove_password", {"password": "oldpass"})),
        ("What are the current values in the form?", ("read_form", {})),
    ],
)
def test_more_readings(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


def test_two_files_put_together() -> None:
    files = {n: FileInfo(n, f"/x/{n}", "pdf", pages=3) for n in ("a.pdf", "b.pdf")}
    assert steps("Put these two together into one PDF called combined.pdf.", files) == [
        ("combine_files", {"output": "combined.pdf"})
    ]


@pytest.mark.parametrize(
    ("request_text", "files"),
    [
        ("Which pages have comments?", TWELVE),  # "Which" is no term to search for (the comments are read)
        ("Does ACME appear?", TWELVE),
        ("Turn these images into a PDF.", WITH_STAMP),
        (
            "put sig.png on page 3, bottom left, 120 pt wide",
            WITH_IMAGE,
        ),  # a signature or a picture?  # the images are turned into a PDF, not the PDF into images
        ("show the table of contents and the table on page 2", TWELVE),
        ("fill in the form: Name = the client", TWELVE),  # describes a value, gives none
    ],
)
def test_old_wrong_readings_handed_on(request_text: str, files: dict[str, FileInfo]) -> None:
    got = steps(request_text, files)
    assert (
        got is None
        or request_text.startswith("Which pages")
        and got == [("read_annotations", {"pages": "all"})]
        or request_text.startswith("show the table")
        and [t for t, _ in got]
        == [
            "get_outline",
            "extract_tables",
        ]
    )


@pytest.mark.parametrize(
    "request_text",
    [
        "give me the word count",  # no Word document
        "count the pages and the words",  # no tool counts words
        "tell me the page count and the author",  # the author is more than a page count
        "delete page 3 and the title",
        "add page numbers and a comment",  # a comment with no text
        "add page numbers and the logo",  # no logo uploaded: the logo is not silently dropped
    ],
)
def test_nouns_that_ask_for_more_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


def test_properties_still_read() -> None:
    assert one("set the title to Annual Report and the author to Jane Doe") == (
        "set_metadata",
        {"title": "Annual Report", "author": "Jane Doe"},
    )
    assert one("who is the author?") == ("get_metadata", {})


# --- the style of the tuned rows: more ways to say the same arguments ------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        (
            "Every page apart from the first should get a navy 'DRAFT 3' watermark at 0.25 opacity",
            ("add_watermark", {"text": "DRAFT 3", "pages": "2-12", "color": "navy", "opacity": 0.25}),
        ),
        (
            "Stamp the word COPY faintly across every page at 15% opacity",
            ("add_watermark", {"text": "COPY", "opacity": 0.15}),
        ),
        ("add a DRAFT watermark, no tilt at all", ("add_watermark", {"text": "DRAFT", "rotation": 0})),
        (
            "Number the pages but leave the cover unnumbered, and call the output brief_numbered.pdf",
            ("add_page_numbers", {"pages": "2-last", "output": "brief_numbered.pdf"}),
        ),
        (
            "Could you add a small 8 point footer reading 'Rev. B', aligned to the right?",
            ("add_header_footer", {"footer": "Rev. B", "font_size": 8.0, "align": "right"}),
        ),
        ("Give all the odd pages a quarter turn anticlockwise.", ("rotate_pages", {"pages": "odd", "degrees": -90})),
        ("rotate the lot 180 and save it as fixed_scan.pdf", ("rotate_pages", {"degrees": 180})),
        ("Keep only pages 5 through 8 and discard the rest.", ("extract_pages", {"pages": "5-8"})),
        (
            "I just want the first page and the final page, together in a new file.",
            ("extract_pages", {"pages": "1,last"}),
        ),
        ("Throw out all pages but 2, 5 and 7.", ("extract_pages", {"pages": "2,5,7"})),
        ("Move page 1 to the very end.", ("reorder_pages", {"order": "2,3,4,5,6,7,8,9,10,11,12,1"})),
        ("Put page 5 in front of page 2.", ("reorder_pages", {"order": "1,5,2,3,4,6,7,8,9,10,11,12"})),
        ("Reduce the file size, but lossless only please.", ("compress", {"level": "low"})),
        ("Use the strongest compression setting you've got.", ("compress", {"level": "high"})),
        ("Make high-res PNGs of every page, 600 dpi.", ("convert_to_png", {"dpi": 600})),
        ("Blank out pages 4-6 entirely, nothing left on them.", ("redact_pages", {"pages": "4-6"})),
        ("highlight NOTE exactly as written, upper case only", ("highlight_text", {"case_sensitive": True})),
        ("Lock it so it needs orchid-77 to open", ("add_password", {"password": "orchid-77"})),
        ("Stick a blank sheet in front of the first page.", ("insert_blank_pages", {"after": 0})),
        ("Put a blank page after each odd-numbered page.", ("insert_blank_pages", {"after": "odd"})),
        ("Cut 50 points from the right-hand edge on the odd pages.", ("crop_pages", {"right": 50.0, "pages": "odd"})),
        ("crop 2 cm from the left and 3 cm from the top", ("crop_pages", {"left": 2.0, "top": 3.0, "unit": "cm"})),
        ("please add a typed signature for Hannah Kowalski", ("add_signature", {"name": "Hannah Kowalski"})),
        ("I need to know the total number of pages in this PDF.", ("count_pages", {})),
        ("wipe every annotation off the odd pages", ("delete_annotations", {"pages": "odd"})),
        (
            "Fill in Name = Ahmed Khan and Email = ahmed.khan@example.com",
            ("fill_form", {"values": {"Name": "Ahmed Khan", "Email": "ahmed.khan@example.com"}}),
        ),
    ],
)
def test_tuned_style(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


@pytest.mark.parametrize(
    "request_text",
    [
        "Stamp the word COPY faintly across every page at 50% opacity",  # half is not faint
        "crop 2 cm from the left and 3 cm",  # the second amount has no side
        "crop 2 cm from the left and 3 mm from the top",  # two units
        "rotate page 2 180 and 90",
        "Number the pages but leave the appendix unnumbered",
        "add a DRAFT watermark at 30 degrees, no tilt at all",
    ],
)
def test_tuned_style_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("Any credit card numbers in here need to be blacked out.", ("redact_text", {"categories": ["card"]})),
        (
            "I need all the phone numbers and email addresses blacked out",
            ("redact_text", {"categories": ["email", "phone"]}),
        ),
        ("Search for lien as a standalone word.", ("search_text", {"terms": ["lien"], "whole_words": True})),
        ("What's the title and creation date in the PDF properties?", ("get_metadata", {})),
        ("dump the text of pages 10 through 14", ("extract_text", {"pages": "10-14"})),
    ],
)
def test_said_after_or_plainly(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


@pytest.mark.parametrize(
    "request_text",
    ["John Smith blacked out", "search for the", "the names were redacted"],
)
def test_said_after_or_plainly_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


# --- the fifth blind batch's misses, made general -----------------------------------------------------------------

SEAL = {**TWELVE, "seal.png": FileInfo("seal.png", "/x/seal.png", "image")}
SHOTS = {name: FileInfo(name, f"/x/{name}", "image") for name in ("shot1.png", "shot2.png")}


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        # text taken off pages is text, never the pages themselves
        ("Grab the words off every even-numbered page.", ("extract_text", {"pages": "even"})),
        ("Grab the words off pages 2-4.", ("extract_text", {"pages": "2-4"})),
        ("extract the words of page 5", ("extract_text", {"pages": "5"})),
        ("Grab the text of the odd pages", ("extract_text", {"pages": "odd"})),
        ("copy out the text", ("extract_text", {})),
        ("copy the words off page 2", ("extract_text", {"pages": "2"})),
        (
            "copy out all the text and save it as contract_text.txt",
            ("extract_text", {"output": "contract_text.txt"}),
        ),
        ("Take out the 1st, 3rd and 6th pages.", ("delete_pages", {"pages": "1,3,6"})),
        # an ordinal page and every page after it
        ("Save everything from the sixth page onwards as a separate PDF.", ("extract_pages", {"pages": "6-last"})),
        ("Save everything from the sixth page onward as a separate PDF.", ("extract_pages", {"pages": "6-last"})),
        ("delete the 3rd page to the end", ("delete_pages", {"pages": "3-last"})),
        # "between pages 5 and 15": a range (neighbours stay a place for a new page)
        (
            "Between pages 5 and 15, where does ISO 9001 come up?",
            ("search_text", {"terms": ["ISO 9001"], "pages": "5-15"}),
        ),
        ("extract the text between pages 2 and 6", ("extract_text", {"pages": "2-6"})),
        ("insert a blank page between pages 3 and 4", ("insert_blank_pages", {"after": "3", "count": 1})),
        # several capitalised terms listed
        (
            "Please underline Tenant and Landlord, matching whole words only.",
            ("underline_text", {"terms": ["Tenant", "Landlord"], "whole_words": True}),
        ),
        ("Find Appendix C or Annex 3 for me.", ("search_text", {"terms": ["Appendix C", "Annex 3"]})),
        ("highlight Tenant, Landlord and Agent", ("highlight_text", {"terms": ["Tenant", "Landlord", "Agent"]})),
        ("where does ISO come up?", ("search_text", {"terms": ["ISO"]})),
        # upside down, said with a flip
        (
            "Pages four and eight are upside-down, flip them round please.",
            ("rotate_pages", {"pages": "4,8", "degrees": 180}),
        ),
        ("pages 4 and 8 are upside down, turn them round", ("rotate_pages", {"pages": "4,8", "degrees": 180})),
        # the colour of the redaction boxes
        (
            "redact any web links / URLs, with white boxes instead of black",
            ("redact_text", {"categories": ["url"], "color": "white"}),
        ),
        ("redact 'Acme' with grey bars", ("redact_text", {"terms": ["Acme"], "color": "grey"})),
        (
            "redact the emails with black boxes instead of white",
            ("redact_text", {"categories": ["email"], "color": "black"}),
        ),
        # page numbers shown as a fraction; the first number said again with its page
        (
            "could u paginate it as 3/12 style (page slash total), top centre",
            ("add_page_numbers", {"format": "{n}/{total}", "position": "top-center"}),
        ),
        (
            "number pages 3 to the end, with the count starting at 1 on page 3",
            ("add_page_numbers", {"pages": "3-last", "start": 1}),
        ),
    ],
)
def test_fifth_batch_plans(request_text: str, expected: tuple[str, dict]) -> None:
    task, args = one(request_text)
    assert task == expected[0]
    assert {k: v for k, v in args.items() if k in expected[1]} == expected[1]


def test_see_through_watermark_is_the_default_opacity() -> None:
    task, args = one("Could you use seal.png as a see-through watermark, but only on the cover page?", SEAL)
    assert task == "add_watermark"
    assert args["image"] == "seal.png" and args["pages"] == "1" and "opacity" not in args


def test_image_right_in_the_centre() -> None:
    files = {**TWELVE, "portrait.jpg": FileInfo("portrait.jpg", "/x/portrait.jpg", "image")}
    task, args = one("add the photo to the first page, 200 pt wide, right in the centre", files)
    assert task == "add_image"
    assert args["position"] == "center" and args["width"] == 200 and args["page"] == "1"


@pytest.mark.parametrize(
    "request_text",
    [
        "turn the screenshots into a letter-size pdf and make it searchable",  # (blind batch i4, tuning)
        "make them searchable",
        "make a pdf of the screenshots and ocr it in german",
    ],
)
def test_images_made_searchable_are_a_pdf_then_ocr(request_text: str) -> None:
    """OCR of photos is a searchable PDF of them: the PDF once, then the OCR (never the OCR dropped)."""
    got = steps(request_text, SHOTS)
    assert got is not None and [task for task, _ in got] == ["images_to_pdf", "ocr"], got


def test_screenshots_are_images() -> None:
    task, args = one("Make a PDF from the screenshots and call it screens.pdf", SHOTS)
    assert task == "images_to_pdf"
    assert args["images"] == ["shot1.png", "shot2.png"] and args["output"] == "screens.pdf"


@pytest.mark.parametrize(
    ("request_text", "files"),
    [
        # no "…the words/text off/of/from…" phrasing takes the pages out
        ("Take the words out of page 3", TWELVE),
        ("take the text out of pages 1-3", TWELVE),
        ("pull the text off page 2 as a separate PDF", TWELVE),
        # "onwards" only after one page named by its ordinal
        ("delete the last page onwards", TWELVE),
        ("insert a blank page between pages 3 and 9", TWELVE),
        # a list of terms ends at a lower-case word or a page
        ("highlight Tenant and landlord", TWELVE),
        # upside down and a quarter turn disagree; a bare flip is no turn
        ("page 3 is upside-down, rotate it 90 degrees", TWELVE),
        ("flip pages 4 and 8", TWELVE),
        # white or black boxes only with the contrast said; boxes of no colour; the same colour twice
        ("redact the emails with white boxes", TWELVE),
        ("redact the emails with boxes", TWELVE),
        ("redact the emails with white boxes instead of white", TWELVE),
        ("redact the emails in red with white boxes instead of black", TWELVE),
        # a see-through image the tool draws solid; "faintly" with no low opacity said
        ("add seal.png to page 1, see-through", SEAL),
        ("use seal.png as a see-through watermark at 100% opacity", SEAL),
        ("Stamp the word COPY faintly across every page", TWELVE),
        # a fraction that is no page of a total; a start said of another page
        ("add page numbers as 12/3", TWELVE),
        ("number pages 3 to the end, starting at 1 on page 4", TWELVE),
        # screenshots of a PDF's pages are no uploaded images
        ("delete the screenshots on page 3", TWELVE),
        ("extract the screenshots from page 2", TWELVE),
        ("add seal.png to page 1, on the right in the centre", SEAL),
    ],
)
def test_fifth_batch_handed_on(request_text: str, files: dict[str, FileInfo]) -> None:
    assert handed_on(request_text, files)


@pytest.mark.parametrize(
    ("clause", "pages"),
    [
        ("from the sixth page onwards", "6-last"),
        ("the 3rd page to the end", "3-last"),
        ("between pages 5 and 15", "5-15"),
        ("between pages 3 and 4", "3,4"),
    ],
)
def test_fifth_batch_page_references(clause: str, pages: str) -> None:
    assert pages_in(clause, 12) == pages


@pytest.mark.parametrize(
    ("request_text", "values"),
    [
        ("tick the 'Agree' checkbox", {"Agree": True}),
        ("untick the 'Newsletter' box", {"Newsletter": False}),
        ("tick the 'A' box and tick the 'B' box", {"A": True, "B": True}),
        ("put London in the City field", {"City": "London"}),
        ("put John Smith in the Full Name field", {"Full Name": "John Smith"}),
    ],
)
def test_checkboxes_and_plain_field_values(request_text: str, values: dict) -> None:
    assert one(request_text) == ("fill_form", {"values": values})


@pytest.mark.parametrize(
    "request_text",
    [
        # values in two clauses would fill the form twice: handed on until they are read as one step
        "tick the 'Agree' checkbox and put London in the City field",
        "put London in the City field and Paris in the Town field",
        "put London in the city field",  # a field name in lower case may be a description
        "put the London office in the City field",
        "check the 'Agree' box on page 2",
    ],
)
def test_checkboxes_and_plain_field_values_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


@pytest.mark.parametrize(
    ("request_text", "pages"),
    [
        ("which pages have comments on them?", "all"),
        ("which pages have markup?", "all"),
        ("which pages from 2 to 5 have comments?", "2-5"),
    ],
)
def test_which_pages_have_markup(request_text: str, pages: str) -> None:
    assert one(request_text) == ("read_annotations", {"pages": pages})


@pytest.mark.parametrize(
    "request_text",
    ["which pages have notes about pricing?", "which pages have highlights?", "delete the pages from 3 to 1"],
)
def test_which_pages_have_markup_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


def test_pages_from_to() -> None:
    assert pages_in("rotate pages from 2 to 5", 12) == "2-5"
    assert pages_in("pages from 4-6", 12) == "4-6"


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("Author should be Chen Wei", {"author": "Chen Wei"}),
        ("author: Chen Wei, title: Site Survey", {"author": "Chen Wei", "title": "Site Survey"}),
        (
            "Author should be Chen Wei, title Site Survey; save as survey_final.pdf",
            {"author": "Chen Wei", "title": "Site Survey", "output": "survey_final.pdf"},
        ),
    ],
)
def test_property_named_first(request_text: str, expected: dict) -> None:
    assert one(request_text) == ("set_metadata", expected)


@pytest.mark.parametrize(
    "request_text",
    [
        "Author should be changed to Bob",
        "the title should be in capitals",
        "Title: what is it?",
        "Author: who wrote it?",
        "the author is Chen Wei",  # said of the file as it is, no change asked
    ],
)
def test_property_named_first_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


QUOTE_TERMS = {name: FileInfo(name, f"/x/{name}", "pdf", pages=3) for name in ("terms.pdf", "quote.pdf")}


@pytest.mark.parametrize(
    "request_text",
    [
        "Append terms.pdf to the end of quote.pdf.",
        "Append terms.pdf to quote.pdf",
        "add terms.pdf to the end of quote.pdf",
        "tack terms.pdf onto the back of quote.pdf",
    ],
)
def test_one_file_appended_to_another(request_text: str) -> None:
    plan = fast_reading(request_text, QUOTE_TERMS).plan
    assert plan is not None and [s.task for s in plan.steps] == ["combine_files"]
    assert plan.steps[0].args["files"] == ["quote.pdf", "terms.pdf"]


@pytest.mark.parametrize(
    "request_text",
    [
        "add terms.pdf to quote.pdf",  # where in it is not said
        "append terms.pdf to quote.pdf after page 1",
        "append page 3 to quote.pdf",
        "append terms.pdf to terms.pdf",
    ],
)
def test_one_file_appended_to_another_handed_on(request_text: str) -> None:
    assert handed_on(request_text, QUOTE_TERMS)


@pytest.mark.parametrize(
    "request_text",
    [
        "flip the page order round so the back page is first and the front page is last",
        "flip the page order round",
        "turn the order of the pages around",  # once a quarter turn of every page
    ],
)
def test_page_order_flipped(request_text: str) -> None:
    assert one(request_text) == ("reorder_pages", {"order": "reverse"})


@pytest.mark.parametrize(
    "request_text",
    [
        "turn pages 2-3 around",  # once a quarter turn: a half turn or a quarter is not said
        "flip the page order round so the back page is first",
        "flip the page order round so the front page is first and the back page is last",
        "flip pages 2 and 3 round",
    ],
)
def test_page_order_flipped_handed_on(request_text: str) -> None:
    assert handed_on(request_text)


def test_ocr_in_two_languages_by_halves() -> None:
    assert one("make it searchable, half English, half German") == ("ocr", {"pages": "all", "language": "eng+deu"})


@pytest.mark.parametrize(
    "request_text", ["make it searchable, half English", "make the first half searchable in English"]
)
def test_ocr_halves_handed_on(request_text: str) -> None:
    assert handed_on(request_text)
