"""A value asked for by row and period, read from the table cell by code; a change between two periods
computed in Python; rows that disagree are not guessed between."""

from __future__ import annotations

from pathlib import Path

import pytest

from docpilot.understanding.answer import ask_files
from docpilot.understanding.cells import read_cell_question


@pytest.mark.parametrize(
    ("question", "op", "periods"),
    [
        ("What was the operating income in 2018?", "lookup", ["2018"]),
        ("Cash at December 31, 2019?", "lookup", ["December 2019"]),
        ("By how much did net income increase from 2018 to 2019?", "difference", ["2018", "2019"]),
        ("Net sales for fiscal 2022, the 52 weeks ended January 28, 2023?", "lookup", ["January 2023"]),
        ("What was revenue in 2018 and 2019?", None, None),  # two periods, no change asked: not one cell
        ("What is the operating income?", None, None),  # no period: not a cell question
    ],
)
def test_questions_are_read_into_rows_and_periods(question: str, op: str | None, periods: list[str] | None) -> None:
    asked = read_cell_question(question)
    assert (asked.op if asked else None) == op
    assert ([p.describe() for p in asked.periods] if asked else None) == periods


def _ask(path: str, question: str, tmp_path: Path):
    return ask_files(question, {Path(path).name: path}, None, tmp_path / "cache")


def test_a_statement_value_is_read_from_its_cell_with_the_row_cited(real, tmp_path: Path) -> None:
    tenk = real("financebench__AMAZON_2019_10K.pdf")
    answer = _ask(tenk, "What was Amazon's operating income in 2018?", tmp_path)
    assert answer.answer.startswith("12,421"), answer.answer
    assert {c["page"] for c in answer.citations} <= {18, 38} and answer.llm_calls == 0  # selected data, statement
    assert "Operating income" in answer.citations[0]["quote"]
    assert any("2018 column" in step for step in answer.workflow)


def test_a_change_between_two_dates_is_computed_not_written(real, tmp_path: Path) -> None:
    tenk = real("financebench__AMAZON_2019_10K.pdf")
    q = "By how much did Amazon's total assets grow between December 31, 2018 and December 31, 2019, in millions?"
    answer = _ask(tenk, q, tmp_path)
    assert answer.answer.startswith("62,600"), answer.answer  # 225,248 - 162,648
    assert "162,648" in answer.answer and "225,248" in answer.answer
    assert answer.workflow[-1] == "Subtract the first value from the second."
    assert {c["page"] for c in answer.citations} <= {18, 40}


def test_headings_over_split_columns_find_the_quarter(real, tmp_path: Path) -> None:
    """ "Three Months Ended" over "July 29, 2023", each value beside its own "$" column."""
    tenq = real("financebench__BESTBUY_2024Q2_10Q.pdf")
    answer = _ask(tenq, "What was Best Buy's revenue for the three months ended July 29, 2023?", tmp_path)
    assert answer.answer.startswith("9,583"), answer.answer  # not the six months' 19,050
    q = (
        "By how much did revenue for the three months ended July 29, 2023 decrease from "
        "the three months ended July 30, 2022?"
    )
    change = _ask(tenq, q, tmp_path)
    assert change.answer.startswith("746") and "decreased" in change.answer, change.answer
    assert "%" not in change.answer  # "Revenue % change" and "% of revenue" rows are not the revenue


def test_rows_that_disagree_are_not_guessed_between(real, tmp_path: Path) -> None:
    tenq = real("financebench__BESTBUY_2024Q2_10Q.pdf")
    answer = _ask(tenq, "What were Best Buy's merchandise inventories as of July 29, 2023?", tmp_path)
    assert "(508)" not in answer.answer  # the cash-flow change is not the balance; no model: no pick
    assert not answer.workflow or "5,651" in answer.answer


def test_the_statement_title_names_the_table_and_every_page_with_the_figure_is_cited(real, tmp_path: Path) -> None:
    tenk = real("financebench__AMAZON_2019_10K.pdf")
    q = "How much cash and cash equivalents did Amazon have on its balance sheet at December 31, 2019?"
    cash = _ask(tenk, q, tmp_path)  # "balance sheet" is the page's title ("CONSOLIDATED BALANCE SHEETS"), no row's
    assert cash.answer.startswith("36,092") and cash.citations[0]["page"] == 40, cash.answer
    income = _ask(tenk, "By how much did Amazon's net income increase from 2018 to 2019?", tmp_path)
    assert income.answer.startswith("1,515")
    assert {c["page"] for c in income.citations} == {37, 38, 39}  # cash flows, operations, comprehensive income
    assert "(the same figures on pages 38, 39)" in income.workflow[0]


def test_possessives_spans_and_units_as_the_question_says_them(real, tmp_path: Path) -> None:
    from docpilot.understanding.cache import StructureCache
    from docpilot.understanding.cells import find_cells
    from docpilot.understanding.document import open_documents

    release = real("financebench__ULTABEAUTY_2023Q4_EARNINGS.pdf")
    q = (
        "By how much did Ulta Beauty's cash and cash equivalents increase from January 29, 2022 to "
        "January 28, 2023, in millions of dollars?"
    )
    change = _ask(release, q, tmp_path)  # "Beauty's" is Beauty, which every page says: no row needs to
    assert change.answer.startswith("306,317 (thousands) = 306.3 millions"), change.answer
    q = "What were Ulta Beauty's net sales for fiscal 2022, the 52 weeks ended January 28, 2023?"
    docs = open_documents({"ulta.pdf": release}, StructureCache(tmp_path / "cache"))
    values = [c.values[0] for c in find_cells(docs, q, read_cell_question(q))]
    assert "3,226,773" not in values and "10,208,580" in values  # the 13 weeks' table holds no 52 weeks


def test_a_fiscal_year_is_not_read_as_a_column_dated_early_in_the_next(real, tmp_path: Path) -> None:
    # Ulta's fiscal 2022 is the year ended January 28, 2023: the column headed 2022 is fiscal 2021 (blind q1)
    release = real("financebench__ULTABEAUTY_2023Q4_EARNINGS.pdf")
    q = "What were Ulta's capital expenditures for fiscal 2022 per the cash flow statement?"
    assert read_cell_question(q).periods[0].fiscal
    answer = _ask(release, q, tmp_path)
    assert "172,187" not in answer.answer and not answer.workflow, answer.answer  # handed on, not guessed


def test_the_cli_reads_statement_tables_as_the_tests_do(real, tmp_path: Path) -> None:
    """`docpilot ask` imports pdftools first, which keeps PyMuPDF's layout analyser out of the tools'
    start-up; reading tables must switch it on again or a statement falls apart into fragments."""
    import json
    import os
    import subprocess
    import sys

    tenk = real("financebench__AMAZON_2019_10K.pdf")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg"), "DOCPILOT_BACKEND": "rules"}
    out = subprocess.run(
        [sys.executable, "-m", "docpilot", "ask", "What was Amazon's operating income in 2018?", tenk, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    assert answer["answer"].startswith("12,421"), answer
