"""Tables as frames: found on the pages asked for only, cached per (file, page), headings joined, row labels
kept, numbers parsed once, provenance per cell; frames of several files combined; the schema a model sees.

Fixture tables are drawn with PyMuPDF (tests/table_pdfs.py); real tables come from ../shared/corpus, with
their cells compared to the truths typed by hand in tests/data/tables/.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from table_pdfs import DrawnTable, draw_pdf

from docpilot.understanding.cache import StructureCache
from docpilot.understanding.frames import (
    FrameStore,
    RawTable,
    candidate_frames,
    finding,
    frame_of,
    name_frames,
    read_number,
    schema_text,
    tokens,
)

TRUTHS = Path(__file__).resolve().parents[1] / "data" / "tables"
SALES = [
    ["Region", "Sales", "Share"],
    ["North", "1,200.50", "12%"],
    ["South", "(300)", "3%"],
    ["West", "4.500,25", "45%"],
    ["East", "$2,000", "20%"],
]
SPLIT = [  # a heading spanning two columns over the years, a note in parentheses over the labels
    ["", "Three Months Ended", "", "Six Months Ended", ""],
    ["($ million)", "2023", "2022", "2023", "2022"],
    ["Revenue", "9,583", "10,329", "19,050", "20,976"],
    ["Cost of sales", "(7,363)", "(8,042)", "(14,680)", "(16,336)"],
    ["Operating expenses:", "", "", "", ""],
    ["Marketing", "1,879", "1,882", "3,727", "3,772"],
]


def _truth(name: str) -> dict:
    return json.loads((TRUTHS / name).read_text(encoding="utf-8"))


@pytest.fixture
def sales_pdf(tmp_path: Path, guard) -> str:
    pages: list = ["A page of prose, no table here."]
    pages.append([DrawnTable(SALES, caption="Table 2: Sales by region (in thousands)")])
    pages.append([DrawnTable(SALES, caption="Table 3: Sales again, unruled", ruled=False)])
    return guard(draw_pdf(tmp_path / "sales.pdf", pages))


@pytest.mark.parametrize("page", [2, 3], ids=["ruled", "unruled"])
def test_a_drawn_table_becomes_a_typed_frame_with_its_cells(sales_pdf: str, page: int) -> None:
    (frame,) = FrameStore().frames(sales_pdf, [page])
    assert frame.columns == ["Region", "Sales", "Share"] and frame.label == "Region"
    assert frame.row_labels() == ["North", "South", "West", "East"]
    assert frame.data["Sales"].tolist() == [1200.5, -300.0, 4500.25, 2000.0]  # parsed once, as printed
    assert frame.kinds == {"Region": "text", "Sales": "money $", "Share": "percent"}
    assert frame.data["Share"].tolist() == [12.0, 3.0, 45.0, 20.0]
    cell = frame.cell(1, "Sales")
    assert cell is not None and (cell.file, cell.page, cell.text) == ("sales.pdf", page, "(300)")
    assert cell.box is not None and 120 < cell.box[1] < 200  # the second body row, where it was drawn
    if page == 2:
        assert frame.caption == "Table 2: Sales by region (in thousands)" and frame.scale == "thousand"


@pytest.mark.parametrize("ruled", [True, False], ids=["ruled", "unruled"])
def test_headings_are_joined_across_rows_and_notes_give_the_scale(tmp_path: Path, ruled: bool) -> None:
    table = DrawnTable(SPLIT, header_rows=2, caption="Statement of earnings", ruled=ruled, widths=[130] + [100] * 4)
    path = draw_pdf(tmp_path / "split.pdf", [[table]])
    (frame,) = FrameStore().frames(path, [1])
    assert frame.caption == "Statement of earnings"
    assert frame.columns == [
        "label",
        "Three Months Ended 2023",
        "Three Months Ended 2022",
        "Six Months Ended 2023",
        "Six Months Ended 2022",
    ]
    assert frame.scale == "million"  # from "($ million)" over the row labels
    assert frame.data["Six Months Ended 2022"].tolist()[:2] == [20976, -16336]
    section = frame.row_labels().index("Operating expenses:")  # a section row is kept, its figures blank
    assert math.isnan(frame.data["Three Months Ended 2023"][section])


def test_tables_are_read_only_on_the_pages_asked_and_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(finding, "MAX_PAGES", 3)  # the cap, kept small so the test reads few pages
    pages: list = [f"Page {n} of a long report, prose only." for n in range(1, 31)]
    pages[24] = [DrawnTable(SALES, caption="Table 9: Sales")]
    path = draw_pdf(tmp_path / "long.pdf", pages)
    cache = StructureCache(tmp_path / "cache")
    store = FrameStore(cache)
    (frame,) = store.frames(path, [25])
    assert store.pages_read == 1 and frame.pages == (25,)
    assert store.frames(path, [25, 24]) and store.pages_read == 2  # page 25 came from memory
    again = FrameStore(cache)  # a new process: from the disk cache
    (cached,) = again.frames(path, [25])
    assert again.pages_read == 0 and cached.data.equals(frame.data) and cached.cells == frame.cells
    capped = FrameStore()
    assert capped.frames(path, range(1, 31)) == [] and capped.pages_read == 3  # never every page of a report


def test_frames_of_several_files_with_the_same_columns_are_one_frame(tmp_path: Path) -> None:
    north = [["Fund", "Assets", "Fee"], ["Lakeshore Value", "1,200", "0.5%"], ["Harbor Growth", "800", "0.7%"]]
    south = [["Fund", "Assets", "Fee"], ["Prairie Income", "300", "0.4%"]]
    files = {
        "north.pdf": draw_pdf(tmp_path / "north.pdf", [[DrawnTable(north, caption="Table 1: Funds")]]),
        "south.pdf": draw_pdf(tmp_path / "south.pdf", ["prose", [DrawnTable(south, caption="Table 1: Funds")]]),
        "other.pdf": draw_pdf(tmp_path / "other.pdf", [[DrawnTable(SALES)]]),
    }
    frames = candidate_frames(FrameStore(), {"north.pdf": [1], "south.pdf": [2], "other.pdf": [1]}, files)
    assert [f.name for f in frames] == ["t1", "t2"]
    funds = frames[0]
    assert funds.columns == ["file", "Fund", "Assets", "Fee"] and funds.files == ("north.pdf", "south.pdf")
    assert funds.data["file"].tolist() == ["north.pdf", "north.pdf", "south.pdf"]
    assert funds.data["Assets"].sum() == 2300
    cell = funds.cell(2, "Assets")
    assert cell is not None and (cell.file, cell.page, cell.text) == ("south.pdf", 2, "300")
    assert frames[1].columns == ["Region", "Sales", "Share"]


def test_a_corpus_table_matches_its_typed_truth(real) -> None:
    truth = _truth("eu012_gdp_growth.json")
    path = real(Path(truth["file"]).name)
    (frame,) = FrameStore().frames(path, [truth["page"]])
    head, *body = truth["rows"]
    assert frame.columns == ["label", *head[1:]]
    assert frame.caption.startswith("Table 1: Real GDP growth rate in Finland")
    assert [[c.text for c in row if c] for row in frame.cells] == body  # each cell's text as printed
    expected = [[read_number(t).value for t in row[1:]] for row in body]  # type: ignore[union-attr]
    assert frame.data[head[1:]].values.tolist() == expected
    assert all(c.page == truth["page"] and c.file == path.rsplit("/", 1)[-1] for row in frame.cells for c in row if c)


def test_a_corpus_statement_keeps_its_heading_scale_and_rows(real) -> None:
    truth = _truth("amazon_operations.json")
    path = real(Path(truth["file"]).name)
    (frame,) = FrameStore().frames(path, [truth["page"]])
    assert frame.heading == "Year Ended December 31," and frame.scale == "million"
    assert frame.columns == ["label", "Section", "2017", "2018", "2019"]
    assert frame.row_labels() == [row[0] for row in truth["rows"][2:]]
    # the rows under "Operating expenses:" down to its total hold it as their section, cited to the heading
    section = dict(zip(frame.row_labels(), frame.data["Section"], strict=True))
    assert section["Fulfillment"] == section["Total operating expenses"] == "Operating expenses"
    assert section["Operating expenses:"] == section["Net income"] == section["Total net sales"] == ""
    cell = frame.cell(frame.row_labels().index("Marketing"), "Section")
    assert cell is not None and cell.text == "Operating expenses:"
    for row in truth["rows"][2:]:
        i = frame.row_labels().index(row[0])
        numbers = [read_number(t) for t in row[1:]]
        got = frame.data.loc[i, ["2017", "2018", "2019"]].tolist()
        assert [n.value if n else None for n in numbers] == [None if math.isnan(v) else v for v in got], row[0]


def test_the_schema_shows_each_frame_within_500_tokens(tmp_path: Path, real) -> None:
    wide = [["State"] + [f"Col {c}" for c in range(2, 13)]] + [
        [f"State {r}"] + [f"{r * c:,}" for c in range(2, 13)] for r in range(1, 41)
    ]  # a frame too big to show whole: built from its cells, not drawn (finding a 480-cell table takes seconds)
    raw = RawTable("wide.pdf", 4, 1, [[(t, None) for t in row] for row in wide], 1, "Table 7: Wide")
    files = {
        "sales.pdf": draw_pdf(tmp_path / "sales.pdf", [[DrawnTable(SALES, caption="Table 2: Sales by region")]]),
        "amzn.pdf": real("financebench__AMAZON_2019_10K.pdf"),
    }
    found = candidate_frames(FrameStore(), {"sales.pdf": [1], "amzn.pdf": [38]}, files)
    frames = name_frames([found[0], frame_of(raw), found[1]])  # type: ignore[list-item]
    text = schema_text(frames)
    assert tokens(text) <= 500, (tokens(text), text)
    first = text.split("\nt2:")[0]
    assert first.startswith("t1: Table 2: Sales by region (page 1 of sales.pdf)")
    assert "'Region' text, 'Sales' $, 'Share' %" in first
    assert "row labels ('Region'): 'North', 'South', 'West', 'East'" in first
    assert "['North', 1200.5, 12]" in first  # a sample row, numbers as parsed
    assert "t2: Table 7: Wide (page 4 of wide.pdf)" in text and "40 rows" in text and "'Col 12'" in text
    assert "t3: AMAZON.COM" in text and "page 38 of amzn.pdf" in text and "amounts in millions" in text
    alone = schema_text(frames[:1])
    assert alone.count("  e.g. ") == 2  # two sample rows when there is room
    asked = schema_text(frames, question="What was the diluted earnings per share in 2019?")
    assert "row labels ('label'): 'Basic earnings per share', 'Diluted earnings per share'," in asked
    assert tokens(asked) <= 500


def test_headings_centred_over_their_columns_head_those_columns(real) -> None:
    """Best Buy's store counts: "Fiscal 2024" and "Fiscal 2023" are each centred over four columns (their cells
    at the second and sixth), and "Total Stores at", the first line of a three-line heading, heads its column
    alone; carried right, "Fiscal 2024" had missed its first column and headed the first of 2023, and "Total
    Stores at" had run into "Stores Opened"."""
    frames = FrameStore().frames(real("financebench__BESTBUY_2024Q2_10Q.pdf"), [17])
    stores = next(f for f in frames if "Yardbird" in f.row_labels())
    assert stores.columns[1:] == [
        f"Fiscal {year} {name}"
        for year in (2024, 2023)
        for name in (
            "Total Stores at Beginning of Second Quarter",
            "Stores Opened",
            "Stores Closed",
            "Total Stores at End of Second Quarter",
        )
    ]
    yardbird = stores.row_labels().index("Yardbird")
    assert stores.data["Fiscal 2024 Total Stores at End of Second Quarter"][yardbird] == 22
    assert stores.data["Fiscal 2024 Stores Closed"].tolist()[:2] == [-1, -1]  # "(1)" is minus one
    mix = next(f for f in frames if "Appliances" in f.row_labels())  # centred a little off its two columns
    assert mix.columns[1:3] == [f"Revenue Mix Three Months Ended {d}" for d in ("July 29, 2023", "July 30, 2022")]


