"""Small PDFs generated for tests (good, encrypted, corrupt ...)."""

from __future__ import annotations

import pymupdf


def make_pdf(pages: list[str], title: str | None = None) -> bytes:
    """A text PDF with one page per string (a heading line is rendered bold and larger)."""
    doc = pymupdf.open()
    for number, text in enumerate(pages):
        page = doc.new_page()
        y = 72
        if number == 0 and title:
            page.insert_text((72, y), title, fontsize=18, fontname="hebo")
            y += 36
        for line in text.splitlines():
            if line.startswith("# "):
                page.insert_text((72, y), line[2:], fontsize=13, fontname="hebo")
                y += 22
            else:
                page.insert_text((72, y), line, fontsize=10, fontname="helv")
                y += 14
    if title:
        doc.set_metadata({"title": title})
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def make_encrypted_pdf() -> bytes:
    """A password-protected PDF."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret", fontsize=12)
    data = doc.tobytes(
        encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="user",
        permissions=0,
    )
    doc.close()
    return data


def make_corrupt_pdf() -> bytes:
    """Bytes that start like a PDF but are not one."""
    return b"%PDF-1.7\n" + b"\x00garbage" * 200


PAPER_PAGES = [
    "# Abstract\n"
    "We study support vector machines on the Wine dataset.\n"
    "# 1 Introduction\n"
    "Linear models remain strong baselines for small tabular datasets.",
    "# 2 Method\n"
    "We train a linear SVM with C = 1.0 for 200 iterations.\n"
    "The learning rate schedule is constant and the random seed is 7.\n"
    "# 3 Results\n"
    "The model achieves 97.2% accuracy on the Wine test split.",
]
