"""Issue #25: families seen on real blank and fillable forms measured outside the project.

Twelve real public forms (clinic packets, tax and HR forms, a ceremony intake form) were laid
out as eval cases outside the project with invented filled inputs; these tests redraw each
family found there on small invented forms (every name, organisation and number is made up):

* a list label whose own answer slot is a fill-in line ("Allergies ______") over a checklist
  of conditions: the checklist is no answer (three blank packets had it filled as allergies);
* a label line that shares its row with a far box (a tall "requester" box at the other side,
  a checkbox with its own number before it) still labels the box under it (the street and
  city boxes of a tax form were read as one table column and stayed empty);
* tooltips of several sentences: the sentence naming the box counts ("Name shown on tax
  return. If a joint return, enter the name shown first." asked for no first name; a "Note:
  ... your address on file." asked for no address), and a long printed label counts by its
  first sentence;
* a label asking for a previous value ("Previous address") is no current value;
* "first name and middle initial" asks for the given names (the whole name went in);
* a name qualified by a word of the form's own ("Ceremonial Name", "Sponsor #1 - Name") is not the
  subject's name when the form asks the subject's own name elsewhere;
* a long sentence of the form's text mentioning a spouse heads no block.
"""

from __future__ import annotations

import pymupdf

from repro_assets.forms.acroform import classify, read_widgets
from repro_assets.forms.fill import read_back
from repro_assets.forms.parties import party_of
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes
from repro_assets.forms.widget_meaning import asked_sentence, meaning_of, qualified_name

from .conftest import RunHelper
from .standin_targets import SOURCE, P, Sheet


def roles(pdf: bytes) -> dict[str, tuple]:
    return {w.name: (r.key, r.party, r.part, r.problem)
            for w in read_widgets(pdf) for r in [classify(w)]}


def fill(run_bundle: RunHelper, pdf: bytes, source: str = SOURCE) -> dict[str, str]:
    folder = run_bundle(docs=[UploadedFile("summary.pdf", text_pdf_bytes(source))],
                        targets=[UploadedFile("form.pdf", pdf)])
    return read_back(folder.read_binary("filled.pdf"))


# --- blank forms: a list label over its own empty fill-in line ---------------------------

_CONDITIONS = ["Anemia", "Arthritis", "Asthma", "Fainting", "Glaucoma", "Hay Fever",
               "Hepatitis", "Jaundice"]


def _checklist_inline() -> str:
    """Variant 1: 'Allergies ______' with the condition checklist under it."""
    return "\n".join(["Harborview Family Dentistry", "MEDICAL HISTORY",
                      "Allergies ______________", "__________________",
                      *(f" {c} " for c in _CONDITIONS)])


def _checklist_grid() -> str:
    """Variant 2: 'Allergies' alone over a grid of conditions, each with its own line."""
    lines = ["Quillfeather Acupuncture", "HEALTH HISTORY", "Allergies "]
    for left, right in zip(_CONDITIONS[::2], _CONDITIONS[1::2], strict=True):
        lines += [f"______________________ {left}", f"_______________________ {right}"]
    return "\n".join(lines)


def test_a_list_label_over_its_own_blank_line_gets_no_checklist_as_values(
        run_bundle: RunHelper) -> None:
    for text in (_checklist_inline(), _checklist_grid()):
        folder = run_bundle(docs=[UploadedFile("history.pdf", text_pdf_bytes(text))])
        final = folder.read_artifact("final")
        assert final.fields["allergies"].status == "missing", text
        rejected = [c for c in folder.read_artifact("candidates") if c.field == "allergies"]
        assert rejected and all("blank_form:fill_in_line" in c.rejected_reasons
                                for c in rejected)


def test_a_written_list_after_its_label_is_still_read(run_bundle: RunHelper) -> None:
    text = "VISIT NOTE\nPatient Name: Odalys Verhoeven\nAllergies:\n- Latex\n- Codeine\n"
    folder = run_bundle(docs=[UploadedFile("note.pdf", text_pdf_bytes(text))])
    assert folder.read_artifact("final").fields["allergies"].normalized_value == \
        "Latex; Codeine"


# --- labels on a row with a far box ---------------------------------------------------------


