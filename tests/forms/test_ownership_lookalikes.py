"""Issue #25: layouts where a widget-ownership rule's premises hold but its conclusion is false.

The rules "a party named by a box's own label owns that box, its row and the boxes under it
(no block after it)" and "a bare box above every other party's box of its page is the
subject's" met look-alikes on invented forms (organisations and people invented here):

* a contact's block goes on in the row under its name box, in another column ("Emergency
  contact name [__]" over "Relationship [__]   Phone [__]", a relative's name box at the right
  over a "Tel." box at the left): the phone was written with the subject's number;
* a box heading the form above the subject's name ("Send the completed sheet to: Address
  [__]", "Telephone [__]" of the office the form goes back to) stood above every other
  party's box and took the subject's address / phone;
* a row of checkboxes whose "other" box names an organisation ("[ ] Hospital [ ] Clinic:
  [__]") is a question of choices, no block: the subject's boxes under it stay the subject's;
* captions over the boxes of a row, a contact's name box at the left and a phone box at the
  far right: the phone was the subject's (the row's party passed only a few heights);
* "Requested by: Name [__] Phone [__]" above "Patient name": the bare name box made the phone
  "under the subject's name" (a name box the subject's role labels now starts the block);
* an apartment box of the contact's street row cut the apartment from the subject's street
  (the street box takes the street alone only with an apartment box in its own row);
* a list of other people whose first row reads "Household member name 1" ("member" is a
  subject role) took the subject's name: a name numbered as one entry of a list is no name
  of the subject's on a form asking it plainly.

And the recall family next to the apartment rule: the apartment cut from the street goes into
the subject's apartment box beside the street box ("Address: [__] Apt #: [__]"); of an
address asked in alike blocks on one page ("Address", "Address_2" ...), the block under the
subject's name asked once there is the subject's (the name asked in every block: none).
"""

from __future__ import annotations

from collections.abc import Callable

from repro_assets.forms.fill import read_back
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes

from .conftest import RunHelper
from .standin_targets import Sheet

#: An invented sheet about one person, her phone printed with its country code.
SOURCE = """WILLOWMERE COMMUNITY DESK - VISIT NOTE
Client: Marisol Quenby Thackeray
Date of birth: 02/14/1979
Home address: 88 Juniper Terrace, Eugene, OR 97401
Phone: +1 541-555-0132
"""
NAME, DOB = "Marisol Quenby Thackeray", "02/14/1979"
ADDRESS, PHONE = "88 Juniper Terrace, Eugene, OR 97401", "(541) 555-0132"


def _written(run_bundle: RunHelper, pdf: bytes) -> dict[str, str]:
    folder = run_bundle(docs=[UploadedFile("note.pdf", text_pdf_bytes(SOURCE))],
                        targets=[UploadedFile("form.pdf", pdf)])
    return read_back(folder.read_binary("filled.pdf"))


def _row(sheet: Sheet, y: float, label: str, name: str, x_box: float = 170,
         width: float = 200, x_label: float = 40) -> None:
    sheet.text(x_label, y + 10, label)
    sheet.box(name, (x_box, y, x_box + width, y + 14))


def _subject_block(sheet: Sheet, who: str) -> None:
    sheet.text(40, 36, "Registration Card", size=12, bold=True)
    _row(sheet, 60, f"{who} name", "own_name")
    _row(sheet, 84, "Date of birth", "own_dob", width=100)


def _contact_then_other_column() -> bytes:
    """'Emergency contact name [__]' over 'Relationship [__]   Phone [__]' (right column)."""
    sheet = Sheet()
    _subject_block(sheet, "Patient")
    _row(sheet, 120, "Emergency contact name", "ec_name", width=150)
    _row(sheet, 144, "Relationship", "ec_rel", width=100)
    sheet.text(380, 154, "Phone")
    sheet.box("ec_phone", (420, 144, 560, 158))
    return sheet.done()


def _relative_then_left_column() -> bytes:
    """A relative's name box at the right over a 'Tel.' box at the left of the next row."""
    sheet = Sheet()
    _subject_block(sheet, "Student")
    _row(sheet, 120, "Name of relative to notify", "rel_name", x_box=300)
    _row(sheet, 144, "Tel.", "rel_phone", x_box=80, width=120)
    return sheet.done()


