"""Programs over frames: the allow-list refuses what a program may not do, a checked program runs in the
sandbox with the frames as data, and its answer comes with the cells that decided it and a plain reading.

The refusal tests run through ``answer_with_program`` and assert the sandbox never ran. Each was seen
failing with the allow-list switched off: ``DOCPILOT_TEST_FRAMES_CHECK_OFF=1 pytest tests/understanding/
test_frames_programs.py`` replaces the check with a bare parse (a test-only switch, below).
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from table_pdfs import DrawnTable, draw_pdf

from docpilot.errors import DocPilotError, ProgramFailed, ProgramRefused
from docpilot.understanding.frames import (
    Frame,
    FrameStore,
    RawTable,
    answer_with_program,
    candidate_frames,
    check_frame_program,
    combine_files,
    frame_of,
    name_frames,
    running,
)
from sandbox import Sandbox

SALES = [
    ["Region", "Sales", "Units", "Share"],
    ["North", "1,200.50", "14", "12%"],
    ["South", "(300)", "3", "3%"],
    ["West", "4.500,25", "40", "45%"],
    ["East", "$2,000", "22", "20%"],
]
COSTS = [["Item", "Cost"], ["Rent", "900"], ["Staff", "2,400"], ["Travel", "310"]]


@pytest.fixture(autouse=True)
def allow_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """``DOCPILOT_TEST_FRAMES_CHECK_OFF=1`` switches the allow-list off (to see the refusal tests fail)."""
    if os.environ.get("DOCPILOT_TEST_FRAMES_CHECK_OFF") == "1":
        monkeypatch.setattr(running, "refuse_unless_allowed", lambda program, frames, columns=(): ast.parse(program))


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    with Sandbox(lean=True) as sandbox:
        yield sandbox


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("frames")
    pages: list = ["Sales report. The tables follow on the next pages."]
    pages.append([DrawnTable(SALES, caption="Table 2: Sales by region (in thousands)")])
    pages.append([DrawnTable(COSTS, caption="Table 3: Costs", ruled=False)])
    return draw_pdf(folder / "sales.pdf", pages)


@pytest.fixture(scope="module")
def frames(report: str) -> list[Frame]:
    return candidate_frames(FrameStore(), {"sales.pdf": [2, 3]}, {"sales.pdf": report})


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The programs that reached the sandbox."""
    calls: list[str] = []
    real = running.run_program

    def spy(code: str, *args, **kwargs):
        calls.append(code)
        return real(code, *args, **kwargs)

    monkeypatch.setattr(running, "run_program", spy)
    return calls


# ---------------------------------------------------------------- refused, and never run


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ("import os\nos.listdir('/')", "Imports are not allowed"),
        ("from pandas import read_csv\nread_csv('/etc/passwd')", "Imports are not allowed"),
    ],
    ids=["import", "from-import"],
)
def test_a_program_that_imports_is_refused(box, frames, ran, program: str, reason: str) -> None:
    with pytest.raises(ProgramRefused, match=reason) as refused:
        answer_with_program(program, frames, sandbox=box)
    assert refused.value.problems and not ran


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ("t1.to_csv('/tmp/docpilot-frames-pwned.csv')", r"\.to_csv is not allowed: programs do not read or write"),
        ("open('/etc/passwd').read()", r"open\(\) is not allowed: it reaches outside the frames"),
        ("t1.to_pickle('x.pkl')", r"\.to_pickle is not allowed"),
    ],
    ids=["to_csv", "open", "to_pickle"],
)
def test_a_program_that_touches_files_is_refused(box, frames, ran, program: str, reason: str) -> None:
    with pytest.raises(ProgramRefused, match=reason):
        answer_with_program(program, frames, sandbox=box)
    assert not ran and not Path("/tmp/docpilot-frames-pwned.csv").exists()


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ("t1.query('Sales > 3')", r"\.query is not allowed: it runs code"),
        ("t1['Sales'].apply(abs)", r"\.apply is not allowed: it runs code"),
        ("eval('t1.Sales.sum()')", r"eval\(\) is not allowed: it runs code"),
        ("getattr(t1, 'Sales').sum()", r"getattr\(\) is not allowed: it reaches into Python"),
        ("t1.Sales.cumsum()", r"The method \.cumsum\(\) is not allowed"),
    ],
    ids=["query", "apply", "eval", "getattr", "unlisted-method"],
)
def test_a_program_that_calls_a_forbidden_method_is_refused(box, frames, ran, program: str, reason: str) -> None:
    with pytest.raises(ProgramRefused, match=reason):
        answer_with_program(program, frames, sandbox=box)
    assert not ran


