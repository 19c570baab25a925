"""The fast path plans requests with zero LLM calls: the DocBench dev set and other phrasings."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from docpilot.files import inspect_files
from docpilot.planning.fastpath import NeedInfo, fast_plan
from docpilot.planning.planner import Planner
from pdftools.masking import MASK

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus"
C = str(CORPUS) + "/"

# Our labels: the set of tasks a correct plan for each DocBench dev request uses.
# None = the fast path should hand it to the LLM / QA (it needs understanding, not patterns).
DEV_LABELS = {
    "redact-name": {"redact_text"},
    "delete-two-pages": {"delete_pages"},
    "count-pages": {"count_pages"},
    "add-password": {"add_password"},
    "highlight-word": {"highlight_text"},
    "to-word": {"convert_to_docx"},
    "extract-pages": {"extract_pages"},
    "compress": {"compress"},
    "merge-two": {"combine_files"},
    "rotate-all": {"rotate_pages"},
    "watermark-draft": {"add_watermark"},
    "underline-dates": {"underline_text"},
    "redact-emails": {"redact_text"},
    "redact-first-page": {"redact_pages"},
    "comment-page2": {"add_comment"},
    "append-text-page": {"add_page_with_text"},
    "page-to-png": {"convert_to_png"},
    "to-pptx": {"convert_to_pptx"},
    "tables-to-excel": {"convert_to_xlsx"},
    "search-pages": {"search_text"},
    "page-numbers": {"add_page_numbers"},
    "ssn-watermark-password": {"redact_text", "add_watermark", "add_password"},
    "docpilot-a73-4": {"delete_pages", "search_text", "redact_text", "add_watermark"},
    "extract-with-password": {"extract_pages", "add_password"},
    "duplicate-named": {"duplicate"},
    "check-password": {"check_password"},
    "to-jpeg": {"convert_to_jpeg"},
    "to-tiff": {"convert_to_tiff"},
    "remove-range": {"delete_pages"},
    "reverse": {"reorder_pages"},
    "redact-contacts-p1": {"redact_text"},
    "set-title": {"set_metadata"},
    "header-text": {"add_header_footer"},
    "fill-form": {"fill_form"},
    "flatten-form": {"flatten_form"},
    "remove-password": {"remove_password"},
    "pii-visa": {"redact_text"},
    "salary-average": None,
    "out-of-range": {"delete_pages"},
    "sign-last-page": {"add_signature"},
    "photos-to-pdf": {"images_to_pdf"},
    "five-step": {"rotate_pages", "highlight_text", "add_page_numbers", "add_watermark", "compress"},
}


def _dev_cases() -> list[dict]:
    path = SHARED / "bench" / "workflows.jsonl"
    if not path.exists():
        pytest.skip("../shared/bench/workflows.jsonl is absent")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_dev_set_labels_cover_every_case() -> None:
    assert {c["id"] for c in _dev_cases()} == set(DEV_LABELS)


def test_dev_set_fast_path_matches_labels() -> None:
    """The README's figure: the fast path plans 41 of the 42 dev requests with 0 LLM calls (the refused page out of
    range counted as planned, as bench/planning.py counts it), each with the tools its label says; the one left,
    salary-average, is a question for document QA."""
    planner = Planner(llm=None)
    planned, misses, handed_on = [], [], []
    for case in _dev_cases():
        files = inspect_files([C + f for f in case["files"]])
        outcome = planner.plan(case["request"], files)
        assert outcome.stats.llm_calls == 0, case["id"]
        label = DEV_LABELS[case["id"]]
        tasks = {s.task for s in outcome.plan.steps} if outcome.plan else None
        if "refuse" in case["tags"]:
            assert not outcome.ok and "valid pages are 1-4" in (outcome.error or "")
            planned.append(case["id"])
            continue
        if not outcome.ok:
            handed_on.append(case["id"])
        elif tasks == label:
            planned.append(case["id"])
        else:
            misses.append((case["id"], tasks, outcome.error))
    assert misses == [], misses
    assert handed_on == ["salary-average"], handed_on
    assert len(planned) == 41 and len(DEV_LABELS) == 42


PHRASINGS = [
    ("Turn the last two pages into images I can paste into slides", ["synthetic/contract.pdf"], {"convert_to_png"}),
    ("turn page 2 upside down", ["synthetic/contract.pdf"], {"rotate_pages"}),
    (
        "Make the contract read-only with password Board2025 after stamping it DRAFT",
        ["synthetic/contract.pdf"],
        {"add_watermark", "add_password"},
    ),
    (
        "Tidy up the contract for the board: number the pages and put CONFIDENTIAL across them",
        ["synthetic/contract.pdf"],
        {"add_page_numbers", "add_watermark"},
    ),
    ("write 'Internal' diagonally across every page", ["synthetic/contract.pdf"], {"add_watermark"}),
    # which page holds the signatures needs reading (an annex may follow them): not the fast path's guess
    ("I only need the signature page as a picture", ["synthetic/contract.pdf"], None),
    ("find the email addresses and redact them", ["synthetic/contract.pdf"], {"find_entities", "redact_text"}),
    ("find all dates and underline them", ["synthetic/contract.pdf"], {"find_entities", "underline_text"}),
    ("Please black out all instances of Brightline Consulting", ["synthetic/contract.pdf"], {"redact_text"}),
    ("Remove every email address from the contract", ["synthetic/contract.pdf"], {"redact_text"}),
    ("Get rid of pages 3 and 4", ["synthetic/contract.pdf"], {"delete_pages"}),
    ("Drop the last page", ["synthetic/contract.pdf"], {"delete_pages"}),
    ("How many pages are in this PDF?", ["synthetic/contract.pdf"], {"count_pages"}),
    ("What's the page count?", ["synthetic/contract.pdf"], {"count_pages"}),
    ("Encrypt the document with password 'hunter2'", ["synthetic/contract.pdf"], {"add_password"}),
    ("Lock this PDF using the password s3cret!", ["synthetic/contract.pdf"], {"add_password"}),
    ('Mark every occurrence of "battery" in yellow', ["synthetic/annual_report.pdf"], {"highlight_text"}),
    ("Highlight all the dates", ["synthetic/contract.pdf"], {"highlight_text"}),
    ("Make this a Word file", ["synthetic/annual_report.pdf"], {"convert_to_docx"}),
    ("Save it as a docx", ["synthetic/annual_report.pdf"], {"convert_to_docx"}),
    ("Pull out pages 2 to 3 as a new PDF", ["synthetic/contract.pdf"], {"extract_pages"}),
    ("Keep only the first two pages", ["synthetic/contract.pdf"], {"extract_pages"}),
    ("Reduce the file size", ["synthetic/annual_report.pdf"], {"compress"}),
    ("Make the file smaller please", ["synthetic/annual_report.pdf"], {"compress"}),
    (
        "Merge the invoices into a single document",
        ["synthetic/invoice_1001.pdf", "synthetic/invoice_1002.pdf"],
        {"combine_files"},
    ),
    ("Turn every page 90 degrees counterclockwise", ["synthetic/contract.pdf"], {"rotate_pages"}),
    ("Rotate page 2 upside down", ["synthetic/contract.pdf"], {"rotate_pages"}),
    ("Stamp CONFIDENTIAL across each page", ["synthetic/contract.pdf"], {"add_watermark"}),
    ("Put a watermark saying 'For review only' on all pages", ["synthetic/contract.pdf"], {"add_watermark"}),
    ("Underline every phone number", ["synthetic/contract.pdf"], {"underline_text"}),
    ("Strike out the word 'Consultant'", ["synthetic/contract.pdf"], {"strikeout_text"}),
    ("Redact the SSNs and account numbers", ["synthetic/contract.pdf"], {"redact_text"}),
    ("Blank out page 2 entirely", ["synthetic/annual_report.pdf"], {"redact_pages"}),
    ("Add a note 'Check figures' to page 3", ["synthetic/annual_report.pdf"], {"add_comment"}),
    ("Append a page that says 'End of document'", ["synthetic/contract.pdf"], {"add_page_with_text"}),
    ("Export page 2 as a JPG", ["synthetic/annual_report.pdf"], {"convert_to_jpeg"}),
    ("Make a slide deck out of this", ["synthetic/annual_report.pdf"], {"convert_to_pptx"}),
    ("Put the tables into a spreadsheet", ["synthetic/annual_report.pdf"], {"convert_to_xlsx"}),
    ("On which pages does 'solar' appear?", ["synthetic/annual_report.pdf"], {"search_text"}),
    ("Number the pages at the bottom right", ["synthetic/contract.pdf"], {"add_page_numbers"}),
    (
        "Delete page 2, add a DRAFT watermark and convert it to PowerPoint",
        ["synthetic/contract.pdf"],
        {"delete_pages", "add_watermark", "convert_to_pptx"},
    ),
    ("Copy this file and name it archive.pdf", ["real/unstructured__fake-memo.pdf"], {"duplicate"}),
    ("Does this PDF have a password?", ["real/pdfplumber__password-example.pdf"], {"check_password"}),
    ("Convert every page to JPEG images", ["synthetic/contract.pdf"], {"convert_to_jpeg"}),
    ("Save as a multi-page TIFF", ["synthetic/annual_report.pdf"], {"convert_to_tiff"}),
    ("Remove pages 10-12", ["real/pdfjs__tracemonkey.pdf"], {"delete_pages"}),
    ("Reverse the page order", ["synthetic/contract.pdf"], {"reorder_pages"}),
    ("Change the author to Jane Doe", ["synthetic/annual_report.pdf"], {"set_metadata"}),
    ("Put 'Internal draft' in the footer of every page", ["synthetic/contract.pdf"], {"add_header_footer"}),
    ("Set the field 'First Name' to Alice", ["real/pypdfsamples__libreoffice-form.pdf"], {"fill_form"}),
    ("Make the form non-editable by flattening it", ["real/pypdfsamples__libreoffice-form.pdf"], {"flatten_form"}),
    ("Unlock this file, the password is test", ["real/pdfplumber__password-example.pdf"], {"remove_password"}),
    (
        "Sign the document with signature.png on page 1",
        ["synthetic/contract.pdf", "synthetic/signature.png"],
        {"add_signature"},
    ),
    ("Create a PDF from these pictures", ["synthetic/photo1.jpg", "synthetic/photo2.jpg"], {"images_to_pdf"}),
    ("Split the document into single pages", ["synthetic/contract.pdf"], {"split_pdf"}),
    ("Split after page 2", ["synthetic/contract.pdf"], {"split_pdf"}),
    ("Insert a blank page after page 1", ["synthetic/contract.pdf"], {"insert_blank_pages"}),
    ("Remove the blank pages", ["synthetic/contract.pdf"], {"remove_blank_pages"}),
    ("Extract all images from the PDF", ["synthetic/annual_report.pdf"], {"extract_images"}),
    ("List the bookmarks", ["real/docling__bookmark_sample.pdf"], {"get_outline"}),
    ("Make this scanned PDF searchable", ["real/docling__ocr_test.pdf"], {"ocr"}),
    ("Find all email addresses and phone numbers", ["synthetic/contract.pdf"], {"find_entities"}),
    ("Extract the text to a txt file", ["synthetic/contract.pdf"], {"extract_text", "convert_to_text"}),
    ("Convert to markdown", ["synthetic/contract.pdf"], {"convert_to_markdown"}),
    ("Remove all comments", ["real/pdfjs__highlights.pdf"], {"delete_annotations"}),
    ("Sanitize the file", ["synthetic/contract.pdf"], {"sanitize"}),
    (
        "Add the logo.png image to the top right of page 1",
        ["synthetic/contract.pdf", "synthetic/logo.png"],
        {"add_image"},
    ),
    ("Crop 10 mm off every page", ["synthetic/contract.pdf"], {"crop_pages"}),
    ("Translate this document into French", ["synthetic/contract.pdf"], None),
    ("Summarize the contract", ["synthetic/contract.pdf"], None),
    ("Remove page 1 and compress the result", ["synthetic/contract.pdf"], {"delete_pages", "compress"}),
    (
        "Highlight 'Confidential' on pages 1-2 and underline all email addresses",
        ["synthetic/contract.pdf"],
        {"highlight_text", "underline_text"},
    ),
    (
        "Rotate the first page 90 degrees clockwise then save it as PNG",
        ["synthetic/contract.pdf"],
        {"rotate_pages", "convert_to_png"},
    ),
]


@pytest.mark.parametrize(("request_text", "files", "expected"), PHRASINGS, ids=[p[0][:40] for p in PHRASINGS])
def test_other_phrasings(request_text: str, files: list[str], expected: set[str] | None) -> None:
    if not CORPUS.exists():
        pytest.skip("../shared/corpus is absent")
    plan = fast_plan(request_text, inspect_files([C + f for f in files]))
    tasks = {s.task for s in plan.steps} if plan else None
    if expected and "extract_text" in expected:
        assert tasks and tasks <= expected
    else:
        assert tasks == expected


@pytest.mark.parametrize(
    ("request_text", "message"),
    [
        ("Protect this file with a password", "Which password"),
        (
            "Redact every client name, underline the dates, add a DRAFT watermark and give it to me as PowerPoint",
            "which words are client name",
        ),
        ("highlight the name of the consultant", "put the exact words in quotes"),
        ("Crop the pages", "How much should be cropped"),
        ("Rotate page 1 by 45 degrees", "steps of 90 degrees"),
    ],
)
def test_missing_information_is_asked_for(make_pdf, request_text: str, message: str) -> None:
    files = inspect_files([make_pdf(["one", "two"])])
    with pytest.raises(NeedInfo, match=message):
        fast_plan(request_text, files)


def test_explanation_masks_passwords_and_names_pages(make_pdf) -> None:
    files = inspect_files([make_pdf(["a", "b", "c"], name="deal.pdf")])
    outcome = Planner(llm=None).plan("Extract pages 2-3 and protect it with the password Hunter22", files)
    assert outcome.ok and outcome.backend == "rules" and outcome.stats.llm_calls == 0
    assert "Hunter22" not in outcome.explanation and MASK in outcome.explanation
    assert "pages 2-3" in outcome.explanation and "deal.pdf" in outcome.explanation
    assert [s.task for s in outcome.plan.steps] == ["extract_pages", "add_password"]


def test_unreadable_file_is_refused_before_planning(tmp_path) -> None:
    bad = tmp_path / "notes.pdf"
    bad.write_text("plain text")
    outcome = Planner(llm=None).plan("Rotate all pages", inspect_files([bad]))
    assert not outcome.ok and "not a PDF" in outcome.error


def test_rules_backend_refuses_what_it_cannot_understand(make_pdf) -> None:
    outcome = Planner(llm=None).plan("Make the fonts look like handwriting", inspect_files([make_pdf(["x"])]))
    assert not outcome.ok and "no language model" in outcome.error


def test_critique_revises_the_plan(make_pdf) -> None:
    files = inspect_files([make_pdf(["a", "b", "c", "d"])])
    planner = Planner(llm=None)
    first = planner.plan("Delete page 2", files)
    revised = planner.revise(first, "also compress it", files)
    assert revised.ok and [s.task for s in revised.plan.steps] == ["delete_pages", "compress"]


@pytest.mark.parametrize(
    "request_text, task, args",
    [
        ("set the title in the properties to Q3 Budget", "set_metadata", {"title": "Q3 Budget"}),
        ("set the title to Road to Recovery", "set_metadata", {"title": "Road to Recovery"}),
        ("save it as final.pdf after rotating page 1", "rotate_pages", {"pages": "1", "output": "final.pdf"}),
    ],
)
def test_sentences_as_people_write_them(request_text, task, args, make_pdf) -> None:
    """A value after "to" is the value only; pages that belong to another action are not extracted."""
    files = inspect_files([make_pdf(["a", "b", "c"], name="doc.pdf")])
    plan = fast_plan(request_text, files)
    assert plan is not None and [s.task for s in plan.steps] == [task]
    assert {k: plan.steps[0].args.get(k) for k in args} == args


@pytest.mark.parametrize(
    ("request_text", "task", "args"),
    [
        ("Trim 20 mm from the top.", "crop_pages", {"top": 20.0, "unit": "mm", "pages": "all"}),
        ("cut 1 cm off the left and right margins", "crop_pages", {"left": 1.0, "right": 1.0, "unit": "cm"}),
        ("crop 36 points off all edges of page 1", "crop_pages", {"margin": 36.0, "unit": "pt", "pages": "1"}),
        ("trim 10mm all round on pages 2-3", "crop_pages", {"margin": 10.0, "unit": "mm", "pages": "2-3"}),
        ("move the last page to the front", "reorder_pages", {"order": "4,1,2,3"}),
        ("swap pages 1 and 2", "reorder_pages", {"order": "2,1,3,4"}),
        ("make page 3 come right after page 1", "reorder_pages", {"order": "1,3,2,4"}),
        ("put the first page at the back", "reorder_pages", {"order": "2,3,4,1"}),
        ("one pdf per page pls", "split_pdf", {"every": 1}),
        ("Please split it so that new parts begin at pages 2 and 3.", "split_pdf", {"at": "2,3"}),
        ("chop it into pieces of two pages each", "split_pdf", {"every": 2}),
        ("Add my signature, Robert Chen, to the last page.", "add_signature", {"name": "Robert Chen", "page": "last"}),
        ("e-sign this for me: Laura Bennett", "add_signature", {"name": "Laura Bennett"}),
        ("How many times does the word warranty appear?", "search_text", {"terms": ["warranty"]}),
        ("how often does Acme come up?", "search_text", {"terms": ["Acme"]}),
        (
            "Watermark pages 1-3 with the word SAMPLE at 50% opacity.",
            "add_watermark",
            {"text": "SAMPLE", "opacity": 0.5},
        ),
        ("watermark the even pages with PROOF, rotated 30 degrees", "add_watermark", {"pages": "even", "rotation": 30}),
        ("'Internal' watermarked in the bottom right corner", "add_watermark", {"position": "bottom-right"}),
        ('add a "DO NOT COPY" watermark in red, 60pt', "add_watermark", {"color": "red", "font_size": 60.0}),
        (
            "Add the header 'Project Falcon', right-aligned, 9pt.",
            "add_header_footer",
            {"align": "right", "font_size": 9.0},
        ),
        ("add a centred footer 'Minutes'", "add_header_footer", {"footer": "Minutes", "align": "center"}),
        ("shrink it as much as possible", "compress", {"level": "high"}),
        ("medium compression, and save it as small.pdf", "compress", {"level": "medium", "output": "small.pdf"}),
        # a name said with its owner's 's is the name (blind i8, tuning); "Tovey's case" stays as said
        ("how often does Tovey's name come up?", "search_text", {"terms": ["Tovey"]}),
        ("highlight Tovey's name", "highlight_text", {"terms": ["Tovey"]}),
        ("highlight Tovey's case", "highlight_text", {"terms": ["Tovey's"]}),
        # a page number shown by example inside a footer's text is the page number (blind i8, tuning)
        (
            "footer on every page: 'Draft - Kestrel Ltd - page n of N', right aligned",
            "add_header_footer",
            {"footer": "Draft - Kestrel Ltd - page {n} of {total}", "align": "right"},
        ),
    ],
)
def test_more_shapes_read_exactly(make_pdf, request_text: str, task: str, args: dict) -> None:
    """Issue F: phrasings people use (paraphrase bench misses), read with every argument they give."""
    files = inspect_files([make_pdf(["One.", "Two.", "Three.", "Four."], name="doc.pdf")])
    plan = fast_plan(request_text, files)
    assert plan is not None and [s.task for s in plan.steps] == [task]
    assert args.items() <= plan.steps[0].args.items()


@pytest.mark.parametrize(
    "request_text",
    [
        "crop 1 cm from the left and 2 cm",  # an amount with no side: the model reads which goes where
        "move the last 2 pages to the front",
        "crop 5 mm off the top on both sides",
        "swap pages 1 and 9",  # no page 9
        "add a footer reading 'Prepared by Finance' in red",  # no colour for footers: "red" is not in "prepared"
        "make it smaller but keep the quality high",
        # the pages are what goes, chosen by what is on them: never a redaction of the words (blind i8, tuning)
        "delete the pages with personal info on them",
        "remove any pages that contain phone numbers",
    ],
)
def test_shapes_the_fast_path_hands_on(make_pdf, request_text: str) -> None:
    files = inspect_files([make_pdf(["One.", "Two.", "Three.", "Four."], name="doc.pdf")])
    try:
        plan = fast_plan(request_text, files)
    except NeedInfo:
        return
    assert plan is None


@pytest.mark.parametrize(
    "request_text, task, categories",
    [
        (
            "Redact all personally identifiable information in this form",
            "redact_text",
            ["email", "phone", "ssn", "card", "account", "date", "person", "address", "id"],
        ),
        ("redact all people's names", "redact_text", ["person"]),
        ("black out the names of the employees", "redact_text", ["person"]),
        ("underline the dates", "underline_text", ["date"]),
        ("highlight the section headings", "highlight_text", ["heading"]),
        ("redact the addresses and phone numbers", "redact_text", ["phone", "address"]),
        ("underline all the organizations", "underline_text", ["organization"]),
        ("redact the passport number", "redact_text", ["id"]),
    ],
)
def test_entity_kinds_are_targets(make_pdf, request_text: str, task: str, categories: list[str]) -> None:
    files = inspect_files([make_pdf(["one", "two"], name="form.pdf")])
    plan = fast_plan(request_text, files)
    assert plan is not None and [s.task for s in plan.steps] == [task]
    assert plan.steps[0].args["categories"] == categories
    assert fast_plan("redact the email addresses", files).steps[0].args["categories"] == ["email"]


def _read(make_pdf, request_text: str, pages: int = 6) -> list[tuple[str, dict]]:
    files = inspect_files([make_pdf([f"Page {n}." for n in range(1, pages + 1)], name="doc.pdf")])
    plan = fast_plan(request_text, files)
    assert plan is not None, request_text
    return [(s.task, {k: v for k, v in s.args.items() if k != "file"}) for s in plan.steps]


def _handed_on(make_pdf, request_text: str, pages: int = 6) -> bool:
    files = inspect_files([make_pdf([f"Page {n}." for n in range(1, pages + 1)], name="doc.pdf")])
    try:
        return fast_plan(request_text, files) is None
    except NeedInfo:
        return True


@pytest.mark.parametrize(
    ("request_text", "task", "args"),
    [
        ("Redact 'art' as a whole word only, not inside other words.", "redact_text", {"whole_words": True}),
        ("highlight 'risk' - whole words only, I don't want 'asterisk' lit up", "highlight_text", {"terms": ["risk"]}),
        ("count how often the whole word 'cat' shows up (not 'category' etc.)", "search_text", {"terms": ["cat"]}),
        ("Strike out 'may' as a whole word on pages 2-3.", "strikeout_text", {"whole_words": True, "pages": "2-3"}),
        ("Do a case-sensitive search for 'IT'.", "search_text", {"terms": ["IT"], "case_sensitive": True}),
        ("underline 'Acme' with matching case", "underline_text", {"case_sensitive": True}),
        ("Redact 'ACME' but only where it's written in capitals", "redact_text", {"case_sensitive": True}),
    ],
)
def test_whole_word_and_case_phrasings(make_pdf, request_text: str, task: str, args: dict) -> None:
    [(got, got_args)] = _read(make_pdf, request_text)
    assert got == task and args.items() <= got_args.items()


@pytest.mark.parametrize(
    ("request_text", "absent"),
    [
        ("How many times does the word warranty appear?", "whole_words"),  # "the word X" is the word, anywhere
        ("Strike out the word 'Consultant'", "whole_words"),
        ("highlight 'risk' as whole words only, not 'asterisk'", "case_sensitive"),
    ],
)
def test_whole_words_only_when_said(make_pdf, request_text: str, absent: str) -> None:
    [(_, args)] = _read(make_pdf, request_text)
    assert absent not in args and "asterisk" not in args["terms"]


@pytest.mark.parametrize(
    "request_text",
    [
        "highlight 'risk', not 'danger'",  # a second term refused, not an illustration of whole words
        "highlight 'risk' as whole words only, not 'danger'",
        "Redact 'Acme' only where it's written in capitals",  # the term itself is not in capitals
    ],
)
def test_whole_word_and_case_shapes_handed_on(make_pdf, request_text: str) -> None:
    assert _handed_on(make_pdf, request_text)


@pytest.mark.parametrize(
    ("request_text", "task", "pages"),
    [
        ("I only need pages 4, 6 and 8, can you make me a PDF with just those?", "extract_pages", "4,6,8"),
        ("pull the last three pages out into their own file", "extract_pages", "10-12"),
        ("take pages 2-3 out into a new file", "extract_pages", "2-3"),
        ("grab pages 7 to 9 and then page 2, in that order, as a new pdf", "extract_pages", "7-9,2"),
        ("extract pages 5-6 followed by page 1", "extract_pages", "5-6,1"),
        ("give me pages 1-3 as a separate file", "extract_pages", "1-3"),
        ("extract pages 3, 1 and 2 in that order", "extract_pages", "3,1,2"),
        ("delete pages 1-3 and page 5", "delete_pages", "1-3,5"),
    ],
)
def test_page_selection_phrasings(make_pdf, request_text: str, task: str, pages: str) -> None:
    assert _read(make_pdf, request_text, pages=12) == [(task, {"pages": pages})]


@pytest.mark.parametrize(
    "request_text",
    [
        "take the last three pages out",  # out of the file, or out for me? not one reading
        "I need pages 2-3 turned sideways",
        "I want pages 2-3 in Word",
    ],
)
def test_page_selection_shapes_handed_on(make_pdf, request_text: str) -> None:
    assert _handed_on(make_pdf, request_text, pages=12)


def _merge(make_pdf, request_text: str, names: list[str]) -> list[str] | None:
    files = inspect_files([make_pdf(["A page."], name=n) for n in names])
    try:
        plan = fast_plan(request_text, files)
    except NeedInfo:
        return None
    if plan is None:
        return None
    assert [s.task for s in plan.steps] == ["combine_files"]
    return [Path(f).name for f in plan.steps[0].args["files"]]


@pytest.mark.parametrize(
    ("request_text", "names", "order"),
    [
        ("merge them, february first and then january", ["invoice_jan.pdf", "invoice_feb.pdf"], [1, 0]),
        (
            "Could you stitch these into one: c.pdf first, then a.pdf, then b.pdf",
            ["a.pdf", "b.pdf", "c.pdf"],
            [2, 0, 1],
        ),
        ("merge cover.pdf, body.pdf and finally appendix.pdf", ["body.pdf", "appendix.pdf", "cover.pdf"], [2, 0, 1]),
        ("join the PDFs together in the order I uploaded them", ["b.pdf", "c.pdf", "a.pdf"], [0, 1, 2]),
        ("merge them", ["invoice_jan.pdf", "invoice_feb.pdf"], [0, 1]),
        # "after" between two names turns the order round
        ("merge jan after feb", ["invoice_jan.pdf", "invoice_feb.pdf"], [1, 0]),
        ("put appendix.pdf after main.pdf in one file", ["appendix.pdf", "main.pdf"], [1, 0]),
    ],
)
def test_merge_order_as_said(make_pdf, request_text: str, names: list[str], order: list[int]) -> None:
    assert _merge(make_pdf, request_text, names) == [names[i] for i in order]


@pytest.mark.parametrize(
    "request_text",
    [
        "merge them: jan last, feb first",
        "merge them, last feb then jan",
        "merge them in alphabetical order",
        "merge them in reverse order",
    ],
)
def test_merge_orders_handed_on(make_pdf, request_text: str) -> None:
    assert _merge(make_pdf, request_text, ["invoice_jan.pdf", "invoice_feb.pdf"]) is None


@pytest.mark.parametrize(
    ("request_text", "task", "args"),
    [
        ("Turn every page into a JPG, 150 dpi, quality 80.", "convert_to_jpeg", {"dpi": 150, "quality": 80}),
        ("export page 1 as a JPEG at 90% quality", "convert_to_jpeg", {"pages": "1", "quality": 90}),
        ("can you render pages 2-3 as jpegs", "convert_to_jpeg", {"pages": "2-3"}),
        ("I want numbering that looks like '- 4 -', centered at the top", "add_page_numbers", {"format": "- {n} -"}),
        ("number the pages as 'p. 3/12'", "add_page_numbers", {"format": "p. {n}/{total}"}),
        (
            "Can you number every page in 12 point, bottom right corner, and call the file numbered_final.pdf?",
            "add_page_numbers",
            {"font_size": 12.0, "position": "bottom-right", "output": "numbered_final.pdf"},
        ),
        (
            "can u stick 'ACME | Internal' at the top of each page in 14 point font",
            "add_header_footer",
            {"header": "ACME | Internal", "font_size": 14.0},
        ),  # fmt: skip
        ("put 'Draft' at the bottom of every page", "add_header_footer", {"footer": "Draft"}),
        (
            "type my name, David Miller, as a signature on page 5, 200 points wide",
            "add_signature",
            {"name": "David Miller", "page": "5", "width": 200.0},
        ),  # fmt: skip
    ],
)
def test_argument_phrasings(make_pdf, request_text: str, task: str, args: dict) -> None:
    [(got, got_args)] = _read(make_pdf, request_text)
    assert got == task and args.items() <= got_args.items()


@pytest.mark.parametrize(
    ("request_text", "args"),
    [
        ("place the image on page 3, 100 points wide", {"page": "3", "width": 100.0}),
        ("add the logo at the top right, width 120", {"position": "top-right", "width": 120.0}),
    ],
)
def test_image_width(make_pdf, tmp_path, request_text: str, args: dict) -> None:
    from PIL import Image

    Image.new("RGB", (20, 10), "red").save(tmp_path / "logo.png")
    files = inspect_files([make_pdf(["a", "b", "c"], name="doc.pdf"), tmp_path / "logo.png"])
    plan = fast_plan(request_text, files)
    assert plan is not None and [s.task for s in plan.steps] == ["add_image"]
    assert args.items() <= plan.steps[0].args.items()


@pytest.mark.parametrize(("request_text", "size"), [("turn these images into a PDF, letter-size pages", "letter"),
                                                     ("make a pdf of the photos on A4 paper", "A4")])  # fmt: skip
def test_images_to_pdf_page_size(tmp_path, request_text: str, size: str) -> None:
    from PIL import Image

    for name in ("r1.jpg", "r2.jpg"):
        Image.new("RGB", (20, 10), "red").save(tmp_path / name)
    plan = fast_plan(request_text, inspect_files([tmp_path / "r1.jpg", tmp_path / "r2.jpg"]))
    assert plan is not None and plan.steps[0].args["page_size"] == size


@pytest.mark.parametrize(
    "request_text",
    [
        "save it as PNG, quality 80",  # PNG has no quality
        "export as high quality jpeg",
        "add page numbers 'Section 4'",  # not a page-number example
        "put 'Draft' at the top right of every page",  # header alignment or a corner stamp?
        "Add the header 'Falcon', 9pt, in a larger font",  # 9 pt is not larger
        "add line numbering",
    ],
)
def test_argument_shapes_handed_on(make_pdf, request_text: str) -> None:
    assert _handed_on(make_pdf, request_text)


@pytest.mark.parametrize(
    ("request_text", "steps"),
    [
        ("Encrypt it with the open password 'readme1' and the owner password 'adminOnly2'.",
         [("add_password", {"password": "readme1", "owner_password": "adminOnly2"})]),
        ("protect it with user password abc1 and owner password xyz9",
         [("add_password", {"password": "abc1", "owner_password": "xyz9"})]),
        ("does the password 'letmein' open this file?", [("check_password", {"password": "letmein"})]),
        ("is 'abc123' the right password?", [("check_password", {"password": "abc123"})]),
        ("who's listed as the author in the file's metadata?", [("get_metadata", {})]),
        ("Show me the current values of the form fields.", [("read_form", {})]),
        ("Flatten it so nobody can edit the fields anymore.", [("flatten_form", {})]),
        ("put 'Acme Ltd' in the 'Company' field, then flatten it",
         [("fill_form", {"values": {"Company": "Acme Ltd"}}), ("flatten_form", {})]),
        ("type 'Jane' into the 'Name' field and 'Doe' into the 'Surname' field",
         [("fill_form", {"values": {"Name": "Jane", "Surname": "Doe"}})]),
    ],
)  # fmt: skip
def test_password_metadata_and_form_phrasings(make_pdf, request_text: str, steps: list) -> None:
    assert _read(make_pdf, request_text) == steps


def test_password_told_after_a_comma(make_pdf) -> None:
    """'remove the password, it's oldpass123': a word that looks like a password is the password."""
    assert _read(make_pdf, "remove the password, it's oldpass123") == [("remove_password", {"password": "oldpass123"})]


