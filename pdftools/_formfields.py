"""Form fields as a reader sees them: one entry per field name, with its widgets.

PyMuPDF lists widgets (the boxes on the page); a field can have several (a radio
group, or a value repeated on every page). :func:`collect_fields` groups them by
fully qualified name, and :func:`match_field` finds the field a request means:
exact name, then case- and punctuation-insensitive name, last name part, or tooltip.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from .docio import object_key, set_key
from .errors import ToolArgumentError

TYPE_NAMES = {
    pymupdf.PDF_WIDGET_TYPE_TEXT: "text",
    pymupdf.PDF_WIDGET_TYPE_CHECKBOX: "checkbox",
    pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON: "radio",
    pymupdf.PDF_WIDGET_TYPE_COMBOBOX: "dropdown",
    pymupdf.PDF_WIDGET_TYPE_LISTBOX: "listbox",
    pymupdf.PDF_WIDGET_TYPE_SIGNATURE: "signature",
    pymupdf.PDF_WIDGET_TYPE_BUTTON: "button",
}
MAX_LISTED = 30


@dataclass
class FormField:
    """One named field and its widgets (each with its page, kept alive while in use)."""

    name: str
    type: str
    page: int
    widgets: list[tuple[pymupdf.Page, Any]] = field(default_factory=list)
    label: str | None = None

    @property
    def first(self) -> Any:
        return self.widgets[0][1]

    @property
    def read_only(self) -> bool:
        return bool(self.first.field_flags & pymupdf.PDF_FIELD_IS_READ_ONLY)

    def options(self) -> list[str]:
        """Choice options (export values) or radio buttons' on-states."""
        if self.type in ("dropdown", "listbox"):
            out = []
            for item in self.first.choice_values or []:
                out.append(str(item[0] if isinstance(item, (list, tuple)) else item))
            return out
        if self.type == "radio":
            return list(dict.fromkeys(str(w.on_state()) for _, w in self.widgets if w.on_state()))
        return []

    def choice_labels(self) -> dict[str, str]:
        """Export value -> display text for choices given as [export, display] pairs."""
        labels = {}
        for item in self.first.choice_values or []:
            if isinstance(item, (list, tuple)) and len(item) > 1:
                labels[str(item[0])] = str(item[1])
        return labels

    def editable_choice(self) -> bool:
        return self.type == "dropdown" and bool(self.first.field_flags & pymupdf.PDF_CH_FIELD_IS_EDIT)

    def value(self) -> Any:
        if self.type == "checkbox":
            return any(_is_on(w) for _, w in self.widgets)
        if self.type == "radio":
            for _, w in self.widgets:
                if _is_on(w):
                    return str(w.on_state())
            return None
        if self.type == "signature":
            return None
        value = self.first.field_value
        return value if isinstance(value, (str, list)) else ("" if value is None else str(value))


def _is_on(widget: Any) -> bool:
    value = widget.field_value
    return value not in (None, False, "", "Off", "/Off") and (value is True or str(value) == str(widget.on_state()))


def is_xfa(doc: pymupdf.Document) -> bool:
    """True when the form carries an XFA (Adobe LiveCycle) description."""
    cat = doc.pdf_catalog()
    kind, value = doc.xref_get_key(cat, "AcroForm/XFA")
    return kind not in ("null",) and value not in ("null", "")


def drop_xfa(doc: pymupdf.Document) -> None:
    """Remove the XFA layer so viewers show the AcroForm values DocPilot wrote."""
    kind, value = doc.xref_get_key(doc.pdf_catalog(), "AcroForm")
    if kind == "xref":
        doc.xref_set_key(int(value.split()[0]), "XFA", "null")
    elif kind == "dict":
        doc.xref_set_key(doc.pdf_catalog(), "AcroForm/XFA", "null")
    doc.xref_set_key(doc.pdf_catalog(), "NeedsRendering", "null")


def collect_fields(doc: pymupdf.Document) -> dict[str, FormField]:
    """Every field by name, in page order."""
    fields: dict[str, FormField] = {}
    for page in doc:
        for widget in page.widgets():
            name = widget.field_name or f"(unnamed field {widget.xref})"
            entry = fields.get(name)
            if entry is None:
                entry = fields[name] = FormField(
                    name=name,
                    type=TYPE_NAMES.get(widget.field_type, "unknown"),
                    page=page.number,
                    label=widget.field_label or None,
                )
            entry.widgets.append((page, widget))
    return fields


def xfa_only(doc: pymupdf.Document, fields: dict[str, FormField]) -> bool:
    """An XFA form whose AcroForm holds nothing fillable (only signatures or nothing)."""
    return is_xfa(doc) and not any(f.type not in ("signature", "button") for f in fields.values())


def xfa_message(name: str) -> str:
    return (
        f"{name} is an XFA form (Adobe LiveCycle/dynamic form): its fields live in an XFA layer "
        "that only Adobe Acrobat/Reader renders, not in ordinary PDF form fields, so DocPilot cannot "
        "read, fill or flatten them. Open it in Adobe Acrobat Reader to fill it, or use a non-XFA "
        "version of the form."
    )


def button_captions(fields: dict[str, FormField]) -> dict[str, list[str | None]]:
    """Printed words right of each checkbox/radio widget (up to the next widget or a gap), by field.

    A checkbox without a tooltip takes its caption as label, so "Agree to privacy policy" finds it.
    """
    cache: dict[int, tuple[list, list]] = {}
    out: dict[str, list[str | None]] = {}
    for f in fields.values():
        if f.type not in ("checkbox", "radio"):
            continue
        out[f.name] = []
        for page, widget in f.widgets:
            if page.number not in cache:
                cache[page.number] = (page.get_text("words"), [w.rect for w in page.widgets()])
            words, others = cache[page.number]
            out[f.name].append(_caption(widget.rect, words, others))
        if f.type == "checkbox" and not f.label:
            f.label = out[f.name][0]
    return out


