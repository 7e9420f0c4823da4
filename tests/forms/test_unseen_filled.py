"""Issue #25: values of another party or another field that looked certain on unseen documents.

Probes made with generated documents: a row of unticked options whose checkbox glyphs come out
as dots, a footer strip read as the value of an empty "Phone:" box, a letterhead whose street
line carries the clinic's number after a bar, a phone on the same line after a referring
doctor's label, an office's labelled address in a letterhead. Each was filled or offered for
review as the subject's before its guard. All names and numbers are invented.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf
import pytest

from repro_assets.forms.pipeline import UploadedFile
from repro_assets.forms.samples import text_pdf_bytes

from .conftest import RunHelper


def offered(run_bundle: RunHelper, data: bytes) -> dict[str, tuple[str, str | None]]:
    """Fields filled or offered for review (missing ones left out)."""
    folder = run_bundle(docs=[UploadedFile("doc.pdf", data)])
    return {k: (v.status, v.normalized_value)
            for k, v in folder.read_artifact("final").fields.items() if v.status != "missing"}


def placed(items: list[tuple[float, float, str]],
           boxes: Sequence[tuple[str, tuple[float, float, float, float]]] = ()) -> bytes:
    """A page with text at (x, baseline) and empty text widgets."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for x, y, text in items:
        page.insert_text((x, y), text, fontsize=9.5, fontname="helv")
    for name, rect in boxes:
        widget = pymupdf.Widget()
        widget.field_name, widget.field_type = name, pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT
        widget.rect = pymupdf.Rect(*rect)
        page.add_widget(widget)
    data = doc.tobytes()
    doc.close()
    return data


def test_a_row_of_options_behind_dots_is_no_allergy_list(run_bundle: RunHelper) -> None:
    text = ("ALLERGIES\n\u2610 Ragweed  \u2610 Nickel  \u2610 Sulfa  \u2610 Iodine\n"
            "Patient Name: ______________\n")
    assert "allergies" not in offered(run_bundle, text_pdf_bytes(text))  # glyphs print as dots


@pytest.mark.parametrize(("text", "row"), [
    ("\u00b7 Ragweed  \u00b7 Nickel  \u00b7 Sulfa", True),
    ("\u2022 Ragweed \u2022 Nickel", True),
    ("\uf06f Yes \uf06f No", True),
    ("q Ragweed  q Nickel  q Sulfa", True),
    ("o Ragweed o Nickel", False),  # two letters may be words
    ("\u2022 Ragweed 10 mg daily", False),
    ("Ragweed, Nickel", False),
])
def test_option_rows(text: str, row: bool) -> None:
    from repro_assets.forms.text_cues import is_option_row

    assert is_option_row(text) is row


def test_a_footer_strip_is_no_answer_of_an_empty_phone_box(run_bundle: RunHelper) -> None:
    data = placed([(40, 70, "Patient Name:"), (40, 94, "Phone:"),
                   (40, 700, "Birchwood Gastro Care | 61 Quarry Road, Akron, OH 44308 | "
                             "(330) 555-0142")],
                  [("Name", (130, 60, 400, 74)), ("Phone", (130, 84, 400, 98))])
    assert "phone" not in offered(run_bundle, data)


def test_a_letterhead_street_line_with_the_clinics_number(run_bundle: RunHelper) -> None:
    data = placed([(200, 50, "BIRCHWOOD LABS"),
                   (160, 64, "61 Quarry Road, Akron, OH 44308 | Ph: (330) 555-0142"),
                   (40, 100, "Name : Ms. Ada Verhoeven"), (330, 100, "Collected : 02/05/2025"),
                   (40, 116, "Sample : Serum")])
    got = offered(run_bundle, data)
    assert "phone" not in got and got["full_name"][1] == "Ada Verhoeven"


def test_a_phone_after_a_referring_doctors_label_on_its_line(run_bundle: RunHelper) -> None:
    text = ("BIRCHWOOD LABS\nPatient Name: Ada Verhoeven    Age: 47    Sex: F\n"
            "Ref. Dr: Piet Okafor    Phone: (330) 555-0188\n")
    got = offered(run_bundle, text_pdf_bytes(text))
    assert "phone" not in got and got["full_name"] == ("filled", "Ada Verhoeven")


def test_an_offices_labelled_address_belongs_to_the_letterhead(run_bundle: RunHelper) -> None:
    text = ("BIRCHWOOD GASTRO CARE\nMain Office: 61 Quarry Road, Suite 3, Akron, OH 44308\n"
            "East Office: 9 Fern Street, Kent, OH 44240\n"
            "Phone (330) 555-0142  Fax (330) 555-0143\nPATIENT REGISTRATION\n"
            "Patient Name: ______________\nAddress: ______________\n")
    assert offered(run_bundle, text_pdf_bytes(text)) == {}
