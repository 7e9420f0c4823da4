"""Issue #25: no wrong value on invented filled and blank documents of real layouts.

The stand-ins of :mod:`tests.forms.standin_filled` are scored by the corpus eval's own scorer.
First set, measured before the fixes below: 23 filled right, 1 filled wrong (a medication
table read cell by cell: row numbers, doses and directions as items), 10 review right, 1 review
wrong (a work phone offered instead of the home phone beside it), 9 missed. Second set and
more blank forms, written after those fixes: 0 filled wrong, 2 review wrong (a footer strip's
"<lab>, <street>, <city> <ST> <zip>, Tel ..." number; a date after "For example: ... DOB:" on
a blank form). Third set: 1 filled wrong ("Allergies: nil known" as an allergy), 3 review
wrong (a cell phone named instead of the home phone printed before it, because candidates.json
was sorted by the winner's contradiction penalty and read back; a title line's "Tel"; then an
organisation's name under a "Client:" label, which the old order had hidden). Fourth set,
untuned: 0 filled wrong, 1 review wrong (kept, see ``KNOWN_REVIEW_WRONG``). Fifth set (blank
forms), untuned: 2 filled wrong and 3 review wrong from a "SAMPLE COMPLETED FORM" block, 1
review wrong from a "CONTACT US" block: 0 after their fix. Sixth set, untuned: 1 filled wrong
(a lab footer "<lab>, <street>, <city> <PIN>. Ph: +91 ..." as the patient's phone: fixed), 1
review wrong (kept, see ``KNOWN_REVIEW_WRONG``); "Name : <name>   Age : 45" ran into the next
label (fixed). Seventh set, written last and measured before any change (the transfer check):
6 filled right, 1 filled wrong ("Patient's Name and Address: <name>, <street> ..." filled the
name into the address), 3 review right, 1 review wrong (a referrer's phone on the wrapped line
of his sentence), 4 missed; both fixed after. Recall fixes after
that (a birth date after "Date of Service: <date>", a letter's "RE:" line, a birth date in a
"HOSPITAL COURSE" paragraph, "will continue <drug> <strength> ...") are reviewed or filled only
where the text binds them. Eighth set (a receipt, an EOB, an immunization record, a fax
cover, a face sheet, a responsible party's block first, discharge medication changes, a portal
message), measured before any change: 10 filled right, 0 filled wrong, 2 review right, 1 review
wrong (the "Address:" line under "Responsible party: <name>  Phone: ..." offered as the
patient's: now that party's), 8 missed. Unit tests pin each fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repro_assets.forms.cell_tables import read_cell_table
from repro_assets.forms.evaluation import CaseScore, evaluate
from repro_assets.forms.heuristics import scan_field
from repro_assets.forms.label_rows import row_pairs
from repro_assets.forms.models import LayoutDoc, LayoutPageText
from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes

from .conftest import TODAY, RunHelper
from .standin_filled import all_docs, write_cases

DOCS = all_docs()


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CaseScore]:
    root = write_cases(Path(tmp_path_factory.mktemp("standin_filled")), DOCS)
    return {s.case: s for s in evaluate(root, today=TODAY)}


#: Reviewed values known to be another's, with why (still never filled).
KNOWN_REVIEW_WRONG = {
    # ("unlabelled_lab_patient": "PATIENT" and "PHYSICIAN" blocks side by side gave their
    # lines interleaved and the physician's number for review; each column is now read on
    # its own, see repro_assets.forms.columns)
    # "Client:" (a subject word) over a clinic's name, street and "Phone:": the clinic's
    # number is offered unbound, for review
    "lab_client_block": "phone",
}


@pytest.mark.parametrize("name", [d.name for d in DOCS])
def test_no_value_is_wrong(scores: dict[str, CaseScore], name: str) -> None:
    """No filled value differs from what a careful reader gets; neither does a reviewed one
    (but the documented cases above)."""
    score = scores[name]
    filled = [(f.field, f.value) for f in score.fields if f.outcome == "filled_wrong"]
    reviewed = {f.field for f in score.fields if f.outcome == "review_wrong"}
    known = {KNOWN_REVIEW_WRONG[name]} if name in KNOWN_REVIEW_WRONG else set()
    assert not score.error and filled == [] and reviewed == known


def outcomes(score: CaseScore) -> dict[str, str]:
    return {f.field: f.outcome for f in score.fields}


def test_a_medication_table_is_read_by_rows(scores: dict[str, CaseScore]) -> None:
    assert outcomes(scores["medication_table"])["medications"] == "filled_right"


def test_the_home_phone_wins_over_a_work_phone(scores: dict[str, CaseScore]) -> None:
    assert outcomes(scores["two_column_sheet"])["phone"] in ("filled_right", "review_right")


def test_blank_stand_ins_give_no_value(scores: dict[str, CaseScore]) -> None:
    for name in (d.name for d in DOCS if d.name.startswith("blank_")):
        assert {f.outcome for f in scores[name].fields} == {"missing_right"}, name


TABLE = ["Patient: Ana Pell", "#", "Medication", "Strength", "Directions",
         "1", "Losartan", "50 mg", "daily", "2", "Carvedilol", "6.25 mg", "every 12 hours"]


def test_cells_under_a_numbered_header_are_cut_into_rows() -> None:
    table = read_cell_table(TABLE, 2)
    assert table is not None and table.items == ["Losartan 50 mg", "Carvedilol 6.25 mg"]
    assert (table.first, table.last) == (1, 12)


def test_a_strength_column_checks_rows_without_numbers() -> None:
    lines = ["Drug", "Dose", "Sig", "Amlodipine", "5 mg", "daily", "Cetirizine", "10 mg", "qhs"]
    table = read_cell_table(lines, 0)
    assert table is not None and table.items == ["Amlodipine 5 mg", "Cetirizine 10 mg"]


def test_an_empty_cell_leaves_the_table_unread() -> None:
    lines = ["No.", "Drug", "Dose", "Sig", "1", "Amlodipine", "5 mg", "daily",
             "2", "Vitamin D3", "weekly", "3", "Cetirizine", "10 mg", "qhs"]
    table = read_cell_table(lines, 1)
    assert table is not None and table.items == []


@pytest.mark.parametrize("lines", [
    ["Medications", "Aspirin", "Tylenol"],  # a plain list: no other column heading
    ["Medications:", "Aspirin 81 mg"],
    ["Medication", "Strength"],  # two headings are no table
])
def test_a_plain_list_is_no_table(lines: list[str]) -> None:
    assert read_cell_table(lines, 0) is None


def phone_hits(text: str) -> list[tuple[str, tuple[str, ...]]]:
    doc = LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])
    return [(h.raw_value, h.rejected) for h in scan_field("phone", [doc], include_rejected=True)]


def test_a_work_phone_beside_the_home_phone_is_rejected() -> None:
    text = ("Patient Name: Ana Pell\nHome Phone: (971) 555-0158\n"
            "Work Phone: (971) 555-0199\n")
    assert phone_hits(text) == [("(971) 555-0158", ()),
                                ("(971) 555-0199", ("not_the_subjects_home:work_phone",))]


def test_a_work_phone_alone_is_kept() -> None:
    """A form's "Business Phone" widget takes it; the phone field may still offer it."""
    text = "Patient Name: Ana Pell\nWork Phone: (971) 555-0199\n"
    assert phone_hits(text) == [("(971) 555-0199", ())]


