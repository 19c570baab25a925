"""Pages named by the document's structure ("chapter 3", "section 2.1", "the index", "the table of contents", "the
front matter", "everything before chapter 1") bind to the file's own parts, or become a question — never a guess.

The expected ranges of the corpus files were read off the pages themselves (rendered and looked at), not from
this code's output: e.g. freeculture's "CHAPTER THREE: Catalogs" opens page 62 and "CHAPTER FOUR" page 67, its
CONTENTS fill pages 9-11 before the PREFACE on page 12, INTRODUCTION opens page 17 after the half-title on 16,
and its INDEX runs 339-351 with "About the author" on page 352 — a page its outline does not name, so "the index"
must be asked about, not bound to 339-352.
"""

from __future__ import annotations

import os
from pathlib import Path

import pymupdf
import pytest

from docpilot.files import inspect_files
from docpilot.planning.fastpath import NeedInfo, fast_plan
from docpilot.planning.planner import Planner

ROOT = Path(__file__).resolve().parents[2]
REAL = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared")) / "corpus" / "real"

_BODY = "This paragraph is ordinary body text of the book, set in the body size so it is never read as a heading."


def _book(path: Path, outline: bool) -> str:
    """A 12-page book: cover, contents, preface, three numbered chapters (2.1 and 2.2 on pages of their own),
    an appendix and an index; headings large and bold, as a typesetter sets them."""
    layout = [
        ("Field Guide to Ponds", 1),  # 1 cover
        ("Contents", 1),  # 2
        ("Preface", 1),  # 3
        ("1 Introduction", 1),  # 4
        (None, 0),  # 5
        ("2 Methods", 1),  # 6
        ("2.1 Sampling", 2),  # 7
        ("2.2 Analysis", 2),  # 8
        ("3 Results of the Analysis", 1),  # 9
        (None, 0),  # 10
        ("Appendix A Data Tables", 1),  # 11
        ("Index", 1),  # 12
    ]
    doc = pymupdf.open()
    toc = []
    for number, (heading, level) in enumerate(layout, start=1):
        page = doc.new_page(width=612, height=792)
        y = 90
        if heading:
            size = 22 if level == 1 else 16
            page.insert_text((72, y), heading, fontsize=size, fontname="hebo")
            toc.append([level, heading, number])
            y += 40
        for _ in range(6):
            page.insert_textbox(pymupdf.Rect(72, y, 540, y + 60), _BODY, fontsize=10, fontname="helv")
            y += 70
    if outline:
        doc.set_toc(toc)
    doc.save(path)
    return str(path)


@pytest.fixture(params=[True, False], ids=["outline", "headings"])
def book(request: pytest.FixtureRequest, tmp_path: Path) -> dict:
    return inspect_files([_book(tmp_path / "ponds.pdf", request.param)])


def _pages(request: str, files: dict) -> list[tuple[str, str]]:
    plan = fast_plan(request, files)
    assert plan is not None, request
    return [(s.task, str(s.args.get("pages"))) for s in plan.steps]


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("delete the index", [("delete_pages", "12")]),
        ("extract chapter 2", [("extract_pages", "6-8")]),
        ("extract the chapter on methods", [("extract_pages", "6-8")]),
        ("extract the Results chapter", [("extract_pages", "9-10")]),
        ("extract section 2.1", [("extract_pages", "7")]),
        ("remove the table of contents", [("delete_pages", "2")]),
        ("delete everything before chapter 1", [("delete_pages", "1-3")]),
        ("remove the front matter", [("delete_pages", "1-3")]),
        ("delete the appendices", [("delete_pages", "11")]),
        ("extract the third chapter", [("extract_pages", "9-10")]),
        ("extract chapters 1 to 2", [("extract_pages", "4-8")]),
        ("delete the table of contents and the index", [("delete_pages", "2,12")]),
    ],
)
def test_structure_reference_binds_to_the_files_own_parts(book: dict, request_: str, expected: list) -> None:
    assert _pages(request_, book) == expected