def test_a_heading_line_over_two_columns_is_split_by_the_headings_under_it(real) -> None:
    """Ulta's sales by category: "January 28, January 29," is one line over the columns "2023" and "2022", whose
    figures ("42%") are printed narrower than those years; split by where the years stand, the columns are the
    two dates, and the second table takes the caption of the first (q9, after its measurement: a confident wrong
    43%, the other year's, was read for the fiscal year ended January 28, 2023)."""
    frames = FrameStore().frames(real("financebench__ULTABEAUTY_2023Q4_EARNINGS.pdf"), [9])
    quarter, year = (f for f in frames if "Cosmetics" in f.row_labels())
    assert quarter.columns[1:] == year.columns[1:] == ["January 28, 2023", "January 29, 2022"]
    assert year.heading.startswith("52 Weeks Ended") and "Sales by Category" in year.caption
    assert year.data["January 28, 2023"][year.row_labels().index("Cosmetics")] == 42


def test_a_group_heading_in_the_top_line_of_a_middle_cell_heads_its_columns(real) -> None:
    """India's budget statement: the rules run down through the whole heading, so "Plan" stands in the top line
    of the cell "Plan / Capital" over "Revenue | Capital | Total", and "Non-Plan" likewise; read by the cells
    alone, the two "Revenue" columns could not be told apart (a program asked for "Non-Plan Revenue")."""
    budget = FrameStore().frames(real("camelot__budget.pdf"), [1])[0]
    assert budget.columns[2:9] == [
        *(f"{group} {name}" for group in ("Plan", "Non-Plan") for name in ("Revenue", "Capital", "Total")),
        "Total Plan & Non-Plan",
    ]
    # the ministries in capitals head the demands under them, each a section
    section = dict(zip(budget.row_labels(), budget.data["Section"], strict=True))
    assert section["22. Defence Services-Army"] == section["20. Ministry of Defence"] == "MINISTRY OF DEFENCE"
    assert section["MINISTRY OF DEFENCE"] == ""
    fertilisers = next(i for i, label in enumerate(budget.row_labels()) if label.endswith("Department of Fertilisers"))
    assert budget.data["Non-Plan Revenue"][fertilisers] == pytest.approx(72999.96)


