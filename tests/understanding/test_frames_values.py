"""Numbers as tables print them, read once; the scale a caption or heading states."""

from __future__ import annotations

import pytest

from docpilot.understanding.frames import read_number, read_scale


@pytest.mark.parametrize(
    ("text", "value", "percent", "currency"),
    [
        ("1,234", 1234, False, ""),  # thousands comma
        ("1,234,567.89", 1234567.89, False, ""),
        ("1.234.567", 1234567, False, ""),  # dots grouping thousands twice
        ("1.234,56", 1234.56, False, ""),  # decimal comma with dot thousands
        ("€ 399,00", 399.0, False, "€"),  # decimal comma, currency before
        ("€-9,32", -9.32, False, "€"),
        ("12 345", 12345, False, ""),  # space as thousands separator
        ("25.47x", 25.47, False, ""),  # a multiple (a speedup)
        ("3×", 3, False, ""),
        ("12\u202f345", 12345, False, ""),  # narrow no-break space
        ("1'234.5", 1234.5, False, ""),  # Swiss apostrophe
        ("(4,378)", -4378, False, ""),  # accounting parentheses
        ("(0.1%)", -0.1, True, ""),
        ("(6.4)%", -6.4, True, ""),  # the sign outside the parentheses
        ("(1)", -1, False, ""),  # parentheses alone: minus one, not a footnote mark
        ("$(12)", -12, False, "$"),
        ("($12.50)", -12.5, False, "$"),
        ("\u22125.5", -5.5, False, ""),  # a true minus sign
        ("-7", -7, False, ""),
        ("100.0%", 100.0, True, ""),
        ("12,5%", 12.5, True, ""),
        ("$3,226,773", 3226773, False, "$"),
        ("USD 5", 5, False, "USD"),
        ("5 EUR", 5, False, "EUR"),
        ("1.2 million", 1_200_000, False, ""),
        ("$3bn", 3e9, False, "$"),
        ("3.5*", 3.5, False, ""),  # footnote marks
        ("2006 (*)", 2006, False, ""),
        ("1.5", 1.5, False, ""),  # a single dot is a decimal point
        ("0.25", 0.25, False, ""),
    ],
)
def test_numbers_are_read_as_printed(text: str, value: float, percent: bool, currency: str) -> None:
    number = read_number(text)
    assert number is not None, text
    assert number.value == pytest.approx(value)
    assert (number.percent, number.currency) == (percent, currency)


@pytest.mark.parametrize(
    "text", ["", "—", "-", "n/a", "...", "…", "Net sales", "January 28,", "A320", "1,23,4", "12 34", "$", "x", "2 x 4"]
)
def test_text_blanks_and_dashes_are_not_numbers(text: str) -> None:
    assert read_number(text) is None


@pytest.mark.parametrize(
    ("text", "scale"),
    [
        ("(In thousands, except per share data)", "thousand"),
        ("(in millions, except per share data)", "million"),
        ("($ million, except per share amounts)", "million"),
        ("$ and shares in millions, except per share amounts (unaudited)", "million"),
        ("Table 4: Revenue (EUR thousand)", "thousand"),
        ("Amounts in billions of dollars", "billion"),
        ("USD bn", "billion"),
        ("Table 1: Real GDP growth rate (percentage change on previous year)", ""),
        ("Visitors reached 3 million in 2019", ""),  # a scale word in prose is not the table's scale
    ],
)
def test_the_scale_is_read_from_captions_and_headings(text: str, scale: str) -> None:
    assert read_scale(text) == scale