@pytest.mark.parametrize(
    "program",
    ["t1.__class__", "t1.to_csv.__globals__['np']", "t1._data", "t1['__class__']"],
    ids=["dunder", "globals", "private", "dunder-string"],
)
def test_a_program_that_reads_a_dunder_or_private_attribute_is_refused(box, frames, ran, program: str) -> None:
    with pytest.raises(ProgramRefused, match="dunder|private|not allowed"):
        answer_with_program(program, frames, sandbox=box)
    assert not ran


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ("t1[[x for x in t1.columns]]", "Comprehensions are not allowed"),
        ("t1.Sales.max(key=lambda v: v)", "lambda is not allowed"),
        ("for r in t1.Region:\n    r", "Loops and blocks are not allowed"),
        ("def f():\n    return 1\nf()", "Defining functions"),
        ("pd.DataFrame()", "pd is not allowed"),
        ("x = 1", "The last line must be the answer"),
        ("t9.Sales.sum()", "Unknown name t9. The frames are: t1, t2"),
        ("t1.Sales ** t1.Units", r"'\*\*' is allowed only with a constant exponent"),
        ("'West' in t1.Region", "'in' is not allowed: use .isin"),
        ("t1.Region.contains('W')", r"write \.str\.contains"),
        ("t1 = t2\nt1.Cost.sum()", "Do not assign to t1"),
        ("f'{t1.Sales.sum()}'", "f-strings are not allowed"),
    ],
)
def test_what_the_allow_list_leaves_out_is_refused_with_a_reason(frames, program: str, reason: str) -> None:
    problems = check_frame_program(program, [f.name for f in frames], {"Sales", "Units", "Region", "Cost"})
    assert any(re.search(reason, p.message) for p in problems), [str(p) for p in problems]


@pytest.mark.parametrize(
    "program",
    [
        "t1.loc[t1['Sales'].idxmax(), 'Region']",
        "t1[t1.Region == 'West'].Sales.mean()",
        "x = t1[(t1.Share >= 10) & ~t1.Region.str.contains('north', case=False)]\nlen(x)",
        "t1.nlargest(2, 'Sales')[['Region', 'Sales']]",
        "t1.sort_values('Units', ascending=False).head(3).Region.tolist()",
        "round(t1.Sales.sum() / t2.Cost.sum() * 100, 1)",
        "t1.iloc[0, 1] - t1.iat[1, 1]",
        "abs(t1.Sales.min()) if t1.Sales.min() < 0 else 0",
        "t1[t1.Region.isin(['North', 'East'])].Units.count()",
        "(t1.Units ** 2).sum()",
    ],
)
def test_ordinary_table_programs_pass_the_check(frames, program: str) -> None:
    assert check_frame_program(program, [f.name for f in frames], {"Sales", "Units", "Region", "Share", "Cost"}) == []


# ---------------------------------------------------------------- answers and their deciding cells


