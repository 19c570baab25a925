"""A model's program that runs may still read the neighbour of what the question names: a row sharing one word
with it ("Net income" for "net interest expense"), or the column of another date. These checks send it back; a
program reading what the question names passes. The programs run for real over frames read from drawn cells."""

from __future__ import annotations

import pytest

from docpilot.understanding.frames import Frame, RawTable, answer_with_program, frame_of, name_frames
from docpilot.understanding.naming_checks import other_period, row_passed_over

INCOME = [
    ["GAAP results", "2023 $ million", "2022 $ million"],
    ["Net sales", "14,694", "14,544"],
    ["Net income", "1,048", "805"],
]
DETAIL = [
    ["", "2023", "2022"],
    ["Interest expense, net", "290", "166"],
    ["Income tax expense", "193", "215"],
]
BALANCE = [
    ["", "January 28, 2023", "January 29, 2022"],
    ["Total current assets", "2,568", "2,431"],
    ["Total current liabilities", "1,594", "1,475"],
]


def frames(*tables: list[list[str]]) -> list[Frame]:
    out = []
    for k, rows in enumerate(tables, 1):
        cells: list[list[tuple[str, None] | None]] = [[(c, None) if c else None for c in row] for row in rows]
        frame = frame_of(RawTable("report.pdf", k, 1, cells, 1, ""))
        assert frame is not None
        out.append(frame)
    return name_frames(out)


def run(program: str, shown: list[Frame]):  # type: ignore[no-untyped-def]
    return answer_with_program(program, shown)


def test_a_row_sharing_one_word_is_sent_back_for_the_row_the_question_names() -> None:
    shown = frames(INCOME, DETAIL)
    question = "How much did the net interest expense rise in 2023 compared with 2022?"
    wrong = run(
        't1.loc[t1["GAAP results"] == "Net income", "2023 $ million"].iloc[0] - '
        't1.loc[t1["GAAP results"] == "Net income", "2022 $ million"].iloc[0]',
        shown,
    )
    problem = row_passed_over(question, wrong, shown)
    assert "'Interest expense, net' of t2" in problem
    label = shown[1].label
    right = run(
        f't2.loc[t2["{label}"] == "Interest expense, net", "2023"].iloc[0] - '
        f't2.loc[t2["{label}"] == "Interest expense, net", "2022"].iloc[0]',
        shown,
    )
    assert right.value == 124 and row_passed_over(question, right, shown) == ""


def test_a_row_that_says_one_more_word_than_the_row_read_is_not_judged() -> None:
    shown = frames(INCOME + [["Net income attributable to Amcor", "1,048", "805"]], DETAIL)
    result = run('t1.loc[t1["GAAP results"] == "Net income", "2023 $ million"].iloc[0]', shown)
    assert row_passed_over("What was Amcor's net income in 2023?", result, shown) == ""
    assert row_passed_over("What was the income tax expense in 2023?", result, shown) != ""


@pytest.mark.parametrize(
    ("question", "sent_back"),
    [
        ("What were total current liabilities at January 28, 2023?", True),
        ("What were total current liabilities in 2023?", True),
        ("What were total current liabilities at January 28, 2023 compared with the year before?", False),
        # a fiscal year is named by the year it ends in or begins in, as the company chooses: not judged
        ("What were total current liabilities at the end of fiscal 2022?", False),
    ],
)
def test_a_column_of_another_date_is_sent_back(question: str, sent_back: bool) -> None:
    shown = frames(BALANCE)
    label = shown[0].label
    result = run(f't1.loc[t1["{label}"] == "Total current liabilities", "January 29, 2022"].iloc[0]', shown)
    assert bool(other_period(question, result, shown)) is sent_back
    named = run(f't1.loc[t1["{label}"] == "Total current liabilities", "January 28, 2023"].iloc[0]', shown)
    assert other_period(question, named, shown) == ""


def test_a_row_of_another_date_is_sent_back_though_no_row_carries_the_date_asked() -> None:
    # q14, tuning: "shares outstanding as of August 30, 2023" answered from a repurchase table's July row
    shown = frames([["Fiscal Period", "Shares Purchased"], ["July 2, 2023 through July 29, 2023", "254,399"]])
    result = run(
        't1.loc[t1["Fiscal Period"] == "July 2, 2023 through July 29, 2023", "Shares Purchased"].iloc[0]', shown
    )
    assert "'July 2, 2023 through July 29, 2023'" in other_period(
        "Shares outstanding as of August 30, 2023?", result, shown
    )
    assert other_period("How many shares were purchased from July 2, 2023 through July 29, 2023?", result, shown) == ""


CHECKS = [
    [
        "State / Territory",
        "Permit",
        "Handgun",
        "Long Gun",
        "Pre-Pawn Redemption Handgun",
        "Pre-Pawn Redemption Long Gun",
    ],
    ["Alabama", "100", "5,000", "4,000", "20", "30"],
    ["Texas", "0", "9,000", "8,000", "40", "60"],
]


def test_a_column_the_question_says_is_not_meant_names_nothing() -> None:
    """q15 (tuning): "the main Handgun column (the one right after Permit, not the pawn or redemption columns)" was
    sent back for naming "Pre-Pawn Redemption Handgun" better than "Handgun"."""
    from docpilot.understanding.program_checks import problem_with

    shown = frames(CHECKS)
    label = shown[0].label
    result = run(f't1.loc[t1["Handgun"].idxmax(), "{label}"]', shown)
    assert result.value == "Texas"
    question = (
        "Which state had the most checks in the main Handgun column (the one right after Permit, not the pawn or "
        "redemption columns)?"
    )
    kwargs = {"share": False, "counted": False, "embed": None, "written_by_model": True}
    assert problem_with(question, result, shown, **kwargs) == ""  # type: ignore[arg-type]
    asked = "Which state had the most pawn redemption handgun checks?"
    assert "Pre-Pawn Redemption Handgun" in problem_with(asked, result, shown, **kwargs)  # type: ignore[arg-type]
