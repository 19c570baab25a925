"""Questions about the files themselves (page count, title, encryption, form fields, bookmarks, annotations,
attachments) are answered by the tools that report those facts, with no model call, naming only uploaded files.

Truth for the corpus is MANIFEST.tsv (pages, encrypted), written when the corpus was collected.
"""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

import pytest

from docpilot import service
from docpilot.files import inspect_files
from docpilot.planning.fastpath.asked import fact_words
from docpilot.planning.planner import Planner
from docpilot.settings import Settings
from pdftools import get_tool

ROOT = Path(__file__).resolve().parents[2]
REAL = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared")) / "corpus" / "real"


def _manifest() -> list[dict[str, str]]:
    path = REAL / "MANIFEST.tsv"
    if not path.is_file():
        pytest.skip("../shared/corpus/real/MANIFEST.tsv is absent")
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _tasks(request: str, files: dict) -> list[tuple[str, str]]:
    outcome = Planner(llm=None).plan(request, files)
    assert outcome.plan is not None, (request, outcome.to_json())
    assert outcome.backend == "rules" and outcome.stats.llm_calls == 0
    return [(s.task, str(s.args.get("file"))) for s in outcome.plan.steps]


@pytest.mark.parametrize(
    ("question", "task"),
    [
        ("does it have form fields?", "read_form"),
        ("are there any bookmarks?", "get_outline"),
        ("does it have a table of contents?", "get_outline"),
        ("any attachments?", "extract_attachments"),
        ("are there any comments?", "read_annotations"),
        ("does it have annotations?", "read_annotations"),
        ("what's the title?", "get_metadata"),
        ("who is the author?", "get_metadata"),
        ("how many pages?", "count_pages"),
        ("is it encrypted?", "check_password"),
        ("is it actually password protected?", "check_password"),
        # a tool with a knob besides the file and its pages (detect_orientation's min_confidence) reports a fact too
        ("are any pages upside down?", "detect_orientation"),
        ("which pages are sideways?", "detect_orientation"),
        ("is anything upside down in this scan?", "detect_orientation"),  # asks: no turn of the pages
        # what is said before the question is the reason for asking
        ("this memo is locked for copying I think — is it actually password protected?", "check_password"),
        ("The pages look odd. Which ones are sideways?", "detect_orientation"),
    ],
)
def test_a_question_about_the_file_is_the_tool_that_reports_it(question: str, task: str, make_pdf) -> None:
    files = inspect_files([make_pdf(["one", "two"], name="memo.pdf")])
    assert _tasks(question, files) == [(task, "memo.pdf")]


@pytest.mark.parametrize(
    ("question", "pages"), [("what is the orientation of page 2?", "2"), ("is page 1 sideways?", "1")]
)
def test_a_fact_of_some_pages_is_asked_of_those_pages(question: str, pages: str, make_pdf) -> None:
    files = inspect_files([make_pdf(["one", "two"], name="memo.pdf")])
    outcome = Planner(llm=None).plan(question, files)
    assert outcome.plan is not None, outcome.to_json()
    assert [(s.task, s.args.get("pages")) for s in outcome.plan.steps] == [("detect_orientation", pages)]


@pytest.mark.parametrize(
    "question",
    [
        "are the scanned pages upside down?",
        "is the whole thing upside down?",
        "do pages 1-2 need rotating?",
        "are any pages upside down in the 2019 copy?",  # a number no page (a year) is not read as all pages
    ],
)
def test_a_question_never_becomes_a_change_to_the_file(question: str, make_pdf) -> None:
    """A clause that asks how the pages are is never planned as a change to them (a turn)."""
    files = inspect_files([make_pdf(["one", "two"], name="memo.pdf")])
    outcome = Planner(llm=None).plan(question, files)
    assert outcome.plan is None or all(get_tool(s.task).kind == "value" for s in outcome.plan.steps), outcome.to_json()
    if outcome.plan is not None:
        assert [s.args.get("pages") for s in outcome.plan.steps] != ["all"]