def _relationship_then_shifted_phone() -> bytes:
    """'Emergency contact relationship [__]' over a 'Phone number' box shifted right."""
    sheet = Sheet()
    _subject_block(sheet, "Patient")
    _row(sheet, 120, "Emergency contact relationship", "ec_rel", x_box=200, width=100)
    _row(sheet, 144, "Phone number", "ec_phone", x_box=320, width=140)
    return sheet.done()


def test_a_contacts_phone_in_the_row_under_its_name_is_not_written(
        run_bundle: RunHelper) -> None:
    builds: list[tuple[Callable[[], bytes], str]] = [
        (_contact_then_other_column, "ec_phone"), (_relative_then_left_column, "rel_phone"),
        (_relationship_then_shifted_phone, "ec_phone")]
    for build, phone in builds:
        written = _written(run_bundle, build())
        assert phone not in written, build.__name__
        assert written == {"own_name": NAME, "own_dob": DOB}, build.__name__


def _header_address(prose: bool) -> bytes:
    """An 'Address' box heading the form (where the sheet goes), above the claimant's name;
    a spouse's address below."""
    sheet = Sheet()
    sheet.text(40, 36, "Claim Notice", size=12, bold=True)
    if prose:
        sheet.text(40, 48, "Send the completed sheet to the address below", size=7)
    _row(sheet, 56, "Address" if prose else "Mail to", "to_address", width=300)
    _row(sheet, 90, "Claimant name", "own_name")
    _row(sheet, 114, "Date of birth", "own_dob", width=100)
    _row(sheet, 150, "Spouse's address", "spouse_address", width=300)
    return sheet.done()


def _header_phone(label: str) -> bytes:
    """The office the form goes back to: 'Return by mail to [__]  Telephone [__]' above the
    patient's name; the emergency contact's phone below."""
    sheet = Sheet()
    sheet.text(40, 36, "Intake Sheet", size=12, bold=True)
    _row(sheet, 50, "Return by mail to", "return_to", width=180)
    sheet.text(370, 60, label)
    sheet.box("return_phone", (430, 50, 560, 64))
    _row(sheet, 90, "Patient name", "own_name")
    _row(sheet, 114, "Date of birth", "own_dob", width=100)
    _row(sheet, 150, "Emergency contact phone", "ec_phone")
    return sheet.done()


def test_a_box_heading_the_form_above_the_subjects_name_is_not_the_subjects(
        run_bundle: RunHelper) -> None:
    for prose in (True, False):
        written = _written(run_bundle, _header_address(prose))
        assert written == {"own_name": NAME, "own_dob": DOB}, prose
    for label in ("Telephone", "Phone number"):
        written = _written(run_bundle, _header_phone(label))
        assert written == {"own_name": NAME, "own_dob": DOB}, label


def _name_first(contact_label: str) -> bytes:
    """The subject's name box first, a bare phone under it, a contact's phone further down:
    the bare phone above every other party's box is the subject's."""
    sheet = Sheet()
    _subject_block(sheet, "Your")
    _row(sheet, 108, "Phone", "own_phone", width=140)
    _row(sheet, 160, contact_label, "other_phone", width=140)
    return sheet.done()


def test_a_bare_box_under_the_subjects_name_above_other_parties_is_written(
        run_bundle: RunHelper) -> None:
    for label in ("Emergency contact phone", "Phone of person to notify"):
        written = _written(run_bundle, _name_first(label))
        assert written == {"own_name": NAME, "own_dob": DOB, "own_phone": PHONE}, label


def _choice_row(other: str) -> bytes:
    """'[ ] Hospital  [ ] <other>: [__]' right above the subject's name and birth date."""
    sheet = Sheet()
    sheet.text(40, 36, "Records Request", size=12, bold=True)
    sheet.text(40, 58, "RECORDS FROM")
    for x, word in ((300, "Hospital"), (380, other)):
        sheet.box(f"pick_{word}", (x, 50, x + 8, 58), kind="checkbox")
        sheet.text(x + 12, 58, word)
    sheet.box("which_one", (430, 46, 560, 60))
    _row(sheet, 70, "Full name", "own_name", x_box=110, width=180)
    sheet.text(380, 80, "Date of birth")
    sheet.box("own_dob", (450, 70, 560, 84))
    return sheet.done()