def test_a_title_that_fits_several_parts_is_a_question_with_the_candidates(book: dict) -> None:
    with pytest.raises(NeedInfo) as asked:
        fast_plan("extract the section on analysis", book)
    assert asked.value.choices == ["2.2 Analysis (page 8)", "3 Results of the Analysis (pages 9-10)"]


def test_a_part_the_file_does_not_have_is_a_question(book: dict) -> None:
    with pytest.raises(NeedInfo) as asked:
        fast_plan("delete chapter 7", book)
    assert "chapter 7" in str(asked.value) and any("Introduction" in c for c in asked.value.choices)


def test_structure_words_without_a_page_verb_are_left_alone(book: dict) -> None:
    plan = fast_plan("show me the table of contents", book)
    assert plan is not None and [s.task for s in plan.steps] == ["get_outline"]


def test_several_files_ask_whose_part(tmp_path: Path) -> None:
    files = inspect_files([_book(tmp_path / "a.pdf", True), _book(tmp_path / "b.pdf", True)])
    with pytest.raises(NeedInfo) as asked:
        fast_plan("delete the index from both files", files)
    assert set(asked.value.choices) == {"a.pdf", "b.pdf"}


def test_a_part_sharing_its_pages_is_a_question(tmp_path: Path) -> None:
    """A section that starts halfway down a page: deleting whole pages would take the end of the one before."""
    doc = pymupdf.open()
    toc = []
    for number, heading in enumerate(["1 Scope", "2 Terms", "3 Fees"], start=1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), heading, fontsize=20, fontname="hebo")
        toc.append([1, heading, number])
        page.insert_textbox(pymupdf.Rect(72, 120, 540, 400), _BODY * 3, fontsize=10, fontname="helv")
    page = doc[1]  # "2.1 Rates" halfway down page 2, then 2.2 on the same page
    page.insert_text((72, 450), "2.1 Rates", fontsize=16, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 470, 540, 600), _BODY, fontsize=10, fontname="helv")
    page.insert_text((72, 640), "2.2 Discounts", fontsize=16, fontname="hebo")
    toc[2:2] = [[2, "2.1 Rates", 2], [2, "2.2 Discounts", 2]]
    doc.set_toc(toc)
    path = tmp_path / "terms.pdf"
    doc.save(path)
    files = inspect_files([path])
    assert _pages("delete section 2", files) == [("delete_pages", "2")]
    with pytest.raises(NeedInfo) as asked:
        fast_plan("delete section 2.1", files)
    assert "partway down page 2" in str(asked.value)


def _report(path: Path) -> dict:
    """Three pages without an outline: numbered sections; a caption and a table's header row set bold like headings
    on page 2 inside section 2; section 4 running on to page 3, where section 5 begins below its last lines."""
    doc = pymupdf.open()
    pages = [
        [("Field Report 2031", 22), ("1 Scope", 18), (None, 0), ("2 Results", 18), ("2.1 Yield", 14), (None, 0)],
        [("Table 2: Yield by plot", 14), ("Plot Share of yield", 12), (None, 0), ("3 Methods", 18), (None, 0),
         ("4 Outlook", 18), (None, 0)],
        [(None, 0), ("5 Contacts", 18), (None, 0)],
    ]  # fmt: skip
    for blocks in pages:
        page = doc.new_page(width=612, height=792)
        y = 70
        for heading, size in blocks:
            if heading:
                page.insert_text((72, y + size), heading, fontsize=size, fontname="hebo")
                y += size + 16
            else:
                page.insert_textbox(pymupdf.Rect(72, y, 540, y + 70), _BODY * 2, fontsize=10, fontname="helv")
                y += 80
    doc.save(path)
    return inspect_files([path])


