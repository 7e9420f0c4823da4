"""Slice 2 (issue #15, item 3): filled.pdf and review.json on generated fillable forms shaped
like real ones, and the evidence crops (item 4)."""

from __future__ import annotations

import hashlib

import pymupdf
import pytest

from repro_assets.forms.acroform import FormWidget, WidgetRole, classify
from repro_assets.forms.fill import format_value, read_back
from repro_assets.forms.pipeline import UploadedFile

from .conftest import RunHelper
from .documents import (
    EMPLOYEE,
    EVALUATION_FORM,
    EXAM_DATA_FORM,
    INTAKE_TARGET,
    FieldShape,
    fillable_form,
    injury_report,
    intake_form,
)


def run_with_target(run_bundle: RunHelper, doc: bytes, target: bytes):
    return run_bundle(docs=[UploadedFile("report.pdf", doc)],
                      targets=[UploadedFile("form.pdf", target)])


def widget_values(pdf: bytes) -> dict[str, str]:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return {w.field_name: w.field_value for page in doc for w in page.widgets()}


def test_evaluation_form_gets_the_employees_values_only(run_bundle: RunHelper,
                                                        store) -> None:
    target = fillable_form(EVALUATION_FORM)
    folder = run_with_target(run_bundle, injury_report(), target)
    schema = folder.read_artifact("schema")
    assert schema.schema_source == "fillable_pdf"
    assert [f.key for f in schema.resolved_fields] == ["full_name", "phone", "address"]
    final = folder.read_artifact("final")
    assert {k: v.status for k, v in final.fields.items()} == dict.fromkeys(final.fields,
                                                                             "filled")
    filled = folder.read_binary("filled.pdf")
    assert read_back(filled) == {
        "4 Injured Employees Name First Middle Last": EMPLOYEE["name"],
        "7 Employees Phone Number": "(512) 555-0147",
        "8 Employees Address  Street or PO Box City State Zip": EMPLOYEE["address"],
    }
    values = widget_values(filled)
    assert values["13. Treating Doctor"] == "Off"  # checkboxes untouched
    assert values["18. Signature of Certifying Doctor"] in ("", None)  # signatures too
    # the target as uploaded is byte-identical and the filled form is a new document
    stored = folder.read_input(folder.read_request().target_docs[0].stored_as)
    assert stored == target and hashlib.sha256(filled).hexdigest() != hashlib.sha256(
        target).hexdigest()
    review = folder.read_artifact("review")
    assert review.form_subject == "employee"
    reasons = {s.widget: s.reason for s in review.skipped}
    assert reasons["2 Employers Name"] == "other_party:employer"
    assert reasons["11 Doctors Phone"] == "other_party:doctor"
    assert reasons["21 Treating Doctors Phone"] == "other_party:doctor"
    assert reasons["Employee Phone Home Phone.0.0"] == "other_phone_widget"
    assert reasons["14. Month - Date of Exam"] == "no_v1_field"  # an exam date, not a DOB
    event = next(e for e in folder.read_trace() if e.step == "fill_pdf")
    assert "written:3" in event.notes and "form_subject:employee" in event.notes


def test_name_in_the_order_the_widget_asks_for(run_bundle: RunHelper) -> None:
    folder = run_with_target(run_bundle, injury_report(), fillable_form(EXAM_DATA_FORM))
    assert read_back(folder.read_binary("filled.pdf")) == {
        "1 Employee name last first middle": "Rivera, Jordan A."}


def test_intake_target_split_values_and_review(run_bundle: RunHelper) -> None:
    folder = run_with_target(run_bundle, intake_form(filled=True),
                             fillable_form(INTAKE_TARGET, "Patient intake"))
    assert read_back(folder.read_binary("filled.pdf")) == {
        "Patient First Name": "Maria", "Patient Last Name": "Gonzalez",
        "Patient DOB Month": "04", "Patient DOB Day": "12", "Patient DOB Year": "1978",
        "Member ID": "XGH482913027", "Allergies": "Penicillin",
        "Current Medications": "Lisinopril 10 mg; Metformin 500 mg",
        # no country code, but an American number with its area code on a US form (the
        # patient's address reads "city, ST 12345"): written, the field still listed
        "Home Phone": "(217) 555-0143",
    }
    review = folder.read_artifact("review")
    assert review.form_subject == "patient"
    (phone,) = review.needs_review  # the assumed +1 is still listed with its evidence
    assert phone.field == "phone" and phone.widgets == []
    assert phone.evidence[0].quoted_text.startswith("Home Phone: (217) 555-0143")
    assert phone.evidence_images == [f"runs/{folder.run_id}/artifacts/evidence/phone_1.png"]
    reasons = {s.widget: s.reason for s in review.skipped}
    assert reasons["Cell Phone"] == "other_phone_widget"
    assert reasons["Patient Street Address"] == "address_split"  # city/ZIP asked separately
    assert reasons["Emergency Contact Phone"] == "other_party:emergency_contact"
    assert reasons["Patient_Name_DOB"] == "ambiguous"
    written = {w.widget: (w.field, w.part) for w in review.written}
    assert written["Patient DOB Month"] == ("dob", "month")
    assert written["Patient First Name"] == ("full_name", "first")


