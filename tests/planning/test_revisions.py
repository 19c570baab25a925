"""Revisions mean what people mean: "instead" replaces, "also" adds, "without" removes, "undo that" goes
back; the revised plan comes with what changed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from docpilot.files import FileInfo, inspect_files
from docpilot.planning.planner import Planner


@pytest.fixture
def files(make_pdf: Callable[..., str]) -> dict[str, FileInfo]:
    return inspect_files(
        [make_pdf(["a", "b", "c"], name="contract.pdf"), make_pdf(["a", "b", "c"], name="annual_report.pdf")]
    )


def _tasks(outcome) -> list[str]:
    return [s.task for s in outcome.plan.steps]


def test_instead_replaces_the_matching_step(files: dict[str, FileInfo]) -> None:
    planner = Planner()
    first = planner.plan("Make the annual report smaller and put page numbers at the bottom right", files)
    revised = planner.revise(first, "put the page numbers at the top instead", files)
    assert revised.ok, revised.error
    assert _tasks(revised) == ["compress", "add_page_numbers"], "replaced, not added"
    assert revised.plan.steps[1].args["position"].startswith("top")
    assert revised.changes == ["changed: add_page_numbers position bottom-right → top-center"]
    assert {s.args["file"] for s in revised.plan.steps if not s.args["file"].startswith("$")} == {"annual_report.pdf"}


def test_also_adds_without_removes_and_undo_goes_back(files: dict[str, FileInfo]) -> None:
    planner = Planner()
    first = planner.plan("add page numbers to the contract", files)
    more = planner.revise(first, "also add a DRAFT watermark", files)
    assert _tasks(more) == ["add_page_numbers", "add_watermark"] and more.changes == ["added: add_watermark"]
    fewer = planner.revise(more, "without the page numbers", files)
    assert fewer.ok and _tasks(fewer) == ["add_watermark"] and fewer.changes == ["removed: add_page_numbers"]
    assert fewer.plan.steps[0].args["file"] == "contract.pdf", "the later step takes the removed step's input"
    back = planner.revise(fewer, "undo that", files)
    assert _tasks(back) == ["add_page_numbers", "add_watermark"]


def test_nothing_to_undo_is_said(files: dict[str, FileInfo]) -> None:
    planner = Planner()
    first = planner.plan("add page numbers to the contract", files)
    assert "no earlier plan" in (planner.revise(first, "undo that", files).error or "")
