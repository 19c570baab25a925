"""The tool language: every tool and every few-shot plan written as sentences reads back to the same plan;
the reader holds no tool's words of its own; a new tool is read from its registry words alone."""

from __future__ import annotations

import ast
import json
import typing
from pathlib import Path
from typing import Any

import pytest

from docpilot.files import FileInfo
from docpilot.planning.language import read_plan, write_plan
from docpilot.planning.language.forms import form_of
from docpilot.planning.language.slots import slots_of, spec_of
from docpilot.plans.plan import Plan
from pdftools import all_tools
from pdftools.colors import color_names
from pdftools.entity_kinds import ALL_KINDS
from pdftools.pages import Pages
from pdftools.registry import tool, unregister
from pdftools.words import Words

ROOT = Path(__file__).resolve().parents[2]
TOOLS = all_tools()


def _files(names: list[str]) -> dict[str, FileInfo]:
    return {
        n: FileInfo(n, f"/x/{n}", "pdf" if n.endswith(".pdf") else "image", pages=12 if n.endswith(".pdf") else None)
        for n in names
    }


def _canonical(plan: Plan) -> list[tuple[str, dict[str, Any]]]:
    """Checked arguments, results named by step position, pages and names in one spelling."""
    position = {step.returns: index for index, step in enumerate(plan.steps)}

    def ref(value: Any) -> Any:
        if isinstance(value, list):
            return [ref(v) for v in value]
        if isinstance(value, str) and value.startswith("$") and value[1:] in position:
            return f"#{position[value[1:]]}"
        return value

    out = []
    for step in plan.steps:
        slots = slots_of(TOOLS[step.task])
        args = {}
        for name, value in TOOLS[step.task].validate(step.args).items():
            kind = slots[name].kind
            if kind in ("pages", "spec") and value is not None:
                value = spec_of(value)
            elif kind == "name" and isinstance(value, str):
                value = value.replace(" ", "").lower()
            elif kind in ("quotes", "names") and isinstance(value, str):
                value = [value]
            args[name] = ref(value)
        out.append((step.task, args))
    return out


def _round_trip(plan: Plan, files: dict[str, FileInfo]) -> None:
    sentences = write_plan(plan, TOOLS, files)
    reading = read_plan("\n".join(sentences), TOOLS, files)
    assert reading.ok, (sentences, reading.unread)
    assert reading.plan is not None
    assert _canonical(reading.plan) == _canonical(plan), sentences


def _examples() -> list[dict[str, Any]]:
    path = ROOT / "fewshot" / "examples.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("example", _examples(), ids=lambda e: e["request"][:40])
def test_every_fewshot_plan_reads_back_from_its_sentences(example: dict[str, Any]) -> None:
    _round_trip(Plan.model_validate(example["plan"]), _files([f["name"] for f in example["files"]]))


def _sample(tool_name: str, arg: str, default: Any) -> Any:
    """A value for ``arg`` that differs from its default, of the slot's kind."""
    slot = slots_of(TOOLS[tool_name])[arg]
    annotation = TOOLS[tool_name].fields[arg][0]
    if slot.kind == "name":
        return "blue" if "colour" in repr(annotation) else slot.choices[0]
    samples: dict[str, Any] = {
        "quote": "Quarterly report: draft 2",
        "quotes": ["Alpha Ltd", "O'Brien & Sons"],
        "number": 0.5 if "float" in str(annotation) else 7,
        "numbers": [10.0, 20.0, 300.0, 400.0],
        "yesno": not default,
        "choice": next((c for c in slot.choices if c != default), None),
        "names": ["email", "phone"],
        "pages": "2-3,5",
        "spec": "3,1,2",
        "file": "other.pdf",
        "files": ["a.pdf", "b.pdf"] if arg == "files" else ["one.png", "two.png"],
        "mapping": {"Name": "Ada Lovelace", "Age": 42, "Agree": True},
    }
    value = samples[slot.kind]
    if arg in ("image",):
        value = "logo.png"
    return value


def _required(name: str) -> dict[str, Any]:
    args = {}
    for arg, (_, default) in TOOLS[name].fields.items():
        if default is ...:
            args[arg] = "report.pdf" if arg == "file" else _sample(name, arg, None)
    return args


_FILES = _files(["report.pdf", "other.pdf", "a.pdf", "b.pdf", "logo.png", "one.png", "two.png"])


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_every_tool_reads_back_with_each_argument_given(name: str) -> None:
    base = _required(name)
    files = {"report.pdf": _FILES["report.pdf"]} if "file" in TOOLS[name].fields else _FILES
    _round_trip(Plan.model_validate({"steps": [{"id": 1, "task": name, "args": base, "return": "r"}]}), files)
    every = dict(base)
    for arg, (_, default) in TOOLS[name].fields.items():
        if default is ... or arg == "file":
            continue
        value = _sample(name, arg, default)
        every[arg] = value
        one = {**base, arg: value}
        plan = Plan.model_validate({"steps": [{"id": 1, "task": name, "args": one, "return": "r"}]})
        _round_trip(plan, _FILES if arg == "image" else files)
    plan = Plan.model_validate({"steps": [{"id": 1, "task": name, "args": every, "return": "r"}]})
    _round_trip(plan, _FILES)