def test_captions_and_bold_rows_inside_a_numbered_section_do_not_end_it(tmp_path: Path) -> None:
    """Read from headings (no outline): "Table 2: …" is a caption and "Plot Share of yield" a table's header row,
    not sections that end section 2 on page 1; a section that begins below text run on from the section before
    shares its page, so deleting it is a question, while taking the section before takes that page too."""
    files = _report(tmp_path / "report.pdf")
    parts = {p.title: p.pages for p in next(iter(files.values())).parts}
    assert "Table 2: Yield by plot" not in parts
    assert parts["2 Results"] == "1-2"
    assert _pages("convert section 2 to excel", files) == [("convert_to_xlsx", "1-2")]
    assert _pages("extract section 4", files) == [("extract_pages", "2-3")]
    with pytest.raises(NeedInfo) as asked:
        fast_plan("delete the Contacts section", files)
    assert "partway down page 3" in str(asked.value)


# (file, request, expected pages — or None: a question, since the file cannot say which pages without a guess)
CORPUS = [
    ("pdfjs__freeculture.pdf", "extract chapter 3", "62-66"),
    ("pdfjs__freeculture.pdf", "extract the chapter on catalogs", "62-66"),
    ("pdfjs__freeculture.pdf", "remove the table of contents", "9-11"),
    ("pdfjs__freeculture.pdf", "delete everything before chapter 1", "1-34"),
    ("pdfjs__freeculture.pdf", "remove the front matter", "1-16"),
    ("pdfjs__freeculture.pdf", "delete all the front stuff before the Preface", "1-11"),  # blind i6 (tuning)
    # a part named twice, the second in parentheses: the one that binds says which, if the other fits it
    ("pdfjs__freeculture.pdf", "highlight 'Eldred' in the Eldred chapter (ch. 13)", "221-255"),
    ("pdfjs__freeculture.pdf", "extract the Eldred chapter (chapter 3)", None),
    ("pdfjs__freeculture.pdf", "extract chapter 3 (chapter 4)", None),
    ("pdfjs__freeculture.pdf", "delete the index at the back", None),  # p. 352 is "About the author"
    ("pdfjs__freeculture.pdf", "extract the chapter on piracy", "76-93"),  # chapter 5, not the part or 'Piracy I'
    ("pdfjs__freeculture.pdf", "extract the piracy part", "30-93"),  # the part, not chapter 5 (blind i7, tuning)
    # a title in parentheses says which part a description names; the title's words say which of two Item 1s
    ("pypdfsamples__GeoTopo-komprimiert.pdf", "delete the solutions section (Lösungen der Übungsaufgaben)", "103-108"),
    ("pypdfsamples__GeoTopo-komprimiert.pdf", "extract chapter 3", "48-67"),
    ("pypdfsamples__GeoTopo-komprimiert.pdf", "delete everything before chapter 1", "1-5"),
    ("pypdfsamples__GeoTopo-komprimiert.pdf", "delete the index", None),  # outline says 114: the symbols' last page
    # a part that shares pages: copied with them (starts under 4.1's last lines, runs onto 4.3's first page) …
    ("pypdfsamples__GeoTopo-komprimiert.pdf", "extract section 4.2", "78-81"),
    ("pypdfsamples__GeoTopo-komprimiert.pdf", "delete section 4.2", None),  # … but never deleted with them
    ("pdfplumber__issue-982-example.pdf", "extract appendix A", "6-8"),
    # its section III-C is on page 3, beside IV's heading in the other column: section III is pages 2-3
    ("pdfplumber__issue-982-example.pdf", "extract section 3", "2-3"),
    ("pdfplumber__issue-982-example.pdf", "extract section IV-A", "3-4"),  # it runs onto IV-B's page
    ("pdfplumber__issue-982-example.pdf", "delete section 3", None),  # a two-column paper: sections share pages
    ("docling__bookmark_sample.pdf", "extract part I", "1"),
    ("docling__bookmark_sample.pdf", "extract part II", "2-3"),
    ("docling__bookmark_sample.pdf", "delete part II", None),  # its "4. Termination" is on page 3 above Part III
    ("pdfplumber__chelsea_pdta.pdf", "extract section 1", "5-6"),
    ("pdfplumber__chelsea_pdta.pdf", "extract chapter 3", "9-23"),
    # a table of contents the outline leaves out, read from the pages before its first entry ("Table des matières"
    # on page 3; the script's "Inhaltsverzeichnis" with its dot leaders on page 4, its last line on page 5)
    ("pdfplumber__chelsea_pdta.pdf", "table of contents as a png", "3"),
    ("pypdfsamples__GeoTopo-komprimiert.pdf", "extract the table of contents", "4-5"),
    # parts the outline leaves out, printed as headings: "Annexe A" on page 31 up to "Annexe B" on page 56, whose
    # end no heading shows; "3.2." partway down page 15, running onto page 22 where "3.3." begins; a German noun
    ("pdfplumber__chelsea_pdta.pdf", "extract annexe A", "31-55"),
    ("pdfplumber__chelsea_pdta.pdf", "delete annexe B", None),
    ("pdfplumber__chelsea_pdta.pdf", "extract section 3.2", "15-22"),
    ("pdfplumber__chelsea_pdta.pdf", "delete section 3.2", None),
    ("pypdfsamples__GeoTopo-komprimiert.pdf", "extract Kapitel 3", "48-67"),
    ("pdfjs__TAMReview.pdf", "extract appendix A", None),  # its last page is the journal's, not the appendix's
    ("unstructured__pdf2image-memory-error-test-400p.pdf", "delete section 2.3.59.5", None),  # shares page 9
    # without an outline: headings only
    ("docling__redp5110_sampled.pdf", "remove the table of contents", "2"),
    ("docling__redp5110_sampled.pdf", "delete everything before chapter 1", "1-4"),
    ("docling__redp5110_sampled.pdf", "delete the preface", None),  # "Authors" follows on the same page
    # its pages are sampled: "2.1.6" heads page 8 with no chapter 2 heading read, and ends chapter 1 (blind i6)
    ("docling__redp5110_sampled.pdf", "chapter 1 to markdown", "5-7"),
    ("pdfjs__tracemonkey.pdf", "extract section 3", "4-6"),  # starts partway down page 4, runs onto page 6
    ("pdfjs__tracemonkey.pdf", "delete section 3", None),
    # a filing without an outline: its items inside its parts (Item 1A opens page 6, runs onto page 15 above Item
    # 1B; Item 7A opens page 32, Item 8 page 34), its index on page 2 no part; "Item 7." with its long title in a
    # second cell opens page 19, so Item 6 is page 18 and Item 7 runs to page 31 (the 10-K is no value: "this 10-K"
    # names the form); Best Buy's 10-Q has an Item 1 in each part and its Item 2 headings are not read
    ("financebench__AMAZON_2019_10K.pdf", "extract Item 1A", "6-15"),
    ("financebench__AMAZON_2019_10K.pdf", "delete item 1A", None),
    ("financebench__AMAZON_2019_10K.pdf", "search Item 7A for 'interest rate'", "32-33"),
    ("financebench__AMAZON_2019_10K.pdf", "extract part I", "3-16"),
    ("financebench__AMAZON_2019_10K.pdf", "delete item 6", "18"),
    ("financebench__AMAZON_2019_10K.pdf", "pull Item 7 out of this 10-K into its own pdf", "19-31"),
    ("financebench__AMAZON_2019_10K.pdf", "extract item 8", "34-70"),
    ("financebench__BESTBUY_2024Q2_10Q.pdf", "extract item 1", None),
    ("financebench__BESTBUY_2024Q2_10Q.pdf", "pull Item 2 out", None),
    # a part named by its own title, no number or noun needed: the file's titles are the words (SIGNATURES opens
    # page 76; "7. Evaluation" starts partway down page 10 and runs onto page 12, where "8. Related Work" begins)
    ("financebench__AMAZON_2019_10K.pdf", "save the signatures page as a jpeg", "76"),
    ("pdfjs__tracemonkey.pdf", "Evaluation section as a docx", "10-12"),
    ("pdfjs__tracemonkey.pdf", "delete the Evaluation section", None),
    # read from headings, "Notes to …" is followed on its page by "1. Basis of Presentation": its end is not shown
    (
        "financebench__BESTBUY_2024Q2_10Q.pdf",
        "I just need the notes to the condensed consolidated financial statements",
        None,
    ),
    ("pdfjs__tracemonkey.pdf", "delete the index", None),  # a paper has none
    # a paper's appendices lettered A-D after its numbered sections and references (A and B share page 12: the
    # run's pages are theirs); "the appendix" of a paper is all of them
    ("unstructured__multi-column.pdf", "delete the appendices", "12-13"),
    ("unstructured__multi-column.pdf", "delete the appendix", "12-13"),
    ("pdfplumber__issue-982-example.pdf", "delete the appendix", "6-8"),
]