def test_value_longer_than_the_widget_is_not_truncated(run_bundle: RunHelper) -> None:
    target = fillable_form([FieldShape("Employee Name"), FieldShape("Member ID", maxlen=6)])
    folder = run_bundle(docs=[UploadedFile("a.pdf", intake_form(filled=True))],
                        targets=[UploadedFile("t.pdf", target)])
    review = folder.read_artifact("review")
    assert {s.widget: s.reason for s in review.skipped}["Member ID"] == "too_long"
    assert "Member ID" not in read_back(folder.read_binary("filled.pdf"))


def test_no_fillable_target_writes_no_filled_form(run_bundle: RunHelper) -> None:
    folder = run_bundle(docs=[UploadedFile("a.pdf", injury_report())],
                        targets=[UploadedFile("letter.pdf", injury_report())])
    assert not folder.has_artifact("review")
    event = next(e for e in folder.read_trace() if e.step == "fill_pdf")
    assert "no_fillable_target" in event.notes and "not_fillable:target_001" in event.notes


@pytest.mark.parametrize(("name", "value", "written"), [
    ("Date of Birth", "1978-04-12", "04/12/1978"),
    ("DOB yyyy-mm-dd", "1978-04-12", "1978-04-12"),
    ("DOB Year (yy)", "1978-04-12", "78"),
    ("Patient Name Last First", "Maria L Gonzalez", "Gonzalez, Maria L"),
    ("Patient Middle Name", "Maria Louisa Gonzalez", "Louisa"),
    ("Patient Name MI", "Maria Louisa Gonzalez", "L"),
    ("Phone", "+442079460958", "+44 20 7946 0958"),
])
def test_value_shapes(name: str, value: str, written: str) -> None:
    role: WidgetRole = classify(FormWidget(name=name, label=None, kind="text", page=1))
    assert format_value(role, value) == written


def test_evidence_crops_show_the_quote_highlighted(run_bundle: RunHelper,
                                                  sample_bundles: dict) -> None:
    folder = run_bundle(sample_bundles["intake_gonzalez"])
    final = folder.read_artifact("final")
    for key, item in final.fields.items():
        assert len(item.evidence_images) == len(item.evidence) == 1, key
        assert item.evidence[0].bbox is not None  # looked up on the page for the cited quote
        png = folder.read_binary(item.evidence_images[0].split("/artifacts/", 1)[1])
        pix = pymupdf.Pixmap(png)
        assert pix.width > 400
        samples = pix.samples
        highlighted = sum(
            1 for i in range(0, len(samples) - 2, pix.n * 7)
            if samples[i] > 200 and samples[i + 1] > 180 and samples[i + 2] < 150)
        assert highlighted > 20, key  # the quote's box is painted yellow
    layout = folder.read_artifact("layout")
    assert all(page.spans == [] for d in layout for page in d.pages)  # no boxes paid upfront


def test_auto_sized_widgets_get_a_font_size_that_fits(run_bundle: RunHelper) -> None:
    folder = run_with_target(run_bundle, injury_report(), fillable_form(EVALUATION_FORM))
    with pymupdf.open(stream=folder.read_binary("filled.pdf"), filetype="pdf") as doc:
        for widget in doc[0].widgets():
            if widget.field_value and widget.field_type == pymupdf.PDF_WIDGET_TYPE_TEXT:
                size = widget.text_fontsize
                assert 6 <= size <= 10
                width = pymupdf.get_text_length(widget.field_value, "helv", size)
                assert width <= widget.rect.width - 4, widget.field_name