def test_a_phone_after_an_unlabelled_address_on_its_line_is_the_strips() -> None:
    text = ("Patient Name: Ana Pell\nDOB: 11/19/1973\nDiagnosis: benign.\n"
            "Ashgrove Lab, 18 Canal St, Lowell, MA 01852, Tel (978) 555-0172\n")
    assert phone_hits(text) == [("(978) 555-0172", ("organisation_contact:address_strip",))]


def test_a_labelled_address_then_a_phone_on_one_line_stays_the_subjects() -> None:
    text = "Patient Name: Ana Pell\nAddress: 12 Fir Street, Bend, OR 97701  Phone: (503) 555-0126\n"
    assert phone_hits(text) == [("(503) 555-0126", ())]


@pytest.mark.parametrize("field", ["dob", "phone", "insurance_member_id"])
def test_values_after_an_example_cue_on_their_line_are_examples(field: str) -> None:
    text = ("Insurance form\nFor example: Name: Jane Sample  DOB: 01/02/1980  "
            "Phone: (555) 555-0100  Member ID: ABC12345\nName:\nDOB:\n")
    doc = LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])
    found = scan_field(field, [doc], include_rejected=True)
    assert found and all(h.rejected == ("blank_form:example",) for h in found), found


def test_a_sample_label_before_a_birth_date_is_no_example() -> None:
    text = "Name: Ana Pell\nSample: Serum    DOB: 11/19/1973\n"
    doc = LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])
    assert [(h.raw_value, h.rejected) for h in scan_field("dob", [doc], include_rejected=True)] \
        == [("11/19/1973", ())]