@pytest.mark.parametrize(("name", "request_", "expected"), CORPUS, ids=[f"{c[0][:18]}-{c[1]}" for c in CORPUS])
def test_corpus_structure_references(name: str, request_: str, expected: str | None) -> None:
    if not (REAL / name).is_file():
        pytest.skip(f"{name} is not in ../shared/corpus")
    files = inspect_files([REAL / name])
    outcome = Planner(llm=None).plan(request_, files)
    if expected is None:
        assert outcome.question is not None and outcome.plan is None, outcome.to_json()
        return
    assert outcome.plan is not None, outcome.to_json()
    assert [str(s.args.get("pages")) for s in outcome.plan.steps] == [expected]
    assert outcome.backend == "rules" and outcome.stats.llm_calls == 0


def test_a_title_after_a_verb_that_names_no_pages_is_left_alone() -> None:
    """Amazon's 10-K has a part headed "Board of Directors" (page 5): redacting their names names no pages."""
    name = "financebench__AMAZON_2019_10K.pdf"
    if not (REAL / name).is_file():
        pytest.skip(f"{name} is not in ../shared/corpus")
    from docpilot.planning.fastpath.parts import pages_told
    from docpilot.planning.said import QUOTED

    files = inspect_files([REAL / name])
    for request in ("redact the Board of Directors names", "list the Board of Directors"):
        assert pages_told(request, files, QUOTED) == request
    assert (
        pages_told("extract the Board of Directors section", files, QUOTED) != "extract the Board of Directors section"
    )


