"""Uploads have a size and a page limit with a clear message (issue L item 6); the defaults admit every
corpus file, the 352- and 400-page ones included."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from docpilot.errors import DocPilotError, LimitError
from docpilot.files import UploadLimits, inspect_files
from docpilot.ui.actions import handle_upload
from docpilot.ui.session import SessionStore
from tests.conftest import CORPUS

MANUAL = "unstructured__pdf2image-memory-error-test-400p.pdf"  # 400 pages, the corpus' largest file


def test_the_defaults_admit_every_corpus_file() -> None:
    files = sorted(CORPUS.rglob("*.pdf"))
    if not files:
        pytest.skip("../shared/corpus is absent")
    limits = UploadLimits()
    longest = 0
    for path in files:
        limits.check_size(path)
        info = inspect_files([path])[path.name]
        limits.check_pages(info)
        longest = max(longest, info.pages or 0)
    assert longest == 400


def test_a_file_over_the_page_limit_is_refused_with_what_to_do(real: Callable[[str], str], tmp_path: Path) -> None:
    manual = real(MANUAL)
    store = SessionStore(tmp_path / "root", limits=UploadLimits(max_pages=300))
    session = store.create()
    assert handle_upload(session, [manual]) == []
    said = session.history[-1]["content"]
    assert f"{MANUAL} was not added: {MANUAL} has 400 pages; files of up to 300 pages are accepted." in said
    assert "DOCPILOT_MAX_PAGES" in said and "Split it first" in said
    assert session.files == {} and not list((session.folder / "inputs").iterdir()), "nothing of it is kept"
    small = real("pypdfsamples__multicolumn.pdf")
    assert handle_upload(session, [small]) == ["pypdfsamples__multicolumn.pdf"], "the session goes on"


def test_a_file_over_the_size_limit_is_refused_before_it_is_copied(real: Callable[[str], str], tmp_path: Path) -> None:
    manual = real(MANUAL)  # 3.6 MB
    store = SessionStore(tmp_path / "root", limits=UploadLimits(max_mb=2))
    session = store.create()
    assert handle_upload(session, [manual]) == []
    said = session.history[-1]["content"]
    assert "is 3.4 MB; files up to 2 MB are accepted" in said and "DOCPILOT_MAX_UPLOAD_MB" in said
    assert not (session.folder / "inputs").exists() or not list((session.folder / "inputs").iterdir())


def test_limits_come_from_the_environment_and_bad_values_say_why() -> None:
    assert UploadLimits.from_env({}) == UploadLimits()
    assert UploadLimits.from_env({"DOCPILOT_MAX_UPLOAD_MB": "5", "DOCPILOT_MAX_PAGES": "50"}) == UploadLimits(5, 50)
    with pytest.raises(LimitError, match=r"DOCPILOT_MAX_PAGES='lots' is not a number"):
        UploadLimits.from_env({"DOCPILOT_MAX_PAGES": "lots"})
    with pytest.raises(DocPilotError, match="must be a positive number"):
        UploadLimits.from_env({"DOCPILOT_MAX_UPLOAD_MB": "0"})


def test_serve_with_a_limit_that_is_no_number_says_so_and_exits_2(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "DOCPILOT_MAX_UPLOAD_MB": "a lot", "XDG_CACHE_HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "docpilot", "serve", "--backend", "rules"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "DOCPILOT_MAX_UPLOAD_MB='a lot' is not a number: give a positive number, e.g. 100." in proc.stderr
    assert "Traceback" not in proc.stderr