def _street_city(far: str) -> bytes:
    sheet = Sheet()
    sheet.text(40, 60, "1 Name (as on your last return). A name is needed here; never leave "
               "it blank.")
    sheet.box("f1_1", (40, 64, 560, 78))
    sheet.text(40, 96, "5 Address (number, street, apt. or unit) Read the notes.")
    sheet.box("f1_7", (40, 100, 310, 114))
    sheet.text(40, 124, "6 City, state, and ZIP code")
    sheet.box("f1_8", (40, 128, 310, 142))
    if far == "tall_box":  # a box of another party standing over both rows
        sheet.text(390, 96, "Payer's name and address (optional)")
        sheet.box("f1_9", (390, 100, 560, 142))
    else:  # a checkbox with its own number on the label's row
        sheet.text(330, 122, "3", size=7)
        sheet.box("c1_1", (340, 115, 349, 124), kind="checkbox")
        sheet.text(352, 126, "Single", size=7)
    return sheet.done()


def _named_street_city() -> bytes:
    """The street and city boxes both named ``Address[0]...`` (the name gives the key, the
    page the part), after a box whose long printed text names kinds of company."""
    sheet = Sheet()
    sheet.text(40, 60, "1 Name (as on your last return). A name is needed here; never leave "
               "it blank.")
    sheet.box("Page1[0].f1_1[0]", (40, 64, 560, 78))
    sheet.text(40, 92, "Limited liability company. Enter the class (C = C corporation, "
               "S = S corporation, P = Partnership)")
    sheet.box("Page1[0].Class[0].f1_3[0]", (420, 84, 450, 96))
    sheet.text(40, 116, "5 Address (number, street, apt. or unit) Read the notes.")
    sheet.box("Page1[0].Address[0].f1_7[0]", (40, 120, 310, 134))
    sheet.text(40, 144, "6 City, state, and ZIP code")
    sheet.box("Page1[0].Address[0].f1_8[0]", (40, 148, 310, 162))
    return sheet.done()


def test_boxes_named_by_their_field_take_their_part_from_the_page(
        run_bundle: RunHelper) -> None:
    written = fill(run_bundle, _named_street_city())
    assert written == {"Page1[0].f1_1[0]": P["name"], "Page1[0].Address[0].f1_7[0]": P["street"],
                       "Page1[0].Address[0].f1_8[0]": P["city_state_zip"]}


def test_a_label_sharing_its_row_with_a_far_box_labels_the_box_under_it(
        run_bundle: RunHelper) -> None:
    for far in ("tall_box", "checkbox"):
        pdf = _street_city(far)
        got = roles(pdf)
        assert got["f1_1"][:3] == ("full_name", None, None)
        assert got["f1_7"][:3] == ("address", None, None)
        assert got["f1_8"][:3] == ("address", None, "city+state+zip")
        written = fill(run_bundle, pdf)
        assert written == {"f1_1": P["name"], "f1_7": P["street"],
                           "f1_8": P["city_state_zip"]}, far


# --- tooltips of several sentences, previous values ----------------------------------------


def test_the_sentence_naming_the_box_counts_in_a_tooltip_of_several() -> None:
    assert asked_sentence("Page 1. 1a. Name on your return. If you filed together, give "
                          "the name listed first.") == "Name on your return"
    assert meaning_of(asked_sentence("Note: Starting next year the agency mails letters only "
                                     "to your address on file. Enter the form number here."
                                     )) is None
    assert asked_sentence("Sign below. Daytime phone of the taxpayer named in 1a or 2a.") == \
        "Daytime phone of the taxpayer named in 1a or 2a"
    assert asked_sentence("First Name, M.I. Last Name") == "First Name, M.I. Last Name"


def _tax_request(tips: bool) -> bytes:
    """A transcript request: the taxpayer, the spouse, a previous address, a form number box
    whose tooltip opens with a note, the taxpayer's phone under a long sentence."""
    sheet = Sheet()
    rows = [
        ("t1", "1a Name on your return", "Page 1. 1a. Name on your return. If you filed "
         "together, give the name listed first."),
        ("t2", "2a If you filed together, give your spouse's name as on the return",
         "2a. If you filed together, give your spouse's name as on the return."),
        ("t3", "4 Previous address on your last return",
         "4. Previous address on your last return if it differs from line 3."),
        ("t4", "one number per line.", "Note: From next year the agency mails records only to "
         "your address on file. 6. Enter the form number here."),
    ]
    y = 60
    for name, printed, tip in rows:
        sheet.text(40, y, printed)
        sheet.box(name, (40, y + 4, 400, y + 18), tip=tip if tips else None)
        y += 40
    sheet.text(40, y, "records you asked for. When you file jointly, one spouse or the other "
               "signs below. An officer signing for a company reads the notes first.")
    sheet.text(300, y + 14, "Daytime phone of the taxpayer named in 1a or 2a")
    sheet.box("t5", (300, y + 18, 560, y + 32),
              tip="Sign below. Daytime phone of the taxpayer named in 1a or 2a." if tips else None)
    return sheet.done()