def test_a_form_that_leaves_a_part_out_has_no_gap() -> None:
    """The N-CEN filing goes from Part C to Part G (no Part D is printed): Part C runs to where Part G begins."""
    path = REAL.parent / "synthetic" / "ncen" / "ncen_01_cedar.pdf"
    if not path.is_file():
        pytest.skip(f"{path.name} is not in ../shared/corpus")
    assert _pages("I only need Part C", inspect_files([path])) == [("extract_pages", "2-3")]


def test_corpus_has_enough_files_with_and_without_outlines() -> None:
    without = ("docling__redp5110_sampled.pdf", "pdfjs__tracemonkey.pdf", "financebench__AMAZON_2019_10K.pdf")
    with_outline = {n for n, _, _ in CORPUS if n not in (*without, "financebench__BESTBUY_2024Q2_10Q.pdf")}
    assert len(with_outline) >= 5 and len({n for n, _, _ in CORPUS} - with_outline) >= 2


def test_the_answer_to_the_question_binds_the_part_chosen(book: dict, tmp_path: Path) -> None:
    from docpilot import service
    from docpilot.conversation import Conversation
    from docpilot.settings import Settings

    pilot = service.make_pilot(Settings.from_env("rules", {"XDG_CACHE_HOME": str(tmp_path)}))
    talk = Conversation(book)
    asked = talk.request(pilot, "extract the section on analysis")
    assert asked.question is not None and asked.plan is None
    answered = talk.request(pilot, asked.question.choices[0])  # "2.2 Analysis (page 8)"
    assert answered.plan is not None and [s.args["pages"] for s in answered.plan.steps] == ["8"]