def test_two_years_printed_under_one_bridging_heading_are_two_columns(real) -> None:
    """Amcor's segment table: a rule under its heading only, so the ruled reading held every row in one cell
    ("Net sales / 3,393 / 3,540 / 4 / Adjusted EBIT / 289 …"); read by alignment, the heading "2022 $ million
    2023 $ million" bridged the gap between the years, and each cell held both years' figures ("3,393 3,540")."""
    rigid = next(f for f in FrameStore().frames(real("financebench__AMCOR_2023Q4_EARNINGS.pdf"), [4]))
    assert rigid.row_labels() == ["Net sales", "Adjusted EBIT", "Adjusted EBIT / Sales %"]
    years = [c for c in rigid.columns if c.endswith("$ million")]
    assert years == [f"Twelve Months Ended June 30, {y} $ million" for y in (2022, 2023)]
    assert rigid.data[years[0]].tolist()[:2] == [3393, 289] and rigid.data[years[1]].tolist()[:2] == [3540, 265]


def test_a_table_printed_as_a_papers_figure_is_captioned_from_below(real) -> None:
    """TraceMonkey's statistics table is "Figure 13. …", set under it, and its speedups are printed "2.20x"."""
    (frame, *_) = FrameStore().frames(real("pdfjs__tracemonkey.pdf"), [12])
    assert frame.caption.startswith("Figure 13. Detailed trace recording statistics")
    assert frame.kinds["Speedup"] == "number" and frame.data["Speedup"].iloc[0] == 2.2


