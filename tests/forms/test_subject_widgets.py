"""Issue #25: the subject's own widgets on real government-style forms (all invented here).

Families seen on real fillable forms measured outside the project, each redrawn on small
invented forms in two variants:

* the subject's name, address and phone boxes on a page that also asks the parents' names:
  a box whose own label names no other person is the subject's; the boxes of a parent's row
  ("Mother's name [First] [Middle] [Last]") are that parent's; a birthplace's town box is
  no address, an "Earlier name, if not the same" row takes nothing;
* a letterhead naming an agency above the form's prose is the issuer, no block: the record's
  name and birth date boxes under it are not the agency's;
* "Client's Town/City", "State", "ZIP" boxes take the parts of a US address;
* a ten-digit US number printed without +1 is written on a US form (area code and number
  boxes, or one phone box), kept for review where the form is not American or the box is
  too short for the number as printed; a wide "Phone 1:" box before its checkboxes takes the
  whole number; three alike "Telephone #" boxes naming no one take nothing;
* boxes the form keeps for its staff ("Staff use only", "For official use") are never
  written;
* "Town or post office" names no organisation.
"""

from __future__ import annotations

from repro_assets.forms.acroform import classify, read_widgets
from repro_assets.forms.fill import read_back
from repro_assets.forms.parties import party_of
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes
from repro_assets.forms.widget_meaning import postal_part

from .conftest import RunHelper
from .standin_targets import Sheet

#: An invented worksheet: no +1 on the phones, a helper with a phone and address of her own.
WORKSHEET = """NORTHGATE NEIGHBOURHOOD DESK - APPLICATION WORKSHEET
Helper: Ysabel Fairweather, 77 Larch Row, Duluth, MN 55802, (218) 555-0144
Applicant: Corentin Hale Ashgrove
Date of birth: 07/23/1986
Mailing address: 5120 Thistle Bend, Apt 9, Fargo, ND 58103
Daytime phone: (701) 555-0168
Mother's name: Odile Vance Marrow
Father's name: Piers Alden Ashgrove
"""
SUBJECT = {"first": "Corentin", "middle": "Hale", "last": "Ashgrove",
           "street": "5120 Thistle Bend, Apt 9", "city": "Fargo", "state": "ND",
           "zip": "58103", "area": "701", "local": "555-0168", "phone": "(701) 555-0168",
           "dob": "07/23/1986", "name": "Corentin Hale Ashgrove"}


def _run(run_bundle: RunHelper, pdf: bytes, source: str = WORKSHEET) -> tuple[dict, dict]:
    folder = run_bundle(docs=[UploadedFile("worksheet.pdf", text_pdf_bytes(source))],
                        targets=[UploadedFile("form.pdf", pdf)])
    skipped = {s.widget: s.reason for s in folder.read_artifact("review").skipped}
    return read_back(folder.read_binary("filled.pdf")), skipped


def _name_row(sheet: Sheet, y: float, label: str, prefix: str, tips: bool) -> None:
    """A row: the label left, then First / Middle / Last boxes captioned above."""
    sheet.text(40, y + 10, label, size=9, bold=True)
    for x0, part in ((200, "First"), (320, "Middle"), (440, "Last")):
        sheet.text(x0, y - 2, part, size=6)
        sheet.box(f"{prefix}{part.lower()}", (x0, y, x0 + 110, y + 14),
                  tip=f"{label}. {part}" if tips else None)


