"""Programs whose shape gives no answer whatever the table says (a figure less itself, a row named twice, a span's
two ends added up, percents divided by money), and programs that read other rows than the question names.

Each was a confident wrong answer on blind batch q17 or q18 (after its measurement, tuning); the tables here are
made up.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from fakes import ScriptedLLM
from table_pdfs import DrawnTable, draw_pdf

from docpilot.understanding.cache import StructureCache
from docpilot.understanding.document import open_documents
from docpilot.understanding.frames import Frame, ProgramResult
from docpilot.understanding.operation_checks import operation_problem
from docpilot.understanding.programs import Computed, answer_by_program


def _result(program: str, value: float = 0.0) -> ProgramResult:
    return ProgramResult(value, [], "", program)


def _asked(tmp_path: Path, table: DrawnTable, question: str, replies: list[str]) -> tuple[Computed | None, ScriptedLLM]:
    """``question`` answered by program over a one-table PDF of ``table``, the model replying ``replies`` in turn."""
    documents = open_documents({"table.pdf": draw_pdf(tmp_path / "table.pdf", [[table]])}, StructureCache(None))
    llm = ScriptedLLM(replies)
    return answer_by_program(documents, question, llm, None), llm


def test_a_figure_subtracted_from_itself_goes_back() -> None:
    """ "How much more was paid to Pell than to Quist?" answered 0: the same two payees' sum on both sides."""
    both = 't1.loc[t1["Payee"].isin(["PELL, A", "QUIST, B"]), "Amount"].sum()'
    problem = operation_problem("How much more was paid to Pell than to Quist?", _result(f"{both} - {both}"), [])
    assert "subtracts a figure from itself" in problem
    one, other = (f't1.loc[t1["Payee"] == "{p}", "Amount"].iloc[0]' for p in ("PELL, A", "QUIST, B"))
    assert not operation_problem("How much more was paid to Pell than to Quist?", _result(f"{one} - {other}"), [])


def test_a_row_named_twice_in_one_list_goes_back() -> None:
    program = 't1.loc[t1["Month"].isin(["May 2031", "June 2031", "June 2031"]), "Staff"].sum()'
    problem = operation_problem("How many staff in May, June and July 2031 together?", _result(program), [])
    assert "names 'June 2031' of 'Month' twice" in problem
    fixed = program.replace('"June 2031"]', '"July 2031"]')
    assert not operation_problem("How many staff in May, June and July 2031 together?", _result(fixed), [])


def test_the_two_ends_of_a_span_added_up_go_back() -> None:
    """ "How many employees did they add between 2019 and 2023?" answered with the two years' headcounts added."""
    ends = 't1.loc[t1["Year"].isin(["2011", "2015"]), "Staff"].sum()'
    problem = operation_problem("How many staff did Ostwind add between 2011 and 2015?", _result(ends), [])
    assert "names a span from '2011' to '2015'" in problem and "minus" in problem
    assert "span" in operation_problem("What was the combined staff from 2011 to 2015?", _result(ends), [])
    # the two rows named on their own are a total of two rows
    assert not operation_problem("What was the combined staff of 2011 and 2015?", _result(ends), [])
    cell = 't1.loc[t1["Year"] == "{}", "Staff"].iloc[0]'
    change = f"{cell.format('2015')} - {cell.format('2011')}"
    assert not operation_problem("How many staff did Ostwind add between 2011 and 2015?", _result(change), [])


def test_a_column_whose_repeated_rows_echo_each_items_figure_is_not_added_up_whole(tmp_path: Path) -> None:
    """ "What percentage of the charges came from compute?" answered 22.75%: an invoice's "Charges" and "Tax" rows
    under each service repeat its figure, and the whole column's sum counts each service twice (q17, tuning)."""
    rows = [["Detail", "Amount"]]
    for service, amount in [("Compute Service", "3.00"), ("Storage Service", "1.00"), ("Mail Service", "2.00")]:
        rows += [[service, amount], ["Charges", amount], ["Tax", "0.00"]]
    table = DrawnTable(rows, caption="Invoice details", widths=[160, 90])
    part = 't1.loc[t1["Detail"] == "Compute Service", "Amount"].sum()'
    whole = 't1["Amount"].sum()'
    items = 't1.loc[t1["Detail"].isin(["Compute Service", "Storage Service", "Mail Service"]), "Amount"].sum()'
    question = "What percentage of the charges came from the Compute Service?"
    computed, llm = _asked(tmp_path, table, question, [f"{part} / {whole} * 100", f"{part} / {items} * 100"])
    assert computed is not None and computed.found and computed.answer.startswith("50"), computed
    assert "repeat the figure of the item above them" in llm.calls[1].messages[-1]["content"]


