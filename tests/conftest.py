"""Shared fixtures: fixture PDFs built here, real corpus files, input guards, leak checks."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

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


def extract_all(path: str, password: str | None = None, pages: Sequence[int] | None = None) -> dict[str, str]:
    """Text of a PDF by four extractors: PyMuPDF, pypdf, pdfminer.six and poppler's pdftotext.

    ``pages`` (1-based) limits every extractor to those pages (pdfminer is slow on long files);
    the file read is the one given, never a re-saved copy.
    """
    import pypdf
    from pdfminer.high_level import extract_text

    with pymupdf.open(path) as doc:
        if password:
            doc.authenticate(password)
        chosen = [p - 1 for p in pages] if pages else list(range(doc.page_count))
        mu = "\n".join(doc[i].get_text() for i in chosen)
    reader = pypdf.PdfReader(path)
    if reader.is_encrypted:
        reader.decrypt(password or "")
    py = "\n".join(reader.pages[i].extract_text() or "" for i in chosen)
    miner = extract_text(path, password=password or "", page_numbers=chosen)
    return {"pymupdf": mu, "pypdf": py, "pdfminer": miner, "pdftotext": _pdftotext(path, password, chosen)}


def _pdftotext(path: str, password: str | None, chosen: Sequence[int]) -> str:
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.fail("pdftotext (poppler-utils) is needed for the leak checks; make install puts it there")
    texts = []
    for first, last in _runs([i + 1 for i in chosen]):
        command = [tool, "-q", "-f", str(first), "-l", str(last)]
        if password:
            command += ["-upw", password]
        texts.append(subprocess.run([*command, str(path), "-"], capture_output=True, text=True, check=True).stdout)
    return "\n".join(texts)


def _runs(numbers: Sequence[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def readable(text: str) -> str:
    """Text as a reader would search it: ligatures expanded (NFKC), words broken at a line end joined
    ("em-" + "beddings"), whitespace collapsed, lower case."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"(\w)[-\u00ad\u2010]\s*\n\s*(\w)", r"\1\2", text)  # hyphen at a line end
    text = text.replace("\u00ad", "")  # soft hyphens
    return " ".join(text.split()).lower()


def assert_no_leak(
    path: str, strings: Iterable[str], password: str | None = None, pages: Sequence[int] | None = None
) -> None:
    """Redacted strings must be absent from all four extractors' text (``pages``: 1-based, default all)."""
    texts = extract_all(path, password, pages)
    for engine, text in texts.items():
        flat = readable(text)
        for s in strings:
            needle = readable(s)
            assert needle not in flat, f"{s!r} still extractable by {engine}"
            assert needle.replace(" ", "") not in flat.replace(" ", ""), (
                f"{s!r} still extractable by {engine} (across spaces)"
            )


def annotations(path: str) -> list[tuple[int, str, str, str]]:
    """(page 1-based, annotation type, text under it, content) for every annotation."""
    out = []
    with pymupdf.open(path) as doc:
        for page in doc:
            for annot in page.annots():
                under = page.get_textbox(annot.rect) if annot.rect.width > 1 else ""
                out.append((page.number + 1, annot.type[1], " ".join(under.split()), annot.info.get("content", "")))
    return out


@pytest.fixture(scope="module")
def llm() -> Any:
    """The embedded model, loaded once per module (skipped where it is not installed)."""
    from docpilot.llm.select import choose_backend

    model = choose_backend("local", os.environ)
    if model is None:
        pytest.skip("the embedded model is not installed")
    return model


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder in /tmp, outside any working folder, that everyone may enter and write (like /tmp itself): for the
    sandbox's layer tests. Not under pytest's own temporary folder, which only its owner may enter: the attacks
    there must fail for the layer under test, not because ``nobody`` cannot reach the folder.
    """
    folder = Path(tempfile.mkdtemp(prefix="docpilot-layers-"))
    folder.chmod(0o1777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def words(text: str, shortest: int = 1) -> list[str]:
    """The words of ``text`` (letters only, NFKC so "ﬁ" reads "fi", lower case) of at least ``shortest`` letters."""
    return re.findall(rf"[^\W\d_]{{{shortest},}}", unicodedata.normalize("NFKC", text).lower())


def word_recall(expected: str, found: str, shortest: int = 1) -> float:
    """Share of the expected words (with repeats) that the found text holds: what OCR is judged by."""
    from collections import Counter

    want = Counter(words(expected, shortest))
    return sum((want & Counter(words(found, shortest))).values()) / max(sum(want.values()), 1)