@pytest.mark.parametrize(
    "request_text",
    [
        "protect it with the owner password 'adminOnly2'",  # who may open it is not said
        "remove the password, it's annoying",  # a reason, not a password
        "put 'Acme' in the 'Company' field in red",
    ],
)
def test_password_and_form_shapes_handed_on(make_pdf, request_text: str) -> None:
    assert _handed_on(make_pdf, request_text)


@pytest.mark.parametrize(
    ("request_text", "steps"),
    [
        ("Please OCR every page, even the ones that already have a text layer.",
         [("ocr", {"pages": "all", "force": True})]),
        ("force OCR on pages 2-3", [("ocr", {"pages": "2-3", "force": True})]),
        ("the scan is in Spanish, can you make the text selectable?", [("ocr", {"pages": "all", "language": "spa"})]),
        ("OCR the even pages, even the pages that already have text", [("ocr", {"pages": "even", "force": True})]),
        ("What comments and highlights have people left on this PDF?", [("read_annotations", {"pages": "all"})]),
        ("are there any comments on page 2?", [("read_annotations", {"pages": "2"})]),
        ("clear all the markup off the last page", [("delete_annotations", {"pages": "last"})]),
        ("strip out the metadata, links, attachments, all the hidden stuff, before I send it out", [("sanitize", {})]),
        ("clean it of anything risky like embedded scripts", [("sanitize", {})]),
    ],
)  # fmt: skip
def test_ocr_annotation_and_sanitize_phrasings(make_pdf, request_text: str, steps: list) -> None:
    assert _read(make_pdf, request_text) == steps


