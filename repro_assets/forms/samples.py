"""Generate the sample form bundles in ``data/samples/forms/`` (PyMuPDF, deterministic).

Each bundle is a drop-folder bundle: ``input_docs/*.pdf``, optional ``target_docs/*.pdf``,
optional ``schema.json`` and ``options.json``, and a ``READY`` marker.

* ``intake_gonzalez``: intake letter, insurance card, medication list and a fillable target
  form (AcroForm, with the ambiguous field ``patient_name_dob``) -> schema from the form.
* ``referral_chen``: a referral letter and an intake questionnaire with contradicting dates of
  birth, the insurance number only in a messy paragraph, a phone without country code and a
  user schema with an unsupported key.
* ``scanned_okafor``: one scanned-style PDF (page images, no text layer).

Run ``python -m repro_assets.forms.samples [DEST]`` to (re)write them.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pymupdf

from repro_assets import settings

log = logging.getLogger(__name__)

_FIXED_META = {
    "creationDate": "D:20250101000000Z", "modDate": "D:20250101000000Z",
    "producer": "repro_assets samples", "creator": "repro_assets.forms.samples",
}

INTAKE_LETTER = """Riverside Family Clinic
410 Harbor Road, Springfield, IL 62701
Fax: (217) 555-0100

March 3, 2025

New patient intake summary

Patient Name: Maria Gonzalez
DOB: 04/12/1978
Phone: +1 (217) 555-0143
Address: 1822 Oak Street, Apt 4B
Springfield, IL 62704

Allergies: Penicillin; Sulfa drugs

Ms. Gonzalez came in for a first visit and reported seasonal headaches. She brought her
insurance card and her current medication list, which are attached to this summary.

Dr. Helen Park, MD
"""

INSURANCE_CARD = """BLUE VALLEY HEALTH PLAN
Member Name: Maria Gonzalez
Member ID: XGH482913027
Group Number: 40021
Date of Birth: 04/12/1978
Member Services: 1-800-555-0123
Rx BIN: 610014   PCN: BVHRX
"""

MEDICATION_LIST = """Medication List - Maria Gonzalez
Updated March 1, 2025

Current Medications:
- Lisinopril 10 mg once daily
- Metformin 500 mg twice daily
- Atorvastatin 20 mg at bedtime

Bring this list to every appointment.
"""

REFERRAL_LETTER = """Northgate Cardiology Associates
77 Lakeview Drive, Madison, WI 53703

February 20, 2025

Dear colleague,

I am referring my patient, Daniel Chen, born on March 14, 1985, for evaluation of
palpitations. His coverage was confirmed by phone with Lakeshore Mutual under plan
reference LKM-55102-8841 (primary subscriber is his spouse) and the authorization is on file.

He reports no known drug allergies. Current medications: propranolol 20 mg as needed.

Sincerely,
Dr. Amir Haddad
"""

QUESTIONNAIRE = """Patient Intake Questionnaire

Full Name: Daniel Chen
Date of Birth: 03/14/1958
Phone: 608-555-0199
Address: 2250 Willow Lane
Madison, WI 53711
Allergies: none known
Medications: propranolol 20 mg
Emergency Contact: Li Chen
"""

SCANNED_REFERRAL = """Eastside Medical Group - faxed referral