def hits_of(field: str, text: str) -> list[tuple[str, tuple[str, ...]]]:
    doc = LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])
    return [(h.raw_value, h.rejected) for h in scan_field(field, [doc], include_rejected=True)]


def test_two_phones_of_the_subject_keep_the_printed_order_in_review(
        run_bundle: RunHelper) -> None:
    """The first value stays the reviewed one after candidates.json is read back."""
    text = ("Patient Name: Ana Pell\nDate of Birth: 10/10/1970\n"
            "Home Phone: (414) 555-0171    Cell Phone: (414) 555-0172\n")
    folder = run_bundle(docs=[UploadedFile("d.pdf", text_pdf_bytes(text))])
    phone = folder.read_artifact("final").fields["phone"]
    assert (phone.status, phone.normalized_value) == ("needs_review", "+14145550171")


@pytest.mark.parametrize("answer", ["nil known", "None known", "none reported", "NKDA"])
def test_an_answer_of_no_entries_is_no_allergy(answer: str) -> None:
    assert hits_of("allergies", f"Patient: Ana Pell\nAllergies: {answer}\n") == [
        (answer, ("blank_form:no_entries",))]


def test_a_phone_after_a_title_on_its_line_is_the_issuers() -> None:
    text = ("PATIENT PROFILE - BAYSIDE APOTHECARY   Tel (757) 555-0150\n"
            "Name: Ana Pell    Phone: (757) 555-0153\n")
    assert hits_of("phone", text) == [
        ("(757) 555-0150", ("organisation_contact:title_line",)), ("(757) 555-0153", ())]


def test_a_name_in_capitals_before_a_phone_label_is_no_title() -> None:
    assert hits_of("phone", "Patient\nANA PELL   Tel (757) 555-0153\n") == [
        ("(757) 555-0153", ())]


@pytest.mark.parametrize("value", ["Brookmere Family Health", "Copperline Labs",
                                   "Northgate Diagnostics Inc."])
def test_an_organisations_name_under_a_client_label_is_no_name(value: str) -> None:
    text = f"Patient Name: Ana Pell\nDOB: 10/10/1970\nClient: {value}\n"
    assert hits_of("full_name", text) == [("Ana Pell", ()),
                                          (value.rstrip("."), ("not_a_name:organisation",))]


def test_a_birth_date_after_a_date_of_service_on_its_line_is_the_subjects() -> None:
    text = "Patient: Ana Pell\nDate of Service: 01/14/2025    DOB: 09/30/1971\n"
    assert hits_of("dob", text) == [("09/30/1971", ())]