def _card_application(tips: bool, parents_first: bool) -> bytes:
    """An application about one person: the name, the parents' names (before or after the
    birth place), the mailing address (street, then city / state / ZIP) and a phone in area
    code and number boxes."""
    sheet = Sheet()
    sheet.text(40, 36, "Application for a Resident Card", size=13, bold=True)
    _name_row(sheet, 60, "1 NAME AS IT SHOULD READ", "own", tips)
    _name_row(sheet, 90, "EARLIER NAME IF NOT THE SAME", "diff", tips)
    rows = [("parents", 130), ("birth", 200)] if parents_first else \
        [("birth", 130), ("parents", 160)]
    for what, y in rows:
        if what == "parents":
            _name_row(sheet, y, "3 MOTHER'S NAME", "mothers", tips)
            _name_row(sheet, y + 30, "4 FATHER'S NAME", "fathers", tips)
        else:
            sheet.text(40, y + 10, "2 WHERE BORN", size=9, bold=True)
            sheet.text(200, y - 2, "Town", size=6)
            sheet.box("borntown", (200, y, 320, y + 14))
    sheet.text(40, 270, "5 HOME ADDRESS", size=9, bold=True)
    sheet.text(200, 258, "Number and street", size=6)
    sheet.box("home_street", (200, 260, 560, 274))
    for x0, x1, caption, name in ((200, 330, "City", "home_city"),
                                  (340, 420, "State", "home_st"),
                                  (430, 520, "ZIP Code", "home_zip")):
        sheet.text(x0, 286, caption, size=6)
        sheet.box(name, (x0, 288, x1, 302))
    sheet.text(40, 330, "6 PHONE DURING THE DAY", size=9, bold=True)
    sheet.box("day_phone_area", (200, 320, 240, 334), tip="Phone during the day. Area code" if tips
              else None)
    sheet.box("day_phone_number", (240, 320, 360, 334), tip="Number" if tips else None)
    sheet.text(200, 344, "Area Code", size=6)
    sheet.text(250, 344, "Number", size=6)
    return sheet.done()


def test_the_subjects_own_boxes_are_written_beside_the_parents_rows(
        run_bundle: RunHelper) -> None:
    for tips in (False, True):
        for parents_first in (True, False):
            written, skipped = _run(run_bundle, _card_application(tips, parents_first))
            want = {"ownfirst": SUBJECT["first"], "ownmiddle": SUBJECT["middle"],
                    "ownlast": SUBJECT["last"], "home_street": SUBJECT["street"],
                    "home_city": SUBJECT["city"], "home_st": SUBJECT["state"],
                    "home_zip": SUBJECT["zip"], "day_phone_area": SUBJECT["area"],
                    "day_phone_number": SUBJECT["local"]}
            assert written == want, (tips, parents_first)
            # the parents' rows, the birth town and the "if not the same" row: empty
            for parent in ("mothers", "fathers"):
                for part in ("middle", "last"):
                    assert skipped[f"{parent}{part}"] == "other_party:family"
            assert skipped["borntown"] in ("place_of_birth", "no_v1_field")


def _record_request(agency: str) -> bytes:
    """An agency's letterhead and a paragraph of its prose, a record's block, then the
    applicant's block with the address split over city / state / ZIP boxes."""
    sheet = Sheet()
    sheet.text(40, 36, agency, size=10, bold=True)
    sheet.text(40, 60, "Requests are answered in the order they arrive and every request "
               "must carry a signature and the fee described on the back of this page.",
               size=7)
    rows = [("NAME AS RECORDED", "RECORD NAME", 90),
            ("DATE OF BIRTH", "RECORD DOB", 110),
            ("BIRTHPLACE (TOWN, COUNTY)", "BIRTHPLACE TOWN COUNTY", 130),
            ("CLIENT'S NAME", "CLIENT NAME", 170),
            ("CLIENT'S STREET ADDRESS", "CLIENT STREET", 190)]
    for label, name, y in rows:
        sheet.text(40, y + 10, label, size=8)
        sheet.box(name, (240, y, 560, y + 14))
    sheet.text(40, 220, "CLIENT'S TOWN/CITY", size=8)
    sheet.box("CLIENT TOWN", (160, 210, 300, 224))
    sheet.text(310, 220, "STATE", size=8)
    sheet.box("STATE", (340, 210, 400, 224))
    sheet.text(410, 220, "ZIP", size=8)
    sheet.box("ZIP", (430, 210, 520, 224))
    return sheet.done()


def test_an_agencys_letterhead_over_its_prose_heads_no_block(run_bundle: RunHelper) -> None:
    for agency in ("PROVINCIAL REGISTRY SERVICES AGENCY",
                   "LAKE COUNTY RECORDS OFFICE - ARCHIVE SERVICES"):
        pdf = _record_request(agency)
        parties = {w.name: classify(w).party for w in read_widgets(pdf)}
        assert parties["RECORD NAME"] is None and parties["RECORD DOB"] is None
        written, _ = _run(run_bundle, pdf)
        assert written == {"RECORD NAME": SUBJECT["name"], "RECORD DOB": SUBJECT["dob"],
                           "CLIENT NAME": SUBJECT["name"],
                           "CLIENT STREET": SUBJECT["street"],
                           "CLIENT TOWN": SUBJECT["city"], "STATE": SUBJECT["state"],
                           "ZIP": SUBJECT["zip"]}, agency


