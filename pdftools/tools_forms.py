"""Form tools: read, fill and flatten AcroForm fields (PyMuPDF widgets).

Values are written with fresh appearance streams (and the fonts they name put in
the form's resources) so every viewer shows them, and read back before the file is
delivered. XFA-only forms (Adobe LiveCycle) are refused with a clear message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf

from ._formfields import (
    FormField,
    button_captions,
    collect_fields,
    drop_xfa,
    is_xfa,
    match_field,
    repair_da_fonts,
    squash,
    xfa_message,
    xfa_only,
)
from .docio import open_pdf, write_pdf
from .errors import PdfToolError, ToolArgumentError
from .paths import output_path
from .registry import tool
from .words import Words

__all__ = ["read_form", "fill_form", "flatten_form"]

_TRUE = {"true", "yes", "on", "checked", "check", "x", "1", "y", "selected", "ticked"}
_FALSE = {"false", "no", "off", "unchecked", "uncheck", "0", "n", "", "none", "unselected", "clear"}


def _describe(f: FormField, captions: list[str | None]) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": f.name, "type": f.type, "value": f.value(), "page": f.page + 1}
    options = f.options()
    if options:
        entry["options"] = options
    if f.type == "radio":
        labels = {str(w.on_state()): c for (_, w), c in zip(f.widgets, captions, strict=False) if c and w.on_state()}
        if labels:
            entry["option_labels"] = labels
    elif f.choice_labels():
        entry["option_labels"] = f.choice_labels()
    if f.label:
        entry["label"] = f.label
    if f.read_only:
        entry["read_only"] = True
    return entry


@tool(
    kind="value",
    category="forms",
    explain="Read the form fields of {file}",
    result_name="form_values",
    say="Read the form fields",
    words=Words(verbs=("read", "list", "show"), nouns=("form", "fields", "form fields")),
)
def read_form(file: str) -> list[dict[str, Any]]:
    """List the fillable form fields of a PDF with their current values.

    Args:
        file: The PDF form.

    Returns:
        One entry per field: name, type (text, checkbox, radio, dropdown, listbox, signature,
        button), value (text, true/false for checkboxes, the chosen option), 1-based page,
        and options / option_labels for choices and radio buttons. Empty when the PDF has no fields.
    """
    with open_pdf(file) as doc:
        fields = collect_fields(doc)
        if xfa_only(doc, fields):
            raise ToolArgumentError(xfa_message(Path(file).name))
        captions = button_captions(fields)
        return [_describe(f, captions.get(f.name, [])) for f in fields.values()]


def _text(value: str | bool | int | float) -> str:
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _plan_value(f: FormField, value: str | bool | int | float, captions: list[str | None]) -> Any:
    """The value to write into ``f``, or raise ToolArgumentError saying what is allowed."""
    if f.read_only:
        raise ToolArgumentError(f"field {f.name!r} is read-only and cannot be filled")
    if f.type == "signature":
        raise ToolArgumentError(f"field {f.name!r} is a signature field; use add_signature to sign the document")
    if f.type in ("button", "unknown"):
        raise ToolArgumentError(f"field {f.name!r} is a push button and holds no value")
    text = _text(value)
    if f.type == "checkbox":
        on_states = {squash(str(w.on_state())) for _, w in f.widgets}
        key = squash(text)
        if key in _TRUE or key in on_states:
            return True
        if key in _FALSE:
            return False
        raise ToolArgumentError(f"checkbox {f.name!r} takes true/false (or yes/no, on/off), not {value!r}")
    if f.type == "radio":
        options = f.options()
        if value is False or squash(text) in ("off", "none", ""):
            return None
        states = [(str(w.on_state()), caption) for (_, w), caption in zip(f.widgets, captions, strict=False)]
        for state, _ in states:
            if text == state:
                return state
        for state, caption in states:
            if squash(text) in (squash(state), squash(caption or "")):
                return state
        shown = [
            f"{o} ({c})" if c and c != o else o for o, c in zip(options, _option_captions(f, captions), strict=False)
        ]
        raise ToolArgumentError(f"radio group {f.name!r} has no option {value!r}; choose one of: {', '.join(shown)}")
    if f.type in ("dropdown", "listbox"):
        options = f.options()
        labels = f.choice_labels()
        if text in options:
            return text
        for option in options:
            if squash(option) == squash(text) or squash(labels.get(option, "")) == squash(text):
                return option
        if f.editable_choice():
            return text
        raise ToolArgumentError(f"{f.type} {f.name!r} has no option {value!r}; choose one of: {', '.join(options)}")
    maxlen = f.first.text_maxlen or 0
    if maxlen and len(text) > maxlen:
        raise ToolArgumentError(f"field {f.name!r} holds at most {maxlen} characters; {text!r} has {len(text)}")
    return text


def _option_captions(f: FormField, captions: list[str | None]) -> list[str | None]:
    by_state = {str(w.on_state()): c for (_, w), c in zip(f.widgets, captions, strict=False)}
    return [by_state.get(o) for o in f.options()]


def _write(f: FormField, planned: Any) -> None:
    if f.type == "radio":
        # switch the others off first, then the chosen one on (the parent's /V follows the last)
        ordered = sorted(f.widgets, key=lambda pw: str(pw[1].on_state()) == planned)
        for _, w in ordered:
            w.field_value = str(w.on_state()) == planned
            w.update()
        return
    for _, w in f.widgets:
        w.field_value = planned
        w.update()


def _same(f: FormField, planned: Any) -> bool:
    got = f.value()
    if f.type == "text":
        return (got or "").strip() == str(planned).strip()
    if f.type in ("dropdown", "listbox"):
        return got == planned or (isinstance(got, list) and planned in got)
    return got == planned


@tool(
    kind="pdf",
    category="forms",
    explain="Fill the form in {file}: {values}",
    result_name="filled",
    say="Fill the form with {values}",
    words=Words(verbs=("fill", "complete", "enter"), nouns=("form", "fields"), makes=("filled",)),
)
def fill_form(
    file: str,
    values: dict[str, str | bool | int | float],
    output: str | None = None,
) -> str:
    """Fill in form fields and save the filled form as a new PDF.

    Field names are matched exactly first, then ignoring case, spaces and punctuation
    ("Last Name" = "lastname"), then by the last part of a long name or the field's tooltip.

    Args:
        file: The PDF form.
        values: Field name -> value, e.g. {"Last Name": "Smith", "Agree": true}. Checkboxes take
            true/false (or "yes"/"no", "on"/"off"); dropdowns, lists and radio groups take one of
            their options (read_form lists them).
        output: File name for the result (default: <name>_filled.pdf).

    Returns:
        Path of the filled PDF.
    """
    if not values:
        raise ToolArgumentError('Give at least one field and value to fill, e.g. {"Last Name": "Smith"}.')
    with open_pdf(file) as doc:
        name = Path(file).name
        fields = collect_fields(doc)
        if xfa_only(doc, fields):
            raise ToolArgumentError(xfa_message(name))
        if not fields:
            raise ToolArgumentError(f"{name} has no fillable form fields. Use add_page_with_text or a stamp instead.")
        captions = button_captions(fields)
        problems: list[str] = []
        plan: dict[str, tuple[FormField, Any]] = {}
        for key, value in values.items():
            try:
                f = match_field(fields, key)
                plan[f.name] = (f, _plan_value(f, value, captions.get(f.name, [])))
            except ToolArgumentError as exc:
                problems.append(str(exc))
        if problems:
            raise ToolArgumentError(f"Cannot fill {name}: " + "; ".join(dict.fromkeys(problems)))
        for f, planned in plan.values():
            _write(f, planned)
        _redraw_stale(doc, fields, skip=set(plan))
        if is_xfa(doc):
            drop_xfa(doc)  # hybrid XFA: viewers would otherwise show the old XFA data
        repair_da_fonts(doc)
        # Every value now has a fresh appearance stream. NeedAppearances=true would make viewers
        # redraw fields themselves, which poppler gets wrong for many forms (blank radios).
        if doc.xref_get_key(doc.pdf_catalog(), "AcroForm/NeedAppearances")[0] != "null":
            doc.need_appearances(False)
        target = output_path(file, "filled", ".pdf", output)
        written = write_pdf(doc, target)
    _verify(written, {n: p for n, (_, p) in plan.items()})
    return written


def _verify(path: str, expected: dict[str, Any]) -> None:
    """Read the values back from the saved file; remove it and fail if any did not stick."""
    with pymupdf.open(path) as doc:
        fields = collect_fields(doc)
        wrong = [n for n, v in expected.items() if n not in fields or not _same(fields[n], v)]
    if wrong:
        Path(path).unlink(missing_ok=True)
        raise PdfToolError(
            f"The values of {', '.join(map(repr, wrong))} did not stick when saving; the form may be damaged."
        )


def _redraw_stale(doc: pymupdf.Document, fields: dict[str, FormField], skip: set[str] | None = None) -> None:
    """Draw text and choice values whose stored appearance is missing or marked stale.

    Forms saved with ``NeedAppearances`` often carry empty appearance streams; viewers that
    trust the stored picture (and flattening) would show those fields blank. Buttons keep
    their on/off pictures (redrawing them can flip a radio button on).
    """
    stale = doc.xref_get_key(doc.pdf_catalog(), "AcroForm/NeedAppearances")[1] == "true"
    for f in fields.values():
        if f.name in (skip or ()) or f.type in ("signature", "button", "unknown"):
            continue
        drawn = f.type in ("text", "dropdown", "listbox")
        for _, w in f.widgets:
            if (stale and drawn) or doc.xref_get_key(w.xref, "AP/N")[0] == "null":
                try:
                    w.update()
                except (RuntimeError, ValueError):
                    pass  # keep what is there


@tool(
    kind="pdf",
    category="forms",
    explain="Flatten the form in {file} so its fields can no longer be edited",
    result_name="flattened",
    say="Flatten the form",
    words=Words(verbs=("flatten", "lock"), nouns=("form", "fields"), makes=("flattened",)),
)
def flatten_form(file: str, output: str | None = None) -> str:
    """Flatten a form: field values become ordinary page content and can no longer be edited.

    Args:
        file: The PDF form.
        output: File name for the result (default: <name>_flattened.pdf).

    Returns:
        Path of the flattened PDF (no form fields left; the values stay visible and searchable).
    """
    with open_pdf(file) as doc:
        fields = collect_fields(doc)
        if xfa_only(doc, fields):
            raise ToolArgumentError(xfa_message(Path(file).name))
        _redraw_stale(doc, fields)
        repair_da_fonts(doc)
        if is_xfa(doc):
            drop_xfa(doc)
        del fields
        doc.bake(annots=False, widgets=True)
        left = sum(1 for page in doc for _ in page.widgets())
        if left:
            raise PdfToolError(f"{left} form fields could not be flattened in {Path(file).name}.")
        return write_pdf(doc, output_path(file, "flattened", ".pdf", output))