def test_a_choice_row_naming_an_organisation_heads_no_block(run_bundle: RunHelper) -> None:
    for other in ("Clinic", "Office"):
        written = _written(run_bundle, _choice_row(other))
        assert written == {"own_name": NAME, "own_dob": DOB}, other


def _captions_over_far_boxes(contact: str, phone: str) -> bytes:
    """Captions over the boxes of one row: a contact's name box at the left, a phone box at
    the far right (no box between)."""
    sheet = Sheet()
    _subject_block(sheet, "Patient")
    sheet.text(40, 118, contact, size=6)
    sheet.box("ec_name", (40, 120, 200, 134))
    sheet.text(420, 118, phone, size=6)
    sheet.box("ec_phone", (420, 120, 560, 134))
    return sheet.done()


def test_a_far_box_in_another_partys_row_is_not_the_subjects(run_bundle: RunHelper) -> None:
    for contact, phone in (("Emergency contact", "Phone"), ("Person to notify", "Telephone")):
        written = _written(run_bundle, _captions_over_far_boxes(contact, phone))
        assert written == {"own_name": NAME, "own_dob": DOB}, contact


def _requester_above(phone: str) -> bytes:
    """'Requested by' with a bare name box and a phone box above the patient's block."""
    sheet = Sheet()
    sheet.text(40, 36, "Records Request", size=12, bold=True)
    sheet.text(40, 56, "Requested by", bold=True)
    _row(sheet, 62, "Name", "req_name", width=150)
    sheet.text(340, 72, phone)
    sheet.box("req_phone", (390, 62, 530, 76))
    _row(sheet, 106, "Patient name", "own_name")
    _row(sheet, 130, "Date of birth", "own_dob", width=100)
    _row(sheet, 154, "Emergency contact phone", "ec_phone")
    return sheet.done()


def test_a_phone_above_the_page_name_that_names_the_subject_is_not_written(
        run_bundle: RunHelper) -> None:
    for phone in ("Phone", "Telephone"):
        written = _written(run_bundle, _requester_above(phone))
        assert "req_phone" not in written and "ec_phone" not in written, phone
        assert written["own_name"] == NAME and written["own_dob"] == DOB


def _unit_of_another_address(unit: str) -> bytes:
    """The subject's street box with city / state / ZIP boxes under it; an apartment box on
    the page belongs to the emergency contact's street row."""
    sheet = Sheet()
    _subject_block(sheet, "Tenant")
    _row(sheet, 108, "Street address", "own_street", width=300)
    for x0, x1, caption, name in ((170, 300, "City", "own_city"), (310, 360, "State", "own_st"),
                                  (370, 450, "ZIP", "own_zip")):
        sheet.text(x0, 130, caption, size=6)
        sheet.box(name, (x0, 132, x1, 146))
    sheet.text(40, 184, "EMERGENCY CONTACT", bold=True)
    _row(sheet, 194, "Contact name", "ec_name")
    _row(sheet, 218, "Street", "ec_street")
    sheet.text(380, 228, unit)
    sheet.box("ec_unit", (420, 218, 470, 232))
    return sheet.done()


#: The same person, living in an apartment.
UNIT_SOURCE = SOURCE.replace("88 Juniper Terrace,", "88 Juniper Terrace, Apt 4,")


def test_another_addresss_unit_box_cuts_no_apartment_from_the_street(
        run_bundle: RunHelper) -> None:
    for unit in ("Apt #", "Unit"):
        folder = run_bundle(docs=[UploadedFile("note.pdf", text_pdf_bytes(UNIT_SOURCE))],
                            targets=[UploadedFile("form.pdf", _unit_of_another_address(unit))])
        written = read_back(folder.read_binary("filled.pdf"))
        # the street without its apartment would be a wrong street: left empty
        assert written.get("own_street") in (None, "88 Juniper Terrace, Apt 4"), unit
        assert written["own_city"] == "Eugene" and written["own_zip"] == "97401", unit
        assert not {"ec_name", "ec_street", "ec_unit"} & set(written), unit