def test_a_subject_roles_city_box_is_the_city() -> None:
    assert postal_part("CLIENT’S TOWN/CITY") == "city"
    assert postal_part("Applicant's ZIP code") == "zip"
    assert postal_part("State or country") == "state"
    assert postal_part("Physician's city") is None
    assert party_of("Town or post office") is None
    assert party_of("Post office box of the clinic") == "organization"


def _phone_form(split: bool, zip_box: bool, maxlen: int = 0, address: bool = False) -> bytes:
    sheet = Sheet()
    sheet.text(40, 36, "Household Contact Sheet", size=13, bold=True)
    sheet.text(40, 70, "Your name")
    sheet.box("yourname", (160, 60, 460, 74))
    if address:
        sheet.text(40, 142, "Home address (street, city, state, zip)")
        sheet.box("home", (200, 132, 560, 146))
    if split:
        sheet.text(40, 94, "Daytime phone")
        sheet.box("area", (160, 84, 190, 98), tip="Area code")
        sheet.box("number", (190, 84, 300, 98), tip="Number")
    else:
        sheet.text(40, 94, "Phone number")
        sheet.box("phone", (160, 84, 300, 98), maxlen=maxlen)
    if zip_box:
        sheet.text(40, 118, "ZIP code")
        sheet.box("zip", (160, 108, 240, 122))
    return sheet.done()


_NO_COUNTRY = "Client: Corentin Hale Ashgrove\nPhone: (701) 555-0168\n"


def test_a_us_number_without_country_code_is_written_on_a_us_form(
        run_bundle: RunHelper) -> None:
    written, _ = _run(run_bundle, _phone_form(split=True, zip_box=True), _NO_COUNTRY)
    assert written == {"yourname": SUBJECT["name"], "area": "701", "number": "555-0168"}
    # one phone box, the form American by the subject's address (no ZIP box)
    written, _ = _run(run_bundle, _phone_form(split=False, zip_box=False, address=True),
                      WORKSHEET)
    assert written == {"yourname": SUBJECT["name"], "phone": SUBJECT["phone"],
                       "home": "5120 Thistle Bend, Apt 9, Fargo, ND 58103"}


def test_a_number_without_country_code_stays_for_review_when_unsure(
        run_bundle: RunHelper) -> None:
    # nothing American on the form or in the address: the +1 stays an assumption
    written, _ = _run(run_bundle, _phone_form(split=False, zip_box=False), _NO_COUNTRY)
    assert written == {"yourname": SUBJECT["name"]}
    # a box of ten characters would take bare digits: left for review
    written, _ = _run(run_bundle, _phone_form(split=False, zip_box=True, maxlen=10),
                      _NO_COUNTRY)
    assert written == {"yourname": SUBJECT["name"]}


def _phones_with_kinds(tips: bool) -> bytes:
    """'Phone 1: [wide box] [ ] Cell [ ] Home' twice: each box takes a whole number."""
    sheet = Sheet()
    sheet.text(40, 36, "Part A - The person asking", size=12, bold=True)
    sheet.text(40, 70, "Your name:")
    sheet.box("FULLNAME", (200, 60, 460, 74))
    for n, y in ((1, 90), (2, 114)):
        sheet.text(40, y + 10, f"Tel. {n}:")
        sheet.box(f"PHONE_{n}", (80, y, 220, y + 14), tip=f"Telephone {n}" if tips else None)
        for x, kind in ((235, "Cell"), (290, "Home")):
            sheet.box(f"KIND_{n}_{kind}", (x, y + 3, x + 9, y + 12), kind="checkbox")
            sheet.text(x + 12, y + 10, kind)
    return sheet.done()


def test_a_wide_phone_box_before_its_checkboxes_takes_the_whole_number(
        run_bundle: RunHelper) -> None:
    for tips in (False, True):
        pdf = _phones_with_kinds(tips)
        assert {w.name: classify(w).part for w in read_widgets(pdf)}["PHONE_1"] is None
        written, _ = _run(run_bundle, pdf)
        assert written.get("PHONE_1") in (None, SUBJECT["phone"]), tips
        assert "PHONE_2" not in written or written["PHONE_2"] == SUBJECT["phone"]