def test_an_answer_from_one_row_cites_that_rows_page_and_cells(box, frames) -> None:
    result = answer_with_program("t1.loc[t1['Sales'].idxmax(), 'Region']", frames, sandbox=box)
    assert result.value == "West"
    assert [(c["file"], c["page"], c["quote"]) for c in result.citations] == [
        ("sales.pdf", 2, "West"),  # the row's label and the compared cell, as printed
        ("sales.pdf", 2, "4.500,25"),
    ]
    assert all(c["box"] and len(c["box"]) == 4 for c in result.citations)
    assert result.reading == (
        "From the table 'Table 2: Sales by region (in thousands)' on page 2 of sales.pdf: "
        "Region of the row with the largest Sales."
    )


def test_a_mean_over_a_filtered_group_cites_the_rows_it_took(box, frames) -> None:
    program = "north_south = t1[t1['Region'].isin(['North', 'South'])]\nnorth_south['Sales'].mean()"
    result = answer_with_program(program, frames, sandbox=box)
    assert result.value == pytest.approx((1200.5 - 300) / 2)
    assert [c["quote"] for c in result.citations] == ["North", "1,200.50", "South", "(300)"]
    assert result.unit == "$ (in thousands)" and result.frames == ["t1"]
    assert result.reading.endswith("the mean of Sales, over the rows where Region is one of 'North', 'South'.")


def test_a_count_with_a_condition_and_a_difference_of_two_cells(box, frames) -> None:
    count = answer_with_program("(t1['Share'] > 10).sum()", frames, sandbox=box)
    assert count.value == 3 and count.unit == ""
    assert {c["quote"] for c in count.citations} >= {"12%", "45%", "20%"}
    program = "t1.loc[t1.Region == 'West', 'Sales'].iloc[0] - t1.loc[t1.Region == 'East', 'Sales'].iloc[0]"
    difference = answer_with_program(program, frames, sandbox=box)
    assert difference.value == pytest.approx(2500.25) and difference.text == "2,500.25"
    assert [c["quote"] for c in difference.citations] == ["West", "4.500,25", "East", "$2,000"]


def test_conditions_joined_without_brackets_are_read_as_they_can_only_be_meant(box, frames) -> None:
    """``a == x & b > y`` is one chained comparison to Python (a TypeError in pandas); a small model writes it
    often (q7), and it can only mean ``(a == x) & (b > y)``. Mixed ``&`` and ``|`` are left as written."""
    program = "t1.loc[t1['Units'] > 10 & t1['Share'] < 30, 'Region'].tolist()"
    picked = answer_with_program(program, frames, sandbox=box)
    assert picked.value == ["North", "East"] and "(t1['Units'] > 10) & (t1['Share'] < 30)" in picked.program
    with pytest.raises(ProgramFailed):
        answer_with_program(
            "t1.loc[t1['Units'] > 10 & t1['Share'] < 30 | t1['Sales'] > 0, 'Region']", frames, sandbox=box
        )


def test_a_row_label_as_a_row_key_reads_that_row(box, frames) -> None:
    """``t1.loc["West", "Sales"]`` is a KeyError over rows numbered 0..n-1, which the model wrote again on its retry
    (q11: a current ratio, a percent change, a segment's share): a key that is one row's label is read as that row
    (as written, or ignoring case and a closing ":"), cited as the row it reads; a key no row bears stays an error."""
    ratio = answer_with_program("t1.loc['West', 'Sales'] / t1.at['east:', 'Sales']", frames, sandbox=box)
    assert ratio.value == pytest.approx(4500.25 / 2000)
    assert [c["quote"] for c in ratio.citations] == ["West", "4.500,25", "East", "$2,000"]
    again = answer_with_program("t1.loc['West', 'Sales'].iloc[0] - t1.loc['East', 'Sales']", frames, sandbox=box)
    assert again.value == pytest.approx(2500.25)  # the model's own .iloc[0] after the key is not taken twice
    with pytest.raises(ProgramFailed, match="KeyError"):
        answer_with_program("t1.loc['Northwest', 'Sales']", frames, sandbox=box)


