"""A model's plan keeps to what the request says (docpilot/planning/said.py): values it does not say are
found, and so is what it says that the plan leaves out. The plans here are the model's real wrong readings
seen on blind batch i1 (after its first measurement), and right readings that must pass."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fakes import ScriptedLLM

from docpilot.files import FileInfo, inspect_files
from docpilot.planning.fastpath import NeedInfo
from docpilot.planning.fastpath.parts import pages_told
from docpilot.planning.planner import Planner
from docpilot.planning.said import QUOTED, unsaid, with_defaults
from docpilot.plans.plan import Plan
from pdftools import all_tools

BOOK = Path(os.environ.get("DOCPILOT_SHARED", Path(__file__).resolve().parents[3] / "shared")) / (
    "corpus/real/pdfjs__freeculture.pdf"
)


def _plan(*steps: tuple[str, dict[str, Any]]) -> Plan:
    return Plan.model_validate(
        {
            "steps": [
                {"id": i, "task": t, "args": {"file": "doc.pdf", **a}, "return": f"r{i}"}
                for i, (t, a) in enumerate(steps, 1)
            ]
        }
    )


def _files(pages: int = 400) -> dict[str, FileInfo]:
    return {"doc.pdf": FileInfo("doc.pdf", "/nowhere/doc.pdf", "pdf", pages=pages)}


def _problems(request: str, *steps: tuple[str, dict[str, Any]]) -> list[str]:
    return unsaid(_plan(*steps), request, all_tools(), _files())


@pytest.mark.parametrize(
    ("request_", "steps", "found"),
    [  # a word of the request cut short is no text it says (blind i7, tuning: "in 4 Stichpunkten" read as a format)
        ("Kapitel 2 in 3 Abschnitten zusammenfassen", [("add_page_numbers", {"format": "3 Abschnitte"})], "Abschnitte"),
        # pages the request never names, from a title the model could not find
        ("Delete the Bildquellen and Abkürzungsverzeichnis pages", [("delete_pages", {"pages": "1"})], "page"),
        # a threshold of 0 for "everything before the introduction"
        ("Get rid of everything before the introduction", [("remove_blank_pages", {"threshold": 0})], "0"),
        # the whole afterword for a proposal inside it: the quoted part is left out
        (
            "Convert the 'Shorter Terms' proposal in pages 280-312 to Markdown",
            [("convert_to_markdown", {"pages": "280-312"})],
            "Shorter Terms",
        ),
        # the section's pages dropped
        (
            "highlight 'Homöomorphismus' in green throughout pages 13-15",
            [("highlight_text", {"terms": ["Homöomorphismus"], "color": "green"})],
            "13",
        ),
        # a colour nobody asked for
        (
            "underline 'net sales' on page 2",
            [("underline_text", {"terms": ["net sales"], "pages": "2", "color": "red"})],
            "red",
        ),
        # a second place dropped
        ("insert a blank page after page 2 and another one after page 4", [("insert_blank_pages", {"after": 2})], "4"),
        # a text the request does not hold
        ("put a watermark on it", [("add_watermark", {"text": "CONFIDENTIAL"})], "CONFIDENTIAL"),
        # blind batch i4 (tuning): a typed password (hidden from the model) and its step dropped
        (
            "redact all the salary amounts and then put the password PASSWORD_1 on it",
            [("redact_text", {"categories": ["money"]})],
            "PASSWORD_1",
        ),
        (
            "change the password: the current one is PASSWORD_1, new one should be PASSWORD_2",
            [("add_password", {"password": "PASSWORD_2"})],
            "PASSWORD_1",
        ),
        # a question about the pages read as a change to them
        (
            "which of these scanned pages are rotated? dont change anything, just tell me",
            [("rotate_pages", {"pages": "all", "degrees": 90})],
            "asks",
        ),
        ("are the pages upside down?", [("rotate_pages", {"degrees": 180})], "asks"),
        # blind batch i6 (tuning): a second page named in the same clause, left out
        (
            "page 2 is upside down and page 4 is lying on its side - it needs a quarter turn clockwise",
            [("rotate_pages", {"pages": "2", "degrees": 180})],
            "page 4",
        ),
        # blind batch i6 (tuning): a part named by what it is, and a plan over the whole file
        ("the Arrow tool page as a png", [("convert_to_png", {"pages": "all"})], "the Arrow tool page"),
        ("send me the appendix of this paper", [("extract_attachments", {})], "the appendix"),
        ("the English summary at the very end, as txt", [("convert_to_text", {})], "summary at the very end"),
        ("Pull the balance sheet table out for me", [("extract_tables", {})], "the balance sheet table"),
        # a plan of one step that takes content away or converts, though no word of the request names it
        ("pages 3-16 of the 10-K only", [("delete_pages", {"pages": "3-16"})], "asks for step 1"),
        ("MD&A to word please", [("convert_to_markdown", {})], "asks for step 1"),
        ("请把这个表格转换成Word", [("convert_to_xlsx", {})], "asks for step 1"),
        ("pages 8-10 only, please", [("extract_tables", {"pages": "8-10"})], "asks for step 1"),
        # an action said with a verb of several words, no step does it
        (
            "there are empty pages in this huge file, get rid of them and tell me how many pages are left",
            [("count_pages", {})],
            "get rid of",
        ),
    ],
)
def test_a_value_not_said_or_a_said_one_left_out_is_found(
    request_: str, steps: list[tuple[str, dict[str, Any]]], found: str
) -> None:
    problems = _problems(request_, *steps)
    assert problems and any(found in p for p in problems), problems


@pytest.mark.parametrize(
    ("request_", "steps"),
    [
        ("delete pages 313-336 and then compress it", [("delete_pages", {"pages": "313-336"}), ("compress", {})]),
        (
            "Highlight every mention of Disney in pages 35-44",
            [("highlight_text", {"terms": ["Disney"], "pages": "35-44"})],
        ),
        (
            "Add page numbers to just pages 280-312, starting from 1, bottom right.",
            [("add_page_numbers", {"pages": "280-312", "start": 1, "position": "bottom-right"})],
        ),
        ("pages 9-11 as JPGs at 300 dpi", [("convert_to_jpeg", {"pages": "9-11", "dpi": 300})]),
        ("Summarise pages 265-279 in five bullet points", [("summarize", {"pages": "265-279", "sentences": 5})]),
        ("a DRAFT watermark at 30% opacity", [("add_watermark", {"text": "DRAFT", "opacity": 0.3})]),
        ("mark it confidential", [("add_watermark", {"text": "Confidential"})]),
        ("pages 2 and 7 should be the other way up", [("rotate_pages", {"pages": "2,7", "degrees": 180})]),
        # a form's name holds a number that is no value: "this 10-K", "the 10-q"
        ("page 76 of this 10-K as a PNG, 300 dpi", [("convert_to_png", {"pages": "76", "dpi": 300})]),
        (
            "underline 'interest rate' on pages 32-33 of the 10-q",
            [("underline_text", {"terms": ["interest rate"], "pages": "32-33"})],
        ),
        # a password used; a question answered by a tool that reports; a request put as a question
        ("lock it with the password PASSWORD_1", [("add_password", {"password": "PASSWORD_1"})]),
        ("which pages are sideways? don't change anything", [("detect_orientation", {})]),
        ("could you delete page 2?", [("delete_pages", {"pages": "2"})]),
        ("get rid of page 2", [("delete_pages", {"pages": "2"})]),
        ("pages 3-16 of the 10-K only", [("extract_pages", {"pages": "3-16"})]),
        ("MD&A (pages 19-31) to word please", [("convert_to_docx", {"pages": "19-31"})]),
        ("请把这个表格转换成Excel", [("convert_to_xlsx", {})]),
        # a part named and bound to pages; parts that name no pages ("the tables", "the blank pages")
        ("page 1, the map page, as a png", [("convert_to_png", {"pages": "1"})]),
        ("put the tables into excel and remove the blank pages", [("convert_to_xlsx", {}), ("remove_blank_pages", {})]),
        # a format's placeholders as the request writes them; a unit written on a number
        ("number the pages 'Page x of y'", [("add_page_numbers", {"format": "Page {n} of {total}"})]),
        ("pages 9-11 as JPGs in print quality (300dpi)", [("convert_to_jpeg", {"pages": "9-11", "dpi": 300})]),
        # the file's own length is no value ("this 400 page manual": the file here has 400 pages)
        (
            "compress this 400 page manual and then split it into chunks of 100 pages",
            [("compress", {}), ("split_pdf", {"every": 100})],
        ),
    ],
)
def test_a_plan_that_keeps_to_the_request_passes(request_: str, steps: list[tuple[str, dict[str, Any]]]) -> None:
    problems = _problems(request_, *steps)
    # the angle for "the other way up" is a value the request does not say in numbers: it is found
    if steps[0][0] == "rotate_pages":
        assert problems == ["rotate_pages's degrees 180 is not a number the request says"]
        return
    assert problems == []


@pytest.mark.skipif(not BOOK.is_file(), reason="needs ../shared/corpus")
def test_the_document_parts_a_request_names_reach_the_model_as_pages() -> None:
    files = inspect_files([BOOK])
    told = pages_told("Highlight every mention of Disney in Chapter One", files, QUOTED)
    assert told == "Highlight every mention of Disney in pages 35-44"  # "One", capitalised, is a number too
    told = pages_told("Convert the 'Shorter Terms' proposal in the afterword to Markdown", files, QUOTED)
    assert told == "Convert the 'Shorter Terms' proposal in pages 280-312 to Markdown"
    with pytest.raises(NeedInfo):  # no such part: a question, never a guess
        pages_told("Extract the chapter on gardening", files, QUOTED)
    told = pages_told("extract chapter 7 and call it recorders.pdf", files, QUOTED)
    assert told == "extract pages 107-111 and call it recorders.pdf"


@pytest.mark.skipif(not (BOOK.parents[1] / "synthetic/invoice_1001.pdf").is_file(), reason="needs ../shared/corpus")
def test_a_file_name_names_no_part() -> None:
    """ "invoice_1001_backup.pdf" is a name for the result, not the part headed "Invoice 1001" (blind batch i4)."""
    files = inspect_files([BOOK.parents[1] / "synthetic/invoice_1001.pdf"])
    request = "i want to have a backup copy with the name invoice_1001_backup.pdf"
    assert pages_told(request, files, QUOTED) == request


@pytest.mark.skipif(not BOOK.is_file(), reason="needs ../shared/corpus")
def test_a_quoted_title_of_a_part_is_no_value_left_out() -> None:
    """ "convert the chapter 'Recorders' into docx": the quoted title names the pages the plan uses."""
    files = inspect_files([BOOK])
    plan = Plan.model_validate(
        {
            "steps": [
                {"id": 1, "task": "convert_to_docx", "args": {"file": BOOK.name, "pages": "107-111"}, "return": "d"}
            ]
        }
    )
    assert unsaid(plan, "convert pages 107-111, the chapter 'Recorders', into docx", all_tools(), files) == []
    problems = unsaid(plan, "convert pages 107-111 into docx, keeping 'Gardening'", all_tools(), files)
    assert problems == ["the request's 'Gardening' is used by no step"]


def test_a_reading_that_says_more_than_the_request_becomes_a_question(make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["a", "b", "c", "d"], name="deck.pdf")])
    llm = ScriptedLLM(["Delete page 4.", "Delete page 3."])  # the request names no page
    outcome = Planner(llm=llm).plan("Tidy up this file for the board meeting", files)
    assert outcome.plan is None and outcome.question is not None
    assert outcome.question.text.startswith("I am not sure I read this right. I read it as: Delete page 3.")
    assert "not pages the request names" in outcome.question.text
    assert "not pages the request names" in llm.calls[1].messages[-1]["content"]  # shown to the model once
    assert outcome.stats.llm_calls == 2


def test_a_result_is_named_only_when_the_request_names_it(make_pdf: Callable[..., str]) -> None:
    files = inspect_files([make_pdf(["a", "b", "c"], name="deck.pdf")])
    llm = ScriptedLLM(["Extract pages 2-3."])
    Planner(llm=llm).plan("Tidy pages 2-3 up into their own file", files)
    assert "opt-extract-pages ::=" not in llm.calls[0].grammar  # its one option, the result's name, left out
    llm = ScriptedLLM(["Extract pages 2-3 with output 'part.pdf'."])
    outcome = Planner(llm=llm).plan("Tidy pages 2-3 up into their own file called part.pdf", files)
    assert 'opt-extract-pages ::= "output " quote' in llm.calls[0].grammar
    assert outcome.ok and outcome.plan.steps[0].args["output"] == "part.pdf"


@pytest.mark.parametrize(
    ("request_", "steps", "found"),
    [  # the model's real readings on blind batch i1 that dropped a step the request says
        ("remove pages 20-24 and add page numbers like 'Page 2 of 5'", [("add_page_numbers", {})], "remove"),
        ("this is a scanned table — OCR it and then put the table into excel", [("convert_to_xlsx", {})], "ocr"),
        ("delete page 29 (it's empty) and convert the deck to PowerPoint", [("convert_to_pptx", {})], "delete"),
        (
            "Pull out pages 88-90 and highlight 'operating lease' in it",
            [("highlight_text", {"terms": ["operating lease"]})],
            "pull out",
        ),  # noqa: E501
        # blind batch i3: "slides" names the conversion, which the second clause's verb already does
        (
            "delete slides 2 and 19, then convert the deck to powerpoint",
            [("convert_to_pptx", {"pages": "2,19"})],
            "delete",
        ),
        # blind batch i3: a clause whose verb names a tool is done by a step of it, whatever its nouns name
        (
            "which people are named in this report? then black out their names",
            [("find_entities", {"categories": ["person"]})],
            "black out",
        ),
        (
            "Keep the original. Make a copy and on the copy redact anything saying VoltGuard.",
            [("duplicate", {})],
            "redact",
        ),
        # blind batch i3: a step no word of the request asks for
        (
            "strip all comments/highlights and sanitize before we publish",
            [("delete_annotations", {}), ("sanitize", {}), ("remove_blank_pages", {})],
            "asks for step 3",
        ),
        # a small model's loop: the same step again
        ("Delete the first page", [("delete_pages", {"pages": "1"}), ("delete_pages", {"pages": "1"})], "again"),
        # blind batch i7 (tuning): the section's pages taken, the format asked for dropped
        ("Save the NOTES section as a plain .txt file.", [("extract_pages", {"pages": "313-336"})], "txt"),
        ("need the MD&A (item 7) as a word doc for the team", [("extract_pages", {"pages": "19-31"})], "word"),
        ("the tables of part two into a spreadsheet", [("extract_pages", {"pages": "4-9"})], "spreadsheet"),
    ],
)
def test_an_action_the_plan_drops_or_repeats_is_found(
    request_: str, steps: list[tuple[str, dict[str, Any]]], found: str
) -> None:
    problems = _problems(request_, *steps)
    assert any(found in p for p in problems), problems


@pytest.mark.parametrize(
    ("request_", "steps"),
    [  # a verb that is also a light verb or a noun says no step alone; another word of the clause may name it
        ("my scanner put page 2 upside down, can you fix it", [("rotate_pages", {"pages": "2", "degrees": 180})]),
        ("make this scan searchable", [("ocr", {})]),
        ("strip the metadata", [("sanitize", {})]),
        (
            "Extract page 6 and put a DRAFT watermark on it",
            [("extract_pages", {"pages": "6"}), ("add_watermark", {"text": "DRAFT"})],
        ),  # noqa: E501
        ("delete page 1 and turn the rest into Word", [("delete_pages", {"pages": "1"}), ("convert_to_docx", {})]),
        ("remove the password 'x' then compress it", [("remove_password", {"password": "x"}), ("compress", {})]),
        ("put the slides into PowerPoint", [("convert_to_pptx", {})]),
        ("just sections 5 and 6", [("extract_pages", {"pages": "4-5"})]),  # taking the pages, said by "just"
        ("make it smaller for email", [("compress", {})]),
        ("hilight every mention of napster", [("highlight_text", {"terms": ["napster"]})]),  # as typed
        ("ocr it, then pull out the table", [("ocr", {}), ("extract_tables", {})]),  # (blind batch i4, tuning)
        # a format named is made; "the word" and "the images" name no format
        ("Save pages 3-5 as a plain .txt file.", [("extract_text", {"pages": "3-5"})]),
        ("highlight the word 'draft' on pages 3-5", [("highlight_text", {"terms": ["draft"], "pages": "3-5"})]),
        ("delete the images on page 2", [("delete_pages", {"pages": "2"})]),
    ],
)
def test_every_action_done_passes(request_: str, steps: list[tuple[str, dict[str, Any]]]) -> None:
    problems = _problems(request_, *steps)
    assert not [p for p in problems if "no step does" in p or "again" in p or "asks for" in p], problems


@pytest.mark.parametrize(
    ("request_", "steps", "kept"),
    [  # blind batch i6 (tuning): options the request never mentions, set by the model
        (
            "strike through the phrase '60 days written notice' in the termination clause",
            [("strikeout_text", {"terms": ["60 days written notice"], "color": "red"})],
            [{"terms": ["60 days written notice"]}],
        ),
        (
            "remove blank pages and then number the pages",
            [
                ("remove_blank_pages", {}),
                ("add_page_numbers", {"format": "Page {n} of {total}", "position": "bottom-right"}),
            ],
            [{}, {}],
        ),
        # a choice the request says stays
        (
            "number the pages at the top left",
            [("add_page_numbers", {"format": "Page {n} of {total}", "position": "top-left"})],
            [{"position": "top-left"}],
        ),
        # a value of its own said ("in blue"), an option named ("a bigger font"), a page: never dropped
        ("strike through '60 days' in blue", [("strikeout_text", {"terms": ["60 days"], "color": "red"})], None),
        ("number the pages in a bigger font", [("add_page_numbers", {"font_size": 14})], None),
        ("delete the title page", [("delete_pages", {"pages": "2"})], None),
    ],
)
def test_an_option_the_request_never_mentions_is_left_to_the_tool(
    request_: str, steps: list[tuple[str, dict[str, Any]]], kept: list[dict[str, Any]] | None
) -> None:
    plan = with_defaults(_plan(*steps), request_, all_tools(), _files())
    if kept is None:
        assert plan is None
        return
    assert plan is not None and unsaid(plan, request_, all_tools(), _files()) == []
    assert [{k: v for k, v in s.args.items() if k != "file"} for s in plan.steps] == kept


def test_the_model_s_reading_with_an_option_never_asked_is_planned_with_the_tool_s_own(
    make_pdf: Callable[..., str],
) -> None:
    files = inspect_files([make_pdf(["a", "b", "c"], name="deck.pdf")])
    llm = ScriptedLLM(["Remove the blank pages. Number the pages with format 'Page {n} of {total}'."])
    outcome = Planner(llm=llm).plan("theres an empty page near the start. remove it and number the pages", files)
    assert outcome.ok and [s.task for s in outcome.plan.steps] == ["remove_blank_pages", "add_page_numbers"]
    assert "format" not in outcome.plan.steps[1].args and len(llm.calls) == 1
    assert outcome.reading == ["Remove the blank pages.", "Number the pages."]


def test_a_page_named_in_a_file_of_one_page_is_the_file() -> None:
    """Blind batch i6 (tuning): "Convert the handbook page to markdown" of a one-page handbook needs no pages."""
    plan = _plan(("convert_to_markdown", {}))
    request = "Convert the handbook page to markdown, I want to paste it into our wiki"
    assert unsaid(plan, request, all_tools(), _files(pages=1)) == []
    assert unsaid(plan, request, all_tools(), _files(pages=5)) != []


@pytest.mark.skipif(not BOOK.is_file(), reason="needs ../shared/corpus")
@pytest.mark.parametrize(
    ("request_", "folded"),
    [("conclusion chapter -> markdown file", True), ("pull out the conclusion chapter, and a markdown of it", False)],
)
def test_pages_taken_only_to_be_converted_are_the_conversion_s_pages(request_: str, folded: bool) -> None:
    """The model's reading "Extract pages 265-279. Convert it to Markdown." (blind batch i7, tuning) delivers a PDF
    nobody asked for beside the Markdown: one conversion of those pages, unless the request asks to take them."""
    llm = ScriptedLLM(["Extract pages 265-279.\nConvert it to Markdown."])
    outcome = Planner(llm=llm).plan(request_, inspect_files([BOOK]))
    assert llm.calls, "the model's reading was not asked for"
    assert outcome.ok, outcome
    tasks = [(s.task, s.args.get("pages")) for s in outcome.plan.steps]
    if folded:
        assert tasks == [("convert_to_markdown", "265-279")]
        assert outcome.reading == ["Convert it to Markdown on pages 265-279."]
    else:
        assert tasks == [("extract_pages", "265-279"), ("convert_to_markdown", None)]