def _return_page(tips: bool) -> bytes:
    """The filer's, a helper's and a firm's "Telephone #" boxes: none names whose."""
    sheet = Sheet()
    sheet.text(40, 36, "Closing page", size=12, bold=True)
    for name, y, before in (("p1", 70, "Person allowed to speak for you"),
                            ("p2", 110, "Your signature and trade"),
                            ("p3", 150, "Company location")):
        sheet.text(40, y + 10, before)
        sheet.text(320, y + 10, "Telephone #")
        sheet.box(name, (380, y, 560, y + 14), tip="Telephone #" if tips else None)
    return sheet.done()


def test_alike_phone_boxes_naming_no_one_take_nothing(run_bundle: RunHelper) -> None:
    for tips in (False, True):
        written, skipped = _run(run_bundle, _return_page(tips))
        assert written == {}, tips
        # the firm's box below names its party: the two above are reviewed, no one's
        assert skipped["p2"] in ("party_uncertain:same_label_no_party",
                                 "party_uncertain:another_party_has_this_field")


def _office_box(tips: bool) -> bytes:
    sheet = Sheet()
    sheet.text(40, 36, "Sign-up Slip", size=12, bold=True)
    sheet.text(40, 70, "Name")
    sheet.box("name", (120, 60, 400, 74))
    if tips:
        sheet.box("dob2", (120, 90, 260, 104), tip="For official use. Date of birth checked")
    else:
        sheet.text(40, 100, "STAFF USE ONLY - Date of birth")
        sheet.box("dob2", (200, 90, 320, 104))
    return sheet.done()


def test_office_use_boxes_are_never_written(run_bundle: RunHelper) -> None:
    for tips in (False, True):
        written, skipped = _run(run_bundle, _office_box(tips))
        assert "dob2" not in written, tips
        assert skipped["dob2"] == "office_use_only"
        assert written == {"name": SUBJECT["name"]}


def _unnamed_rows(words_label: str, child_row: bool = False) -> bytes:
    """A split name whose row label names no "name" ("AS IT SHOULD READ ON THE CARD"), with
    First / Middle / Last captions over the boxes, an earlier name's row and a child's row
    under it."""
    sheet = Sheet()
    sheet.text(40, 36, "Request for a Library Card", size=12, bold=True)
    for x0, part in ((200, "First"), (320, "Middle"), (440, "Last")):
        sheet.text(x0, 58, part, size=6)
    rows = [("own", words_label, 60), ("old", "IF NOT THE SAME AS ABOVE", 84)]
    for prefix, label, y in rows + ([("kid", "CHILD IN YOUR CARE", 108)] if child_row else []):
        sheet.text(40, y + 10, label, size=8)
        for x0, part in ((200, "first"), (320, "middle"), (440, "last")):
            sheet.box(f"{prefix}_{part}_name", (x0, y, x0 + 110, y + 14))
    return sheet.done()


def test_a_row_of_words_under_name_part_captions_is_no_table(run_bundle: RunHelper) -> None:
    for label in ("AS IT SHOULD READ ON THE CARD", "1 PRINT IT AS YOU SIGN"):
        written, skipped = _run(run_bundle, _unnamed_rows(label))
        assert written == {"own_first_name": SUBJECT["first"],
                           "own_middle_name": SUBJECT["middle"],
                           "own_last_name": SUBJECT["last"]}, label
        assert "old_last_name" in skipped  # a lower row naming no one: not written
    # a lower row under the captions naming a subject role may be one of several people
    # listed: its name part boxes stay a table's column
    problems = {w.name: classify(w).problem for w in read_widgets(_unnamed_rows(
        "AS IT SHOULD READ ON THE CARD", child_row=True))}
    assert problems["kid_middle_name"] == problems["kid_last_name"] == "table_column"
    assert problems["own_last_name"] is None


def _address_lines(second_phone: str) -> bytes:
    """'Home address: [____]' over an unlabelled second line, 'Mailing address, if
    different', then 'Phone 1:' over another numbered phone box; a 'State:' box two pages
    later asks about something else."""
    sheet = Sheet(pages=2)
    sheet.text(40, 36, "Benefit Request", size=12, bold=True)
    sheet.text(40, 70, "Your name:")
    sheet.box("NAME", (200, 60, 460, 74))
    sheet.text(40, 94, "Home address (street, city, state, zip):")
    sheet.box("ResAddress1", (220, 84, 560, 98))
    sheet.box("ResAddress2", (40, 108, 420, 122))
    sheet.text(40, 142, "Mailing address, if different:")
    sheet.box("MAIL_1", (200, 132, 560, 146))
    sheet.text(40, 166, "Phone 1:")
    sheet.box("TEL_1", (80, 156, 220, 170))
    sheet.text(40, 190, second_phone)
    sheet.box("TEL_2", (80, 180, 220, 194))
    sheet.text(40, 80, "Where did you work last year? State:", page=2)
    sheet.box("JOB_STATE", (220, 70, 300, 84), page=2)
    return sheet.done()