def test_tax_request_writes_the_taxpayers_phone_only(run_bundle: RunHelper) -> None:
    for tips in (True, False):
        pdf = _tax_request(tips)
        got = roles(pdf)
        assert got["t1"][:3] == ("full_name", None, None), tips  # no "first" from "shown first"
        # the spouse's: by its tooltip, or (a label of eleven words) no label at all
        assert (got["t2"][1] == "family") if tips else (got["t2"][0] is None)
        assert got["t3"][3] == "not_current"
        assert got["t4"][0] is None
        # the sentence above heads no spouse block; the tooltip or label names the taxpayer
        assert got["t5"][:2] == ("phone", "subject")
        folder = run_bundle(docs=[UploadedFile("summary.pdf", text_pdf_bytes(SOURCE))],
                            targets=[UploadedFile("form.pdf", pdf)])
        written = read_back(folder.read_binary("filled.pdf"))
        skipped = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
        assert skipped["t3"] == "not_current"
        # no party said, above the spouse's box (or no other box asks a name): the name on
        # the return is the taxpayer's
        assert written == {"t1": P["name"], "t5": P["phone"]}


# --- given names, qualified names --------------------------------------------------------


def _certificate(tips: bool) -> bytes:
    sheet = Sheet()
    sheet.text(40, 40, "Employee's Withholding Certificate", size=11, bold=True)
    sheet.text(40, 70, "Type or print your first name and your middle initial")
    sheet.box("f1_09", (40, 74, 220, 88),
              tip="Type or print your first name and your middle initial" if tips else None)
    sheet.text(234, 70, "Last name")
    sheet.box("f1_10", (234, 74, 430, 88), tip="Last name" if tips else None)
    sheet.text(40, 106, "Employer's name and address")
    sheet.box("f1_19", (40, 110, 430, 124))
    return sheet.done()


def test_first_name_and_middle_initial_get_the_given_names(run_bundle: RunHelper) -> None:
    for tips in (True, False):
        pdf = _certificate(tips)
        assert roles(pdf)["f1_09"][:3] == ("full_name", "subject", "first_middle")
        written = fill(run_bundle, pdf)
        assert written == {"f1_09": f"{P['first']} {P['mi']}.", "f1_10": P["last"]}, tips


def test_a_name_qualified_by_a_word_of_the_form_is_another_kind_of_name() -> None:
    # a sponsor is a party of its own (who backs a petition or stands at a ceremony): the
    # box is another person's, whatever qualifies its name
    assert qualified_name("Sponsor #1 — Name") is None
    assert party_of("Sponsor #1 — Name") == "sponsor"
    assert qualified_name("Child's Ceremonial Name") == "ceremonial"
    assert qualified_name("Preferred Name") == "preferred"
    for plain in ("Name", "1 Name", "Patient's Name", "Child's First Name", "Spouse's name",
                  "Responsible Party Name", "Full legal name"):
        assert qualified_name(plain) is None, plain