def test_a_birth_date_after_a_physicians_name_on_its_line_is_the_physicians() -> None:
    text = "Patient: Ana Pell\nPhysician: Noor Haddad    DOB: 09/30/1971\n"
    assert hits_of("dob", text) == [("09/30/1971", ("other_party:doctor",))]


@pytest.mark.parametrize(("line", "name"), [
    ("RE: Kwame Ossai-Lind    DOB: 08/23/1990", "Kwame Ossai-Lind"),
    ("Regarding: Kwame Ossai-Lind", "Kwame Ossai-Lind"),
])
def test_a_letters_re_line_names_the_subject(line: str, name: str) -> None:
    text = f"NEUROLOGY ASSOCIATES\nMay 12, 2025\n{line}\nDear Dr. Lund,\n"
    assert hits_of("full_name", text) == [(name, ())]


def test_a_re_line_about_a_topic_is_no_name() -> None:
    text = "NEUROLOGY ASSOCIATES\nRE: results of the scan\nDear Dr. Lund,\n"
    assert hits_of("full_name", text) == []


def flagged(field: str, text: str) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    doc = LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=1, full_text=text)])
    return [(h.raw_value, h.rejected, h.flags)
            for h in scan_field(field, [doc], include_rejected=True)]


def test_a_birth_date_under_an_organisations_heading_is_reviewed() -> None:
    """No organisation is born: the date is a person's, whose is unsure."""
    text = ("Patient: Ana Pell    MRN: 0048\nHOSPITAL COURSE\n"
            "Ms. Pell, born on 11/22/1966, presented with chest pain.\n")
    assert flagged("dob", text) == [("11/22/1966", (), ("party_unbound",))]


DISCHARGE = ("Patient: Ana Pell\nHOSPITAL COURSE\nTroponins were negative.\n"
             "DISCHARGE PLAN\nShe will continue {items} daily.\n")


def test_drugs_with_strengths_after_continue_are_a_list_for_review() -> None:
    text = DISCHARGE.format(items="atorvastatin 40 mg and aspirin 81 mg")
    assert flagged("medications", text) == [
        ("atorvastatin 40 mg\naspirin 81 mg", (), ("list_from_prose",))]


@pytest.mark.parametrize("sentence", [
    "She will continue walking and swimming daily.",
    "Please continue on the next page and sign below.",
])
def test_continue_without_strengths_is_no_list(sentence: str) -> None:
    text = "Patient: Ana Pell\n" + sentence + "\n"
    assert flagged("medications", text) == []


ROWS = ["MERIDIAN LAB", "PATIENT NAME", "DATE OF BIRTH", "PATIENT PHONE",
        "PELL, ANA R.", "07/07/1962", "(775) 555-0184",
        "REFERRING PHYSICIAN", "PHYSICIAN PHONE", "HAL VOSS, MD", "(775) 555-0190"]


def test_a_label_row_over_a_value_row_is_paired_by_position() -> None:
    assert [(p.label, p.value) for p in row_pairs(ROWS)] == [
        (1, 4), (2, 5), (3, 6), (7, 9), (8, 10)]


def test_the_paired_values_keep_their_rows_party() -> None:
    text = "\n".join(ROWS) + "\n"
    assert flagged("dob", text) == [("07/07/1962", (), ())]
    assert [(raw, rejected) for raw, rejected, _ in flagged("phone", text)] == [
        ("(775) 555-0184", ()), ("(775) 555-0190", ("other_party:doctor",))]


@pytest.mark.parametrize("lines", [
    ["PATIENT NAME", "DATE OF BIRTH", "PHONE", "ADDRESS"],  # a blank form's labels
    ["DATE OF BIRTH", "PATIENT PHONE", "Ana Pell", "07/07/1962"],  # values of other kinds
    ["PATIENT NAME", "DATE OF BIRTH", "Ana Pell"],  # fewer values than labels
])
def test_rows_that_do_not_check_out_give_no_pairs(lines: list[str]) -> None:
    assert row_pairs(lines) == []