def test_a_chain_names_only_the_files_it_does_not_work_on_in_order() -> None:
    files = _files(["report.pdf"])
    plan = Plan.model_validate(
        {
            "steps": [
                {
                    "id": 1,
                    "task": "redact_text",
                    "args": {"file": "report.pdf", "terms": ["ACME"]},
                    "return": "redacted",
                },
                {"id": 2, "task": "convert_to_docx", "dep": [1], "args": {"file": "$redacted"}, "return": "word"},
                {"id": 3, "task": "compress", "dep": [1], "args": {"file": "$redacted"}, "return": "small"},
                {"id": 4, "task": "count_pages", "args": {"file": "report.pdf"}, "return": "n"},
            ]
        }
    )
    sentences = write_plan(plan, TOOLS, files)
    assert sentences == [
        "Redact 'ACME'.",
        "Convert it to Word.",
        "Compress it.",
        "Count the pages of 'report.pdf'.",
    ]
    _round_trip(plan, files)


def test_words_no_form_accounts_for_are_reported_not_dropped() -> None:
    reading = read_plan("Delete pages 3-5 in blue.", TOOLS, _files(["report.pdf"]))
    assert not reading.ok
    assert reading.unread and "in blue" in reading.unread[0]
    reading = read_plan("Add the watermark 'X' with opacity 0.2, sparkle 3.", TOOLS, _files(["report.pdf"]))
    assert not reading.ok and "sparkle" in reading.unread[0]


def test_without_a_file_to_work_on_the_sentence_asks_which() -> None:
    reading = read_plan("Compress it.", TOOLS, _files(["a.pdf", "b.pdf"]))
    assert not reading.ok and "which file" in reading.unread[0]
    reading = read_plan("Compress it of 'b.pdf'.", TOOLS, _files(["a.pdf", "b.pdf"]))
    assert reading.ok and reading.plan is not None and reading.plan.steps[0].args["file"] == "b.pdf"


def _string_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value.strip().lower()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    }


def test_the_reader_holds_no_tool_colour_kind_or_format_of_its_own() -> None:
    owned = set(TOOLS) | {c.lower() for c in color_names()} | set(ALL_KINDS)
    owned |= {t.converts_to for t in TOOLS.values() if t.converts_to}
    folder = ROOT / "docpilot" / "planning" / "language"
    found = {path.name: _string_literals(path) & owned for path in folder.glob("*.py")}
    assert len(found) >= 4
    assert not any(found.values()), found


def _frobnicate_tool(say: str, words: Words | None) -> None:
    @tool(kind="pdf", category="pages", explain="Tidy {pages} of {file}", say=say, words=words)
    def frobnicate_pages(file: str, pages: Pages = "all", strength: int = 1, output: str | None = None) -> str:
        """Tidy pages up.

        Args:
            file: The PDF.
            pages: Pages to tidy.
            strength: How hard.
            output: File name for the result.
        """
        return file

    typing.cast(Any, frobnicate_pages)


def test_a_new_tool_is_read_from_its_registry_words_alone() -> None:
    sentence = "Tidy up page 2 with strength 3."
    _frobnicate_tool("Tidy up", Words(verbs=("tidy",)))
    try:
        tools = {**TOOLS, "frobnicate_pages": all_tools()["frobnicate_pages"]}
        reading = read_plan(sentence, tools, _files(["report.pdf"]))
        assert reading.ok and reading.plan is not None
        step = reading.plan.steps[0]
        assert (step.task, step.args["pages"], step.args["strength"]) == ("frobnicate_pages", "2", 3)
        assert form_of(tools["frobnicate_pages"]).describe().startswith("Tidy up[ on <pages>]")
    finally:
        unregister("frobnicate_pages")
    _frobnicate_tool("", None)  # without its words the tool is still in the catalogue, but the sentence is not its
    try:
        tools = {**TOOLS, "frobnicate_pages": all_tools()["frobnicate_pages"]}
        assert not read_plan(sentence, tools, _files(["report.pdf"])).ok
    finally:
        unregister("frobnicate_pages")


def test_the_language_page_is_the_one_the_registry_gives() -> None:
    from docpilot.planning.language.page import language_page

    committed = (ROOT / "docs" / "language.md").read_text()
    assert committed == language_page(TOOLS), "run: python -m docpilot.planning.language.page > docs/language.md"
    assert all(f"`{name}`" in committed for name in TOOLS)
