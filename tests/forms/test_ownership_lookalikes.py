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
  [__]") is a question of choices, no block: the subject's boxes under it stay the subject's.
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
