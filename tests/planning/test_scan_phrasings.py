"""Scanned pages said in words: setting pages the right way up (fix_orientation), straightening crooked scans
(deskew) and the language of an OCR ("OCR it in French"); and look-alikes that keep their old reading or are
handed on."""

from __future__ import annotations

import pytest
from fast_steps import fast_steps

from docpilot.files import FileInfo

SCAN = {"scan.pdf": FileInfo("scan.pdf", "/x/scan.pdf", "pdf", pages=10)}


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("Turn them the right way up", [("fix_orientation", {"pages": "all"})]),
        ("Some pages are upside down.", [("fix_orientation", {"pages": "all"})]),
        ("some pages came out sideways", [("fix_orientation", {"pages": "all"})]),
        (
            "Some of the pages are upside down or sideways. Turn them the right way up.",
            [("fix_orientation", {"pages": "all"})],  # the state and the instruction: one step
        ),
        ("fix the page orientation", [("fix_orientation", {"pages": "all"})]),
        ("auto-rotate the pages", [("fix_orientation", {"pages": "all"})]),
        ("set every page upright", [("fix_orientation", {"pages": "all"})]),
        ("rotate the upside down pages", [("fix_orientation", {"pages": "all"})]),  # was: every page turned 180°
        ("pages 2-4 came out sideways, turn them the right way up", [("fix_orientation", {"pages": "2-4"})]),
        ("straighten the scan", [("deskew", {"pages": "all"})]),
        ("deskew it", [("deskew", {"pages": "all"})]),
        ("the scan is crooked, can you fix it?", [("deskew", {"pages": "all"})]),
        ("fix the skew on pages 1-3", [("deskew", {"pages": "1-3"})]),
        ("OCR it in French", [("ocr", {"pages": "all", "language": "fra"})]),
        ("make it searchable, it's in German", [("ocr", {"pages": "all", "language": "deu"})]),
        (
            "straighten the pages, then OCR them in Spanish and compress it",
            [("deskew", {"pages": "all"}), ("ocr", {"pages": "all", "language": "spa"}), ("compress", {})],
        ),
    ],
)
def test_scan_phrasings_are_read(request_: str, expected: list) -> None:
    assert fast_steps(request_, SCAN) == expected


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        # how far is said: a turn, not a detection
        ("pages 2-4 are upside down, turn them the right way up", [("rotate_pages", {"pages": "2-4", "degrees": 180})]),
        ("rotate page 3 by 180 degrees", [("rotate_pages", {"pages": "3", "degrees": 180})]),
        ("rotate all pages", [("rotate_pages", {"pages": "all", "degrees": 90})]),
        # crooked, but a quarter turn asked for: which is meant is not one reading
        ("The scan is crooked. Rotate it.", None),
        ("straighten the table on page 2", None),
        ("fix the typos", None),
    ],
)
def test_look_alikes_keep_their_reading_or_are_handed_on(request_: str, expected: list | None) -> None:
    assert fast_steps(request_, SCAN) == expected