def _ceremony_form(subject_word: str) -> bytes:
    """A parent-completed form about a child: the parents' block, the child's block, then
    honours given to relatives (named by the form's own role words) on a second page."""
    sheet = Sheet(pages=2)
    sheet.text(40, 40, "Brightwater Naming Ceremonies - INTAKE FORM", size=11, bold=True)
    sheet.text(40, 70, "1 · PARENT & CONTACT INFORMATION", size=10, bold=True)
    sheet.text(40, 92, "Parent #1 Name")
    sheet.box("p1_name", (40, 96, 290, 112))
    sheet.text(300, 92, "Parent #1 Phone")
    sheet.box("p1_phone", (300, 96, 560, 112))
    sheet.text(40, 140, f"2 · {subject_word.upper()}'S INFORMATION", size=10, bold=True)
    sheet.text(40, 162, f"{subject_word}'s First Name")
    sheet.box("c_first", (40, 166, 290, 182))
    sheet.text(300, 162, f"{subject_word}'s Last Name")
    sheet.box("c_last", (300, 166, 560, 182))
    sheet.text(40, 202, "Date of Birth (mm/dd/yyyy)")
    sheet.box("c_dob", (40, 206, 290, 222))
    sheet.text(40, 60, "3 · HONOURS", size=10, bold=True, page=2)
    sheet.text(40, 82, f"{subject_word}'s Ceremonial Name", page=2)
    sheet.box("c_other_name", (40, 86, 560, 102), page=2)
    for n, y in enumerate((122, 162), start=1):
        sheet.text(40, y, f"Sponsor #{n} — Name", page=2)
        sheet.box(f"k{n}_name", (40, y + 4, 290, y + 20), page=2)
        sheet.text(300, y, f"Relationship to {subject_word.lower()}", page=2)
        sheet.box(f"k{n}_rel", (300, y + 4, 560, y + 20), page=2)
    return sheet.done()


def test_only_the_childs_own_name_boxes_get_the_name(run_bundle: RunHelper) -> None:
    for word in ("Baby", "Child"):
        pdf = _ceremony_form(word)
        got = roles(pdf)
        assert got["c_first"][:3] == ("full_name", "subject", "first")
        assert got["p1_name"][1] == "family"
        written = fill(run_bundle, pdf)
        assert written == {"c_first": P["first"], "c_last": P["last"], "c_dob": P["dob"]}, word


def test_a_role_word_of_the_form_alone_still_names_the_subject(run_bundle: RunHelper) -> None:
    """With no other name asked, "Camper name" is the subject's (the form's own role)."""
    sheet = Sheet()
    sheet.text(40, 40, "Lakeshore Day Camp - HEALTH FORM", size=11, bold=True)
    sheet.text(40, 80, "Camper name:")
    sheet.box("n1", (110, 70, 400, 84))
    written = fill(run_bundle, sheet.done())
    assert written == {"n1": P["name"]}


def test_a_value_typed_before_the_fill_in_line_is_still_read(run_bundle: RunHelper) -> None:
    text = "INTAKE\nPatient Name: Odalys Verhoeven\nAllergies: Penicillin ______\n"
    folder = run_bundle(docs=[UploadedFile("intake.pdf", text_pdf_bytes(text))])
    assert folder.read_artifact("final").fields["allergies"].normalized_value == "Penicillin"


# --- an employment form: the employee's section, a preparer's, the employer's --------------


def _employment_form(part: str) -> bytes:
    """Boxes named by their content (``FamilyName[0]``, ``StreetNumberName[0]``) whose
    tooltips open with the section's title; a state chosen from a list; the preparer's and
    the employer's boxes with the same names; a later section asking a new name."""
    sheet = Sheet(pages=2)
    one, two, three = (f"{part} 1. Employee Information and Attestation.",
                       f"{part} 2. Employer or Authorized Representative Review.",
                       f"{part} 3. Reverification and Rehires.")
    rows = [
        ("FamilyName[0]", "Last Name (Family Name)", f"{one} Enter Last Name (Family Name).",
         (40, 80, 200, 94)),
        ("GivenName[0]", "First Name (Given Name)", f"{one} Enter First Name (Given Name).",
         (210, 80, 360, 94)),
        ("MiddleInitial[0]", "Middle Initial", f"{one} Enter Middle Initial.", (370, 80, 410, 94)),
        ("OtherNamesUsed[0]", "Other Names Used", f"{one} Enter Other Names Used (if any).",
         (420, 80, 570, 94)),
        ("StreetNumberName[0]", "Address (Street Number and Name)",
         f"{one} Enter Address (Street Number and Name).", (40, 120, 300, 134)),
        ("CityOrTown[0]", "City or Town", f"{one} Enter City or Town.", (310, 120, 440, 134)),
        ("ZipCode[0]", "Zip Code", f"{one} Enter Zip Code.", (500, 120, 570, 134)),
        ("LastName[0]", "Last Name", f"{one} Preparer and/or Translator Certification. I "
         "attest that I helped complete this form. Enter Last Name (Family Name).",
         (40, 200, 300, 214)),
        ("StreetNumberName[1]", "Address (Street Number and Name)", f"{one} Preparer and/or "
         "Translator Certification. Enter Address (Street Number and Name).",
         (40, 240, 300, 254)),
    ]
    for name, printed, tip, rect in rows:
        sheet.text(rect[0], rect[1] - 4, printed, size=7)
        sheet.box(name, rect, tip=tip)
    sheet.text(450, 116, "State", size=7)
    state = pymupdf.Widget()
    state.field_name, state.field_label = "State[0]", f"{one} Select State from list of States."
    state.field_type = pymupdf.mupdf.PDF_WIDGET_TYPE_COMBOBOX
    state.choice_values = ["CO", "IL", "OH"]
    state.rect = pymupdf.Rect(450, 120, 490, 134)
    sheet.doc[0].add_widget(state)
    sheet.text(40, 56, "Employee Last Name, First Name and Middle Initial from Section 1", page=2)
    sheet.box("EmployeeName[0]", (300, 60, 570, 74), page=2,
              tip=f"{two} Enter Employee Last Name, First Name and Middle Initial from "
              f"{part} 1.")
    sheet.text(40, 116, "Last Name (Family Name)", size=7, page=2)
    sheet.box("FamilyName[1]", (40, 120, 200, 134), page=2,
              tip=f"{two} Certification. Enter Last Name (Family Name).")
    sheet.text(40, 176, "A. New Name (if applicable) Last Name (Family Name)", size=7, page=2)
    sheet.box("FamilyName[2]", (40, 180, 200, 194), page=2,
              tip=f"{three} A. New Name (if applicable). Enter Last Name (Family Name).")
    return sheet.done()


