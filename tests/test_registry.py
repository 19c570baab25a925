"""The tool catalogue: every DESIGN.md tool is registered with a typed, described schema."""

from __future__ import annotations

import json
import subprocess
import sys
import typing

import pytest

from pdftools import all_tools, get_tool
from pdftools.argcheck import PageSelection
from pdftools.errors import ToolArgumentError, UnknownToolError
from pdftools.registry import tool
from pdftools.words import Named

CATALOGUE = """
duplicate rename count_pages get_metadata set_metadata check_password add_password remove_password compress
combine_files sanitize extract_pages delete_pages rotate_pages reorder_pages split_pdf insert_blank_pages
add_page_with_text crop_pages remove_blank_pages search_text highlight_text underline_text strikeout_text
add_comment read_annotations delete_annotations redact_text redact_pages add_watermark add_signature
add_page_numbers add_header_footer add_image read_form fill_form flatten_form convert_to_docx convert_to_pptx
convert_to_xlsx convert_to_png convert_to_jpeg convert_to_tiff convert_to_text convert_to_markdown images_to_pdf
extract_text extract_tables extract_images extract_attachments get_outline ocr find_entities
""".split()


def test_every_catalogue_tool_is_registered() -> None:
    missing = sorted(set(CATALOGUE) - set(all_tools()))
    assert not missing, f"tools missing from the registry: {missing}"


def _leaf_has_type(schema: dict) -> bool:
    if "type" in schema or "$ref" in schema or "enum" in schema or "const" in schema:
        return True
    return any(_leaf_has_type(s) for key in ("anyOf", "oneOf", "allOf") for s in schema.get(key, []))


@pytest.mark.parametrize("name", CATALOGUE)
def test_schema_arguments_have_types_and_descriptions(name: str) -> None:
    entry = get_tool(name)
    schema = entry.schema()
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["properties"], f"{name} takes no arguments"
    # every argument is in the catalogue, one named "title" too (set_metadata's: not pydantic's title key)
    assert list(schema["properties"]) == list(entry.arg_docs)
    for arg, prop in schema["properties"].items():
        assert prop.get("description", "").strip(), f"{name}.{arg} has no description"
        assert _leaf_has_type(prop), f"{name}.{arg} has no type"
    assert entry.summary and entry.explain and entry.returns


def test_registration_rejects_undocumented_or_untyped_arguments() -> None:
    with pytest.raises(TypeError, match="no description"):

        @tool(kind="value", category="test", explain="x")
        def undocumented_tool(file: str, pages: str = "all") -> int:
            """Do a thing.

            Args:
                file: The PDF.
            """
            return 0

    with pytest.raises(TypeError, match="no type annotation"):

        @tool(kind="value", category="test", explain="x")
        def untyped_tool(file, pages: str | None = None) -> int:  # type: ignore[no-untyped-def]
            """Do a thing.

            Args:
                file: The PDF.
                pages: Pages.
            """
            return 0


def test_validation_names_the_problem() -> None:
    entry = get_tool("count_pages")
    with pytest.raises(ToolArgumentError, match="'file' is required"):
        entry.validate({})
    with pytest.raises(ToolArgumentError, match="'colour' is not accepted"):
        entry.validate({"file": "a.pdf", "colour": "red"})
    with pytest.raises(UnknownToolError, match="no tool named 'teleport_pages'"):
        get_tool("teleport_pages")


def test_doc_text_lists_arguments() -> None:
    text = get_tool("count_pages").doc_text()
    assert text.startswith("count_pages(file, password?)")
    assert "password (optional)" in text


def test_cli_tools_json_lists_catalogue() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "docpilot", "tools", "--json"], capture_output=True, text=True, check=True
    ).stdout
    names = {entry["name"] for entry in json.loads(out)}
    assert set(CATALOGUE) <= names
    assert "summarize" in names  # a tool steps can use (the model is reached through the host)
    assert "answer_question" not in names  # a question is answered, not planned: `docpilot ask`


def test_tool_index_matches_the_modules() -> None:
    from pdftools.registry import tool_index

    assert {name: tool.func.__module__ for name, tool in all_tools().items()} == tool_index()


# --- validation without pydantic gives what pydantic gives -------------------------------------


def _samples(annotation) -> list:
    """Values of ``annotation``: exact ones, and near misses pydantic would convert or refuse."""
    import types
    import typing

    if annotation is type(None) or annotation is None:
        return [None]
    simple = {
        str: ["report.pdf", "1-3,last", ""],
        int: [3, 0, True, "4", 2.0],
        float: [0.5, 2, "1.5"],
        bool: [True, False, 1, "yes"],
    }
    if annotation in simple:
        return simple[annotation]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _samples(args[0])
    if origin in (typing.Union, types.UnionType):
        return [value for arg in args for value in _samples(arg)]
    if origin is typing.Literal:
        return [*args, "not-a-choice"]
    if origin is list:
        return [[], [value for value in _samples(args[0])[:2]], ("a", "b")]
    if origin is dict:
        return [{}, *({"k": value} for value in _samples(args[1])[:2])]
    return [object()]


@pytest.mark.parametrize("name", sorted(all_tools()))
def test_exact_arguments_validate_as_pydantic_would(name: str) -> None:
    """Every argument value the pydantic-free check accepts comes out exactly as the model returns it."""
    from pydantic import ValidationError

    from pdftools.argcheck import exact_values

    entry = get_tool(name)
    required = {arg: _samples(ann)[0] for arg, (ann, default) in entry.fields.items() if default is ...}
    cases = [dict(required)]
    for arg, (annotation, _) in entry.fields.items():
        cases += [{**required, arg: value} for value in _samples(annotation)]
    taken = 0
    for args in cases:
        fast = exact_values(entry.fields, args)
        if fast is None:
            continue
        taken += 1
        try:
            model = entry.args_model.model_validate(args)
        except ValidationError as exc:
            raise AssertionError(f"{name}: {args} accepted without pydantic, refused by it: {exc}") from None
        expected = {arg: getattr(model, arg) for arg in entry.arg_docs}
        assert fast == expected and [type(v) for v in fast.values()] == [type(v) for v in expected.values()], args
    constrained = any(
        typing.get_origin(ann) is typing.Annotated
        and not all(isinstance(m, (PageSelection, Named)) for m in ann.__metadata__)
        for ann, _ in entry.fields.values()
    )  # a constraint (combine_files' two files at least) is pydantic's to check
    assert taken or constrained, f"{name}: no sample was taken without pydantic"