@pytest.mark.parametrize(
    "question",
    ["what does the table on page 2 say?", "which pages have comments from Ann?", "what is the title of section 2?"],
)
def test_a_question_that_says_more_is_not_read_as_a_fact_of_the_file(question: str, make_pdf) -> None:
    files = inspect_files([make_pdf(["one", "two"], name="memo.pdf")])
    outcome = Planner(llm=None).plan(question, files)
    assert outcome.plan is None or {s.task for s in outcome.plan.steps}.isdisjoint({"get_metadata", "get_outline"})


def test_the_facts_come_from_the_registry() -> None:
    """Which tool reports a fact is read from the tools' own explain texts and summaries (no hand-kept list)."""
    claims = fact_words()
    assert claims["bookmark"] == {"get_outline"} and claims["field"] == {"read_form"}
    assert claims["attach"] == {"extract_attachments"} and claims["author"] == {"get_metadata"}
    assert claims["table"] == {"extract_tables", "get_outline"}  # "the tables", "the table of contents"


def test_every_corpus_file_one_at_a_time() -> None:
    """Page count, title and encryption of each of the corpus's files: planned with no model, answered by the tool."""
    for row in _manifest():
        path = REAL / row["filename"]
        files = inspect_files([path])
        name, encrypted = row["filename"], row["encrypted"] == "y"
        assert _tasks("Is it encrypted?", files) == [("check_password", name)]
        status = get_tool("check_password")(file=str(path))
        assert bool(status["encrypted"]) is encrypted, (name, status)
        if files[name].encrypted:  # opening it needs a password (some encrypted files open without one)
            outcome = Planner(llm=None).plan("How many pages does it have?", files)
            assert outcome.question is not None and "password" in outcome.question.text  # never a guess
            continue
        assert _tasks("How many pages does it have?", files) == [("count_pages", name)]
        assert get_tool("count_pages")(file=str(path)) == int(row["pages"]), name
        assert _tasks("What's the title?", files) == [("get_metadata", name)]
        assert "title" in get_tool("get_metadata")(file=str(path))


def test_every_corpus_file_at_once() -> None:
    files = {n: i for n, i in inspect_files([REAL / r["filename"] for r in _manifest()]).items() if not i.encrypted}
    rows = [r for r in _manifest() if r["filename"] in files]
    names = {r["filename"] for r in rows}
    steps = _tasks("How many pages does each file have?", files)
    assert {t for t, _ in steps} == {"count_pages"} and {f for _, f in steps} == names
    steps = _tasks("what are the titles of these files?", files)
    assert {t for t, _ in steps} == {"get_metadata"} and {f for _, f in steps} == names


def test_which_file_is_longest_names_only_uploaded_files(tmp_path: Path) -> None:
    rows = [r for r in _manifest() if r["pages"].isdigit()]
    chosen = sorted(rows, key=lambda r: r["filename"])[::6]  # a spread of files, encrypted ones too
    files = inspect_files([REAL / r["filename"] for r in chosen])
    pilot = service.make_pilot(Settings.from_env("rules", {"XDG_CACHE_HOME": str(tmp_path)}))
    readable = [r for r in chosen if not files[r["filename"]].encrypted]
    for question, pick in [
        ("Which of these files is the longest?", max),
        ("which one has the fewest pages?", min),
    ]:
        assert Planner(llm=None).plan(question, files).content_question  # not a plan: an answer
        answer = pilot.ask(question, files)
        best = pick(readable, key=lambda r: int(r["pages"]))
        assert answer["answer"].startswith(best["filename"]), answer
        assert answer["stats"]["llm_calls"] == 0
        named = set(re.findall(r"[\w.\-]+\.pdf", answer["answer"]))
        assert {n.strip() for n in named} <= {r["filename"] for r in chosen}, named


