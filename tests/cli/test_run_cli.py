"""`docpilot run --json`: the DESIGN.md contract, end to end through the sandbox."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

ENV = {**os.environ, "DOCPILOT_BACKEND": "rules"}


def run(args: list[str], cache: Path, stdin: int | None = subprocess.DEVNULL) -> tuple[int, dict, str]:
    env = {**ENV, "XDG_CACHE_HOME": str(cache)}
    proc = subprocess.run(
        [sys.executable, "-m", "docpilot", "run", *args],
        capture_output=True,
        text=True,
        env=env,
        stdin=stdin,
        timeout=300,
    )
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "{}"
    return proc.returncode, json.loads(last), proc.stderr


@pytest.fixture
def contract(make_pdf: Callable[..., str]) -> str:
    return make_pdf(
        [
            "Agreement with ACME Corp. Contact jane@acme.com.",
            "Page two of ACME terms.",
            "Page three.",
            "Signature page.",
        ],
        name="deal.pdf",
    )


def test_run_json_contract(contract: str, tmp_path: Path) -> None:
    out, cache = tmp_path / "out" / "nested", tmp_path / "cache"
    code, result, _ = run(
        ["Redact 'ACME', delete page 3 and convert it to PowerPoint", contract, "--out", str(out), "--yes", "--json"],
        cache,
    )
    assert code == 0 and result["ok"] is True and result["error"] is None
    assert set(result) == {
        "ok",
        "request",
        "backend",
        "plan",
        "explanation",
        "reading",
        "outputs",
        "answers",
        "message",
        "stats",
        "record",
        "error",
    }
    assert result["reading"] == ["Redact 'ACME'.", "Delete page 3.", "Convert it to PowerPoint."]
    assert result["backend"] == "rules" and result["stats"]["llm_calls"] == 0
    assert [s["task"] for s in result["plan"]["steps"]] == ["redact_text", "delete_pages", "convert_to_pptx"]
    outputs = [Path(p) for p in result["outputs"]]
    assert all(p.is_absolute() and p.parent == out.resolve() for p in outputs)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in outputs)  # no intermediates
    final_pdf = [p for p in outputs if p.suffix == ".pdf"][-1]
    assert [p.name for p in outputs] == ["deal_deleted.pdf", "deal_deleted.pptx"]  # <input stem>_<what>
    with pymupdf.open(final_pdf) as doc:
        assert doc.page_count == 3 and "ACME" not in "".join(page.get_text() for page in doc)
    record = Path(result["record"])
    assert record.is_dir() and cache in record.parents and out not in record.parents
    saved = json.loads((record / "record.json").read_text())
    assert saved["request"].startswith("Redact") and [s["task"] for s in saved["steps"]][0] == "redact_text"
    assert "changed" in saved["steps"][1]


def test_never_overwrites(contract: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "deal_rotated.pdf").write_text("keep me")
    code, result, _ = run(
        ["Rotate all pages 90 degrees", contract, "--out", str(out), "--yes", "--json"], tmp_path / "c"
    )
    assert code == 0 and Path(result["outputs"][0]).name == "deal_rotated-2.pdf"
    assert (out / "deal_rotated.pdf").read_text() == "keep me"


def test_answers_and_message(contract: str, tmp_path: Path) -> None:
    code, result, _ = run(
        ["How many pages does this document have?", contract, "--out", str(tmp_path / "o"), "--yes", "--json"],
        tmp_path / "c",
    )
    assert code == 0 and result["answers"] == [{"step": 1, "task": "count_pages", "value": 4}]
    assert "4 pages" in result["message"] and result["outputs"] == []


def test_refusal_leaves_nothing(contract: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, result, _ = run(["Delete page 40", contract, "--out", str(out), "--yes", "--json"], tmp_path / "c")
    assert code == 1 and result["ok"] is False and "valid pages are 1-4" in result["error"]
    assert not out.exists() or not any(out.iterdir())


def test_failure_during_execution_leaves_nothing(contract: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, result, _ = run(
        ["Highlight 'nonexistent-term' and convert it to Word", contract, "--out", str(out), "--yes", "--json"],
        tmp_path / "c",
    )
    assert code == 1 and "nonexistent-term" in result["error"]
    assert not out.exists() or not any(out.iterdir())


def test_approval_needed_off_a_terminal(contract: str, tmp_path: Path) -> None:
    code, _, err = run(["Rotate all pages", contract, "--out", str(tmp_path / "o"), "--json"], tmp_path / "c")
    assert code == 2 and "approval needed: pass --yes" in err


@pytest.mark.parametrize("kind", ["empty", "truncated", "text", "random", "locked"])
def test_hostile_files_exit_1_without_traceback(kind: str, tmp_path: Path, make_pdf: Callable[..., str]) -> None:
    path = tmp_path / f"{kind}.pdf"
    good = Path(make_pdf(["hello"]))
    if kind == "truncated":
        path.write_bytes(good.read_bytes()[:300])
    elif kind == "text":
        path.write_text("just text\n" * 50)
    elif kind == "random":
        path.write_bytes(os.urandom(2048))
    elif kind == "locked":
        with pymupdf.open(good) as doc:
            doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="right", owner_pw="o")
    else:
        path.write_bytes(b"")
    out = tmp_path / "out"
    request = "Rotate all pages; the password is wrong" if kind == "locked" else "Rotate all pages"
    code, result, err = run([request, str(path), "--out", str(out), "--yes", "--json"], tmp_path / "c")
    assert code == 1 and result["ok"] is False and result["error"]
    assert "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())


def test_odd_but_valid_file_names(tmp_path: Path, make_pdf: Callable[..., str]) -> None:
    path = Path(make_pdf(["one", "two"], name="my file (1) $HOME;`x` 'q'.pdf"))
    out = tmp_path / "out dir"
    code, result, _ = run(["Delete page 1", str(path), "--out", str(out), "--yes", "--json"], tmp_path / "c")
    assert code == 0, result
    with pymupdf.open(result["outputs"][0]) as doc:
        assert doc.page_count == 1 and "two" in doc[0].get_text()
