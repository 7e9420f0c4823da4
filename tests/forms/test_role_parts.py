"""Issue #25: the subject named by a role in the input and in the target form's parts.

Families seen on real inputs and forms measured outside the project, each redrawn here with
invented documents, two variants each:

* a summary sheet setting two parties side by side under two short headings ("EMPLOYER" |
  "EMPLOYEE", "CHILD" | "PARENTS"): each column is read on its own, so the subject's labels
  stand next to the subject's values;
* a subject heading with an aside ("BENEFICIARY (husband)") names the subject, and the
  unlabelled name right under it is the subject's; a petitioner's or sponsor's block is
  another party's;
* a form whose numbered parts name the subject's role and another's ("Part 1. Your details
  (Petitioner)", "Part 2. Details of the Beneficiary"): only the subject's part
  is written, never its list of relatives ("Person 1"), other names used, a part naming no
  one or a country box; the name parts come from a camel-case field name ("FamilyName");
* a date written one digit per box ("dob_d1" .. "dob_y4") and a name stacked as "surname"
  over "first_names" under one "Employee name" label.
"""

from __future__ import annotations

import pymupdf
import pytest

from repro_assets.forms.extract import extract_layout
from repro_assets.forms.fill import read_back
from repro_assets.forms.heuristics import scan_field
from repro_assets.forms.models import LayoutDoc, LayoutPageText
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes

from .conftest import RunHelper
from .documents import FieldShape, fillable_form
from .standin_targets import Sheet


