"""Issue #25, precision on a second blind set of real forms (every form here is invented).

Families that wrote a wrong value, each redrawn in two variants:

* one wide name box over a caption row printed as separate words ("First  Middle  Last",
  the first word starting left of the box): the box takes the whole name, never the one
  part whose caption happens to stand under it;
* a hyphenated last name in a sentence ("our new patient <First> <M.> <Last-Last> asks
  ..."): the name is read whole, never cut at the hyphen.
"""

from __future__ import annotations

import pytest

from repro_assets.forms.acroform import classify, read_widgets
from repro_assets.forms.fill import read_back
from repro_assets.forms.heuristics import scan_field
from repro_assets.forms.models import LayoutDoc, LayoutPageText
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes

from .conftest import RunHelper
from .standin_targets import Sheet

NOTE = ("Referral note from Quillfeather Family Practice\n"
        "Patient: Rosalind E. Tambling\nDate of birth: 02/14/1981\n")


def _run(run_bundle: RunHelper, pdf: bytes, source: str = NOTE) -> dict[str, str]:
    folder = run_bundle(docs=[UploadedFile("note.pdf", text_pdf_bytes(source))],
                        targets=[UploadedFile("form.pdf", pdf)])
    return read_back(folder.read_binary("filled.pdf"))


def _wide_name_box(middle: str, org: str) -> bytes:
    """A leave request: "Your name:" left of one wide box, the captions "First", ``middle``
    and "Last" printed under it as separate words, the first starting left of the box."""
    sheet = Sheet()
    sheet.text(40, 36, f"{org} - Request for Family Leave", size=12, bold=True)
    sheet.text(40, 92, "Your name:", size=9)
    sheet.box("txtApplicantName", (112, 80, 545, 94), tip="Your name")
    sheet.text(42, 104, "First", size=8)
    sheet.text(238, 104, middle, size=8)
    sheet.text(382, 104, "Last", size=8)
    return sheet.done()


@pytest.mark.parametrize(("middle", "org"), [("Middle", "Harrowgate Mills"),
                                              ("MI", "Brindle Cove Outfitters")])
def test_a_wide_name_box_over_a_row_of_part_captions_takes_the_whole_name(
        run_bundle: RunHelper, middle: str, org: str) -> None:
    pdf = _wide_name_box(middle, org)
    role = classify(read_widgets(pdf)[0])
    assert role.key == "full_name" and role.part is None, role
    assert _run(run_bundle, pdf) == {"txtApplicantName": "Rosalind E. Tambling"}


def _hits(text: str) -> list[tuple[str, tuple[str, ...]]]:
    doc = LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])
    return [(h.raw_value, h.rejected) for h in scan_field("full_name", [doc],
                                                          include_rejected=True)]


@pytest.mark.parametrize("name", ["Greta M. Lindqvist-Orme", "Teodor Baskin-Vale"])
def test_a_hyphenated_name_in_a_sentence_is_read_whole(name: str) -> None:
    text = (f"Re: records for a new patient\nOur new patient {name} asks that her chart be "
            "sent to Pellworth Clinic.\n")
    accepted = [value for value, rejected in _hits(text) if not rejected]
    assert accepted == [name], accepted
    assert not any(value.endswith("-") for value, _ in _hits(text))


def _survey(org: str, option: str) -> bytes:
    """A patient sheet: the name box, then a survey row whose small square text boxes are
    named after their options (the option's letters spell "name" across two words)."""
    sheet = Sheet()
    sheet.text(40, 36, f"{org} - Patient Sheet", size=12, bold=True)
    sheet.text(40, 72, "Patient name", size=9)
    sheet.box("Patient Name", (140, 60, 400, 74))
    sheet.text(40, 120, "Which group describes you? (mark any that apply)", size=8)
    for i, (label, widget_name) in enumerate((("Prefer not to say", "Prefer not to say"),
                                              (option, option.replace("/", "")))):
        x = 60 + 200 * i
        sheet.box(widget_name, (x, 130, x + 22, 152), tip=option if i else label)
        sheet.text(x + 28, 145, label, size=8)
    return sheet.done()