def test_a_figure_the_question_names_picks_the_row_that_holds_it(tmp_path: Path) -> None:
    """ "What was the $618 charge on the card for?" answered from another row of the card's charges (q17, tuning):
    a figure the question names, held by one row, must be read or compared with."""
    rows = [["Payee", "Description", "Amount"], ["CARD - TRAVEL", "HOTEL IN OSLO", "920.68"]]
    rows += [["CARD - OFFICE", "TRAIN FARE TO BERGEN", "618.00"], ["CARD - TRAVEL", "TAXI", "41.10"]]
    table = DrawnTable(rows, caption="Expenditures", widths=[120, 160, 80])
    wrong = 't1.loc[t1["Payee"] == "CARD - TRAVEL", "Description"].iloc[0]'
    by_amount = 't1.loc[t1["Amount"] == 618.0, "Description"].iloc[0]'
    question = "What was the $618 card charge for?"
    computed, llm = _asked(tmp_path, table, question, [wrong, by_amount])
    assert computed is not None and computed.found and "BERGEN" in computed.answer, computed
    assert "names $618, which the row 'CARD - OFFICE' of t1 holds" in llm.calls[1].messages[-1]["content"]
    # the row picked by its label is the row holding the figure: read at once
    computed, llm = _asked(tmp_path, table, question, ['t1.loc[t1["Payee"] == "CARD - OFFICE", "Description"].iloc[0]'])
    assert computed is not None and computed.found and len(llm.calls) == 1, computed


def test_a_text_the_question_names_in_a_column_selects_the_rows(tmp_path: Path) -> None:
    """ "Total employees across all Scripps Health notices?" answered with the whole column's sum (q18, tuning):
    a company the question names by all its words is a condition on the rows."""
    rows = [["Notice Date", "Company", "City", "No. Of"], ["03/01/2031", "Pellworth Care", "Ely", "35"]]
    rows += [["03/02/2031", "Ambrose Mills", "Ely", "120"], ["03/04/2031", "Pellworth Care", "Wick", "4"]]
    rows += [["03/09/2031", "Ambrose Mills", "Wick", "61"]]
    table = DrawnTable(rows, caption="Notices", widths=[90, 120, 70, 60])
    whole = 't1["No. Of"].sum()'
    named = 't1.loc[t1["Company"] == "Pellworth Care", "No. Of"].sum()'
    computed, llm = _asked(tmp_path, table, "Total employees across all Pellworth Care notices?", [whole, named])
    assert computed is not None and computed.found and computed.answer.startswith("39"), computed
    assert "names 'Pellworth Care' of the column 'Company'" in llm.calls[1].messages[-1]["content"]


def test_percents_divided_by_an_amount_go_back() -> None:
    """ "Add up the cost items — what share of revenue do they cover?" answered 1.48%: the shares column's sum
    divided by the revenue in millions (q18, tuning); the shares added up are the answer."""
    data = _frame_data({"Item": ["Modules", "Labour"], "Share": [31.0, 27.0]})
    shares = Frame(data, [], kinds={"Item": "text", "Share": "percent"}, label="Item", name="t1")
    data = _frame_data({"Year": ["2031"], "Revenue": [5200.0]})
    revenue = Frame(data, [], kinds={"Year": "text", "Revenue": "money $"}, label="Year", name="t2")
    mixed = 'sum(t1["Share"]) / t2.loc[t2["Year"] == "2031", "Revenue"].iloc[0]'
    problem = operation_problem("What share of revenue do they cover together?", _result(mixed), [shares, revenue])
    assert "divides percents by an amount of money" in problem
    assert not operation_problem("What share of revenue do they cover?", _result('t1["Share"].sum()'), [shares])


def _frame_data(columns: dict[str, list[object]]) -> pd.DataFrame:
    return pd.DataFrame(columns)
