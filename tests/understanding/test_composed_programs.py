"""Questions over one table answered by a program composed from their words, with no model (issue K items 2-3).

The composer reads a question against the frame's own schema (row labels, column names, text-column values,
caption) and a small grammar of operations; the program it writes runs like the model's (checked, sandboxed,
traced), so its answers cite the deciding cells. A word it cannot place — "excluding", "previous", a column it does
not have — leaves the question to the model (here, with no model, unanswered): the guard tests were seen failing
with the word check off (``_compose`` returning a program although a token was left untaken).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from table_pdfs import DrawnTable, draw_pdf

from docpilot.understanding.answer import Answer, answer_question
from docpilot.understanding.cache import StructureCache
from docpilot.understanding.document import Document, open_documents
from docpilot.understanding.frames import answer_with_program, compose_program
from docpilot.understanding.frames.model import Frame, RawTable, frame_of, name_frames
from docpilot.understanding.programs import without_totals

ROOT = Path(__file__).resolve().parents[2]

FUNDS = [
    ["Fund", "Asset class", "1-year return", "3-year return", "Assets (USD m)", "Staff (FTE)"],
    ["Global Equity", "Equity", "18.4%", "7.2%", "288", "12"],
    ["US Growth", "Equity", "24.1%", "9.8%", "2,626", "30"],
    ["Emerging Markets", "Equity", "6.2%", "-1.9%", "282", "9"],
    ["Corporate Bond", "Fixed income", "7.9%", "3.6%", "1,410", "14"],
    ["Short Duration", "Fixed income", "4.1%", "2.1%", "655", "6"],
    ["Real Estate", "Property", "-3.5%", "1.4%", "511", "8"],
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> str:
    pages: list = [
        "Harbour Funds annual review 2024. Returns are after fees.",
        [
            DrawnTable(
                FUNDS,
                caption="Table 1. Performance and size of the funds (returns in %, assets in USD millions)",
                widths=[110, 80, 80, 80, 90, 70],
            )
        ],
    ]
    return draw_pdf(tmp_path_factory.mktemp("composed") / "funds.pdf", pages)


@pytest.fixture
def documents(report: str) -> Iterator[list[Document]]:
    yield open_documents({"funds.pdf": report}, StructureCache(None))


def ask(documents: list[Document], question: str) -> Answer:
    return answer_question(documents, question, None, embed=None)


@pytest.mark.parametrize(
    ("question", "expected", "cited"),
    [
        ("Which fund had the highest 1-year return?", "US Growth", {"US Growth", "24.1%"}),
        ("If you rank the funds by assets, which one is at the bottom?", "Emerging Markets", {"282"}),
        ("What is Corporate Bond's three-year return?", "3.6%", {"3.6%"}),
        ("How much assets did US Growth and Real Estate have together?", "3,137", {"2,626", "511"}),
        ("How far apart are Global Equity and Short Duration on 1-year return?", "14.3", {"18.4%", "4.1%"}),
        ("How many funds had a 3-year return below 2%?", "2", {"-1.9%", "1.4%"}),
        ("Which funds had a 1-year return below -1%?", "Real Estate", {"-3.5%"}),
        ("What is the average 1-year return of the funds whose asset class is Fixed income?", "6", {"7.9%", "4.1%"}),
        ("What share of total assets came from Short Duration?", "11.", {"655"}),
        ("Which fund has the most full-time equivalent staff?", "US Growth", {"30"}),  # FTE, by its initials
        ("Which fund had the second highest 1-year return?", "Global Equity", {"Global Equity", "18.4%"}),
        ("Which fund ranks third by assets?", "Short Duration", {"Short Duration", "655"}),
        ("How many funds have the asset class Fixed income?", "2", {"Fixed income"}),  # rows by a text value
        ("How many of the funds are Equity funds?", "3", {"Equity"}),
    ],
)
def test_a_question_every_word_of_which_is_read_is_answered_without_a_model(
    documents: list[Document], question: str, expected: str, cited: set[str]
) -> None:
    answer = ask(documents, question)
    assert answer.found and answer.llm_calls == 0, answer.answer
    assert answer.answer.startswith(expected), answer.answer
    quotes = [c["quote"] for c in answer.citations]
    assert all(any(text in quote for quote in quotes) for text in cited), quotes  # the deciding cells
    assert {c["page"] for c in answer.citations} == {2}


@pytest.mark.parametrize(
    "question",
    [
        "Which fund had the second highest 1-year return among ethical funds?",  # "ethical"
        "What is the total assets of the funds excluding Real Estate?",  # "excluding"
        "Which fund had the highest dividend yield?",  # a column the table does not have
        "What is Corporate Bond's return?",  # 1-year or 3-year: two columns fit as well
        "What was the 1-year return of Corporate Bond in the previous year?",  # "previous"
        "How many funds had a 3-year return of at most 2%?",  # "at most" is no comparison it reads
    ],
)
def test_a_word_the_table_does_not_account_for_leaves_the_question_unanswered(
    documents: list[Document], question: str
) -> None:
    answer = ask(documents, question)
    assert not answer.found, answer.answer


def test_each_part_of_a_two_part_question_is_composed_on_its_own_words(documents: list[Document]) -> None:
    answer = ask(documents, "Which fund had the highest 1-year return, and what is Real Estate's three-year return?")
    assert answer.found and answer.llm_calls == 0, answer.answer
    assert "US Growth" in answer.answer and "1.4%" in answer.answer, answer.answer


def _frame(rows: list[list[str]], caption: str = "") -> Frame:
    cells: list[list[tuple[str, None] | None]] = [[(c, None) for c in row] for row in rows]
    frame = frame_of(RawTable("f.pdf", 1, 1, cells, 1, caption))  # type: ignore[arg-type]
    assert frame is not None
    return name_frames([frame])[0]


def test_the_operation_follows_from_what_is_named() -> None:
    frame = _frame([["Office", "2022", "2023"], ["Milan", "227", "247"], ["Berlin", "87", "83"]], "Headcount")
    change = compose_program("How much did Milan's headcount change from 2022 to 2023?", [frame])
    assert change == 't1.loc[t1["Office"] == "Milan", "2023"].iloc[0] - t1.loc[t1["Office"] == "Milan", "2022"].iloc[0]'
    both = compose_program("What is Berlin's headcount in 2022 and 2023 added together?", [frame])
    assert both is not None and both.count("iloc[0]") == 2 and " + " in both
    assert compose_program("Which office had the lowest headcount in 2023?", [frame]) == (
        't1.loc[t1["2023"].idxmin(), "Office"]'
    )
    # two frames that both read the question: which one is meant is the model's to decide
    other = name_frames([frame, _frame([["Office", "2023"], ["Rome", "12"], ["Oslo", "4"]], "Headcount")])
    assert compose_program("Which office had the lowest headcount in 2023?", other) is None


def test_a_number_with_a_scale_is_put_in_the_columns_printed_scale_or_not_compared() -> None:
    """ "45 million USD" against "Revenue (USD million)" is 45; against a column whose scale is printed nowhere it
    is no comparison at all (0 of the years "exceeded 45,000,000" was a confident wrong answer)."""
    rows = [["Year", "Revenue (USD million)"], ["2021", "47.9"], ["2022", "55.3"], ["2023", "44.0"]]
    program = compose_program("In how many years did revenue exceed 45 million USD?", [_frame(rows)])
    assert program == 'len(t1[t1["Revenue (USD million)"] > 45])'
    unscaled = [["Year", "Revenue"], ["2021", "47.9"], ["2022", "55.3"], ["2023", "44.0"]]
    assert compose_program("In how many years did revenue exceed 45 million USD?", [_frame(unscaled)]) is None
    thousands = _frame(unscaled, "Revenue by year (in thousands)")
    assert compose_program("Which years had revenue above 0.05 million?", [thousands]) == (
        't1.loc[t1["Revenue"] > 50, "Year"].tolist()'
    )


def test_years_down_the_first_column_name_the_rows() -> None:
    frame = _frame([["Year", "Revenue", "Employees"], ["2019", "41.2", "310"], ["2020", "38.7", "295"]])
    assert frame.label == "Year" and frame.kinds["Year"] == "text"
    assert compose_program("In which year did revenue peak?", [frame]) == 't1.loc[t1["Revenue"].idxmax(), "Year"]'


def test_a_change_between_two_years_is_the_later_less_the_earlier_and_a_fall_the_other_way() -> None:
    frame = _frame([["Year", "Unemployment rate"], ["1995", "15.4"], ["2000", "9.8"], ["2005", "8.4"]])
    cell = 't1.loc[t1["Year"] == "{}", "Unemployment rate"].iloc[0]'
    fall = compose_program(
        "By how many percentage points did the unemployment rate fall between 1995 and 2005?", [frame]
    )
    assert fall == f"{cell.format('1995')} - {cell.format('2005')}"
    change = compose_program("How much did the unemployment rate change between 2005 and 1995?", [frame])
    assert change == f"{cell.format('2005')} - {cell.format('1995')}"  # years, not the order said
    assert compose_program("How many years had an unemployment rate above 9%?", [frame]) is not None  # a count


def test_two_rows_said_as_a_range_are_the_rows_between_them_unless_a_change_is_asked() -> None:
    """ "over 2019-2023" is five years, not two: read as its two ends, the average of the employees was a
    confident wrong 355.5 (the first and last years') for 347.2."""
    years = [
        ["Year", "Revenue", "Employees"],
        *([str(y), f"{40 + y % 7}.5", str(300 + y % 9)] for y in range(2019, 2024)),
    ]
    frame = _frame(years)
    every = 't1.loc[t1["Year"].isin(["2019", "2020", "2021", "2022", "2023"]), "Employees"].mean()'
    assert compose_program("What was the average number of employees over 2019-2023?", [frame]) == every
    assert compose_program("Average employees from 2020 through 2022?", [frame]) == every.replace(
        '"2019", ', ""
    ).replace(', "2023"', "")
    # a change from the one to the other is its two ends
    cell = 't1.loc[t1["Year"] == "{}", "Revenue"].iloc[0]'
    change = compose_program("How much did revenue change from 2019 to 2023?", [frame])
    assert change == f"{cell.format('2023')} - {cell.format('2019')}"
    # a form of the answer asked for names nothing of the table
    assert compose_program("What was revenue in 2021? Answer with the figure.", [frame]) == cell.format("2021")


def test_how_many_more_is_a_difference_a_total_column_is_named_by_combined_and_the_rows_may_be_counted() -> None:
    years = _frame([["Year", "Employees"], ["2021", "290"], ["2022", "310"], ["2023", "323"]])
    cell = 't1.loc[t1["Year"] == "{}", "Employees"].iloc[0]'
    more = compose_program("How many more employees were there in 2023 compared with 2022?", [years])
    assert more == f"{cell.format('2023')} - {cell.format('2022')}"
    fewer = compose_program("How many fewer employees were there in 2021 than in 2023?", [years])
    assert fewer == f"{cell.format('2023')} - {cell.format('2021')}"
    budget = _frame(  # as the Indian budget prints it: Plan and Non-Plan parts, then their total
        [
            [
                "Demand",
                "Revenue",
                "Plan Capital",
                "Total",
                "Revenue",
                "Non-Plan Capital",
                "Total",
                "Total Plan & Non-Plan",
            ],
            ["13. Department of Posts", "900", "...", "900", "6,720", "12.26", "6,732.26", "7,612.26"],
            ["14. Department of Telecommunications", "7,028.06", "90", "7,118.06", "7,400", "10", "7,410", "14,528.06"],
        ],
        "Budget 2014-2015 (In crores of Rupees)",
    )
    combined = compose_program("What's the combined Plan and Non-Plan budget for the Department of Posts?", [budget])
    assert combined == 't1.loc[t1["Demand"] == "13. Department of Posts", "Total Plan & Non-Plan"].iloc[0]'
    # a column said word for word in its own order is the one meant, over those whose words it says in another
    # order ("Total" of Plan, of Non-Plan); "add up" asks a sum; "2014-15" is the caption's 2014-2015 (both q7)
    both = (
        "If I add up the total plan and non-plan budget of the Department of Posts and the Department of "
        "Telecommunications, what do I get?"
    )
    assert compose_program(both, [budget]) == (
        't1.loc[t1["Demand"].isin(["13. Department of Posts", "14. Department of Telecommunications"]), '
        '"Total Plan & Non-Plan"].sum()'
    )
    assert budget.kinds["Plan Capital"] == "number"  # "..." prints an empty cell
    capital = "How much Plan capital is budgeted for the Department of Telecommunications in 2014-15?"
    assert compose_program(capital, [budget]) == (
        't1.loc[t1["Demand"] == "14. Department of Telecommunications", "Plan Capital"].iloc[0]'
    )
    assert compose_program(capital.replace("2014-15", "2015-16"), [budget]) is None  # another year: not this table
    staff = _frame([["Employee", "Salary"], ["Ana", "90"], ["Ben", "80"], ["Cy", "70"]])
    assert compose_program("What is the mean salary across the three employees?", [staff]) == 't1["Salary"].mean()'
    assert compose_program("What is the mean salary across the five employees?", [staff]) is None  # not its rows


def test_rows_under_a_heading_in_capitals_are_its_section_when_they_are_compared() -> None:
    """A ministry in capitals heads its demands (its figures their totals); "among the Ministry of Roads
    demands, which …" compares the demands under it, though one demand is also called "Ministry of Roads" (q7)."""
    rows = [["Demand", "Revenue"], ["MINISTRY OF HEALTH", "300"], ["1. Department of Health", "200"]]
    rows += [["2. Department of Research", "100"], ["MINISTRY OF ROADS", "750"], ["3. Ministry of Roads", "350"]]
    rows += [["4. Highways Authority", "400"]]
    budget = _frame(rows, "Budget (in crores)")
    assert budget.columns == ["Demand", "Section", "Revenue"]
    program = compose_program("Among the Ministry of Roads demands, which one gets the highest revenue?", [budget])
    assert program is not None and 't1[t1["Section"] == "MINISTRY OF ROADS"]' in program
    result = answer_with_program(program, [budget])
    assert result.value == "4. Highways Authority"


def test_a_column_of_shares_is_named_by_what_percentage_of() -> None:
    frame = _frame([["Cost item", "Share of revenue"], ["Modules", "33%"], ["Labour", "25%"], ["Inverters", "14%"]])
    both = compose_program("Together, what percentage of revenue went to modules and labour?", [frame])
    assert both == 't1.loc[t1["Cost item"].isin(["Modules", "Labour"]), "Share of revenue"].sum()'


def test_a_heading_printed_across_two_columns_is_read_whole_for_each(tmp_path: Path) -> None:
    """ "Headcount" centred over "2022" and "2023" is cut where the columns meet when cells are read by their
    boxes ("Head" | "count"); the frame's columns are "Headcount 2022" and "Headcount 2023"."""
    import json

    sys.path.insert(0, str(ROOT / "bench"))
    from tableqa_docs import make_docs

    specs = json.loads((ROOT / "bench" / "tableqa" / "frames.json").read_text())["frames"]
    spec = next(s for s in specs if s["name"] == "office_headcount")
    docs = make_docs(tmp_path, 20240611, [spec])
    import pymupdf

    from docpilot.understanding.frames.finding import read_page_tables

    with pymupdf.open(docs["office_headcount"].path) as pdf:
        raws = read_page_tables(pdf, docs["office_headcount"].page, "office_headcount.pdf")
    frame = frame_of(raws[0])
    assert frame is not None
    assert {"Headcount 2022", "Headcount 2023"} <= set(frame.columns), frame.columns


def _grouped_headings_pdf(path: Path) -> str:
    """A ruled table whose heading cells span the columns they head ("Pre-Pawn" over "Handgun | Long Gun"), as
    the NICS report prints them, with a row of notes at its foot."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    xs = [60, 160, 220, 280, 340, 400, 460, 520]
    top, height = 120, 30
    states = [["Maine", "120", "80", "3", "1", "9", "4"], ["Texas", "900", "700", "5", "9", "40", "2"]]
    states += [["Utah", "300", "350", "8", "2", "12", "7"]]
    rows = 1 + len(states) + 1
    bottom = top + rows * height
    page.insert_text((60, top - 12), "Firearm checks, November", fontsize=10, fontname="helv")
    for r in range(rows + 1):
        page.draw_line((xs[0], top + r * height), (xs[-1], top + r * height), width=0.6)
    for j, x in enumerate(xs):  # inside a group's heading cell no rule is drawn between its columns
        head_top = top if j in (0, 1, 3, 5, 7) else top + height
        page.draw_line((x, head_top), (x, bottom - height if 0 < j < 7 else bottom), width=0.6)
    page.insert_text((64, top + 20), "State", fontsize=8, fontname="hebo")
    for start, group in ((1, "Retail"), (3, "Pre-Pawn"), (5, "Redemption")):
        mid = (xs[start] + xs[start + 2]) / 2
        page.insert_text(
            (mid - pymupdf.get_text_length(group, "hebo", 8) / 2, top + 11), group, fontsize=8, fontname="hebo"
        )
        for k, sub in enumerate(("Handgun", "Long Gun")):
            x = xs[start + k] + 4
            page.insert_text((x, top + 24), sub, fontsize=8, fontname="hebo")
    for i, row in enumerate(states, 1):
        page.insert_text((64, top + i * height + 18), row[0], fontsize=9, fontname="helv")
        for j, text in enumerate(row[1:], 1):
            page.insert_text(
                (xs[j + 1] - 4 - pymupdf.get_text_length(text, "helv", 9), top + i * height + 18),
                text,
                fontsize=9,
                fontname="helv",
            )
    page.insert_text((64, bottom - 12), "NOTES: checks are not sales.", fontsize=8, fontname="helv")
    doc.save(path)
    doc.close()
    return str(path)


def test_heading_cells_spanning_columns_are_split_into_the_columns_under_them(tmp_path: Path) -> None:
    import pymupdf

    from docpilot.understanding.frames.finding import read_page_tables

    path = _grouped_headings_pdf(tmp_path / "checks.pdf")
    with pymupdf.open(path) as pdf:
        raws = read_page_tables(pdf, 1, "checks.pdf")
    frame = frame_of(raws[0])
    assert frame is not None
    expected = ["Retail Handgun", "Retail Long Gun", "Pre-Pawn Handgun", "Pre-Pawn Long Gun", "Redemption Handgun"]
    assert set(expected) <= set(frame.columns), frame.columns
    assert frame.row_labels() == ["Maine", "Texas", "Utah"]  # the notes under the table are no row
    documents = open_documents({"checks.pdf": path}, StructureCache(None))
    answer = ask(documents, "Which state had the most Redemption Handgun checks?")
    assert answer.found and answer.answer.startswith("Texas"), answer.answer
    quotes = [c["quote"] for c in answer.citations]
    assert all(any(text in quote for quote in quotes) for text in ("Texas", "40")), quotes


def test_a_place_in_an_order_is_the_row_there_unless_a_neighbour_ties_it() -> None:
    """ "The second-highest salary" is the row at place 2 of the column sorted from the top; when its value is also
    the first's or the third's, which row is second is not the table's to say, and the composer says nothing."""
    staff = _frame([["Employee", "Salary"], ["Ana", "90"], ["Ben", "85"], ["Cy", "70"], ["Di", "80"]])
    second = 't1.sort_values("Salary", ascending=False)["Employee"].iloc[1]'
    assert compose_program("Who has the second-highest salary on this list?", [staff]) == second
    assert compose_program("Who ranks second by salary?", [staff]) == second
    assert compose_program("Who has the third lowest salary?", [staff]) == (
        't1.sort_values("Salary", ascending=True)["Employee"].iloc[2]'
    )
    tied = _frame([["Employee", "Salary"], ["Ana", "90"], ["Ben", "80"], ["Cy", "70"], ["Di", "80"]])
    assert compose_program("Who has the second-highest salary on this list?", [tied]) is None
    assert compose_program("Who has the fifth-highest salary on this list?", [staff]) is None  # four rows
    assert compose_program("What is Ben's second highest salary?", [staff]) is None  # a row named: no place asked


def test_a_share_of_a_row_named_after_percentage_of_is_that_rows_part() -> None:
    """ "What percentage of consolidated operating income was contributed by AWS?" (q4, after its measurement):
    the row said right after "percentage of" is the whole, the other named row its part; a "part" larger than
    its whole is no part of it, and the composer says nothing."""
    frame = _frame(
        [
            ["Segment", "2018", "2019"],
            ["North America", "7,267", "7,033"],
            ["International", "(2,142)", "(1,693)"],
            ["AWS", "7,296", "9,201"],
            ["Consolidated", "12,421", "14,541"],
        ],
        "Operating income (loss) by segment (in millions)",
    )
    cell = 't1.loc[t1["Segment"] == "{}", "2019"].iloc[0]'
    program = compose_program(
        "What percentage of Amazon's 2019 consolidated operating income was contributed by AWS?", [frame], "Amazon"
    )
    assert program == f"part = {cell.format('AWS')}\nwhole = {cell.format('Consolidated')}\npart / whole * 100"
    assert compose_program("What percentage of AWS's 2019 operating income came from Consolidated?", [frame]) is None
    assert compose_program("What percentage of 2019 operating income came from International?", [frame]) is None
    # as a program sees the table: the 'Consolidated' row, the sum of those above, is left out; named, it is the
    # whole (the column's sum, negative parts and all)
    body, totals = without_totals(frame)
    assert totals == ["Consolidated"] and body.totals == ("Consolidated",)
    share = compose_program("What percentage of 2019 consolidated operating income came from AWS?", [body])
    assert share == f'part = {cell.format("AWS")}\npart / t1["2019"].sum() * 100'
    assert compose_program("What percentage of 2019 operating income came from AWS?", [body]) is None  # no whole


def test_who_is_answered_from_the_column_that_names_people() -> None:
    """ "Who has the second-highest salary?" over Position | Employee | Annual salary was answered "Product
    Manager" (q4, after its measurement): "who" takes the one column named for people; with none, no program."""
    rows = [["Position", "Employee", "Annual salary"], ["Data Analyst", "Lena Fischer", "72,000"]]
    rows += [["Senior Engineer", "Omar Haddad", "134,000"], ["Product Manager", "Grace Liu", "118,000"]]
    staff = _frame(rows)
    assert staff.label == "Position"
    assert compose_program("Who has the highest salary?", [staff]) == (
        't1.loc[t1["Annual salary"].idxmax(), "Employee"]'
    )
    assert compose_program("Which position has the highest salary?", [staff]) == (
        't1.loc[t1["Annual salary"].idxmax(), "Position"]'
    )
    roles = _frame(
        [["Position", "Department", "Annual salary"], ["Analyst", "Data", "72,000"], ["Engineer", "R&D", "134,000"]]
    )
    assert compose_program("Who has the highest salary?", [roles]) is None


def test_rows_compared_across_two_columns_are_counted_or_listed() -> None:
    rows = [["Product category", "Revenue 2023", "Revenue 2022"], ["Computing", "$3,674", "$3,964"]]
    rows += [["Appliances", "$1,384", "$1,657"], ["Services", "$378", "$351"], ["Entertainment", "$466", "$410"]]
    frame = _frame(rows)
    assert compose_program("How many product categories had higher revenue in 2023 than in 2022?", [frame]) == (
        'len(t1[t1["Revenue 2023"] > t1["Revenue 2022"]])'
    )
    assert compose_program("Which product categories had lower revenue in 2023 than in 2022?", [frame]) == (
        't1.loc[t1["Revenue 2023"] < t1["Revenue 2022"], "Product category"].tolist()'
    )
    assert compose_program("How many product categories had higher revenue in 2023 and 2022?", [frame]) is None


def test_the_captions_words_and_the_tables_period_said_again_name_no_column() -> None:
    """ "In the detailed trace recording statistics …" says the caption, not the column Traces; "this month" is
    the table's own period (both q4, after its measurement)."""
    rows = [["label", "Traces", "Speedup"], ["3d-cube", "29", "2.20x"], ["bitops-and", "1", "25.20x"]]
    rows += [["bitops-3bit", "2", "25.47x"], ["crypto-md5", "3", "2.44x"]]
    stats = _frame(rows, "Figure 13. Detailed trace recording statistics for the SunSpider benchmark set.")
    question = (
        "In the detailed trace recording statistics for SunSpider, which benchmark has the second-highest speedup?"
    )
    assert compose_program(question, [stats]) == 't1.sort_values("Speedup", ascending=False)["label"].iloc[1]'
    assert compose_program("Which benchmark has the most traces?", [stats]) == 't1.loc[t1["Traces"].idxmax(), "label"]'
    checks = _frame(
        [["State", "Permit", "Totals"], ["Texas", "9", "120"], ["Ohio", "4", "80"]], "NICS checks November 2015"
    )
    assert compose_program("Which state had the most total checks this month?", [checks]) == (
        't1.loc[t1["Totals"].idxmax(), "State"]'
    )
    assert compose_program("Which state had the most total checks last month?", [checks]) is None


def test_which_row_is_at_an_extreme_and_its_value_are_one_program(documents: list[Document]) -> None:
    """ "…, and what was it?" asks the value the row was chosen by: one program reads both cells (asked part by
    part, "what was it" alone names nothing and the question went unanswered)."""
    answer = ask(documents, "Which fund had the highest 1-year return, and what was it?")
    assert answer.found and answer.llm_calls == 0
    assert answer.answer.startswith("US Growth, 24.1")
    assert {c["quote"] for c in answer.citations} == {"US Growth", "24.1%"}
    # a second part that names something of its own is not the first one's value
    assert not ask(documents, "Which fund had the highest 1-year return, and how many staff does it have?").found


def test_rows_added_together_are_one_program_before_any_model_call(documents: list[Document]) -> None:
    """ "The combined assets of A and B" over one table is a program composed from the words; the model is not
    asked for each part on its own (q5, after its measurement: with the model, Texas alone was read from another
    passage, "804,006", and the sum given was wrong; composed, it is 146,982 + 103,532)."""
    from fakes import ScriptedLLM

    llm = ScriptedLLM([])  # any call would fail the test: no reply is scripted
    answer = answer_question(documents, "What are the combined assets of US Growth and Real Estate?", llm, embed=None)
    assert answer.found and answer.answer.startswith("3,137") and not llm.calls, answer.answer


def test_a_priced_list_is_a_table_and_a_tie_at_the_top_is_no_answer(real) -> None:
    """A menu's bulleted "• Margherita 8$" lines, with descriptions between, are a table of items and prices (no
    table finder saw them: q4 and q5 asked for the average and the cheapest pizza and got "does not say"). Three
    pizzas cost the most, 15$: "the most expensive pizza" names none of them alone, so it is not answered."""
    docs = open_documents({"menu.pdf": real("pymupdf__test_natural.pdf")}, StructureCache(None))
    cheapest = answer_question(docs, "What is the cheapest pizza on the menu?", None, embed=None)
    assert cheapest.found and cheapest.answer == "Margherita", cheapest.answer
    assert {c["page"] for c in cheapest.citations} == {4}
    average = answer_question(docs, "What is the average price of the pizzas on this menu?", None, embed=None)
    assert average.found and average.answer.startswith("$12.71"), average.answer
    dearest = answer_question(docs, "What is the most expensive pizza?", None, embed=None)
    assert not dearest.found, dearest.answer