@pytest.mark.parametrize(("org", "option"), [
    ("Larkspur Health Commons", "Caribbean/Latin American"),
    ("Fenwick Ridge Clinic", "Asian American"),
])
def test_a_survey_box_whose_name_spells_a_key_across_words_takes_nothing(
        run_bundle: RunHelper, org: str, option: str) -> None:
    pdf = _survey(org, option)
    roles = {w.name: classify(w) for w in read_widgets(pdf)}
    assert roles[option.replace("/", "")].key is None
    assert roles["Patient Name"].key == "full_name"
    assert _run(run_bundle, pdf) == {"Patient Name": "Rosalind E. Tambling"}


LETTER = NOTE + "Home address: 88 Wrenfield Court, Dayton, OH 45402\n"


def _pharmacy_block(org: str, question: str) -> bytes:
    """The subject's name and birth date, then an organisation's block: a question naming it,
    a "Name" box and bare "Address" and "Phone" boxes stacked under it, on a page of its
    own."""
    sheet = Sheet(pages=2)
    sheet.text(40, 36, f"{org} - Registration", size=12, bold=True)
    for y, label in ((60, "Name"), (84, "Date of Birth")):
        sheet.text(40, y + 10, label, size=9)
        sheet.box(label.replace(" ", ""), (140, y, 400, y + 14), tip=label)
    sheet.text(36, 60, "Do you take part in any group activities?", size=9, page=2)
    for x, label in ((36, "Activity"), (300, "Since")):
        sheet.text(x, 84, label, size=9, page=2)
        sheet.box(label, (x + 50, 70, x + 240, 88), tip=label, page=2)
    sheet.text(36, 130, question, size=9, page=2)
    for y, label in ((131, "Name"), (155, "Address"), (179, "Phone")):
        sheet.text(36, y + 22, label, size=9, page=2)
        sheet.box(f"{label}_2", (80, y, 260, y + 22), tip=label, page=2)
    return sheet.done()


@pytest.mark.parametrize(("org", "question"), [
    ("Ashcombe Medical Group", "Which pharmacy do you use?"),
    ("Tidewell Family Care", "Your employer (company name):"),
])
def test_address_under_an_organisations_name_box_stays_empty(
        run_bundle: RunHelper, org: str, question: str) -> None:
    written = _run(run_bundle, _pharmacy_block(org, question), LETTER)
    assert "Address_2" not in written, written
    assert written.get("Name") == "Rosalind E. Tambling"
    assert written.get("DateofBirth") == "02/14/1981"


def _unit_form(org: str, unit_label: str, one_postal_box: bool) -> bytes:
    """A release form: the name, the street box with a box of its own for the apartment
    beside it, then the city, state and ZIP (one box, or three)."""
    sheet = Sheet()
    sheet.text(40, 36, f"{org} - Release of Records", size=12, bold=True)
    sheet.text(40, 70, "Patient Name:", size=9)
    sheet.box("Patient Name", (110, 60, 400, 74), tip="Patient Name")
    sheet.text(40, 94, "Address:", size=9)
    sheet.box("Address", (90, 84, 400, 98), tip="Address")
    sheet.text(410, 94, f"{unit_label}:", size=9)
    sheet.box(unit_label, (450, 84, 570, 98), tip=unit_label)
    if one_postal_box:
        sheet.box("(City, State, Zip)", (40, 110, 300, 124), tip="(City, State, Zip)")
        sheet.text(40, 134, "(City, State, Zip)", size=7)
    else:
        for x0, x1, caption in ((40, 200, "City"), (210, 300, "State"), (310, 400, "Zip")):
            sheet.text(x0, 120, f"{caption}:", size=9)
            sheet.box(caption, (x0 + 30, 110, x1, 124), tip=caption)
    return sheet.done()


@pytest.mark.parametrize(("org", "unit_label", "one_box", "unit"), [
    ("Corrigan Valley Medical", "Apt #", True, "Apt 4B"),
    ("Ostrander Bay Hospital", "Unit", False, "Unit 12"),
])
def test_a_street_box_beside_an_apartment_box_takes_the_street_alone(
        run_bundle: RunHelper, org: str, unit_label: str, one_box: bool, unit: str) -> None:
    source = NOTE + f"Address: 88 Wrenfield Court, {unit}, Dayton, OH 45402\n"
    written = _run(run_bundle, _unit_form(org, unit_label, one_box), source)
    assert written.get("Address") == "88 Wrenfield Court", written
    assert unit not in " ".join(written.values())