def test_a_table_that_runs_on_over_the_next_page_without_its_heading_is_one_frame(real) -> None:
    """The WARN report's "Summary by Month" starts at the foot of page 15 and goes on, unheaded, on page 16
    (December 2015, the month asked for in q4, is on page 16); the table above it on page 15 stays as it was."""
    path = real("pdfplumber__WARN-Report-for-7-1-2015-to-03-25-2016.pdf")
    notices, summary = candidate_frames(FrameStore(), {"warn.pdf": [15]}, {"warn.pdf": path})
    assert notices.pages == tuple(range(1, 16)) and summary.pages == (15, 16)  # the notices run from page 1
    assert summary.columns[:3] == ["Summary by Month", "Notices", "Employees Affected"]
    assert summary.row_labels()[:2] == ["July 2015", "August 2015"] and "December 2015" in summary.row_labels()
    december = summary.row_labels().index("December 2015")
    cell = summary.cell(december, "Employees Affected")
    assert cell is not None and (cell.page, cell.text) == (16, "8,729")


def test_a_continued_table_under_another_is_one_frame_from_either_page_and_takes_no_row_as_caption(real) -> None:
    """q17, tuning: with pages 15 and 16 both chosen, the summary was two frames (July and August 2015 on page 15,
    the other months on page 16) and "October, November and December 2015 combined" was summed over the wrong one;
    its caption was the last notice above it ("Rockwell Collins, Inc. Poway 2")."""
    path = real("pdfplumber__WARN-Report-for-7-1-2015-to-03-25-2016.pdf")
    for pages in ([15, 16], [16]):
        frames = candidate_frames(FrameStore(), {"warn.pdf": pages}, {"warn.pdf": path})
        summaries = [f for f in frames if f.columns[0] == "Summary by Month"]
        assert len(summaries) == 1 and summaries[0].pages == (15, 16), (pages, [f.pages for f in frames])
        labels = summaries[0].row_labels()
        assert labels[0] == "July 2015" and "December 2015" in labels and len(labels) == len(set(labels))
        assert "Rockwell" not in summaries[0].caption, summaries[0].caption


