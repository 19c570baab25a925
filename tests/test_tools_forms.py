"""Form tools on real AcroForms (LibreOffice, PyMuPDF's widget test, IRS 1040) and an XFA form."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pypdf
import pytest

from pdftools import ToolArgumentError, call_tool
from pdftools.tools_forms import fill_form, flatten_form, read_form

LIBRE = "pypdfsamples__libreoffice-form.pdf"


def mu_values(path: str) -> dict[str, object]:
    with pymupdf.open(path) as doc:
        return {w.field_name: w.field_value for page in doc for w in page.widgets()}


def py_values(path: str) -> dict[str, object]:
    return {name: f.get("/V") for name, f in (pypdf.PdfReader(path).get_fields() or {}).items()}


def widget_count(path: str) -> int:
    with pymupdf.open(path) as doc:
        return sum(len(list(page.widgets())) for page in doc)


def make_form(tmp_path: Path, guard) -> str:
    """A fixture form: a text field, a checkbox and a dropdown."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Fixture form", fontsize=12)
    for name, kind, rect, extra in [
        ("Full Name", pymupdf.PDF_WIDGET_TYPE_TEXT, (72, 80, 300, 100), {}),
        ("Subscribe", pymupdf.PDF_WIDGET_TYPE_CHECKBOX, (72, 120, 86, 134), {}),
        ("Colour", pymupdf.PDF_WIDGET_TYPE_COMBOBOX, (72, 150, 200, 170), {"choice_values": ["Red", "Green"]}),
    ]:
        w = pymupdf.Widget()
        w.field_name, w.field_type, w.rect = name, kind, pymupdf.Rect(rect)
        for key, value in extra.items():
            setattr(w, key, value)
        page.add_widget(w)
    path = tmp_path / "inputs" / "fixture_form.pdf"
    path.parent.mkdir(exist_ok=True)
    doc.save(path)
    doc.close()
    return guard(path)


def test_read_form_libreoffice(real):
    fields = {f["name"]: f for f in read_form(real(LIBRE))}
    assert fields["First Name"] == {"name": "First Name", "type": "text", "value": "Alice", "page": 1}
    assert fields["Last Name"]["value"] == ""
    assert fields["female"]["type"] == "radio"
    assert fields["female"]["option_labels"] == {"1": "Female", "2": "Male"}
    assert fields["Nationality"]["type"] == "dropdown"
    assert "French" in fields["Nationality"]["options"]
    assert fields["gdpr"]["type"] == "checkbox" and fields["gdpr"]["value"] is False
    assert fields["gdpr"]["label"] == "Agree to privacy policy"


def test_read_form_widgettest_and_1040(real):
    fields = {f["name"]: f for f in read_form(real("pymupdf__widgettest.pdf"))}
    assert fields["Button-1"]["value"] is True
    assert fields["ListBox-1"]["type"] == "listbox" and fields["ListBox-1"]["value"] == "Potsdam"
    assert fields["ComboBox-1"]["value"] == "Griechenland"
    f1040 = read_form(real("pdfjs__prefilled_f1040.pdf"))
    assert len(f1040) == 236
    filled = {f["name"]: f["value"] for f in f1040 if f["value"] not in ("", False)}
    assert filled["topmostSubform[0].Page2[0].p2-t124[0]"] == "foobar"
    assert {f["page"] for f in f1040} == {1, 2}


def test_read_form_without_fields_is_empty(make_pdf):
    assert read_form(make_pdf(["no form here"])) == []


def test_xfa_form_is_refused_clearly(real):
    path = real("pdfjs__xfa_filled_imm1344e.pdf")
    for call in (lambda: read_form(path), lambda: fill_form(path, {"x": "y"}), lambda: flatten_form(path)):
        with pytest.raises(ToolArgumentError, match="XFA form"):
            call()
    assert not list(Path.cwd().iterdir())


def test_fill_last_name_reads_back_everywhere(real):
    out = fill_form(real(LIBRE), {"Last Name": "Smith"})
    assert Path(out).name == "pypdfsamples__libreoffice-form_filled.pdf"
    assert mu_values(out)["Last Name"] == "Smith"
    assert py_values(out)["Last Name"] == "Smith"
    assert mu_values(out)["First Name"] == "Alice"  # untouched fields keep their values