Patient Name: Grace Okafor
DOB: 09/30/1990
Phone: (312) 555-0177
Member ID: EMG55010392
"""


def _text_pdf(text: str, fontsize: float = 10.5) -> pymupdf.Document:
    doc = pymupdf.open()
    lines = text.splitlines()
    per_page = 60
    for start in range(0, max(1, len(lines)), per_page):
        page = doc.new_page(width=612, height=792)
        y = 72.0
        for line in lines[start: start + per_page]:
            page.insert_text((72, y), line, fontsize=fontsize, fontname="helv")
            y += fontsize * 1.45
    return doc


def text_pdf_bytes(text: str) -> bytes:
    """A one-font text PDF of ``text`` (used by samples, tests and benchmarks)."""
    doc = _text_pdf(text)
    doc.set_metadata(_FIXED_META)
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def scanned_pdf_bytes(text: str, dpi: int = 110) -> bytes:
    """A scanned-style PDF: each page is an image of the rendered text, no text layer."""
    source = _text_pdf(text, fontsize=12)
    out = pymupdf.open()
    for page in source.pages():
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        target = out.new_page(width=page.rect.width, height=page.rect.height)
        target.insert_image(target.rect, pixmap=pix)
    source.close()
    out.set_metadata(_FIXED_META)
    data = out.tobytes(garbage=3, deflate=True, no_new_id=True)
    out.close()
    return data


def fillable_pdf_bytes(field_names: list[str]) -> bytes:
    """A target form with one text widget per name (AcroForm)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Patient intake form", fontsize=14, fontname="helv")
    y = 90.0
    for name in field_names:
        page.insert_text((72, y + 14), name.replace("_", " ").title(), fontsize=10,
                         fontname="helv")
        widget = pymupdf.Widget()
        widget.field_name = name
        widget.field_label = name.replace("_", " ").title()
        widget.field_type = pymupdf.mupdf.PDF_WIDGET_TYPE_TEXT
        widget.rect = pymupdf.Rect(250, y, 540, y + 20)
        page.add_widget(widget)
        y += 30
    doc.set_metadata(_FIXED_META)
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


TARGET_FIELDS = ["patient_name", "dob", "phone", "street_address", "member_id", "allergies",
                 "medications", "patient_name_dob", "signature"]


def write_samples(dest: Path | None = None) -> list[Path]:
    """Write every sample bundle under ``dest`` (default ``data/samples/forms``).

    Returns:
        The bundle folders.
    """
    root = dest or settings.samples_dir() / "forms"
    bundles = []

    one = root / "intake_gonzalez"
    for name, text in (("intake_letter.pdf", INTAKE_LETTER), ("insurance_card.pdf",
                       INSURANCE_CARD), ("medication_list.pdf", MEDICATION_LIST)):
        _write(one / "input_docs" / name, text_pdf_bytes(text))
    _write(one / "target_docs" / "intake_form.pdf", fillable_pdf_bytes(TARGET_FIELDS))
    bundles.append(one)

    two = root / "referral_chen"
    _write(two / "input_docs" / "referral_letter.pdf", text_pdf_bytes(REFERRAL_LETTER))
    _write(two / "input_docs" / "intake_questionnaire.pdf", text_pdf_bytes(QUESTIONNAIRE))
    schema = {"fields": [
        {"key": "full_name", "label": "Patient Name", "type": "string"},
        {"key": "dob", "label": "Date of Birth", "type": "date"},
        {"key": "phone", "label": "Phone", "type": "phone"},
        {"key": "address", "label": "Home Address", "type": "string"},
        {"key": "insurance_member_id", "label": "Insurance ID", "type": "string"},
        {"key": "allergies", "label": "Allergies", "type": "string_or_list"},
        {"key": "medications", "label": "Medications", "type": "string_or_list"},
        {"key": "emergency_contact", "label": "Emergency contact", "type": "string"},
    ]}
    _write(two / "schema.json", json.dumps(schema, indent=2).encode())
    _write(two / "options.json", json.dumps({"top_k_docs": 3}, indent=2).encode())
    bundles.append(two)

    three = root / "scanned_okafor"
    _write(three / "input_docs" / "faxed_referral.pdf", scanned_pdf_bytes(SCANNED_REFERRAL))
    bundles.append(three)

    for bundle in bundles:
        _write(bundle / "READY", b"")
    return bundles


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m repro_assets.forms.samples [DEST]``."""
    args = sys.argv[1:] if argv is None else argv
    logging.basicConfig(level=logging.INFO)
    for bundle in write_samples(Path(args[0]) if args else None):
        log.info("wrote %s", bundle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