def test_a_page_of_a_table_whose_heading_is_printed_pages_before_takes_that_heading(real) -> None:
    """The WARN report prints its heading ("Notice Date … Company | City | No. Of") on page 1 only; page 2 begins
    with a notice, which had been read as the heading ("07/17/2015 | … | Boeing Company | Huntington Beach | 65"),
    and a question about a notice on page 2 found no column to read (q7)."""
    path = real("pdfplumber__WARN-Report-for-7-1-2015-to-03-25-2016.pdf")
    (notices,) = candidate_frames(FrameStore(), {"warn.pdf": [2]}, {"warn.pdf": path})
    assert notices.columns == ["Notice Date", "Effective", "Received", "Company", "City", "No. Of", "Layoff/Closure"]
    assert notices.pages[:2] == (1, 2) and notices.kinds["No. Of"] == "number"
    row = next(i for i in range(len(notices.data)) if (c := notices.cell(i, "No. Of")) is not None and c.page == 2)
    first = notices.data.iloc[row]
    assert (first["Company"], first["City"], first["No. Of"]) == ("Boeing Company", "Huntington Beach", 65)
    cell = notices.cell(row, "No. Of")
    assert cell is not None and (cell.page, cell.text) == (2, "65")


def test_a_listing_that_runs_over_many_pages_is_read_whole_from_any_of_its_pages(real) -> None:
    """q12, tuning: "which company filed the single biggest notice in this WARN report" ranked the notices of the
    pages retrieval chose (6-7) and named a company with 540 of the 3,000 on page 1. From any page of the listing
    its rows are read from page 1 to 15, each notice once; the summary under it stays a table of its own."""
    path = real("pdfplumber__WARN-Report-for-7-1-2015-to-03-25-2016.pdf")
    for page in (6, 11):
        notices, *rest = candidate_frames(FrameStore(), {"warn.pdf": [page]}, {"warn.pdf": path})
        assert notices.pages == tuple(range(1, 16)) and len(notices.data) > 600, (page, notices.pages)
        top = notices.data.loc[notices.data["No. Of"].idxmax()]
        assert (top["Company"], top["No. Of"]) == ("Toyota Motor North America", 3000)
        assert all(frame.columns[0] == "Summary by Month" for frame in rest)