def _numbered_list(label: str) -> bytes:
    """The subject's own name box, then a list of other people under First / Middle / Last
    captions whose first row label ends in its entry number."""
    sheet = Sheet()
    sheet.text(40, 36, "Benefit Application", size=12, bold=True)
    _row(sheet, 60, "Your name", "own_name")
    sheet.text(40, 96, "Other adults in your home", bold=True)
    for x0, part in ((200, "First"), (320, "Middle"), (440, "Last")):
        sheet.text(x0, 104, part, size=6)
    for i, y in enumerate((106, 126, 146)):
        sheet.text(40, y + 10, label if i == 0 else f"{i + 1}.")
        for x0, part in ((200, "first"), (320, "middle"), (440, "last")):
            sheet.box(f"adult{i}_{part}", (x0, y, x0 + 110, y + 14))
    return sheet.done()


def test_a_numbered_first_row_of_a_list_of_people_is_not_the_subject(
        run_bundle: RunHelper) -> None:
    for label in ("Household member name 1", "Member name #1"):
        written = _written(run_bundle, _numbered_list(label))
        assert written == {"own_name": NAME}, label


def _street_beside_unit(unit: str) -> bytes:
    """'Address: [____] <unit>: [__]' over one box for city, state and ZIP."""
    sheet = Sheet()
    _subject_block(sheet, "Patient")
    _row(sheet, 108, "Address:", "own_street", x_box=90, width=280)
    sheet.text(390, 118, unit)
    sheet.box("own_unit", (430, 108, 560, 122))
    _row(sheet, 132, "(City, State, Zip)", "own_city_line", x_box=120, width=200)
    return sheet.done()


def test_the_apartment_goes_into_the_unit_box_beside_the_street(
        run_bundle: RunHelper) -> None:
    for unit in ("Apt #:", "Unit:"):
        folder = run_bundle(docs=[UploadedFile("note.pdf", text_pdf_bytes(UNIT_SOURCE))],
                            targets=[UploadedFile("form.pdf", _street_beside_unit(unit))])
        written = read_back(folder.read_binary("filled.pdf"))
        assert written == {"own_name": NAME, "own_dob": DOB, "own_street": "88 Juniper Terrace",
                           "own_unit": "4", "own_city_line": "Eugene, OR 97401"}, unit


def _repeated_blocks(own_label: str, other_label: str) -> bytes:
    """The subject's block ('<own_label> [__]' over 'Address [__] City [__] State & Zip [__]'),
    then two alike blocks of people the papers go to ('<other_label> [__]' over the same
    boxes, named with a copy number)."""
    sheet = Sheet()
    sheet.text(40, 36, "Release of Papers", size=12, bold=True)
    blocks = (("", own_label, 60), ("_2", other_label, 130), ("_3", other_label, 200))
    for suffix, label, y in blocks:
        _row(sheet, y, label, f"Name{suffix}" if label == other_label else "Own Name",
             x_box=110, width=300)
        sheet.text(40, y + 34, "Address")
        sheet.box(f"Address{suffix}", (90, y + 24, 250, y + 38))
        sheet.text(262, y + 34, "City")
        sheet.box(f"City{suffix}", (285, y + 24, 400, y + 38))
        sheet.text(412, y + 34, "State & Zip")
        sheet.box(f"State Zip{suffix}", (470, y + 24, 570, y + 38))
    return sheet.done()


def test_the_one_block_under_the_subjects_name_takes_the_repeated_address(
        run_bundle: RunHelper) -> None:
    for own, other in (("Full Name", "Name"), ("Your name", "Send to")):
        written = _written(run_bundle, _repeated_blocks(own, other))
        assert written == {"Own Name": NAME, "Address": "88 Juniper Terrace",
                           "City": "Eugene", "State Zip": "OR 97401"}, own
    # the same name label over every block: no block is the subject's
    written = _written(run_bundle, _repeated_blocks("Name", "Name"))
    assert not {"Address", "City", "State Zip"} & set(written)