def _caption(rect: pymupdf.Rect, words: list, others: list) -> str | None:
    mid = (rect.y0 + rect.y1) / 2
    limit = min((r.x0 for r in others if r.x0 >= rect.x1 - 1 and r.y0 <= mid <= r.y1), default=1e9)
    line = sorted(
        (w for w in words if w[0] >= rect.x1 - 1 and w[2] <= limit + 1 and w[1] <= mid <= w[3]),
        key=lambda w: w[0],
    )
    picked: list[str] = []
    right = rect.x1
    for w in line:
        if w[0] - right > 20:
            break
        picked.append(w[4])
        right = w[2]
    return " ".join(picked) or None


def squash(text: str) -> str:
    """Case- and punctuation-insensitive key: 'Last Name' and 'lastname' meet."""
    return re.sub(r"[\W_]+", "", str(text).casefold())


def short_name(name: str) -> str:
    """'topmostSubform[0].Page1[0].f1_01[0]' -> 'f1_01'."""
    return re.sub(r"\[\d+\]", "", name.split(".")[-1] if "." in name else name)


def list_names(fields: dict[str, FormField]) -> str:
    names = list(fields)
    shown = ", ".join(repr(n) for n in names[:MAX_LISTED])
    more = f" … and {len(names) - MAX_LISTED} more (read_form lists them all)" if len(names) > MAX_LISTED else ""
    return shown + more


def match_field(fields: dict[str, FormField], key: str) -> FormField:
    """The field ``key`` names: exact, then loose name, last name part, tooltip label, name ending."""
    if key in fields:
        return fields[key]
    wanted = squash(key)
    if not wanted:
        raise ToolArgumentError(f"{key!r} is not a field name. The form's fields are: {list_names(fields)}.")
    bare = lambda f: squash(re.sub(r"\[\d+\]", "", f.name))  # noqa: E731 - 'a[0].b[0]' -> 'ab'
    for test in (
        lambda f: squash(f.name) == wanted or bare(f) == wanted,
        lambda f: squash(short_name(f.name)) == wanted,
        lambda f: squash(f.label or "") == wanted,
        lambda f: "." in key and bare(f).endswith(wanted),  # 'Page2.c1_01' names the end of a long name
    ):
        found = [f for f in fields.values() if test(f)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            names = ", ".join(repr(f.name) for f in found[:10])
            raise ToolArgumentError(f"The field name {key!r} is ambiguous: it could be {names}. Use the exact name.")
    raise ToolArgumentError(f"The form has no field named {key!r}. Its fields are: {list_names(fields)}.")


_BASE14 = {
    "Helv": "Helvetica",
    "HeBo": "Helvetica-Bold",
    "TiRo": "Times-Roman",
    "Cour": "Courier",
    "ZaDb": "ZapfDingbats",
    "Symb": "Symbol",
}


def repair_da_fonts(doc: pymupdf.Document) -> None:
    """Put every font a widget's /DA names into the form's /DR, so viewers that redraw fields find it.

    PyMuPDF writes ``/Helv`` (and ``/ZaDb`` for checkboxes) into the DA of widgets it
    updates without adding them to /DR; poppler then draws such fields empty.
    """
    cat = doc.pdf_catalog()
    if doc.xref_get_key(cat, "AcroForm")[0] == "null":
        return
    made: dict[str, int] = {}

    def font_xref(name: str) -> int:
        if name not in made:
            xref = doc.get_new_xref()
            base = _BASE14.get(name, "Helvetica")
            encoding = "" if base in ("ZapfDingbats", "Symbol") else "/Encoding/WinAnsiEncoding"
            doc.update_object(xref, f"<</Type/Font/Subtype/Type1/BaseFont/{base}{encoding}>>")
            made[name] = xref
        return made[name]

    def ensure(owner: int, prefix: str, name: str) -> None:
        path = f"{prefix}DR/Font/{name}"
        if doc.xref_get_key(owner, path)[0] == "null":
            set_key(doc, owner, path, f"{font_xref(name)} 0 R")

    for page in doc:
        for widget in page.widgets():
            da = doc.xref_get_key(widget.xref, "DA")[1]
            names = re.findall(r"/([^\s/()<>\[\]]+)\s+[-\d.]+\s+Tf", da or "")
            if widget.field_type in (pymupdf.PDF_WIDGET_TYPE_CHECKBOX, pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON):
                names.append("ZaDb")  # viewers draw check marks with ZapfDingbats
            for name in names:
                ensure(cat, "AcroForm/", name)
                if doc.xref_get_key(widget.xref, "DR")[0] != "null":
                    ensure(widget.xref, "", name)
    for xref in range(1, doc.xref_length()):
        # PyMuPDF gives ZapfDingbats a WinAnsi encoding: '3' becomes glyph 'three', which the
        # font lacks, so other viewers draw no check mark. Its built-in encoding is right.
        if object_key(doc, xref, "BaseFont") != ("name", "/ZapfDingbats"):
            continue
        if doc.xref_get_key(xref, "Encoding")[1] == "/WinAnsiEncoding":
            doc.xref_set_key(xref, "Encoding", "null")