def test_two_statements_under_the_same_heading_on_consecutive_pages_stay_two_tables(tmp_path: Path) -> None:
    """A segment's statement and the next segment's, each headed the same and each with its "Revenue" row, on
    consecutive pages: two tables (one frame would hold two "Revenue" rows, and a program would read the first)."""
    head = ["($ in millions)", "Q2 2024", "Q2 2023"]
    east = DrawnTable([head, ["Revenue", "8,000", "8,500"], ["Gross profit", "1,900", "2,000"]], caption="")
    west = DrawnTable([head, ["Revenue", "700", "750"], ["Gross profit", "160", "170"]], caption="")
    path = draw_pdf(tmp_path / "segments.pdf", [[east], [west]])
    frames = candidate_frames(FrameStore(), {"segments.pdf": [1, 2]}, {"segments.pdf": str(path)})
    assert [frame.pages for frame in frames] == [(1,), (2,)]


def test_a_ruled_table_of_words_has_one_heading_row(real) -> None:
    """A table with no figures under its heading ("Global variable | Type | Description" over "CLIENT_HOST |
    VARCHAR(255) | …") is headed by its first row only: its first four rows had been read as one heading (q5, after
    its measurement: "how many are of type VARCHAR(128)" then missed three rows)."""
    (frame, *_) = FrameStore().frames(real("docling__redp5110_sampled.pdf"), [12])
    assert frame.columns == ["Global variable", "Type", "Description"]
    assert frame.row_labels()[:3] == ["CLIENT_HOST", "CLIENT_IPADDR", "CLIENT_PORT"]
    assert (frame.data["Type"] == "VARCHAR(128)").sum() == 5


def test_a_title_row_over_a_ruled_table_of_marks_is_not_its_heading(real) -> None:
    """A ruled table whose first drawn row is its title ("Table 2-2 Comparison of …", one cell over the whole
    width) and whose body holds marks, not figures, is headed by the row under the title: with the title read as
    the heading, its columns were "column 2" … and "User action" a row (q8, after its measurement)."""
    (frame, *_) = FrameStore().frames(real("docling__redp5110_sampled.pdf"), [9])
    assert frame.label == "User action" and "No Authority" in frame.columns and "*JOBCTL" in frame.columns
    assert frame.row_labels()[0] == "SET CURRENT DEGREE (SQL statement)"
    assert (frame.data["No Authority"] == "X").sum() == 2