def test_a_column_named_with_the_kind_the_schema_prints_after_it_is_that_column(box, frames) -> None:
    """The schema prints a column with its kind after it (``'Share' %``); the model wrote ``"Three Months Ended July
    29, 2023 %"`` as the column's name, a KeyError it repeated on its retry (q11): read as the column it names."""
    share = answer_with_program("t1.loc[t1['Region'] == 'West', 'Share %'].iloc[0]", frames, sandbox=box)
    assert share.value == pytest.approx(45) and "'Share'" in share.program
    with pytest.raises(ProgramFailed, match="KeyError"):
        answer_with_program("t1.loc[t1['Region'] == 'West', 'Shares %'].iloc[0]", frames, sandbox=box)


def test_the_top_rows_and_a_second_frame(box, frames) -> None:
    top = answer_with_program("t1.nlargest(2, 'Units')[['Region', 'Units']]", frames, sandbox=box)
    assert top.value == [{"Region": "West", "Units": 40.0}, {"Region": "East", "Units": 22.0}]
    assert [c["quote"] for c in top.citations] == ["West", "40", "East", "22"]
    costs = answer_with_program("t2.loc[t2.Item == 'Staff', 'Cost'].sum()", frames, sandbox=box)
    assert costs.value == 2400 and {c["page"] for c in costs.citations} == {3}
    assert [c["quote"] for c in costs.citations] == ["Staff", "2,400"]


def test_a_corpus_statement_difference_cites_its_two_cells(box, real) -> None:
    path = real("financebench__AMAZON_2019_10K.pdf")
    frames = candidate_frames(FrameStore(), {"amzn.pdf": [38]}, {"amzn.pdf": path})
    program = "row = t1[t1['label'] == 'Operating income']\nrow['2019'].sum() - row['2018'].sum()"
    result = answer_with_program(program, frames, sandbox=box)
    assert result.value == 14541 - 12421  # the cells of ../tests/data/tables/amazon_operations.json
    assert [(c["page"], c["quote"]) for c in result.citations] == [
        (38, "Operating income"),
        (38, "12,421"),
        (38, "14,541"),
    ]
    assert result.unit == "$ (in millions)"


def test_a_combined_frame_sums_across_files_and_cites_each(box, tmp_path: Path) -> None:
    tables = {
        "north.pdf": [["Fund", "Assets"], ["Lakeshore Value", "1,200"], ["Harbor Growth", "800"]],
        "south.pdf": [["Fund", "Assets"], ["Prairie Income", "300"]],
    }
    files = {name: draw_pdf(tmp_path / name, [[DrawnTable(rows)]]) for name, rows in tables.items()}
    frames = candidate_frames(FrameStore(), {name: [1] for name in files}, files)
    result = answer_with_program("t1[t1['Assets'] > 500]['Assets'].sum()", frames, sandbox=box)
    assert result.value == 2000
    assert [(c["file"], c["quote"]) for c in result.citations] == [
        ("north.pdf", "Lakeshore Value"),
        ("north.pdf", "1,200"),
        ("north.pdf", "Harbor Growth"),
        ("north.pdf", "800"),
    ]
    everyone = answer_with_program("t1['Assets'].sum()", frames, sandbox=box)
    assert everyone.value == 2300 and {c["file"] for c in everyone.citations} == {"north.pdf", "south.pdf"}


def test_citations_stay_within_five_pages(box) -> None:
    raws = [
        RawTable(f"f{i}.pdf", i, 1, [[("Item", None), ("Cost", None)], [("Rent", None), (str(i), None)]], 1)
        for i in range(1, 8)
    ]
    frames = name_frames(combine_files([frame_of(r) for r in raws]))  # type: ignore[misc]
    result = answer_with_program("t1['Cost'].sum()", frames, sandbox=box)
    assert result.value == sum(range(1, 8))
    assert len({(c["file"], c["page"]) for c in result.citations}) == 5


# ---------------------------------------------------------------- failures go back to the model