def _columns_pdf(title: str, left: list[str], right: list[str], tail: list[str]) -> bytes:
    """A page with a title, two columns of lines (x=50 and x=310) and full-width lines."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((50, 60), title, fontsize=10, fontname="helv")
    for row in range(max(len(left), len(right))):
        y = 100 + 14 * row
        for x, lines in ((50, left), (310, right)):
            if row < len(lines):
                page.insert_text((x, y), lines[row], fontsize=9, fontname="helv")
    for row, line in enumerate(tail):
        page.insert_text((50, 130 + 14 * max(len(left), len(right)) + 14 * row), line,
                         fontsize=9, fontname="helv")
    data = doc.tobytes()
    doc.close()
    return data


SUBJECT_RIGHT = _columns_pdf(
    "QUARTERLY STAFF PERKS OVERVIEW",
    ["EMPLOYER", "Brackwater Tooling Ltd", "Pay office: Ivo Tennant",
     "Date of birth: 11/02/1970", "Tel (614) 555-0121", "12 Mill Road, Columbus, OH 43004"],
    ["EMPLOYEE", "Name: Marisol Quenby", "Date of birth: 06/14/1983",
     "Home address: 45 Fenwick Ct,", "Columbus, OH 43201", "Phone: (614) 555-0188"],
    ["Perk: a shared van for site visits."])
SUBJECT_LEFT = _columns_pdf(
    "ROOM CHANGE NOTE",
    ["CHILD", "Name: Tobiah Quarrie", "Date of birth: 05/21/2019", "Home phone: 905-555-0142",
     "Allergies: sesame"],
    ["PARENTS", "Mother: Elsbeth Quarrie", "  cell 905-555-0177", "Father: Ruadh Quarrie",
     "  work 905-555-0133"],
    ["Vaccination card enclosed."])


@pytest.mark.parametrize(("pdf", "name", "dob", "first_lines"), [
    (SUBJECT_RIGHT, "Marisol Quenby", "1983-06-14", ["EMPLOYER", "Brackwater Tooling Ltd"]),
    (SUBJECT_LEFT, "Tobiah Quarrie", "2019-05-21", ["CHILD", "Name: Tobiah Quarrie"]),
])
def test_side_by_side_parties_are_read_one_column_at_a_time(
        run_bundle: RunHelper, pdf: bytes, name: str, dob: str, first_lines: list[str]) -> None:
    text = extract_layout("d", pdf).pages[0].full_text.split("\n")
    assert text[1:3] == first_lines  # the left column first, whole
    folder = run_bundle(docs=[UploadedFile("summary.pdf", pdf)])
    final = folder.read_artifact("final").fields
    assert (final["full_name"].status, final["full_name"].normalized_value) == ("filled", name)
    assert (final["dob"].status, final["dob"].normalized_value) == ("filled", dob)


def test_a_single_column_page_keeps_its_text() -> None:
    data = text_pdf_bytes("Patient: Ana Ruiz\nDate of birth: 03/04/1990\nPhone: 555-0100")
    doc = pymupdf.open(stream=data, filetype="pdf")
    plain = doc[0].get_text("text")
    assert extract_layout("d", data).pages[0].full_text == plain


def _doc(text: str) -> LayoutDoc:
    return LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])


@pytest.mark.parametrize(("other", "subject", "name", "dob"), [
    ("PETITIONER", "BENEFICIARY (husband)", "Odalys Marguerite Fenwick", "04/17/1990"),
    ("SPONSOR", "INTENDING IMMIGRANT (wife)", "Katalin Oresta Vray", "11/21/1992"),
])
def test_role_headings_bind_the_name_and_birth_date(other: str, subject: str, name: str,
                                                    dob: str) -> None:
    text = (f"CASE SUMMARY\n{other}\nCaspian R. Fenwick\nBorn 01/15/1979\n{subject}\n{name}\n"
            f"Born {dob}\nDay phone (208) 555-0199\n")
    dobs = {h.raw_value: h for h in scan_field("dob", [_doc(text)], include_rejected=True)}
    assert dobs[dob].accepted and "party_unbound" not in dobs[dob].flags
    assert dobs["01/15/1979"].rejected  # the petitioner's or sponsor's
    names = [h.raw_value for h in scan_field("full_name", [_doc(text)]) if h.accepted]
    assert names == [name]
    # a prose heading naming the subject is no name's heading
    prose = "Part 3. Details of each immigrant you\nAre Backing\n"
    assert scan_field("full_name", [_doc(prose)]) == []


def _parts_form(you: str, about: str, subject_word: str) -> bytes:
    """A form in numbered parts: the filer's, the subject's (with relatives, other names and
    a country box), and one naming no one."""
    mine = f"Part 2. Details of {about}."
    return fillable_form([
        FieldShape("Pt1Line1a_FamilyName",
                   label=f"Part 1. Your details ({you}). Your legal name. "
                         "1. A. Type Family Name (Surname)."),
        FieldShape("Pt1Line1b_GivenName",
                   label=f"Part 1. Your details ({you}). Your legal name. "
                         "1. B. Type Given Name (First Name)."),
        FieldShape("Pt2Line2a_FamilyName",
                   label=f"{mine} {subject_word}'s legal name. 2. A. Type Family Name "
                         "(Surname)."),
        FieldShape("Pt2Line2b_GivenName",
                   label=f"{mine} {subject_word}'s legal name. 2. B. Type Given Name "
                         "(First Name)."),
        FieldShape("Pt2Line2c_MiddleName",
                   label=f"{mine} {subject_word}'s legal name. 2. C. Type Middle Name."),
        FieldShape("Pt2Line3b_GivenName",
                   label=f"{mine} Other names ever used. 3. B. Type Given Name "
                         "(First Name)."),
        FieldShape("Pt2Line4_Country",
                   label=f"{mine} Address abroad, when there is one. 4. F. Type "
                         "Country."),
        FieldShape("Pt2Line5_DateOfBirth",
                   label=f"{mine} Birth and citizenship. 5. Type Date of Birth."),
        FieldShape("Pt2Line6b_GivenName",
                   label=f"{mine} Relatives of the {subject_word}. Person 1. "
                         "6. B. Type Given Name (First Name)."),
        FieldShape("Pt2Line7b_GivenName",
                   label=f"{mine} The name in its own script. 7. B. Type Given Name "
                         "(First Name)."),
        FieldShape("Pt3Line1b_GivenName",
                   label="Part 3. Further details. 1. B. Type Given Name (First Name)."),
    ], title="Petition in parts")


@pytest.mark.parametrize(("you", "about", "subject_word", "source"), [
    ("Petitioner", "Beneficiary", "Beneficiary",
     "BENEFICIARY\nName: Odalys Marguerite Fenwick\nDate of birth: 04/17/1990\n"
     "Address: 12 Orchard Way, Apt 3, Meridian, ID 83642\n"),
    ("Sponsor", "the Principal Immigrant", "Immigrant",
     "INTENDING IMMIGRANT\nName: Odalys Marguerite Fenwick\nDate of birth: 04/17/1990\n"
     "Address: 12 Orchard Way, Apt 3, Meridian, ID 83642\n"),
])
def test_only_the_subjects_part_of_the_form_is_written(
        run_bundle: RunHelper, you: str, about: str, subject_word: str, source: str) -> None:
    form = _parts_form(you, about, subject_word)
    folder = run_bundle(docs=[UploadedFile("summary.pdf", text_pdf_bytes(source))],
                        targets=[UploadedFile("form.pdf", form)])
    written = {k: v for k, v in read_back(folder.read_binary("filled.pdf")).items() if v}
    assert written == {"Pt2Line2a_FamilyName": "Fenwick", "Pt2Line2b_GivenName": "Odalys",
                       "Pt2Line2c_MiddleName": "Marguerite",
                       "Pt2Line5_DateOfBirth": "04/17/1990"}


def test_parts_rule_says_nothing_without_another_role() -> None:
    from repro_assets.forms.form_parts import FormParts

    labels = ["Part 1. Details of the Beneficiary. 1. Type Given Name.",
              "Part 2. Further details. 2. Type Given Name."]
    assert not FormParts(labels).active
    assert FormParts(labels).refusal(labels[1]) is None
    active = FormParts([*labels, "Part 3. Your details (Petitioner). 3. Name."])
    assert active.refusal(labels[1]) == "other_part_of_form"
    assert active.refusal(labels[0]) is None


def _return_form(order: str) -> bytes:
    """A return about an employee: the employer's name box, the employee's surname over the
    first names under one label, and the birth date a digit per box."""
    sheet = Sheet()
    sheet.text(30, 20, "Employer name", size=8)
    sheet.box("employer_name", (30, 24, 220, 38))
    sheet.text(30, 50, "Employer reference", size=8)
    sheet.box("employer_ref", (30, 54, 220, 68))
    sheet.text(30, 88, "Employee name", size=8)
    sheet.box("surname", (30, 94, 220, 104))
    sheet.box("first_names", (30, 105, 220, 120))
    sheet.text(430, 88, "Birth date (digits)", size=8)
    boxes = {"dmy": ("d1", "d2", "m1", "m2", "y1", "y2", "y3", "y4"),
             "mdy": ("m1", "m2", "d1", "d2", "y1", "y2", "y3", "y4")}[order]
    for index, part in enumerate(boxes):
        x0 = 430 + 16 * index
        sheet.box(f"dob_{part}", (x0, 105, x0 + 15, 121))
    return sheet.done()


@pytest.mark.parametrize("order", ["dmy", "mdy"])
def test_digit_boxes_and_stacked_name_parts(run_bundle: RunHelper, order: str) -> None:
    source = ("EMPLOYEE\nName: Rowena Elspeth Tarrant-Moyo\nDate of birth: 09/23/1984\n"
              "Staff number: 8812\n")
    folder = run_bundle(docs=[UploadedFile("sheet.pdf", text_pdf_bytes(source))],
                        targets=[UploadedFile("form.pdf", _return_form(order))])
    written = {k: v for k, v in read_back(folder.read_binary("filled.pdf")).items() if v}
    assert written == {"surname": "Tarrant-Moyo", "first_names": "Rowena Elspeth",
                       "dob_d1": "2", "dob_d2": "3", "dob_m1": "0", "dob_m2": "9",
                       "dob_y1": "1", "dob_y2": "9", "dob_y3": "8", "dob_y4": "4"}


@pytest.mark.parametrize(("title", "label", "name"), [
    ("SALES AGENT START-UP FORM", "Agent (payee)", "Corisande P. Lathrop"),
    ("REPRESENTATIVE INTAKE SHEET", "Representative (the client)", "Thaddeus Quillon"),
])
def test_an_aside_naming_the_subjects_role_makes_the_label_the_subjects(
        title: str, label: str, name: str) -> None:
    """A title or label naming another role ("agent", "representative") with the subject's
    role in brackets: the person is the subject; the coordinator's line stays not theirs."""
    text = (f"{title}\nIntake coordinator: Wilbur Fane   Phone: (614) 555-0107\n"
            f"{label}: {name}\nHome phone: (614) 555-0148\n")
    names = [h.raw_value for h in scan_field("full_name", [_doc(text)]) if h.accepted]
    assert names == [name]
    phones = {h.raw_value: h for h in scan_field("phone", [_doc(text)], include_rejected=True)}
    assert phones["(614) 555-0148"].accepted


@pytest.mark.parametrize(("line", "items"), [
    ("Documented drug allergies: latex gloves", "latex gloves"),
    ("Reported allergies: shellfish; penicillin", "shellfish; penicillin"),
])
def test_a_qualified_list_label_is_read(line: str, items: str) -> None:
    text = f"ENROLMENT RECORD\nParticipant name: Ilse Varnum\n{line}\n"
    assert [h.raw_value for h in scan_field("allergies", [_doc(text)])] == [items]


@pytest.mark.parametrize("sentence", [
    "A second worry: questionnaires can tire people by how long each one takes to answer "
    "fully.",
    "Some visitors find the survey tiring for the time it takes to fill them.",
])
def test_takes_to_and_a_verb_is_no_medication_list(sentence: str) -> None:
    assert scan_field("medications", [_doc(f"Study information\n{sentence}\n")],
                      include_rejected=True) == []
