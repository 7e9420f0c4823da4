"""Issue #25: widgets that would take a wrong value once a phone or name is certain.

On a real identity-card application the subject's phone mapped onto the boxes of an earlier
identification number ("First three digits of ...", "Last four digits of ...") and onto the
parents' number boxes, and a box asking for the mother's maiden name was read as the
subject's own former name. Each family is drawn here on small invented forms, two variants
each (tooltips naming the number in the box's own sentence or only in the page's label).
"""

from __future__ import annotations

from repro_assets.forms.acroform import classify, read_widgets
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes
from repro_assets.forms.widget_meaning import meaning_of

from .conftest import RunHelper
from .standin_targets import Sheet


def _roles(pdf: bytes) -> dict[str, tuple]:
    return {w.name: (r.key, r.party, r.part, r.problem)
            for w in read_widgets(pdf) for r in [classify(w)]}


def _number_boxes(sheet: Sheet, y: float, names: tuple[str, str, str],
                  tips: tuple[str, str, str]) -> None:
    for (x0, x1), name, tip in zip(((300, 360), (370, 410), (420, 500)), names, tips,
                                   strict=True):
        sheet.box(name, (x0, y, x1, y + 16), tip=tip)


def test_identifier_boxes_split_in_three_are_never_a_phone_tooltips() -> None:
    sheet = Sheet()
    sheet.text(40, 70, "1. Name of applicant")
    sheet.box("applicantFull", (150, 58, 290, 74), tip="1. Name of applicant.")
    sheet.text(40, 112, "3. Social Security number issued earlier")
    _number_boxes(sheet, 100, ("earlyA", "earlyB", "earlyC"),
                  ("3. Social Security number issued earlier to the applicant. "
                   "SSN: first three digits.", "SSN: middle two digits",
                   "SSN: last four digits"))
    sheet.text(40, 152, "4b. Guardian (SSN if known)")
    _number_boxes(sheet, 140, ("Text21", "Text22", "Text23"),
                  ("4b. Social security number of the guardian, if known. First three "
                   "digits.", "Guardian's SSN, middle two", "Guardian's SSN, last four"))
    sheet.text(40, 192, "8. Daytime telephone")
    sheet.box("dayArea", (300, 180, 340, 196), tip="8. Daytime telephone. Area code")
    sheet.box("dayPhoneNumber", (345, 180, 460, 196), tip="Number")
    got = _roles(sheet.done())
    for name in ("earlyA", "earlyB", "earlyC", "Text21", "Text22", "Text23"):
        assert got[name][0] != "phone", (name, got[name])
    assert got["dayArea"][:3] == ("phone", None, "area")
    assert got["dayPhoneNumber"][0] == "phone"


def test_identifier_boxes_named_only_by_the_page_label_are_never_a_phone() -> None:
    sheet = Sheet()
    sheet.text(40, 112, "4. Taxpayer identification number of the owner")
    _number_boxes(sheet, 100, ("ownerTinA", "ownerTinB", "ownerTinC"),
                  ("First three digits.", "Middle two digits.", "Last four digits."))
    sheet.text(40, 152, "5. Account number (first three)")
    sheet.box("acctFirst", (170, 140, 230, 156), tip="First three")
    sheet.text(40, 192, "6. Home phone")
    sheet.box("homePhone", (300, 180, 460, 196), tip="6. Home phone")
    got = _roles(sheet.done())
    for name in ("ownerTinA", "ownerTinB", "ownerTinC", "acctFirst"):
        assert got[name][0] != "phone", (name, got[name])
    assert got["homePhone"][0] == "phone"


def test_a_label_naming_an_identifier_has_no_phone_meaning() -> None:
    assert meaning_of("SSN, first three digits") is None
    assert meaning_of("Employer identification number, last four") is None
    assert meaning_of("Telephone, last four") == ("phone", "line")


def test_another_persons_former_name_belongs_to_that_person_tooltips() -> None:
    sheet = Sheet()
    rows = (("Your legal name", "ownName"), ("Mother's maiden name (full)", "mothersMaiden"),
            ("Father's legal name", "fathersName"), ("Your maiden name", "ownMaiden"))
    for n, (label, name) in enumerate(rows):
        y = 60 + 40 * n
        sheet.text(40, y + 12, label)
        sheet.box(name, (250, y, 500, y + 16), tip=label)
    got = _roles(sheet.done())
    assert got["mothersMaiden"][:2] == ("full_name", "family")
    assert got["fathersName"][:2] == ("full_name", "family")
    assert got["ownMaiden"][3] == "not_current"  # the subject's own former name
    assert got["ownName"][0] == "full_name"


def test_another_persons_former_name_belongs_to_that_person_page_labels() -> None:
    sheet = Sheet()
    sheet.text(40, 40, "Enrollment record", size=12, bold=True)
    rows = (("Name of student", "Text1"), ("Spouse's previous last name", "Text2"),
            ("Guardian's former address", "Text3"), ("Previous address", "Text4"))
    for n, (label, name) in enumerate(rows):
        y = 60 + 40 * n
        sheet.text(40, y + 12, label)
        sheet.box(name, (170, y, 500, y + 16))
    got = _roles(sheet.done())
    assert got["Text2"][:2] == ("full_name", "family")
    assert got["Text3"][:2] == ("address", "family")
    assert got["Text4"][3] == "not_current"
    assert got["Text1"][0] == "full_name"


def test_a_subject_label_under_a_referral_heading_takes_the_lines_below(
        run_bundle: RunHelper) -> None:
    """A letter under a referral heading ("... - REFERRAL OF A NEW PATIENT", "From: Dr. ...") with
    an explicit "Patient:" / "Client:" line: the birth date, phone and address under it are
    the subject's, the responsible person's below stay that person's."""
    for text in (
            "HARROWGATE FAMILY MEDICINE - REFERRAL OF A NEW PATIENT\n"
            "From: Dr. Osric Pellham, 12 Quarry Lane, Exeter, NH 03833, (603) 555-0111\n"
            "Patient: Wendeline T. Ossory\nDate of birth: 05/21/1987\n"
            "Address: 88 Millbrook Road, Stratham, NH 03885\nCell phone: (603) 555-0142\n"
            "Responsible party: Caspar Ossory (father)\n"
            "Address: 4 Tidewater Court, Rye, NH 03870   Phone: (603) 555-0177\n",
            "BRINDLE COUNSELLING SERVICES - REFERRAL\n"
            "Referred by: Dr. Osric Pellham, (603) 555-0111\n"
            "Client: Wendeline T. Ossory\nDate of birth: 05/21/1987\n"
            "Address: 88 Millbrook Road, Stratham, NH 03885\nCell phone: (603) 555-0142\n"):
        folder = run_bundle(docs=[UploadedFile("referral.pdf", text_pdf_bytes(text))])
        fields = folder.read_artifact("final").fields
        got = {k: (fields[k].status, fields[k].normalized_value)
               for k in ("full_name", "dob", "address")}
        assert got == {"full_name": ("filled", "Wendeline T. Ossory"),
                       "dob": ("filled", "1987-05-21"),
                       "address": ("filled", "88 Millbrook Road, Stratham, NH 03885")}, text
        assert fields["phone"].normalized_value in (None, "+16035550142"), text
