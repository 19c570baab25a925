"""``docpilot ask --json`` and questions inside ``docpilot run`` keep DESIGN.md's contract."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ENV = {**os.environ, "DOCPILOT_BACKEND": "rules"}


def _docpilot(args: list[str], cache: Path) -> tuple[int, dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "docpilot", *args],
        capture_output=True,
        text=True,
        env={**ENV, "XDG_CACHE_HOME": str(cache)},
        stdin=subprocess.DEVNULL,
        timeout=300,
    )
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "{}"
    return proc.returncode, json.loads(last)


def test_ask_json_contract(synthetic: Callable[[str], str], tmp_path: Path) -> None:
    path = synthetic("visa_application.pdf")
    code, out = _docpilot(["ask", "When does the passport expire?", path, "--json"], tmp_path)
    assert code == 0 and out["ok"] is True and out["error"] is None
    assert out["question"] == "When does the passport expire?" and "2 September 2031" in out["answer"]
    assert out["answered"] is True, "a composed answer says so"
    assert out["citations"] == [
        {"file": str(Path(path).resolve()), "page": 1, "quote": "Passport expiry 02 September 2031"}
    ]
    assert set(out["stats"]) >= {"llm_calls", "context_tokens", "seconds"}
    entry = next((tmp_path / "docpilot" / "structure").iterdir())
    assert (entry / "structure.json").exists(), "the structure is cached for the next question"


def test_ask_about_an_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7 nothing else")
    code, out = _docpilot(["ask", "What is this?", str(bad), "--json"], tmp_path)
    assert code == 1 and out["ok"] is False and "readable PDF" in out["error"]


def test_a_question_in_run_is_answered_with_citations(synthetic: Callable[[str], str], tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    code, out = _docpilot(
        [
            "run",
            "What is the average annual salary in the table?",
            synthetic("salaries.pdf"),
            "--out",
            str(out_dir),
            "--yes",
            "--json",
        ],
        tmp_path,
    )
    assert code == 0 and out["ok"] is True and out["outputs"] == []
    answer = out["answers"][-1]
    assert answer["task"] == "answer_question" and answer["value"].startswith("94,600")
    assert answer["citations"][0]["page"] == 1 and answer["workflow"] and answer["answered"] is True
    assert not out_dir.exists() or not any(out_dir.iterdir())


def test_cache_clear_removes_the_cached_text(synthetic: Callable[[str], str], tmp_path: Path) -> None:
    code, _ = _docpilot(
        ["ask", "When does the passport expire?", synthetic("visa_application.pdf"), "--json"], tmp_path
    )
    assert code == 0 and any((tmp_path / "docpilot" / "structure").iterdir())
    proc = subprocess.run(
        [sys.executable, "-m", "docpilot", "cache", "clear"],
        capture_output=True,
        text=True,
        env={**ENV, "XDG_CACHE_HOME": str(tmp_path)},
        timeout=120,
    )
    assert proc.returncode == 0 and "removed the cached structure of 1 document" in proc.stdout
    assert not (tmp_path / "docpilot" / "structure").exists()


def test_no_composed_answer_is_answered_false(synthetic: Callable[[str], str], tmp_path: Path) -> None:
    """Without a model a free question gets the closest passage, whole and cited, and ``answered`` false:
    a quoted passage is not an answer, however much of one it holds."""
    code, out = _docpilot(
        ["ask", "Why was the consultant chosen for this project?", synthetic("contract.pdf"), "--json"], tmp_path
    )
    assert code == 0 and out["ok"] is True and out["answered"] is False
    assert out["answer"].startswith("I could not compose an answer without a language model")
    quote = out["citations"][0]["quote"]
    assert quote in out["answer"], "the passage is shown as it is cited, not cut to a length"


def test_a_document_that_does_not_say_is_answered_false(tmp_path: Path) -> None:
    import pymupdf

    blank = tmp_path / "blank.pdf"
    with pymupdf.open() as doc:
        doc.new_page()
        doc.save(blank)
    code, out = _docpilot(["ask", "Who signed the lease?", str(blank), "--json"], tmp_path)
    assert code == 0 and out["ok"] is True
    assert out["answered"] is False and out["answer"] == "The document does not say."
