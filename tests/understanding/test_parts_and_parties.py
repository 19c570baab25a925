"""Two things added up ("the combined price of A and B": each part found alone, the sum done in Python) and
who a document is for or from (the name under the page's own label, not the biggest name on it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docpilot.understanding.answer import ask_files
from docpilot.understanding.parties import find_party, read_role
from docpilot.understanding.parts import read_parts, the_number


def _ask(path: str, question: str, tmp_path: Path):
    return ask_files(question, {Path(path).name: path}, None, tmp_path / "cache")


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "What were the combined charges for Amazon Elastic Compute Cloud and Amazon Glacier on this AWS invoice?",
            (
                "What were the charges for Amazon Elastic Compute Cloud on this AWS invoice?",
                "What were the charges for Amazon Glacier on this AWS invoice?",
            ),
        ),
        (
            "On the invoice, what is the combined price of the Apple iPad Air and the Decoded leather cover?",
            (
                "On the invoice, what is the price of the Apple iPad Air?",
                "On the invoice, what is the price of the Decoded leather cover?",
            ),
        ),
        (
            "What was the total of operating income and net income in 2019?",
            ("What was operating income in 2019?", "What was net income in 2019?"),
        ),
        ("What is the total of the invoice amounts?", None),  # one set of values, not two named parts
        ("What is the sum of the totals of invoice 1001 and invoice 1002?", None),  # "totals of" which part? unclear
        ("What were total assets in 2019?", None),
    ],
)
def test_a_combined_question_is_read_into_its_two_parts(question: str, parts: tuple[str, str] | None) -> None:
    read = read_parts(question)
    assert (read.questions if read else None) == parts


def test_a_part_gives_one_number_decimal_commas_included() -> None:
    assert the_number("€ 399,00", "What is the price of the iPad?") == 399.0
    assert the_number("14,541 (millions)", "What was operating income in 2019?") == 14541
    assert the_number("It was 12 in 2019 and 14 in 2020", "What was it in 2019?") is None  # two numbers: no pick


def test_two_table_values_are_added_by_code_with_the_workflow_shown(real, tmp_path: Path) -> None:
    tenk = real("financebench__AMAZON_2019_10K.pdf")
    answer = _ask(tenk, "What were Amazon's combined net sales of North America and International in 2019?", tmp_path)
    assert answer.answer.startswith("245,496 = 170,773 (North America) + 74,723 (International)"), answer.answer
    assert answer.workflow[-1] == "Add the two values." and answer.llm_calls == 0
    quoted = " ".join(c["quote"] for c in answer.citations)
    assert "170,773" in quoted and "74,723" in quoted


def test_a_year_column_is_not_added_up_over_a_whole_table(real, tmp_path: Path) -> None:
    """ "combined" once summed every row's 2019 cell of a table (646,833.47): a confident wrong answer.
    Here one part (Europe) is no row of the 10-K, so nothing is added up at all."""
    tenk = real("financebench__AMAZON_2019_10K.pdf")
    answer = _ask(tenk, "What were the combined net sales of North America and Europe in 2019?", tmp_path)
    assert not answer.workflow and not answer.found, answer.answer


@pytest.mark.parametrize(
    ("name", "question", "expected", "label"),
    [
        ("invoice2data__AmazonWebServices.pdf", "Which company is this AWS invoice billed to?", "iViveLabs Limited",
         "Bill to Address"),
        ("invoice2data__FlipkartInvoice.pdf", "Who is the customer on the Flipkart invoice?", "Anushrut Singh",
         "Billing Address"),
    ],
)  # fmt: skip
def test_who_an_invoice_is_for_is_read_under_its_label(real, tmp_path, name, question, expected, label) -> None:
    answer = _ask(real(name), question, tmp_path)
    assert answer.answer == expected and answer.citations[0]["page"] == 1 and answer.llm_calls == 0
    assert label in answer.workflow[0]


def test_no_label_no_party() -> None:
    page = "Flipkart.com Customer Care : 1800 208 9898\nCustomer Service\nCall us\nClient ID 42"
    assert find_party([page], "buyer") is None  # other labels that start with "customer" or "client"
    assert find_party(["Customer: Pino Bluebird\nSessamestreet 32"], "buyer").name == "Pino Bluebird"
    assert read_role("Who sold this item?") is None and read_role("Who is the seller?") == "seller"
    assert read_role("What is the total?") is None


def test_how_many_counts_records_only_when_it_names_them(real, tmp_path: Path) -> None:
    """ "How many days should you allow …" once answered "6 (PATIENT'S REQUEST …)": a count of sections."""
    form = real("pymupdf__cms-etc-filled.pdf")
    answer = _ask(form, "How many days should you allow for Medicare to receive and process a claim?", tmp_path)
    assert not answer.answer.startswith("6 (") and "60 days" in answer.answer, answer.answer
    assert answer.citations[0]["page"] == 1


def test_numbers_as_invoices_and_other_languages_write_them() -> None:
    from docpilot.understanding.textnorm import numbers_in, parse_number

    assert parse_number("€ 717,97") == 717.97 and parse_number("1.234,56") == 1234.56
    assert parse_number("3,50 €") == 3.5 and parse_number("1,234") == 1234  # three digits after a comma: thousands
    assert numbers_in("국내 확진자는 9,661명, 사망자는 158명") == [
        9661,
        158,
    ]  # a counter word is no part of it
    assert numbers_in("an A320 and 2 engines") == [2]


def test_an_english_answer_from_a_korean_passage_is_checked_by_its_numbers(real, tmp_path: Path) -> None:
    from docpilot.understanding.answer import _Evidence, _grounded
    from docpilot.understanding.document import Unit

    passage = "2020.3.30. 0시 기준 현재 코로나-19의 국내 확진자는 9,661명, 사망자는 158명으로 나타났다."
    support = [_Evidence(Unit("kr.pdf", 1, passage, "chunk"), passage)]
    assert _grounded("9,661 confirmed cases", support)
    assert not _grounded("9,700 confirmed cases", support)  # a number the passage does not have
    assert not _grounded("the ministry of health", support)  # no number to check: words must be there


def test_a_question_about_the_author_is_not_a_question_for_the_author(real, tmp_path: Path) -> None:
    tam = real("pdfjs__TAMReview.pdf")
    answer = _ask(tam, "Which university is the author of this overview affiliated with?", tmp_path)
    assert answer.answer != "Mohammad Chuttur"  # the byline answers "who wrote it", not where they work
