"""Shared fixtures: fixture PDFs built here, real corpus files, input guards, leak checks."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable, Iterable, Sequence

import pymupdf
import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus"


def _sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class InputGuard:
    """Remembers input files' bytes; the fixture asserts they are unchanged at teardown."""

    def __init__(self) -> None:
        self.hashes: dict[Path, str] = {}

    def __call__(self, path: str | os.PathLike[str]) -> str:
        path = Path(path)
        self.hashes[path] = _sha(path)
        return str(path)

    def check(self) -> None:
        for path, digest in self.hashes.items():
            assert _sha(path) == digest, f"input {path.name} was modified"


@pytest.fixture
def guard() -> Iterable[InputGuard]:
    """``guard(path)`` registers an input; its bytes must be unchanged when the test ends."""
    g = InputGuard()
    yield g
    g.check()


@pytest.fixture(autouse=True)
def _work_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Tools write default-named outputs to the working directory: make it the test's tmp dir."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.fixture
def real(guard: InputGuard) -> Callable[[str], str]:
    """``real("pdfjs__tracemonkey.pdf")``: a guarded file from ../shared/corpus/real (skip if absent)."""

    def get(name: str) -> str:
        path = CORPUS / "real" / name
        if not path.exists():
            pytest.skip(f"corpus file {path} is absent (../shared/corpus not beside the project)")
        return guard(path)

    return get


@pytest.fixture
def synthetic(guard: InputGuard) -> Callable[[str], str]:
    """``synthetic("contract.pdf")``: a guarded file from ../shared/corpus/synthetic (skip if absent)."""

    def get(name: str) -> str:
        path = CORPUS / "synthetic" / name
        if not path.exists():
            pytest.skip(f"corpus file {path} is absent (../shared/corpus not beside the project)")
        return guard(path)

    return get


@pytest.fixture
def make_pdf(tmp_path: Path, guard: InputGuard) -> Callable[..., str]:
    """Build a small guarded PDF: ``make_pdf(["page 1 text", "page 2 text"], name="a.pdf")``.

    Each entry is a page's text (lines separated by newlines) inserted at (72, 72)
    in Helvetica 11 pt on a US-letter page.
    """

    def build(pages: Sequence[str], name: str = "fixture.pdf", rotation: int = 0) -> str:
        doc = pymupdf.open()
        for text in pages:
            page = doc.new_page(width=612, height=792)
            page.insert_text((72, 72), text, fontsize=11, fontname="helv")
            if rotation:
                page.set_rotation(rotation)
        path = tmp_path / "inputs" / name
        path.parent.mkdir(exist_ok=True)
        doc.save(path)
        doc.close()
        return guard(path)

    return build


def extract_all(path: str, password: str | None = None) -> dict[str, str]:
    """Text of a PDF by PyMuPDF, pypdf and pdfminer.six, each whole."""
    import pypdf
    from pdfminer.high_level import extract_text

    with pymupdf.open(path) as doc:
        if password:
            doc.authenticate(password)
        mu = "\n".join(page.get_text() for page in doc)
    reader = pypdf.PdfReader(path)
    if reader.is_encrypted:
        reader.decrypt(password or "")
    py = "\n".join(page.extract_text() or "" for page in reader.pages)
    miner = extract_text(path, password=password or "")
    return {"pymupdf": mu, "pypdf": py, "pdfminer": miner}


def assert_no_leak(path: str, strings: Iterable[str], password: str | None = None) -> None:
    """Redacted strings must be absent from PyMuPDF, pypdf and pdfminer.six extraction."""
    texts = extract_all(path, password)
    for engine, text in texts.items():
        flat = " ".join(text.split()).lower()
        for s in strings:
            assert s.lower() not in flat, f"{s!r} still extractable by {engine}"


def annotations(path: str) -> list[tuple[int, str, str, str]]:
    """(page 1-based, annotation type, text under it, content) for every annotation."""
    out = []
    with pymupdf.open(path) as doc:
        for page in doc:
            for annot in page.annots():
                under = page.get_textbox(annot.rect) if annot.rect.width > 1 else ""
                out.append((page.number + 1, annot.type[1], " ".join(under.split()), annot.info.get("content", "")))
    return out
