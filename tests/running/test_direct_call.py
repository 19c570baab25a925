"""``docpilot call``: one tool, outputs delivered into a folder that may already hold files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from docpilot.running.direct import call_tool_on_files
from pdftools.errors import PageRangeError


def _listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_outputs_never_replace_files_already_there(make_pdf: Callable[..., str], tmp_path: Path) -> None:
    src = make_pdf(["one", "two", "three"], name="report.pdf")
    out = tmp_path / "out"
    out.mkdir()
    (out / "report_rotated.pdf").write_bytes(b"the user's own file")
    first = call_tool_on_files("rotate_pages", {"degrees": 90}, [src], str(out))
    second = call_tool_on_files("rotate_pages", {"degrees": 180}, [src], str(out))
    assert [Path(p).name for p in first["outputs"] + second["outputs"]] == [
        "report_rotated-2.pdf",
        "report_rotated-3.pdf",
    ]
    assert (out / "report_rotated.pdf").read_bytes() == b"the user's own file"
    with pymupdf.open(first["outputs"][0]) as doc:
        assert doc[0].rotation == 90
    with pymupdf.open(second["outputs"][0]) as doc:
        assert doc[0].rotation == 180
    assert sorted(p.name for p in out.iterdir()) == [
        "report_rotated-2.pdf",
        "report_rotated-3.pdf",
        "report_rotated.pdf",
    ]  # no scratch folder left


def test_a_failing_tool_leaves_the_folder_as_it_was(make_pdf: Callable[..., str], tmp_path: Path) -> None:
    src = make_pdf(["one", "two"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    before = _listing(out)
    with pytest.raises(PageRangeError, match="has 2 pages"):
        call_tool_on_files("extract_pages", {"pages": "1-5"}, [src], str(out))
    assert _listing(out) == before
    missing = tmp_path / "new" / "folder"
    with pytest.raises(PageRangeError):
        call_tool_on_files("extract_pages", {"pages": "9"}, [src], str(missing))
    assert not missing.exists()  # a folder made for the outputs is removed again when there are none


def test_cli_call_prints_the_delivered_paths(make_pdf: Callable[..., str], tmp_path: Path) -> None:
    src = make_pdf(["alpha", "beta", "gamma"], name="deck.pdf")
    out = tmp_path / "out"
    out.mkdir()
    (out / "deck_pages.pdf").write_bytes(b"older result")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "docpilot",
            "call",
            "extract_pages",
            "--args",
            '{"pages": "3,1"}',
            src,
            "--out",
            str(out),
            "--json",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["ok"] and [Path(p).name for p in result["outputs"]] == ["deck_pages-2.pdf"]
    with pymupdf.open(result["outputs"][0]) as doc:
        assert [page.get_text().strip() for page in doc] == ["gamma", "alpha"]
    assert (out / "deck_pages.pdf").read_bytes() == b"older result"


def test_optional_image_arguments_are_not_filled_with_the_pdf(
    make_pdf: Callable[..., str], tmp_path: Path, synthetic: Callable[[str], str]
) -> None:
    """A text watermark or a typed signature on a PDF: the PDF is the file, not the image."""
    src = make_pdf(["Quarterly report"], name="report.pdf")
    out = tmp_path / "out"
    marked = call_tool_on_files("add_watermark", {"text": "DRAFT"}, [src], str(out))
    signed = call_tool_on_files("add_signature", {"name": "Jane Doe"}, [src], str(out))
    with pymupdf.open(marked["outputs"][0]) as doc:
        assert "DRAFT" in doc[0].get_text() and not doc[0].get_images()
    with pymupdf.open(signed["outputs"][0]) as doc:
        assert "Jane Doe" in doc[0].get_text()
    # An image among the files is still bound to the image argument.
    stamped = call_tool_on_files("add_signature", {}, [src, synthetic("signature.png")], str(out))
    with pymupdf.open(stamped["outputs"][0]) as doc:
        assert len(doc[0].get_images()) == 1