def test_fill_loose_names_checkbox_dropdown_radio(real):
    out = fill_form(
        real(LIBRE),
        {"lastname": "Smith", "GDPR": "yes", "nationality": "french", "female": "Male", "Birthday": 1990.0},
        output="done.pdf",
    )
    assert Path(out) == Path.cwd() / "done.pdf"
    py = py_values(out)
    assert py["Last Name"] == "Smith" and py["Birthday"] == "1990"
    assert py["gdpr"] == "/Yes" and py["Nationality"] == "French" and py["female"] == "/2"
    mu = mu_values(out)
    assert mu["gdpr"] == "Yes" and mu["Nationality"] == "French"
    fields = {f["name"]: f["value"] for f in read_form(out)}
    assert fields["female"] == "2" and fields["gdpr"] is True
    # the stored appearance shows the value, so viewers that do not redraw fields show it too
    with pymupdf.open(out) as doc:
        assert "Smith" in doc[0].get_text()


def test_fill_by_caption_and_uncheck(real):
    out = fill_form(real("pymupdf__widgettest.pdf"), {"Button-1": False, "ListBox-1": "berlin", "ComboBox-1": "Polen"})
    assert py_values(out).items() >= {"Button-1": "/Off", "ListBox-1": "Berlin", "ComboBox-1": "Polen"}.items()
    out2 = fill_form(real(LIBRE), {"Agree to privacy policy": True})
    assert py_values(out2)["gdpr"] == "/Yes"


def test_fill_1040_short_and_dotted_names(real):
    out = fill_form(real("pdfjs__prefilled_f1040.pdf"), {"p1-t1": "John", "Page2.c1_01_0_": False})
    values = mu_values(out)
    assert values["topmostSubform[0].Page1[0].p1-t1[0]"] == "John"
    assert values["topmostSubform[0].Page2[0].c1_01_0_[0]"] == "Off"
    assert py_values(out)["topmostSubform[0].Page1[0].p1-t1[0]"] == "John"


def test_fill_fixture_form(tmp_path, guard):
    out = fill_form(make_form(tmp_path, guard), {"full name": "Ada Lovelace", "subscribe": "on", "colour": "Green"})
    assert py_values(out).items() >= {"Full Name": "Ada Lovelace", "Colour": "Green"}.items()
    assert py_values(out)["Subscribe"] not in (None, "/Off")


@pytest.mark.parametrize(
    "values, message",
    [
        ({"Nationality": "Klingon"}, "choose one of: Unknown, German"),
        ({"Nope": "x"}, "no field named 'Nope'. Its fields are: 'Last Name'"),
        ({"gdpr": "maybe"}, "takes true/false"),
        ({"female": "Other"}, r"1 \(Female\), 2 \(Male\)"),
        ({}, "at least one field"),
    ],
)
def test_fill_errors(real, values, message):
    with pytest.raises(ToolArgumentError, match=message):
        fill_form(real(LIBRE), values)
    assert not list(Path.cwd().iterdir())


def test_fill_unknown_field_lists_at_most_30_names(real):
    with pytest.raises(ToolArgumentError, match="and 206 more") as err:
        fill_form(real("pdfjs__prefilled_f1040.pdf"), {"zzz": 1})
    assert str(err.value).count("topmostSubform") == 30


def test_fill_ambiguous_name(real):
    with pytest.raises(ToolArgumentError, match="ambiguous"):
        fill_form(real("pdfjs__prefilled_f1040.pdf"), {"c1_01_0_": True})


def test_fill_form_without_fields(make_pdf):
    with pytest.raises(ToolArgumentError, match="no fillable form fields"):
        fill_form(make_pdf(["plain"]), {"a": "b"})


def test_flatten_keeps_values_as_text(real):
    out = flatten_form(real(LIBRE))
    assert Path(out).name == "pypdfsamples__libreoffice-form_flattened.pdf"
    assert widget_count(out) == 0
    assert not pypdf.PdfReader(out).get_fields()
    with pymupdf.open(out) as doc:
        text = doc[0].get_text()
    assert "Alice" in text and "Bob" in text
    assert "Alice" in (pypdf.PdfReader(out).pages[0].extract_text() or "")


def test_fill_then_flatten_1040(real):
    filled = fill_form(real("pdfjs__prefilled_f1040.pdf"), {"p1-t1": "Johnathan"})
    out = flatten_form(filled, output="flat.pdf")
    assert widget_count(out) == 0
    with pymupdf.open(out) as doc:
        assert "Johnathan" in doc[0].get_text() and "foobar" in doc[1].get_text()


def test_flatten_via_registry(real):
    out = call_tool("flatten_form", {"file": real(LIBRE)})
    assert widget_count(out) == 0
