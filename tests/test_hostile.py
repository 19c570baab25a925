"""Hostile inputs give the right exception with a clear message, and no output is left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from pdftools import call_tool
from pdftools.errors import EncryptedPdfError, NotAPdfError, PageRangeError, WrongPasswordError

# One call per tool family; every one must reject the hostile files the same way.
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("count_pages", {}),
    ("rotate_pages", {"degrees": 90}),
    ("extract_pages", {"pages": "1"}),
    ("redact_text", {"terms": ["secret"]}),
    ("highlight_text", {"terms": ["secret"]}),
    ("add_watermark", {"text": "DRAFT"}),
    ("add_page_numbers", {}),
    ("compress", {}),
    ("convert_to_docx", {}),
    ("convert_to_png", {"pages": "1"}),
    ("extract_text", {}),
    ("read_form", {}),
    ("find_entities", {}),
]


def _outputs(work: Path) -> list[str]:
    return sorted(p.name for p in work.iterdir())


@pytest.fixture
def hostile(tmp_path: Path, make_pdf: Callable[..., str], guard: Callable[[str], str]) -> dict[str, str]:
    src = tmp_path / "src"
    src.mkdir()
    good = Path(make_pdf(["A secret page.", "Second page."], name="good.pdf"))
    files = {
        "empty": src / "empty.pdf",
        "truncated": src / "truncated.pdf",
        "text": src / "notes.pdf",
        "random": src / "random.pdf",
    }
    files["empty"].write_bytes(b"")
    data = good.read_bytes()
    files["truncated"].write_bytes(data[: len(data) // 2])
    files["text"].write_text("This is a plain text file, renamed .pdf\n" * 20)
    files["random"].write_bytes(os.urandom(4096))
    doc = pymupdf.open(good)
    locked = src / "locked.pdf"
    doc.save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="right", owner_pw="owner")
    files["locked"] = locked
    return {name: guard(path) for name, path in files.items()} | {"good": str(good)}


@pytest.mark.parametrize(("name", "args"), CALLS, ids=[c[0] for c in CALLS])
@pytest.mark.parametrize("kind", ["empty", "truncated", "text", "random"])
def test_broken_files_are_not_a_pdf(
    hostile: dict[str, str], name: str, args: dict, kind: str, _work_in_tmp: Path
) -> None:
    with pytest.raises(NotAPdfError) as info:
        call_tool(name, {"file": hostile[kind], **args})
    message = str(info.value)
    assert Path(hostile[kind]).name in message
    assert any(word in message for word in ("empty", "truncated", "not a PDF", "could not be read"))
    assert _outputs(_work_in_tmp) == []


@pytest.mark.parametrize(("name", "args"), CALLS, ids=[c[0] for c in CALLS])
def test_encrypted_without_password(hostile: dict[str, str], name: str, args: dict, _work_in_tmp: Path) -> None:
    with pytest.raises(EncryptedPdfError, match="password-protected"):
        call_tool(name, {"file": hostile["locked"], **args})
    assert _outputs(_work_in_tmp) == []


@pytest.mark.parametrize("name", ["count_pages", "remove_password", "get_metadata"])
def test_wrong_password(hostile: dict[str, str], name: str, _work_in_tmp: Path) -> None:
    with pytest.raises(WrongPasswordError, match="does not open"):
        call_tool(name, {"file": hostile["locked"], "password": "wrong"})
    assert _outputs(_work_in_tmp) == []


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("extract_pages", {"pages": "40"}),
        ("delete_pages", {"pages": "3"}),
        ("rotate_pages", {"pages": "1-9", "degrees": 90}),
        ("redact_text", {"terms": ["secret"], "pages": "5"}),
        ("add_watermark", {"text": "X", "pages": [1, 7]}),
        ("convert_to_png", {"pages": "last-5"}),
    ],
)
def test_page_past_the_end(hostile: dict[str, str], name: str, args: dict, _work_in_tmp: Path) -> None:
    with pytest.raises(PageRangeError, match="has 2 pages"):
        call_tool(name, {"file": hostile["good"], **args})
    assert _outputs(_work_in_tmp) == []


def test_cli_call_reports_errors_without_traceback(hostile: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    for kind in ("empty", "truncated", "text", "random", "locked"):
        proc = subprocess.run(
            [sys.executable, "-m", "docpilot", "call", "rotate_pages", hostile[kind], "--out", str(out), "--json"],
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 1, proc.stderr
        assert "Traceback" not in proc.stdout + proc.stderr
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        assert result["ok"] is False and Path(hostile[kind]).name in result["error"]
        assert not out.exists() or not any(out.iterdir())