def test_ask_answers_the_facts_of_every_corpus_file_with_the_tools(tmp_path: Path) -> None:
    """`ask` (the CLI's and the chat's questions) answers a question about the file itself from the tools, one
    file at a time and all at once: the manifest's page count, whether it is encrypted, no model, no page read."""
    pilot = service.make_pilot(Settings.from_env("rules", {"XDG_CACHE_HOME": str(tmp_path)}))
    rows = _manifest()
    for row in rows:
        name = row["filename"]
        files = inspect_files([REAL / name])
        told = pilot.ask("Is this file encrypted?", files)
        assert told["stats"]["llm_calls"] == 0 and told["answered"], told
        assert ("not password-protected and not encrypted" not in told["answer"]) is (row["encrypted"] == "y"), told
        if files[name].encrypted:
            continue
        told = pilot.ask("how many pages are in this IRM file?", files)  # a word that says which file
        assert told["answer"] == f"{name} has {row['pages']} page{'s' if row['pages'] != '1' else ''}.", told
        assert told["stats"]["llm_calls"] == 0
    files = {n: i for n, i in inspect_files([REAL / r["filename"] for r in rows]).items() if not i.encrypted}
    told = pilot.ask("How many pages does each file have?", files)
    for row in rows:
        if row["filename"] in files:
            assert f"{row['filename']} has {row['pages']} page" in told["answer"]
    named = set(re.findall(r"[\w.\-]+\.pdf", told["answer"]))
    assert named == set(files) and told["stats"]["llm_calls"] == 0
    total = sum(int(r["pages"]) for r in rows if r["filename"] in files)
    assert told["answer"].endswith(f"{total} pages in all.")


def _titled(path: Path, title: str) -> Path:
    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 90), "Quarterly memo: the figures for the third quarter.", fontsize=11)
    doc.set_metadata({"title": title, "author": "Ann Lee"})
    doc.save(path)
    return path


def test_ask_gives_the_title_its_properties_set_or_reads_the_pages(tmp_path: Path) -> None:
    pilot = service.make_pilot(Settings.from_env("rules", {"XDG_CACHE_HOME": str(tmp_path)}))
    told = pilot.ask("What's the title?", inspect_files([_titled(tmp_path / "memo.pdf", "Quarterly Memo, Q3")]))
    assert told["answer"] == 'memo.pdf\'s properties: title "Quarterly Memo, Q3".' and told["stats"]["llm_calls"] == 0
    told = pilot.ask("What's the title?", inspect_files([_titled(tmp_path / "v2.pdf", "Microsoft Word - memo.docx")]))
    assert "Microsoft" not in told["answer"]  # a program's placeholder is no title: the pages are read instead


def test_who_wrote_it_is_the_author_or_the_pages(tmp_path: Path) -> None:
    """ "Who wrote the memo?" (blind q17, tuning) asks for the author: the properties answer only with one set, never
    with the title and the producer instead."""
    import pymupdf

    from docpilot.understanding.filefacts import file_facts

    path = tmp_path / "memo.pdf"
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 90), "From: Ida Brandt. The figures for the third quarter.", fontsize=11)
    doc.set_metadata({"title": "memo", "producer": "Quartz PDFContext"})
    doc.save(path)
    files = {"memo.pdf": str(path)}
    assert file_facts("Who wrote the memo?", [("get_metadata", "memo.pdf")], files) is None
    with_author = file_facts(
        "Who wrote it?",
        [("get_metadata", "memo.pdf")],
        {"memo.pdf": str(_titled(tmp_path / "v3.pdf", "Quarterly Memo, Q3"))},
    )
    assert with_author is not None and "Ann Lee" in with_author["answer"] and "Quarterly" not in with_author["answer"]


@pytest.mark.parametrize("question", ["how many pages mention payment?", "what is the title of section 2?"])
def test_ask_leaves_a_question_about_the_content_to_the_pages(question: str, tmp_path: Path, make_pdf) -> None:
    from docpilot.understanding.filefacts import file_facts

    files = inspect_files([make_pdf(["payment is due", "two"], name="memo.pdf")])
    steps = service.DocPilot._fact_steps(question, files)
    assert file_facts(question, steps, {n: i.path for n, i in files.items()}) is None