PHONE_NOTE = NOTE + "Home address: 88 Wrenfield Court, Dayton, OH 45402\nPhone: (937) 555-0172\n"


def _application(org: str, phone_label: str, second_row: str) -> bytes:
    """An application's table of cells captioned by their tooltips only: the name, the home
    address row (street, city with a broken caption, state, ZIP, one phone cell asking for
    the area code and the number), then a second address row of another kind."""
    sheet = Sheet()
    sheet.text(40, 36, f"{org} - Application for Employment", size=12, bold=True)
    sheet.box("NAME PLEASE PRINT", (60, 60, 320, 78), tip="NAME (PLEASE PRINT)")
    cells = ((60, 208), (211, 277), (279, 322), (324, 382))
    for y, head, city in ((100, "HOME ADDRESS (NUMBER & STREET)", "CI TY"),
                          (130, f"{second_row} (NUMBER & STREET)", "CITY")):
        tips = (head, city, "STATE", "ZIP")
        for (x0, x1), tip in zip(cells, tips, strict=True):
            name = tip.replace("(", "").replace(")", "").replace("&", "")
            sheet.box(name + ("_2" if y == 130 and tip in ("STATE", "ZIP") else ""),
                      (x0, y, x1, y + 20), tip=tip)
        if y == 100:
            sheet.box(phone_label.replace("&", ""), (384, y, 580, y + 20), tip=phone_label)
    return sheet.done()


@pytest.mark.parametrize(("org", "phone_label", "second_row"), [
    ("Marrowby Regional Council", "AREA CODE & TELEPHONE NUMBER", "PERMANENT ADDRESS"),
    ("Queensferry Works Board", "Area code and phone", "MAILING ADDRESS"),
])
def test_one_cell_for_area_code_and_number_takes_the_whole_number(
        run_bundle: RunHelper, org: str, phone_label: str, second_row: str) -> None:
    pdf = _application(org, phone_label, second_row)
    roles = {w.name: classify(w) for w in read_widgets(pdf)}
    phone = roles[phone_label.replace("&", "")]
    assert phone.key == "phone" and phone.part is None, phone
    written = _run(run_bundle, pdf, PHONE_NOTE)
    assert written.get(phone_label.replace("&", "")) == "(937) 555-0172", written


@pytest.mark.parametrize(("org", "second_row"), [("Marrowby Regional Council", "PERMANENT ADDRESS"),
                                                 ("Queensferry Works Board", "MAILING ADDRESS")])
def test_the_city_cell_of_a_row_whose_street_cell_is_unread_stays_empty(
        run_bundle: RunHelper, org: str, second_row: str) -> None:
    """The city cell after a street cell that is not read as the subject's (another kind of
    address) is that row's: it stays empty."""
    written = _run(run_bundle, _application(org, "AREA CODE & TELEPHONE NUMBER", second_row),
                   PHONE_NOTE)
    assert "CITY" not in written, written


def _field_hits(field: str, text: str) -> list[tuple[str, tuple[str, ...]]]:
    doc = LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])
    return [(h.raw_value, h.rejected) for h in scan_field(field, [doc], include_rejected=True)]


@pytest.mark.parametrize("choices", [
    ["Discharge Summaries", "Operative Reports", "Medication List", "Allergies",
     "Imaging Films (mailed separately)", "Other (describe):"],
    ["Progress Notes", "Therapy Records", "Allergies", "Lab Results", "Billing Statements"],
])
def test_a_list_label_among_the_forms_printed_choices_is_no_value(choices: list[str]) -> None:
    """A blank release form lists the record kinds to send, one per line (their boxes are
    widgets, absent from the text): "Allergies" is one choice, the next line no allergy."""
    text = ("Kestrel Point Health - Authorization to Release Records\n"
            "Records for the items marked below will be sent.\n" + "\n".join(choices) + "\n")
    assert not [value for value, rejected in _field_hits("allergies", text) if not rejected]


def test_a_list_label_under_the_subjects_lines_still_reads_its_entries() -> None:
    text = ("Patient: Rosalind E. Tambling\nDate of birth: 02/14/1981\nAllergies\n"
            "Penicillin\nShellfish\n")
    accepted = [value for value, rejected in _field_hits("allergies", text) if not rejected]
    assert accepted == ["Penicillin\nShellfish"], accepted