@pytest.mark.parametrize("ruled", [True, False], ids=["ruled", "unruled"])
def test_a_second_table_under_one_caption_takes_that_caption(tmp_path: Path, ruled: bool) -> None:
    """Two tables of the same columns printed one under the other, one caption over both ("Sales by Category":
    the quarter's and the year's): the second is not left without a caption, which had left the model no way to
    tell it held sales by category (q8, after its measurement)."""
    quarter = [["Category", "2023", "2022"], ["Cosmetics", "40%", "41%"], ["Skincare", "16%", "15%"]]
    year = [["Category", "2023", "2022"], ["Cosmetics", "42%", "43%"], ["Skincare", "17%", "17%"]]
    other = [["Store", "Opened", "Closed", "Total"], ["Ulta", "10", "2", "1,300"], ["Kiosk", "3", "0", "41"]]
    caption = "Sales by Category: percentage of net sales"
    tables = [DrawnTable(quarter, caption=caption, ruled=ruled), DrawnTable(year, ruled=ruled, top=260)]
    tables.append(DrawnTable(other, ruled=ruled, top=420))
    path = draw_pdf(tmp_path / "sales.pdf", [tables])
    frames = FrameStore().frames(path, [1])
    assert [f.caption for f in frames] == [caption, caption, ""], [f.caption for f in frames]


def test_a_short_files_pages_may_all_hold_tables(real) -> None:
    """An invoice whose lines are laid out in blocks is not marked as holding a table by the structure's cheap
    test; a file of a few pages has each page's tables read when a question is over table values."""
    from docpilot.understanding.document import open_documents
    from docpilot.understanding.programs import data_frames, likely_table_pages

    docs = open_documents({"aws.pdf": real("invoice2data__AmazonWebServices.pdf")}, StructureCache(None))
    assert not docs[0].structure.table_pages and likely_table_pages(docs[0]) == {1}
    frames, _ = data_frames(docs, "Which AWS service had the largest charge on this invoice?", None)
    assert any("Amazon Elastic Compute Cloud" in f.row_labels() for f in frames)


def test_a_drawn_row_holding_rows_led_by_dots_is_split_into_them(real) -> None:
    """A Federal Register cost table draws several rows in one ruled row, each label led by dots to its figures
    ("Stabilizer wiring change ……" over "AOA sensor system test ……"; a label may wrap, a figure's text may too):
    it is read as those rows, each cell's lines going to the label beside them (q5, after its measurement: the
    cost of the AOA test had been read from the row of both)."""
    path = real("pdfplumber__federal-register-2020-17221.pdf")
    costs, more = FrameStore().frames(path, [5, 6])
    by_label = {f.pages[0]: f for f in (costs, more)}
    first, second = by_label[5], by_label[6]
    assert second.row_labels() == ["Stabilizer wiring change", "AOA sensor system test"]
    operators = second.data.set_index(second.label)["Cost on U.S. operators"]
    assert operators["AOA sensor system test"] == "$248,200." and operators["Stabilizer wiring change"].startswith(
        "Up to"
    )
    assert first.row_labels() == [
        "FCC OPS installation and verification",
        "AFM revisions",
        "MDS installation and verification, INOP marker removal.",
    ]
    assert first.kinds["Cost on U.S. operators"].startswith("money") and list(first.data["Parts cost"]) == [0, 0, 0]
    assert read_number("$248,200.") is not None and read_number("$248,200.").value == 248200


def test_the_running_prose_beside_a_table_is_not_one_of_its_columns(real) -> None:
    """In a two-column paper the DPR paper's Table 1 is aligned by whitespace beside the other column's prose;
    that prose ("negative passages for each question." over "The trick of in-batch negatives …") had been read as
    the table's first column and its label (q5, after its measurement). A table's own column of descriptions,
    headed by a name, stays (test_a_ruled_table_of_words_has_one_heading_row)."""
    (frame, *_) = FrameStore().frames(real("unstructured__multi-column.pdf"), [4])
    assert frame.columns == ["Dataset", "Train", "Dev", "Test"]
    assert frame.row_labels() == ["Natural Questions", "TriviaQA", "WebQuestions", "CuratedTREC", "SQuAD"]