@pytest.mark.parametrize(
    "request_text",
    ["make the text selectable and red", "What comments should I add?", "clean it up", "clean it of scripts in red"],
)
def test_ocr_annotation_and_sanitize_shapes_handed_on(make_pdf, request_text: str) -> None:
    assert _handed_on(make_pdf, request_text)


@pytest.mark.parametrize(
    ("request_text", "steps"),
    [
        ('is "force majeure" mentioned anywhere in here?',
         [("search_text", {"terms": ["force majeure"], "pages": "all"})]),
        ("is 'Acme' in the document?", [("search_text", {"terms": ["Acme"], "pages": "all"})]),
        ("pull all the text out of pages 3-6", [("extract_text", {"pages": "3-6"})]),
        ("redact the whole of page 5, text, images, everything", [("redact_pages", {"pages": "5"})]),
        ("Highlight every money amount in light blue, please.",
         [("highlight_text", {"categories": ["money"], "pages": "all", "color": "light blue"})]),
        ("Black out all email addresses.", [("redact_text", {"categories": ["email"], "pages": "all"})]),
        ("stamp VOID across the last page, horizontal (0 degrees), fully opaque black",
         [("add_watermark", {"pages": "last", "text": "VOID", "opacity": 1.0, "rotation": 0, "color": "black"})]),
    ],
)  # fmt: skip
def test_search_extraction_and_look_phrasings(make_pdf, request_text: str, steps: list) -> None:
    assert _read(make_pdf, request_text) == steps


