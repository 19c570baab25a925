"""Tables drawn without rules (columns aligned by whitespace): found, read cell by cell, exported.

Real tables are compared with truths typed from the rendered pages (tests/data/tables/*.json, scored
by bench/tables.py's rule); fixture tables are built here from known frames.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pymupdf
import pytest
from conftest import CORPUS

from pdftools import tools_convert as tc
from pdftools._tablecells import TextTable
from pdftools._tables import page_tables, table_frame
from pdftools.errors import PdfToolError
from pdftools.tools_extract import extract_tables

TRUTHS = Path(__file__).resolve().parent / "data" / "tables"
BENCH = Path(__file__).resolve().parents[1] / "bench" / "tables.py"


def _bench():
    """bench/tables.py, for its scoring rule (one definition of a right cell for the bench and the tests)."""
    spec = importlib.util.spec_from_file_location("table_bench", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- real tables against typed truths


@pytest.mark.parametrize("truth_file", sorted(TRUTHS.glob("*.json")), ids=lambda p: p.stem)
def test_unruled_corpus_tables_match_the_typed_truth(truth_file: Path, guard) -> None:
    truth = json.loads(truth_file.read_text(encoding="utf-8"))
    source = CORPUS / truth["file"]
    if not source.exists():
        pytest.skip(f"corpus file {source} is absent (../shared/corpus not beside the project)")
    tables = extract_tables(guard(source), pages=str(truth["page"]))
    right, total, _ = _bench().score(truth["rows"], [t["rows"] for t in tables])
    assert right >= 0.95 * total, f"{right}/{total} cells right on page {truth['page']} of {source.name}"


def test_two_statements_on_one_page_are_two_tables_and_two_sheets(real) -> None:
    import openpyxl

    source = real("financebench__ULTABEAUTY_2023Q4_EARNINGS.pdf")
    tables = extract_tables(source, pages="6")
    assert len(tables) == 2
    assert [t["rows"][0][2] for t in tables] == ["13 Weeks Ended", "52 Weeks Ended"]
    out = tc.convert_to_xlsx(file=source, pages="6")
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["p6 table 1", "p6 table 2"]
    net_sales = next(row for row in book["p6 table 2"].iter_rows(values_only=True) if row[0] == "Net sales")
    assert net_sales[2] == 1.0 and net_sales[4] == 1.0  # "100.0%" is a percentage cell


def test_a_statement_ruled_under_its_rows_is_read_by_alignment(real) -> None:
    """Amcor's income statement has rules under rows and none between columns: PyMuPDF's line
    strategy reads it as merged cells; text alignment gives its five columns."""
    with pymupdf.open(real("financebench__AMCOR_2023Q4_EARNINGS.pdf")) as doc:
        page = doc[7]
        (table,) = page_tables(page)
        assert isinstance(table, TextTable) and table.col_count == 5 and table.header_rows == 2
        frame = table_frame(page, table)
    assert frame.loc[frame.iloc[:, 0] == "Cost of sales"].iloc[0].tolist()[1:] == [
        "(3,115)",
        "(2,951)",
        "(11,724)",
        "(11,969)",
    ]


# ---------------------------------------------------------------- fixture tables from known frames

STATEMENT = {
    "spans": ["Three Months Ended", "Six Months Ended"],
    "years": ["2024", "2023", "2024", "2023"],
    "rows": [
        ["Revenue", "1,250", "1,100", "2,480", "2,170"],
        ["Cost of sales", "(700)", "(640)", "(1,390)", "(1,260)"],
        ["Gross profit", "550", "460", "1,090", "910"],
        ["Other expense, net", "(12)", "4", "(20)", "(3)"],
        ["Net income", "538", "464", "1,070", "907"],
    ],
}
SURVEY = [
    ["Region", "Households", "Share"],
    ["North", "12,400", "31.0%"],
    ["South", "9,850", "24.6%"],
    ["East", "8,020", "20.1%"],
    ["West", "9,730", "24.3%"],
]
PROSE = (
    "Households were counted in the spring survey. The regions follow the postal districts, and every "
    "figure below is rounded to the nearest ten households."
)


def _right(page: pymupdf.Page, x: float, y: float, text: str, size: float = 9) -> None:
    page.insert_text((x - pymupdf.get_text_length(text, "helv", size), y), text, fontsize=size, fontname="helv")


def _left(page: pymupdf.Page, x: float, y: float, text: str, size: float = 9) -> None:
    page.insert_text((x, y), text, fontsize=size, fontname="helv")


@pytest.fixture
def two_tables(tmp_path: Path, guard) -> str:
    """A page with a title, a statement (a two-row heading, the first spanning column pairs;
    negatives in parentheses; a footnote under it), a paragraph, and a survey table."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Quarterly report", fontsize=14, fontname="hebo")
    rights = [330, 400, 470, 540]
    y = 100
    for span, (a, b) in zip(STATEMENT["spans"], [(0, 1), (2, 3)], strict=True):
        middle = (rights[a] - 40 + rights[b]) / 2
        _left(page, middle - pymupdf.get_text_length(span, "helv", 9) / 2, y, span)
    y += 13
    for x, year in zip(rights, STATEMENT["years"], strict=True):
        _right(page, x, y, year)
    for row in STATEMENT["rows"]:
        y += 13
        _left(page, 72, y, row[0])
        for x, value in zip(rights, row[1:], strict=True):
            _right(page, x, y, value)
    y += 18
    _left(page, 72, y, "(1) Unaudited; amounts in thousands of dollars.", size=7)
    y += 40
    page.insert_textbox(pymupdf.Rect(72, y, 540, y + 60), PROSE, fontsize=10, fontname="helv")
    y += 90
    for row in SURVEY:
        _left(page, 72, y, row[0])
        _right(page, 300, y, row[1])
        _right(page, 380, y, row[2])
        y += 13
    path = tmp_path / "inputs" / "two_tables.pdf"
    path.parent.mkdir(exist_ok=True)
    doc.save(path)
    doc.close()
    return guard(path)