def test_a_ruled_table_whose_records_are_not_ruled_is_read_by_where_its_words_stand(real) -> None:
    """The Senate's expenditure report: a box with its headings ruled into columns and the records printed
    below without a rule between them, on a page turned by /Rotate 90. PyMuPDF reads each block of records as
    one cell across the table; the words, turned as the page is shown, go to the heading they stand under, and a
    description wrapped onto a second line stays in its record (q10, after its measurement: "how much was paid
    to Payton Englert" answered 31,111.08 from the flattened text; the senator's transportation total 1,112)."""
    (report,) = FrameStore().frames(real("pdfplumber__senate-expenditures.pdf"), [1])
    assert report.columns == [
        "DOCUMENT NO.",
        "DATE POSTED",
        "PAYEE NAME",
        "OBLIGATION/SERVICE DATES START",  # the heading drawn over both heads the blank cell beside it
        "OBLIGATION/SERVICE DATES END",
        "DESCRIPTION",
        "AMOUNT ($)",
    ]
    payee = report.data["PAYEE NAME"].tolist()
    assert report.data["AMOUNT ($)"][payee.index("ENGLERT, PAYTON A")] == pytest.approx(25499.96)
    description = report.data["DESCRIPTION"].tolist()
    hawley = next(d for d in description if "3/21 WASHINGTON DC TO SAINT LOUIS TO KANSAS" in d)
    assert hawley.startswith("SENATOR'S TRANSPORTATION AIRFARE FOR SEN HAWLEY") and hawley.endswith("WASHINGTON DC")
    senators = [a for d, a in zip(description, report.data["AMOUNT ($)"], strict=True) if "SENATOR'S" in d]
    assert sum(senators) == pytest.approx(2737.20)
    assert len(report.data) == 32


def test_columns_parted_by_whitespace_under_one_rule_are_read_by_alignment(real) -> None:
    """Amcor's components of net sales growth: one vertical rule between the quarter and the year, the columns
    inside each parted by whitespace ("897   3,673" in one ruled cell), and "Rigid / Packaging" on two lines
    beside "Flexibles" and "Total" centred between them (q10, after its measurement: a share of net sales read
    from the merged column "Rigid Packaging Total")."""
    (growth, *_) = FrameStore().frames(real("financebench__AMCOR_2023Q4_EARNINGS.pdf"), [10])
    assert growth.columns[1:] == [
        f"{period} Months Ended June 30 {name}"
        for period in ("Three", "Twelve")
        for name in ("Flexibles", "Rigid Packaging", "Total")
    ]
    year_2023 = growth.row_labels().index("Net sales fiscal year 2023")
    assert growth.data["Twelve Months Ended June 30 Flexibles"][year_2023] == 11154
    assert growth.data["Twelve Months Ended June 30 Total"][year_2023] == 14694


def test_two_tables_in_one_ruled_grid_are_two_frames(real) -> None:
    """Amcor's key financials: "GAAP results" and, under a blank row, "Adjusted non-GAAP results" with headings of
    their own are drawn in one grid; read as one, the second table's two years stood in one cell ("2,117 2,018")."""
    gaap, adjusted = FrameStore().frames(real("financebench__AMCOR_2023Q4_EARNINGS.pdf"), [1])[:2]
    assert gaap.row_labels() == ["Net sales", "Net income", "EPS (diluted US cents)"]
    assert "Key Financials" in gaap.caption
    assert adjusted.columns[1:3] == [f"Twelve Months Ended June 30, {y} $ million" for y in (2022, 2023)]
    ebitda = adjusted.row_labels().index("EBITDA")
    assert adjusted.data[adjusted.columns[1]][ebitda] == 2117 and adjusted.data[adjusted.columns[2]][ebitda] == 2018


def test_a_forms_blank_boxes_beside_dotted_labels_read_without_error(real) -> None:
    """A filled-in 1040's page 2: a row of labels led by dots whose other cells have no words on some of the
    label's lines (q12, an error reached the person: "min() arg is an empty sequence")."""
    path = real("pdfjs__prefilled_f1040.pdf")
    frames = FrameStore().frames(path, [1, 2])
    assert frames and all(len(f.data) for f in frames)