def test_a_sum_of_blank_figures_is_no_answer(box, tmp_path: Path) -> None:
    """A sum over rows whose figures are blank is 0 of nothing (q9 asked again, tuning: "total amount due on the
    AWS invoice?" answered 0 from the row "Bill to Address:"); a figure read is an answer."""
    rows = [["Field", "Amount"], ["Invoice Number:", "42183017"], ["Bill to Address:", ""], ["Balance payable", "4.11"]]
    path = draw_pdf(tmp_path / "aws.pdf", [[DrawnTable(rows, caption="Invoice")]])
    found = candidate_frames(FrameStore(), {"aws.pdf": [1]}, {"aws.pdf": path})
    with pytest.raises(ProgramFailed, match="read no figure"):
        answer_with_program('t1.loc[t1["Field"] == "Bill to Address:", "Amount"].sum()', found, sandbox=box)
    program = 't1.loc[t1["Field"] == "Balance payable", "Amount"].sum()'
    assert answer_with_program(program, found, sandbox=box).value == 4.11


def test_a_blank_text_cell_does_not_contain_a_text(box, tmp_path: Path) -> None:
    """``.str.contains`` over a column with a blank cell (a missing value here) gave NaN there, and masking with it
    failed (q9 asked again, tuning: three invoice questions "Cannot mask with non-boolean array")."""
    rows = [["Item", "Note", "Amount"], ["A", "late fee", "5"], ["B", "", "7"], ["C", "late", "3"]]
    path = draw_pdf(tmp_path / "notes.pdf", [[DrawnTable(rows, caption="Charges")]])
    found = candidate_frames(FrameStore(), {"notes.pdf": [1]}, {"notes.pdf": path})
    program = 't1.loc[t1["Note"].str.contains("late", case=False), "Amount"].sum()'
    assert answer_with_program(program, found, sandbox=box).value == 8


def test_an_empty_result_and_an_error_are_failures_with_a_message_for_the_model(box, frames) -> None:
    with pytest.raises(ProgramFailed, match="empty.*'North', 'South', 'West', 'East'"):
        answer_with_program("t1[t1.Region == 'Mars'].Sales", frames, sandbox=box)
    with pytest.raises(ProgramFailed, match="empty"):
        answer_with_program("t1[t1.Region == 'Mars'].Sales.sum()", frames, sandbox=box)
    with pytest.raises(ProgramFailed, match="KeyError: 'Revenue' is not a column"):
        answer_with_program("t1['Revenue'].sum()", frames, sandbox=box)
    with pytest.raises(ProgramFailed, match="'Staff' is a row label of t2"):  # read from the wrong frame
        answer_with_program("t1.loc[t1['Region'] == 'Staff', 'Sales'].iloc[0]", frames, sandbox=box)
    # .iloc[0] of no row is the empty result it is, with the row labels (q10: "IndexError: single positional
    # indexer is out-of-bounds" told the model nothing of the rows)
    with pytest.raises(ProgramFailed, match=r"empty \(no row to take .iloc of\).*'North', 'South'"):
        answer_with_program("t1.loc[t1['Region'] == 'Mars', 'Sales'].iloc[0]", frames, sandbox=box)
    # a row label read as a column (q10: the model wrote the same program again when told only of the KeyError)
    with pytest.raises(ProgramFailed, match=r"'North' is a row label of t1 \(in its column 'Region'\), not a column: "):
        answer_with_program("t1.loc[t1['Units'] > 0, 'North'].iloc[0]", frames, sandbox=box)
    # a name no row or column is, but one holds it: "7. Department of Fertilisers" asked as "Department of …"
    with pytest.raises(ProgramFailed, match=r"'The North' is no row label or column; the closest: 'North' \(row label"):
        answer_with_program("t1.loc[t1['Region'] == 'The North', 'Sales'].iloc[0]", frames, sandbox=box)
    zero = answer_with_program("len(t1[t1.Units > 1000])", frames, sandbox=box)
    assert zero.value == 0  # a count of no rows is an answer
    assert issubclass(ProgramFailed, DocPilotError) and issubclass(ProgramRefused, DocPilotError)