def test_an_address_second_line_and_a_numbered_second_phone_stay_empty(
        run_bundle: RunHelper) -> None:
    for second in ("Phone 2:", "Phone 3:"):
        written, skipped = _run(run_bundle, _address_lines(second))
        assert written == {"NAME": SUBJECT["name"],
                           "ResAddress1": "5120 Thistle Bend, Apt 9, Fargo, ND 58103",
                           "TEL_1": SUBJECT["phone"]}, second
        assert skipped["ResAddress2"] == "continuation_line"
        assert skipped["TEL_2"] == "other_phone_widget"


_JOINT_SHEET = """FAMILY BUDGET NOTES (joint filing)
Taxpayer: Corentin Hale Ashgrove   Phone: (701) 555-0168
Spouse: Maelle Ashgrove   Phone: (701) 555-0127
"""


def _return_header(their: str) -> bytes:
    """'Your first name and middle initial' and 'Last name' side by side, the spouse's pair
    under them, and a filing-status box asking another person's name."""
    sheet = Sheet()
    sheet.text(40, 36, "Yearly Household Return", size=12, bold=True)
    sheet.text(40, 57, "Your first name and middle initial", size=7)
    sheet.box("g1", (40, 60, 250, 74))
    sheet.text(260, 57, "Last name", size=7)
    sheet.box("g2", (260, 60, 470, 74))
    sheet.text(40, 87, "If joint, spouse's first name and middle initial", size=7)
    sheet.box("g3", (40, 90, 250, 104))
    sheet.text(260, 87, "Spouse's last name", size=7)
    sheet.box("g4", (260, 90, 470, 104))
    sheet.text(40, 180, f"If you checked the box above, enter {their}:")
    sheet.box("g5", (300, 170, 560, 184))
    return sheet.done()


def test_a_role_labelled_name_is_read_on_a_page_naming_no_name(run_bundle: RunHelper) -> None:
    """'Taxpayer: <name>' on a sheet whose text has no word "name" (the page was skipped)."""
    for their in ("their name", "his name"):
        written, skipped = _run(run_bundle, _return_header(their), _JOINT_SHEET)
        # the given names in the box asking for them, the last name beside; the spouse's
        # boxes and the box asking another person's name stay empty
        assert written == {"g1": "Corentin H.", "g2": "Ashgrove"}, their
        assert skipped["g5"] == "not_the_persons_name:third_person"


def _fenced_birth_date(fenced: bool) -> bytes:
    """A birth date box right of a small office-only cell whose words print interleaved with
    the box's own label; the tooltip fences the office cell off (screen-reader markers) or
    there is no tooltip."""
    sheet = Sheet()
    sheet.text(40, 36, "Card Request", size=12, bold=True)
    sheet.text(40, 70, "Your full name")
    sheet.box("yourname", (160, 60, 460, 74))
    for y, staff, own in ((98, "Office", "DATE"), (106, "Use", "OF"), (114, "Only", "BIRTH")):
        sheet.text(300, y, staff, size=6)
        sheet.text(350, y, own, size=8, bold=True)
    sheet.text(338, 106, "4", size=10, bold=True)
    sheet.rule((296, 90, 334, 118))
    tip = ("begin office use only section. K Q. end office use only section. 4. Date of birth "
           "(MM/DD/YYYY)") if fenced else None
    sheet.box("DateField1", (400, 92, 560, 114), tip=tip)
    return sheet.done()


def test_a_fenced_office_cell_beside_a_box_is_not_the_box(run_bundle: RunHelper) -> None:
    written, _ = _run(run_bundle, _fenced_birth_date(True))
    assert written == {"yourname": SUBJECT["name"], "DateField1": SUBJECT["dob"]}
    written, _ = _run(run_bundle, _fenced_birth_date(False))  # nothing says where it ends
    assert "DateField1" not in written
