"""A plan means the files the person means: named, by order, by kind, or all of them; with several
files and no mention, a question instead of a guess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from docpilot.conversation import Conversation
from docpilot.files import FileInfo, inspect_files
from docpilot.planning.fastpath.build import NeedInfo, fast_reading
from docpilot.planning.fastpath.grounding import ground_files
from docpilot.planning.planner import Planner, make_planner
from docpilot.running.executor import Executor
from docpilot.service import DocPilot


def _names(*names: str) -> dict[str, FileInfo]:
    return {n: FileInfo(n, f"/x/{n}", "pdf", 3) for n in names}


TWO = ("contract.pdf", "annual_report.pdf")
THREE = ("paper.pdf", "invoice_1001.pdf", "invoice_1002.pdf")


@pytest.mark.parametrize(
    "text, names, meant",
    [
        (
            "Please hide the email addresses and phone numbers in the contract, and stamp it CONFIDENTIAL",
            TWO,
            ["contract.pdf"],
        ),
        ("Make the annual report smaller and put page numbers at the bottom right", TWO, ["annual_report.pdf"]),
        ("keep only the first two pages of paper.pdf", THREE, ["paper.pdf"]),
        ("merge the invoices into one file called all_invoices.pdf", THREE, ["invoice_1001.pdf", "invoice_1002.pdf"]),
        ("rotate invoice 1002 by 90 degrees", THREE, ["invoice_1002.pdf"]),
        ("rotate the second file", THREE, ["invoice_1001.pdf"]),
        ("rotate the last one", THREE, ["invoice_1002.pdf"]),
        ("add page numbers to both", TWO, list(TWO)),
        ("compress each file", TWO, list(TWO)),
    ],
)
def test_mentions_pick_the_files_meant(text: str, names: tuple[str, ...], meant: list[str]) -> None:
    grounding = ground_files(text, _names(*names))
    assert grounding.mentioned and grounding.pdfs == meant


@pytest.mark.parametrize("text", ["add page numbers", "add a DRAFT watermark"])
def test_no_mention_is_no_mention(text: str) -> None:
    grounding = ground_files(text, _names("draft.pdf", "memo.pdf"))
    assert not grounding.mentioned and grounding.ambiguous is None


def test_a_mention_that_fits_several_is_ambiguous() -> None:
    assert ground_files("rotate the invoice", _names(*THREE)).ambiguous == ["invoice_1001.pdf", "invoice_1002.pdf"]


@pytest.fixture
def two_files(make_pdf: Callable[..., str]) -> dict[str, FileInfo]:
    return inspect_files(
        [
            make_pdf(["Contract page one.", "two"], name="contract.pdf"),
            make_pdf(["Annual report.", "two", "three"], name="annual_report.pdf"),
        ]
    )


def _files_touched(outcome) -> set[str]:
    return {
        s.args["file"]
        for s in outcome.plan.steps
        if isinstance(s.args.get("file"), str) and not s.args["file"].startswith("$")
    }


def test_only_the_file_named_is_changed(two_files: dict[str, FileInfo]) -> None:
    planner = Planner()
    outcome = planner.plan(
        "Please hide the email addresses and phone numbers in the contract, and stamp it CONFIDENTIAL", two_files
    )
    assert outcome.ok, outcome.error or outcome.question
    assert _files_touched(outcome) == {"contract.pdf"}
    outcome = planner.plan("Make the annual report smaller and put page numbers at the bottom right", two_files)
    assert outcome.ok and _files_touched(outcome) == {"annual_report.pdf"}


def test_no_mention_with_two_files_asks_which(two_files: dict[str, FileInfo]) -> None:
    outcome = Planner().plan("add page numbers", two_files)
    assert not outcome.ok and outcome.error is None and outcome.plan is None
    assert outcome.question is not None and "contract.pdf" in outcome.question.text
    assert outcome.question.choices == ["contract.pdf", "annual_report.pdf", "all of them"]
    assert outcome.to_json()["question"]["choices"][-1] == "all of them"


def test_the_answer_completes_the_request(two_files: dict[str, FileInfo], tmp_path: Path) -> None:
    pilot = DocPilot(make_planner("rules", {}), Executor(records=tmp_path / "records"))
    talk = Conversation(two_files)
    assert talk.request(pilot, "add page numbers").question is not None
    answered = talk.request(pilot, "annual_report.pdf")
    assert answered.ok and _files_touched(answered) == {"annual_report.pdf"}
    talk.cancel()
    assert talk.request(pilot, "rotate page 1 by 90 degrees").question is not None
    both = talk.request(pilot, "all of them")
    assert both.ok and _files_touched(both) == {"contract.pdf", "annual_report.pdf"}


def test_cli_question_is_exit_code_3_and_writes_nothing(two_files: dict[str, FileInfo], tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "DOCPILOT_BACKEND": "rules"}
    paths = [info.path for info in two_files.values()]
    proc = subprocess.run(
        [sys.executable, "-m", "docpilot", "run", "add page numbers", *paths, "--out", str(out), "--yes", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 3, proc.stderr
    result = json.loads(proc.stdout.splitlines()[-1])
    assert result["ok"] is False and result["error"] is None
    assert result["question"]["choices"] == ["contract.pdf", "annual_report.pdf", "all of them"]
    assert not out.exists() or not any(out.iterdir())

    # The reply continues from the run's record: the files and the request come from there.
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "docpilot",
            "run",
            "annual_report.pdf",
            "--continue",
            result["record"],
            "--out",
            str(out),
            "--yes",
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    done = json.loads(proc.stdout.splitlines()[-1])
    assert [Path(p).name for p in done["outputs"]] == ["annual_report_numbered.pdf"]
    assert [s["args"]["file"] for s in done["plan"]["steps"]] == ["annual_report.pdf"]


# --- a file named by some words of its name, in any frame --------------------------------------------------------


@pytest.mark.parametrize(
    "text, names, meant",
    [
        ("in the exhibits file, redact every SSN on pages 3-9", ("settlement_draft.pdf", "settlement_exhibits.pdf"),
         ["settlement_exhibits.pdf"]),
        ("In the week 6 notes, highlight the word photosynthesis", ("lecture_notes_wk5.pdf", "lecture_notes_wk6.pdf"),
         ["lecture_notes_wk6.pdf"]),
        ("For the supplement, set the keywords", ("paper_final.pdf", "paper_supplement.pdf"),
         ["paper_supplement.pdf"]),
        ("change the keywords on the brochure", ("brochure_solar.pdf", "price_sheet.pdf"), ["brochure_solar.pdf"]),
        ("watermark the Henderson quote with COPY", ("quote_henderson.pdf", "invoice_0457.pdf"),
         ["quote_henderson.pdf"]),
        ("search the February minutes for it", ("minutes_jan.pdf", "minutes_feb.pdf", "minutes_mar.pdf"),
         ["minutes_feb.pdf"]),
        ("from the 2025 handbook i only need pages 12 to 15", ("handbook_2023.pdf", "handbook_2025.pdf"),
         ["handbook_2025.pdf"]),
        ("rotate the scanned contract", ("contract_signed_scan.pdf", "contract_clean.pdf"),
         ["contract_signed_scan.pdf"]),
        ("rotate page 2 of the 2024 report 90 degrees", ("report_2023.pdf", "report_2024.pdf"),
         ["report_2024.pdf"]),  # "90 degrees" is an amount, not more of the name
        ("compress the 2024 report but not the 2023 one", ("report_2023.pdf", "report_2024.pdf"),
         ["report_2024.pdf"]),
        ("add page numbers to the jan minutes", ("minutes_jan.pdf", "minutes_feb.pdf"), ["minutes_jan.pdf"]),
    ],
)  # fmt: skip
def test_words_of_a_name_pick_the_file_they_fit(text: str, names: tuple[str, ...], meant: list[str]) -> None:
    grounding = ground_files(text, _names(*names))
    assert grounding.mentioned and grounding.pdfs == meant and grounding.ambiguous is None


@pytest.mark.parametrize(
    "text, names, fits",
    [
        ("from the handbook i only need pages 12 to 15", ("handbook_2023.pdf", "handbook_2025.pdf"),
         ["handbook_2023.pdf", "handbook_2025.pdf"]),  # both fit as well: a tie asks
        ("from the 2024 handbook i only need pages 1-2", ("handbook_2023.pdf", "handbook_2025.pdf"),
         ["handbook_2023.pdf", "handbook_2025.pdf"]),  # a year no file has: which one is for the person to say
        ("search the minutes for it", ("minutes_jan.pdf", "minutes_feb.pdf", "minutes_mar.pdf"),
         ["minutes_jan.pdf", "minutes_feb.pdf", "minutes_mar.pdf"]),
    ],
)  # fmt: skip
def test_a_mention_two_files_fit_equally_asks(text: str, names: tuple[str, ...], fits: list[str]) -> None:
    assert ground_files(text, _names(*names)).ambiguous == fits


@pytest.mark.parametrize(
    "text, names",
    [
        ("In the week 7 notes, highlight the word x", ("lecture_notes_wk5.pdf", "lecture_notes_wk6.pdf")),
        ("In the week 5 notes, highlight the word x", ("lecture_notes_wk6.pdf", "handbook.pdf")),  # 5 is no file's
        ("compress it, leave the invoice alone", ("contract.pdf", "invoice.pdf")),  # only a file left alone
        ("compress the contract, not the contract", ("contract.pdf", "invoice.pdf")),  # named and left alone
    ],
)
def test_a_mention_that_fits_no_file_is_no_mention(text: str, names: tuple[str, ...]) -> None:
    grounding = ground_files(text, _names(*names))
    assert not grounding.mentioned and grounding.said is None


@pytest.mark.parametrize(
    "text, names, meant",
    [
        ("put the password kestrel2024 on the payroll file only, not the rota", ("payroll_june.pdf", "rota_june.pdf"),
         ["payroll_june.pdf"]),
        ("In the lease - not the inventory - highlight the word deposit", ("lease_flat4.pdf", "inventory_flat4.pdf"),
         ["lease_flat4.pdf"]),
        ("watermark the Henderson quote with COPY. leave the invoice alone",
         ("quote_henderson.pdf", "invoice_0457.pdf"), ["quote_henderson.pdf"]),
    ],
)  # fmt: skip
def test_a_file_to_leave_alone_is_left_out(text: str, names: tuple[str, ...], meant: list[str]) -> None:
    grounding = ground_files(text, _names(*names))
    assert grounding.pdfs == meant and grounding.said is not None
    assert not re.search(r"\b(?:not|alone|rota|inventory|invoice)\b", grounding.said)  # those words are used


def _fast(request: str, *names: str) -> list[tuple[str, dict]]:
    files = {n: FileInfo(n, f"/x/{n}", "pdf", 12) for n in names}
    plan = fast_reading(request, files).plan
    assert plan is not None, fast_reading(request, files).unread
    return [(s.task, dict(s.args)) for s in plan.steps]


def test_the_plans_use_the_file_meant_and_every_word() -> None:
    assert _fast(
        "In the week 6 notes, highlight the word photosynthesis in green - whole words only please",
        "lecture_notes_wk5.pdf",
        "lecture_notes_wk6.pdf",
    ) == [
        (
            "highlight_text",
            {
                "file": "lecture_notes_wk6.pdf",
                "terms": ["photosynthesis"],
                "whole_words": True,
                "pages": "all",
                "color": "green",
            },
        )
    ]
    assert _fast(
        "put the password kestrel2024 on the payroll file only, not the rota", "payroll_june.pdf", "rota_june.pdf"
    ) == [("add_password", {"file": "payroll_june.pdf", "password": "kestrel2024"})]
    assert _fast(
        "watermark the Henderson quote with COPY. leave the invoice alone", "quote_henderson.pdf", "invoice_0457.pdf"
    ) == [("add_watermark", {"file": "quote_henderson.pdf", "pages": "all", "text": "COPY"})]
    assert _fast(
        "the last two pages of the scanned contract are upside down, rotate them 180 degrees pls",
        "contract_signed_scan.pdf",
        "contract_clean.pdf",
    ) == [("rotate_pages", {"file": "contract_signed_scan.pdf", "pages": "11-12", "degrees": 180})]


def test_words_of_the_other_file_are_not_used_up_by_it() -> None:
    # "as a draft" with settlement_draft.pdf beside the file meant: "draft" is said of something else
    files = {n: FileInfo(n, f"/x/{n}", "pdf", 12) for n in ("settlement_draft.pdf", "settlement_exhibits.pdf")}
    assert fast_reading("in the exhibits file, redact every SSN on pages 3-9 as a draft", files).plan is None
    # "for the second file too": another file besides the one named
    assert fast_reading("in the exhibits file, redact every SSN for the second file too", files).plan is None


def test_the_handbook_alone_asks_which() -> None:
    files = {n: FileInfo(n, f"/x/{n}", "pdf", 50) for n in ("handbook_2023.pdf", "handbook_2025.pdf")}
    with pytest.raises(NeedInfo):
        fast_reading("from the handbook i only need pages 12 to 15", files)


def test_a_file_named_like_a_tool_phrase_is_not_retold_as_it() -> None:
    # "delete the blank pages" with blank_pages.pdf: the words still say what to delete
    assert _fast("delete the blank pages", "blank_pages.pdf", "other.pdf") == [
        ("remove_blank_pages", {"file": "blank_pages.pdf"})
    ]