def test_employment_form_writes_only_the_employees_own_boxes(run_bundle: RunHelper) -> None:
    for part in ("Section", "Part"):
        written = fill(run_bundle, _employment_form(part))
        assert written == {
            "FamilyName[0]": P["last"], "GivenName[0]": P["first"], "MiddleInitial[0]": P["mi"],
            "StreetNumberName[0]": P["street"], "CityOrTown[0]": P["city"],
            "ZipCode[0]": P["zip"], "EmployeeName[0]": P["last_first"]}, part


# --- the subject named by a role word of the party vocabulary ------------------------------


def test_a_subject_role_word_labels_the_name(run_bundle: RunHelper) -> None:
    """"Infant: <LAST, FIRST>" on a birth record and "Taxpayer: <name>" on a tax client
    sheet (with the spouse on the next line) give the subject's name; a yes/no answer after
    a role word is no name."""
    for text, name in (
            ("Marlowe Birth Centre - Discharge Record\nInfant: Tamsin, Odile\n"
             "Mother: Renske Tamsin   Phone: (303) 555-0170\n", "Tamsin, Odile"),
            ("Cobblestone Tax Services - Client Intake\nTaxpayer: Lucan P. Ferreira-Voss\n"
             "Spouse: Ines Ferreira-Voss\n", "Lucan P. Ferreira-Voss")):
        folder = run_bundle(docs=[UploadedFile("record.pdf", text_pdf_bytes(text))])
        assert folder.read_artifact("final").fields["full_name"].normalized_value == name
    folder = run_bundle(docs=[UploadedFile("form.pdf", text_pdf_bytes(
        "ENROLMENT\nResident: Yes\nStudent: Full-time\n"))])
    assert folder.read_artifact("final").fields["full_name"].status == "missing"


def test_a_subject_role_label_opens_the_subjects_block(run_bundle: RunHelper) -> None:
    """The lines under "Infant:" / "Student:" up to another party's line are the subject's:
    the address is filled, not only offered for review, and the parent's phone is not."""
    for text in (
            "Marlowe Birth Centre - Discharge Record\nInfant: Tamsin, Odile\n"
            "Home address: 4471 Larchmont Road, Boulder, CO 80304\n"
            "Mother: Renske Tamsin   Phone: (303) 555-0170\n",
            "Fernhill Academy - Enrolment Card\nStudent: Odile Tamsin\n"
            "Home address: 4471 Larchmont Road, Boulder, CO 80304\n"
            "Guardian: Renske Tamsin   Phone: (303) 555-0170\n"):
        folder = run_bundle(docs=[UploadedFile("record.pdf", text_pdf_bytes(text))])
        fields = folder.read_artifact("final").fields
        assert (fields["address"].status, fields["address"].normalized_value) == (
            "filled", "4471 Larchmont Road, Boulder, CO 80304"), text
        assert fields["phone"].status == "missing"
