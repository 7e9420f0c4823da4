"""Issue #25, precision on a fourth blind set of real forms (every form here is invented).

The family that wrote a wrong value, redrawn in two variants: a blank form prints a question
and, under it, its options one per line, each with a drawn box ("Asthma", "Allergies",
"Hearing loss"). The option that happens to name a list field ("Allergies") is one of the
question's choices, not a label over written entries: the options under it are never read as
the subject's allergies or medications, and candidates.json says why.
"""

from __future__ import annotations

import pymupdf
import pytest

from repro_assets.forms.heuristics import scan_field
from repro_assets.forms.pipeline import UploadedFile, read_text

from .conftest import RunHelper


def _checklist_form(title: str, question: str, options: list[str]) -> bytes:
    """A one-page blank form: a title, a question, and its options one per line, each after
    an empty drawn box (a vector square, no glyph in the text layer)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((50, 60), title, fontsize=14)
    page.insert_text((50, 110), "Owner name:", fontsize=10)
    page.insert_text((50, 150), question, fontsize=10)
    y = 172.0
    for option in options:
        page.draw_rect(pymupdf.Rect(52, y - 8, 60, y), color=(0, 0, 0), width=0.7)
        page.insert_text((66, y), option, fontsize=10)
        y += 16
    page.insert_text((50, y + 24), "Signature:", fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


VARIANTS = [
    pytest.param("Whiskerly Cat Lodge - Guest Health Sheet",
                 "Does your cat have any of these health concerns?",
                 ["Asthma", "Hairballs", "Allergies", "Kidney disease", "Dental problems"],
                 "allergies", id="options-above-and-below"),
    pytest.param("Marrowbank Stables - Horse Intake",
                 "Which of the following apply to your horse?",
                 ["Allergies", "Lameness", "Recurrent colic", "Hoof cracks"],
                 "allergies", id="label-first-option"),
    pytest.param("Pebblebrook Kennels - Boarding Card",
                 "Is your dog on any of the following?",
                 ["Special diet", "Joint supplements", "Medications", "Flea treatment",
                  "Raw food"],
                 "medications", id="medications-option"),
]


@pytest.mark.parametrize(("title", "question", "options", "field"), VARIANTS)
def test_an_option_under_a_question_is_no_label_over_entries(
        title: str, question: str, options: list[str], field: str) -> None:
    doc, _ = read_text("doc_001", _checklist_form(title, question, options))
    assert doc is not None
    hits = scan_field(field, [doc], include_rejected=True)
    assert [h.raw_value for h in hits if h.accepted] == []
    assert "blank_form:option_list" in {r for h in hits for r in h.rejected}


@pytest.mark.parametrize(("title", "question", "options", "field"), VARIANTS[:2])
def test_the_blank_checklist_fills_nothing_and_says_why(
        run_bundle: RunHelper, title: str, question: str, options: list[str],
        field: str) -> None:
    folder = run_bundle(docs=[UploadedFile("sheet.pdf",
                                           _checklist_form(title, question, options))])
    final = folder.read_artifact("final")
    assert final.fields[field].status == "missing"
    reasons = {r for c in folder.read_artifact("candidates") if c.field == field
               for r in c.rejected_reasons}
    assert "blank_form:option_list" in reasons


def test_entries_under_a_list_label_after_a_written_answer_are_still_read() -> None:
    """A filled form: the list label follows a line that is no question; its entries stay."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for n, line in enumerate(["Boarding card", "Owner name: Tamsin Oakhollow", "Allergies",
                              "Chicken", "Ragweed pollen"]):
        page.insert_text((50, 60 + 18 * n), line, fontsize=10)
    data = doc.tobytes()
    doc.close()
    parsed, _ = read_text("doc_001", data)
    assert parsed is not None
    hits = scan_field("allergies", [parsed])
    assert [h.raw_value for h in hits if h.accepted] == ["Chicken\nRagweed pollen"]


def _address_then_prompt(prompt: str, label: str) -> bytes:
    """A blank form: ``label`` with an empty fill-in line, then the next section's prompt in
    capitals ending in ':' on the line under it, then that section's own fill-in lines."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    rows = ["Camp registration", "Camper name:" + "_" * 40, f"{label}:" + "_" * 60, prompt,
            "Name:" + "_" * 40, "Phone:" + "_" * 30]
    for n, line in enumerate(rows):
        page.insert_text((40, 60 + 20 * n), line, fontsize=9)
    data = doc.tobytes()
    doc.close()
    return data


@pytest.mark.parametrize(("prompt", "label"), [
    ("WHEN GUARDIANS ARE AWAY, A NEIGHBOUR WE MAY PHONE:", "Address"),
    ("Backup pickup person, if the parent is late, with relation to the camper:",
     "Home address"),
])
def test_a_prompt_under_an_empty_address_line_is_no_address(prompt: str, label: str) -> None:
    doc, _ = read_text("doc_001", _address_then_prompt(prompt, label))
    assert doc is not None
    hits = scan_field("address", [doc], include_rejected=True)
    assert [h.raw_value for h in hits if h.accepted] == []
    assert "blank_form:form_label" in {r for h in hits for r in h.rejected}
