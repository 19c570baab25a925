"""Tables of labels and values read as records (``frames/records.py``): one row a record, the records of a file and
of several files one frame, a record cut by a page break whole again."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from docpilot.understanding.frames import FrameStore, answer_with_program, candidate_frames
from docpilot.understanding.frames.records import RECORD
from tests.table_pdfs import DrawnTable, draw_pdf


def _fund(adviser: str, custodian: str, assets: str, commission: str) -> list[list[str]]:
    return [
        ["Investment adviser", adviser],
        ["Custodian", custodian],
        ["Monthly average net assets (USD)", assets],
        ["Aggregate commission paid (USD)", commission],
    ]


def _filing(path: Path, name: str) -> str:
    """Three funds, the third cut by the page break: its caption and first row at the foot of page 1."""
    widths = [180.0, 220.0]
    first = DrawnTable(
        _fund("AlphaMark Advisors, LLC", "State Street Bank", "1,914,223,938", "80,830"),
        caption=f"Item C.1 Fund: {name} Balanced Fund",
        header_rows=0,
        widths=widths,
    )
    second = DrawnTable(
        _fund("Ridgeline Partners LP", "Citibank, N.A.", "1,869,218,673", "11,782"),
        caption=f"Item C.1 Fund: {name} Dividend Fund",
        header_rows=0,
        widths=widths,
        top=320,
    )
    third = DrawnTable(
        _fund("Ridgeline Partners LP", "JPMorgan Chase Bank", "2,375,277,875", "112,340")[1:],
        header_rows=0,
        widths=widths,
        top=80,
    )
    drawn = draw_pdf(path, [[first, second], [third]])
    doc = pymupdf.open(drawn)
    page = doc[0]
    page.insert_text((60, 690), "The fund did not engage in securities lending.", fontsize=10, fontname="helv")
    page.insert_text((60, 715), f"Item C.1 Fund: {name} Value Fund", fontsize=10, fontname="helv")
    page.insert_text((64, 740), "Investment adviser", fontsize=9, fontname="helv")
    page.insert_text((250, 740), "Ridgeline Partners LP", fontsize=9, fontname="helv")
    doc.saveIncr()
    doc.close()
    return drawn


def test_a_files_records_are_one_frame_with_a_row_each_and_a_cut_record_is_whole(tmp_path: Path) -> None:
    """Each fund of a filing printed as a table of labels and values (q10: read as tables whose first row was a
    heading, no program could compare the funds); the third fund's first row and name at the foot of the page
    before its table (q10: its adviser lost, "how many funds have this adviser" would count 1 of 2)."""
    path = _filing(tmp_path / "ironwood.pdf", "Ironwood")
    frames = candidate_frames(FrameStore(), {"ironwood.pdf": [1]}, {"ironwood.pdf": path})
    assert len(frames) == 1, [f.columns for f in frames]
    frame = frames[0]
    assert frame.label == RECORD and frame.caption == "Item C.1 Fund:"
    assert frame.data[RECORD].tolist() == ["Ironwood Balanced Fund", "Ironwood Dividend Fund", "Ironwood Value Fund"]
    assert frame.kinds["Monthly average net assets (USD)"] != "text" and frame.kinds["Custodian"] == "text"
    result = answer_with_program('len(t1[t1["Investment adviser"] == "Ridgeline Partners LP"])', frames)
    assert result.value == 2
    program = 't1.loc[t1["Monthly average net assets (USD)"].idxmax(), "Record"]'
    assert answer_with_program(program, frames).value == "Ironwood Value Fund"


def test_the_records_of_several_files_are_one_frame_and_a_table_under_its_heading_stays_a_table(
    tmp_path: Path,
) -> None:
    files = {name: _filing(tmp_path / name, name.split(".")[0].title()) for name in ("ironwood.pdf", "silver.pdf")}
    frames = candidate_frames(FrameStore(), {name: [1, 2] for name in files}, files)
    assert len(frames) == 1 and len(frames[0].data) == 6 and frames[0].columns[:2] == ["file", RECORD]
    result = answer_with_program('len(t1[t1["Investment adviser"] == "Ridgeline Partners LP"])', frames)
    assert result.value == 4
    costs = [["Item", "Cost"], ["Rent", "900"], ["Staff", "2,400"], ["Travel", "310"]]
    path = draw_pdf(tmp_path / "costs.pdf", [[DrawnTable(costs, caption="Table 3: Costs")]])
    (frame,) = candidate_frames(FrameStore(), {"costs.pdf": [1]}, {"costs.pdf": path})
    assert frame.label != RECORD and frame.columns == ["Item", "Cost"]


def test_an_invoices_totals_under_its_lines_are_a_record_of_their_own(tmp_path: Path) -> None:
    """ "Total HT :", "TVA 20% :", "Total TTC :" set under the unit prices with their figures in the last column
    (q10: read as rows of the lines, the totals had no row label and the unit prices were no figures)."""
    rows = [["Item", "Qty", "Unit price", "Amount"], ["Consulting", "2", "$100.00", "$200.00"]]
    rows += [["Travel", "1", "$50.00", "$50.00"], ["", "", "Total HT :", "$250.00"]]
    rows += [["", "", "TVA 20% :", "$50.00"], ["", "", "Total TTC :", "$300.00"]]
    path = draw_pdf(tmp_path / "facture.pdf", [[DrawnTable(rows, caption="Facture 2022089083")]])
    lines, totals = candidate_frames(FrameStore(), {"facture.pdf": [1]}, {"facture.pdf": path})
    assert lines.row_labels() == ["Consulting", "Travel"] and lines.kinds["Unit price"] != "text"
    assert totals.label == RECORD and totals.columns == [RECORD, "Total HT", "TVA 20%", "Total TTC"]
    assert answer_with_program('t2["Total TTC"].iloc[0]', [lines, totals]).value == 300