def test_fixture_tables_come_back_as_built(two_tables: str) -> None:
    first, second = extract_tables(two_tables)
    assert first["rows"] == [
        ["", "Three Months Ended", "", "Six Months Ended", ""],
        ["", *STATEMENT["years"]],
        *STATEMENT["rows"],
    ]
    assert second["rows"] == SURVEY
    assert first["page"] == second["page"] == 1


def test_fixture_frames_keep_headings_labels_and_boxes(two_tables: str) -> None:
    with pymupdf.open(two_tables) as doc:
        page = doc[0]
        statement, survey = page_tables(page)
        frame = table_frame(page, statement)
        where = page.search_for("(1,390)")[0]
    assert list(frame.columns)[1:] == [
        ("Three Months Ended", "2024"),
        ("Three Months Ended", "2023"),
        ("Six Months Ended", "2024"),
        ("Six Months Ended", "2023"),
    ]
    assert frame.iloc[:, 0].tolist() == [r[0] for r in STATEMENT["rows"]]
    assert frame.iloc[1, 3] == "(1,390)"
    box = frame.attrs["boxes"][1][3]
    assert abs(box[0] - where.x0) < 1 and abs(box[2] - where.x1) < 1
    assert frame.attrs["page"] == 1
    survey_frame = table_frame(page, survey)
    assert list(survey_frame.columns) == SURVEY[0] and survey_frame.shape == (4, 3)


def test_fixture_workbook_has_one_sheet_per_table(two_tables: str) -> None:
    import openpyxl

    book = openpyxl.load_workbook(tc.convert_to_xlsx(file=two_tables))
    assert book.sheetnames == ["p1 table 1", "p1 table 2"]
    rows = [list(r) for r in book["p1 table 1"].iter_rows(values_only=True)]
    assert rows[3] == ["Cost of sales", -700, -640, -1390, -1260]
    survey = [list(r) for r in book["p1 table 2"].iter_rows(values_only=True)]
    assert survey[1] == ["North", 12400, 0.31]


def test_prose_in_columns_is_no_table(tmp_path: Path, guard) -> None:
    """Two columns of running text line up like a table of two columns; they hold no figures."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    words = "the committee met twice and agreed on the plan for the coming year".split()
    for i in range(20):
        line = " ".join(words[(i + k) % len(words)] for k in range(6))
        _left(page, 72, 80 + 13 * i, line)
        _left(page, 330, 80 + 13 * i, line)
    path = tmp_path / "prose.pdf"
    doc.save(path)
    doc.close()
    assert extract_tables(guard(path)) == []
    with pytest.raises(PdfToolError, match="No tables found"):
        tc.convert_to_xlsx(file=str(path))


def test_a_lean_sandbox_preloads_what_reading_by_alignment_imports(real, tmp_path: Path) -> None:
    """The sandbox's worker may not read Python's folders: camelot is loaded before, by the tools' needs."""
    import subprocess
    import sys

    spec = importlib.util.spec_from_file_location(
        "preload_probe", TRUTHS.parents[1] / "sandbox" / "test_sandbox_preload.py"
    )
    assert spec and spec.loader
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    statement = real("financebench__AMCOR_2023Q4_EARNINGS.pdf")
    late = {}
    for name in ("convert_to_markdown", "convert_to_docx", "convert_to_xlsx", "extract_tables"):
        call = [(name, {"file": statement, "pages": "8"})]  # one process each: nothing loaded by another tool
        proc = subprocess.run(
            [sys.executable, "-I", "-c", probe.PROBE, str(probe.ROOT), json.dumps(call)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        mods = json.loads(proc.stdout.strip().splitlines()[-1])[name]
        assert isinstance(mods, list), mods  # the call ran
        if mods:
            late[name] = mods
    assert not late, f"modules imported after the sandbox's preloading: {late}"


def test_a_book_page_camelot_cannot_read_is_no_table_not_a_failure() -> None:
    """camelot raises TypeError on a table area with no text lines in it (a page of pdfjs__freeculture.pdf):
    that area is no table, the other areas are still read, and Word conversion of the book does not fail."""
    from pdftools._texttables import find_text_tables

    book = CORPUS / "real" / "pdfjs__freeculture.pdf"
    if not book.exists():
        pytest.skip("../shared/corpus is not beside the project")
    with pymupdf.open(book) as doc:
        found = [table for page in doc for table in find_text_tables(page)]
    assert found, "the book's real tables are still found"