@pytest.mark.parametrize(
    "request_text",
    [
        "highlight 'x' in light red",  # no such shade: "light" is not read
        "add an opaque DRAFT watermark at 30% opacity",  # opaque, or 30%?
        "add a semi-opaque DRAFT watermark",
        "redact page 5 as images",
    ],
)
def test_look_shapes_handed_on(make_pdf, request_text: str) -> None:
    assert _handed_on(make_pdf, request_text)


@pytest.mark.parametrize(
    ("request_text", "steps"),
    [
        ("pages 2-4 came out sideways, rotate them counter-clockwise please",
         [("rotate_pages", {"pages": "2-4", "degrees": -90})]),
        ("page 3 is upside down, can you rotate it", [("rotate_pages", {"pages": "3", "degrees": 180})]),
        ("rotate pages 2-4 sideways", [("rotate_pages", {"pages": "2-4", "degrees": 90})]),
        ("chop it into pieces of three pages each and name them chapter",
         [("split_pdf", {"every": 3, "output": "chapter"})]),
        ("split it every 2 pages and call the parts 'section'", [("split_pdf", {"every": 2, "output": "section"})]),
    ],
)  # fmt: skip
def test_state_and_naming_phrasings(make_pdf, request_text: str, steps: list) -> None:
    assert _read(make_pdf, request_text) == steps


