"""Answers with citations, without a model: document facts, record lookups, table computations, workflows
over several files (FlowMind) and a person's feedback on the shown workflow."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from docpilot.understanding.answer import ask_files

NCEN = [
    "ncen_01_cedar",
    "ncen_02_lakeshore",
    "ncen_03_silver",
    "ncen_04_ironwood",
    "ncen_05_northgate",
    "ncen_06_quarry",
]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().lower()


def _assert_quotes_on_pages(answer) -> None:
    for cite in answer.citations:
        with pymupdf.open(cite["file"]) as doc:
            page = doc[cite["page"] - 1].get_text()
        assert _flat(cite["quote"]) in _flat(page), cite


def _ask(paths: list[str], question: str, tmp_path: Path, **kw):
    answer = ask_files(question, {Path(p).name: p for p in paths}, None, tmp_path / "cache", **kw)
    _assert_quotes_on_pages(answer)
    return answer


@pytest.mark.parametrize(
    "name, question, expected, page",
    [
        ("visa_application.pdf", "When does the passport expire?", "02 September 2031", 1),
        ("visa_application.pdf", "What is the applicant's nationality?", "Nigerian", 1),
        ("invoice_1001.pdf", "Who is this invoice billed to?", "Acme Corp", 1),
        ("contract.pdf", "When is the kick-off payment due?", "February 3, 2025", 3),
        ("annual_report.pdf", "How many employees did the company have in 2021?", "342", 1),
    ],
)
def test_lookups_are_read_from_the_structure(synthetic, tmp_path, name, question, expected, page) -> None:
    answer = _ask([synthetic(name)], question, tmp_path)
    assert answer.answer == expected and answer.llm_calls == 0
    assert [c["page"] for c in answer.citations] == [page]


def test_table_computations_show_their_workflow(synthetic, tmp_path) -> None:
    average = _ask([synthetic("salaries.pdf")], "What is the average annual salary in the table?", tmp_path)
    assert average.answer.startswith("94,600") and "average" in average.workflow[-1]
    total = _ask([synthetic("contract.pdf")], "What is the total of the three milestone payments?", tmp_path)
    assert total.answer.startswith("194,750") and total.citations[0]["page"] == 3
    fell = _ask(
        [synthetic("annual_report.pdf")],
        "In which years did revenue fall compared with the year before, according to Table 1?",
        tmp_path,
    )
    assert fell.answer == "2020, 2023"
    # the company's name in a sentence with a figure ("Northwind Solar … for 2024") does not make it the answer's
    question = "What was the average number of employees at Northwind Solar over 2019-2023?"
    mean = _ask([synthetic("annual_report.pdf")], question, tmp_path)
    assert mean.answer.startswith("347.2") and mean.llm_calls == 0


def test_title_and_author_are_cited_where_the_document_shows_them(real, tmp_path) -> None:
    title = _ask([real("pdfjs__tracemonkey.pdf")], "What is the title of this paper?", tmp_path)
    assert title.answer.startswith("Trace-based Just-in-Time Type Specialization") and title.citations[0]["page"] == 1


@pytest.fixture
def filings(synthetic) -> list[str]:
    return [synthetic(f"ncen/{n}.pdf") for n in NCEN]


def test_questions_over_six_filings_are_small_programs(filings, tmp_path) -> None:
    ratio = _ask(
        filings,
        "What is the ratio of the gross commission to the total purchase sale of the Quarry Technology Fund?",
        tmp_path,
    )
    assert ratio.answer.startswith("0.000576304") and len(ratio.citations) == 2
    assert "Divide" in ratio.workflow[-1]
    total = _ask(
        filings, "What are the total monthly average net assets of all funds of Lakeshore Funds Trust?", tmp_path
    )
    assert total.answer.startswith("3,579,418,743") and "ncen_02_lakeshore.pdf" in total.workflow[0]
    which = _ask(filings, "Which funds use State Street Bank and Trust Company as custodian?", tmp_path)
    assert which.answer == (
        "Lakeshore Short Duration Fund, Ironwood Balanced Fund, Quarry Income Fund, Quarry Short Duration Fund"
    )
    largest = _ask(filings, "Which fund has the largest monthly average net assets?", tmp_path)
    assert largest.answer.startswith("Northgate Municipal Fund")
    count = _ask(filings, "How many funds are described across all the filings?", tmp_path)
    assert count.answer.startswith("18 ")
    for answer in (ratio, total, which, largest, count):
        assert len({(c["file"], c["page"]) for c in answer.citations}) <= 5


def test_feedback_on_the_workflow_changes_what_is_computed(filings, tmp_path) -> None:
    question = "What are the total monthly average net assets of all funds of Lakeshore Funds Trust?"
    shown = _ask(filings, question, tmp_path)
    assert "'Monthly average net assets (USD)'" in shown.workflow[1]
    revised = _ask(filings, question, tmp_path, feedback="use the total purchase sale instead of the net assets")
    assert "'Total purchase sale of securities (USD)'" in revised.workflow[1]
    assert revised.answer.startswith("1,136,003,408"), revised.answer  # 42,000,126 + 323,000,969 + 371,001,113 + …
    assert revised.answer != shown.answer


def test_without_a_model_the_closest_passage_is_cited_honestly(synthetic, tmp_path) -> None:
    answer = _ask([synthetic("contract.pdf")], "Who represents the Consultant?", tmp_path)
    assert "could not compose an answer" in answer.answer and "David Chen" in answer.answer
    assert answer.citations[0]["page"] == 1 and not answer.found


def test_the_byline_names_the_authors_when_the_metadata_does_not(real, tmp_path) -> None:
    tam = _ask([real("pdfjs__TAMReview.pdf")], "Who wrote this overview of the Technology Acceptance Model?", tmp_path)
    assert tam.answer == "Mohammad Chuttur" and tam.citations[0]["page"] == 1  # the metadata says "ARRAY(0x2c7cf020)"
    paper = _ask([real("pdfjs__tracemonkey.pdf")], "Who wrote this paper?", tmp_path)
    assert paper.answer.startswith("Andreas Gal, Brendan Eich") and "Trace-based" not in paper.answer


def test_which_of_two_has_the_larger_value_is_the_largest_and_never_a_models_pick(filings, tmp_path) -> None:
    """ "Which Cedar Grove fund reported the larger monthly average net assets?" (q5, after its measurement): the
    records' largest, not the model's pick among passages (it had named the smaller fund)."""
    from docpilot.understanding.asked import asks_rank

    larger = _ask(filings[:1], "Which Cedar Grove fund reported the larger monthly average net assets?", tmp_path)
    assert larger.answer.startswith("Cedar Technology Fund") and larger.found
    smaller = _ask(filings[:1], "Which fund had the smaller monthly average net assets?", tmp_path)
    assert smaller.answer.startswith("Cedar Small Cap Fund") and smaller.found
    assert asks_rank("Which fund reported the larger assets?") and not asks_rank("Is revenue larger than costs?")


def test_how_many_use_a_value_counts_those_records_and_a_value_is_said_without_its_legal_form(
    synthetic, tmp_path
) -> None:
    quarry = [synthetic("ncen/ncen_06_quarry.pdf")]
    # "the Quarry Hill funds": the registrant's name holds the group's word; "Bloomberg" is "Bloomberg L.P."
    count = _ask(quarry, "How many of the Quarry Hill funds use Bloomberg as their pricing service?", tmp_path)
    assert count.found and count.answer == "2 (Quarry Short Duration Fund, Quarry Technology Fund)"
    assert {c["quote"] for c in count.citations} == {"Pricing service Bloomberg L.P"}  # the deciding field
    which = _ask(quarry, "Which funds use Bloomberg as pricing service?", tmp_path)
    assert which.answer == "Quarry Short Duration Fund, Quarry Technology Fund"


def test_a_value_is_said_short_only_when_no_other_value_reads_the_same() -> None:
    from docpilot.understanding.workflow import _said_value

    values = {"bloomberg l.p.", "ice data services, inc."}
    assert _said_value("Bloomberg L.P.", "which funds use bloomberg as pricing service?", values) == "bloomberg"
    assert _said_value("Bloomberg L.P.", "which funds use bloomberg l.p. as pricing service?", values)
    values.add("bloomberg finance")  # "Bloomberg" could be either: not said
    assert _said_value("Bloomberg L.P.", "which funds use bloomberg as pricing service?", values) == ""