def test_a_table_or_figure_named_by_its_number_is_the_page_its_caption_opens(tmp_path: Path) -> None:
    """The page whose caption starts "Table 2:" is "Table 2" — not the page whose prose starts a line with "Table 2
    shows"; the request keeps saying it is a table ("the table on page 3"); a number no caption has is asked."""
    doc = pymupdf.open()
    lines = [
        ["Annual report", _BODY],
        [_BODY, "Table 2 shows the fees for each year, and the notes explain them."],
        ["Table 2: Fees by year", "Year  Fees", "2023  1,200", "2024  1,450"],
        ["Figure 1. Fees over time", _BODY],
    ]
    for page_lines in lines:
        page = doc.new_page(width=612, height=792)
        y = 90
        for text in page_lines:
            page.insert_textbox(pymupdf.Rect(72, y, 540, y + 60), text, fontsize=10, fontname="helv")
            y += 70
    path = tmp_path / "report.pdf"
    doc.save(path)
    files = inspect_files([path])
    assert _pages("convert table 2 to excel", files) == [("convert_to_xlsx", "3")]
    assert _pages("pull the numbers out of Table 2", files) == [("extract_tables", "3")]
    with pytest.raises(NeedInfo):
        fast_plan("convert table 9 to excel", files)


def test_a_place_named_by_a_part_is_its_first_or_last_page() -> None:
    """Blind batch i6 (tuning): "right after the table of contents" was told as "after pages 4-5" and the model
    inserted a page after each; "so it starts right at chapter 1" as chapter 1's pages, which the model deleted."""
    from docpilot.planning.fastpath.parts import pages_told
    from docpilot.planning.said import QUOTED

    name = "pypdfsamples__GeoTopo-komprimiert.pdf"
    if not (REAL / name).is_file():
        pytest.skip(f"{name} is not in ../shared/corpus")
    files = inspect_files([REAL / name])
    told = pages_told("add an empty page right after the table of contents", files, QUOTED)
    assert told == "add an empty page right after page 5"
    told = pages_told("remove the Vorwort so it starts right at chapter 1", files, QUOTED)
    assert told == "remove the Vorwort so it starts right at page 6"
    assert pages_told("insert a blank page before chapter 2", files, QUOTED) == "insert a blank page before page 28"
    assert pages_told("delete everything before chapter 1", files, QUOTED) == "delete pages 1-5"


def test_a_title_in_parentheses_glosses_the_part_named() -> None:
    """ "The list of symbols (Symbolverzeichnis)": the title in parentheses says which part the words name, so the
    model is told its pages (the symbols run onto page 114, above the index's first lines)."""
    from docpilot.planning.fastpath.parts import pages_told
    from docpilot.planning.said import QUOTED

    book = REAL / "pypdfsamples__GeoTopo-komprimiert.pdf"
    if not book.is_file():
        pytest.skip("needs ../shared/corpus")
    files = inspect_files([book])
    told = pages_told("The list of symbols (Symbolverzeichnis) as one TIFF at 300 dpi.", files, QUOTED)
    assert told == "The list of symbols (pages 112-114) as one TIFF at 300 dpi."
    assert pages_told("Symbolverzeichnis lesen", files, QUOTED) == "Symbolverzeichnis lesen"  # named, not glossed
    filing = REAL / "financebench__BESTBUY_2024Q2_10Q.pdf"
    if filing.is_file():  # "the text of Part II": part II, not a part titled "text of"
        told = pages_told("extract the text of Part II to a txt", inspect_files([filing]), QUOTED)
        assert told == "extract the text of pages 24-30 to a txt"
        told = pages_told("extract the financial statements (Item 1)", inspect_files([filing]), QUOTED)
        assert told == "extract the financial statements (pages 3-14)"  # of the two Item 1s, the one so titled