SAMPLE_BLOCK = ("SAMPLE COMPLETED FORM\nPatient Name: Jane Sample\nDate of Birth: 01/02/1980\n"
                "Phone: (555) 555-0123\nYOUR INFORMATION\nPatient Name: ________\n")


@pytest.mark.parametrize("field", ["full_name", "dob", "phone"])
def test_values_under_an_example_heading_are_examples(field: str) -> None:
    found = flagged(field, SAMPLE_BLOCK)
    assert found and all(rejected for _, rejected, _ in found), found


def test_a_lab_sample_heading_is_no_example_block() -> None:
    text = ("SAMPLE INFORMATION\nType: Serum\nPATIENT\nPatient Name: Ana Pell\n"
            "Date of Birth: 07/07/1962\n")
    assert flagged("full_name", text) == [("Ana Pell", (), ())]


def test_a_contact_us_block_is_the_issuers() -> None:
    text = ("Child's Name: ________\nCONTACT US\nTidewater Kids Clinic, 12 Harbor Walk\n"
            "Phone: (757) 555-0131\n")
    found = flagged("phone", text)
    assert found and all(rejected for _, rejected, _ in found), found


def test_a_footer_strip_with_a_foreign_postal_code_is_no_subject_phone() -> None:
    text = ("Name: Ana Pell\nLIPID PROFILE\n"
            "Sunrise Labs, 14 MG Road, Pune 411001. Ph: +91-20-5550-1234\n")
    assert hits_of("phone", text) == [
        ("+91-20-5550-1234", ("organisation_contact:address_strip",))]


def test_a_label_with_a_space_before_its_colon_ends_the_value_before_it() -> None:
    text = "PATHLABS\nName : Mr. Devendra Kulkarni        Age : 45 Yrs        Sex : M\n"
    assert [raw for raw, _ in hits_of("full_name", text)] == ["Devendra Kulkarni"]


NAME_AND_ADDRESS = ("PLAN OF CARE\nPatient's Name and Address: Leo Strand, 6 Birch Hollow, "
                    "Keene, NH 03431\nDate of Birth: 11/11/1936\n")


def test_a_name_and_address_label_gives_each_its_part() -> None:
    assert hits_of("address", NAME_AND_ADDRESS) == [("6 Birch Hollow, Keene, NH 03431", ())]
    assert hits_of("full_name", NAME_AND_ADDRESS) == [("Leo Strand", ())]


def test_a_name_and_address_value_that_does_not_split_is_no_address() -> None:
    text = "Name and Address: Leo Strand of Keene\n"
    assert hits_of("address", text) == [("Leo Strand of Keene", ("label_asks_two_fields",))]


def test_a_phone_on_the_wrapped_line_of_a_referrers_sentence_is_his() -> None:
    text = ("Patient: Ana Pell\nReferring physician: Dr. Elias Varga, 40 Quarry Street,\n"
            "phone (802) 555-0163\n")
    assert hits_of("phone", text) == [("(802) 555-0163", ("other_party:doctor",))]


def test_a_name_heading_its_birth_date_line_is_offered_for_review() -> None:
    text = "AFTER VISIT SUMMARY\nIgor Pemberly-Hale    DOB: 1/9/1944    MRN: 7730041\n"
    assert flagged("full_name", text) == [("Igor Pemberly-Hale", (), ("party_unbound",))]


@pytest.mark.parametrize("line", ["Hal Voss, MD    DOB: 1/9/1944",
                                  "Emergency Contact    DOB: 1/9/1944",
                                  "Brookmere Family Health    DOB: 1/9/1944"])
def test_no_clinician_role_or_organisation_heads_a_birth_date_as_a_name(line: str) -> None:
    assert flagged("full_name", f"SUMMARY\n{line}\n") == []