@pytest.mark.parametrize(
    "request_text",
    [
        "page 3 is upside down, rotate it 90 degrees",  # the turn disagrees with the state: never two rotations
        "pages 2-4 came out sideways, rotate them 180 degrees",
        "rotate page 2 180 degrees sideways",
        "split it every 2 pages and name them after the chapters",
    ],
)
def test_state_and_naming_shapes_handed_on(make_pdf, request_text: str) -> None:
    assert _handed_on(make_pdf, request_text)


def test_a_summary_put_on_a_page_is_a_plan_and_a_summary_alone_is_a_question(make_pdf) -> None:
    files = inspect_files([make_pdf(["one", "two", "three"], name="report.pdf")])
    plan = fast_plan("summarize pages 1-2 and add it as the first page", files)
    assert plan is not None and [s.task for s in plan.steps] == ["summarize", "add_page_with_text"]
    assert plan.steps[0].args["pages"] == "1-2"
    assert plan.steps[1].args == {"file": "report.pdf", "text": "$summary", "position": "start"}
    assert plan.steps[1].dep == [1]
    last = fast_plan("summarize it in five points and put it at the end", files)
    assert last is not None and last.steps[0].args["sentences"] == 5 and last.steps[1].args["position"] == "end"
    assert fast_plan("summarize pages 1-2", files) is None, "a summary alone is answered by document QA"
    assert fast_plan("summarize pages 1-2 and add it as the first page in red", files) is None


def test_a_password_set_apart_in_brackets_is_the_word_inside(make_pdf) -> None:
    """'remove the password (legal123)' (blind i3, after its first measurement): the brackets are not the password."""
    assert _read(make_pdf, "remove the password (legal123) and add page numbers") == [
        ("remove_password", {"password": "legal123"}),
        ("add_page_numbers", {}),
    ]
    # (blind i7, tuning) an aside in brackets that gives the password closes after it
    assert _read(make_pdf, "Unlock it (the password is heron77) and add page numbers") == [
        ("remove_password", {"password": "heron77"}),
        ("add_page_numbers", {}),
    ]


def test_rename_the_file_names_the_new_name_alone(make_pdf) -> None:
    """'rename the file x.pdf' (blind i3, after its first measurement): "the file" is not part of the new name."""
    assert _read(make_pdf, "rename the file amcor_fy23_results.pdf") == [
        ("rename", {"new_name": "amcor_fy23_results.pdf"})
    ]
