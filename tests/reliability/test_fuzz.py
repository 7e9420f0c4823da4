"""Bounded fuzzing (hypothesis) of three input readers: the PDF validator, the form heuristics and
the factory parser. Whatever the input, each either answers or raises one of its coded errors.

The runs are bounded by example counts (``max_examples``), never by wall-clock time, and
derandomized so CI sees the same inputs every run (a failure reproduces); no example database is
written into the tree.
"""

from __future__ import annotations

import pymupdf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.models import ErrorCode, ExtractionError, FactoryConfig
from repro_assets.forms.heuristics import SCANNERS, HeuristicHit, line_parties, scan_field
from repro_assets.forms.models import LayoutDoc, LayoutPageText
from repro_assets.llm.offline import OfflineClient
from repro_assets.papers.pdf import PaperIngestError, PdfInfo, validate_pdf
from tests.pdfs import PAPER_PAGES, make_encrypted_pdf, make_pdf

FUZZ = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PDF_CODES = {"E_FILE_TOO_LARGE", "E_UNSUPPORTED_MEDIA_TYPE", "E_PDF_CORRUPT", "E_PDF_ENCRYPTED"}

pymupdf.TOOLS.mupdf_display_errors(False)  # broken inputs are the point: keep the log readable

_GOOD = make_pdf(PAPER_PAGES[:2], title="Fuzz seed paper")
_SEEDS = [_GOOD, make_encrypted_pdf(), make_pdf(["x"])]


@st.composite
def damaged_pdfs(draw: st.DrawFn) -> bytes:
    """A real PDF damaged the ways files arrive damaged: flipped, cut, spliced, prefixed."""
    data = bytearray(draw(st.sampled_from(_SEEDS)))
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["flip", "cut", "insert", "delete", "prefix"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "flip" and data:
            data[at] ^= draw(st.integers(1, 255))
        elif kind == "cut":
            del data[at:]
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=64))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 512))]
        else:
            data[0:0] = draw(st.binary(min_size=1, max_size=1100))
    return bytes(data)


def _check_pdf(data: bytes) -> None:
    try:
        info = validate_pdf(data)
    except PaperIngestError as exc:
        assert exc.code in PDF_CODES, exc.code
        assert exc.message
    else:
        assert isinstance(info, PdfInfo) and info.page_count >= 1


@FUZZ
@given(damaged_pdfs())
def test_the_pdf_validator_answers_or_raises_a_coded_error(data: bytes) -> None:
    _check_pdf(data)


@FUZZ
@given(st.binary(max_size=2048).map(lambda tail: b"%PDF-1.7\n" + tail))
def test_the_pdf_validator_on_random_bytes_behind_a_header(data: bytes) -> None:
    _check_pdf(data)


# -- form heuristics -------------------------------------------------------------------------
_FORM_WORDS = [
    "Name:", "Patient Name", "DOB", "Date of Birth:", "Phone", "Tel.", "Member ID", "Policy #",
    "Address:", "Allergies:", "Medications:", "None", "NKDA", "- ", "* ", "1.", "Mr.", "Dr.",
    "Jane", "Q.", "O'Neil-Smith", "12/31/1980", "1980-02-29", "31.02.1999", "(555) 010-9999",
    "+1 555 0100", "ext. 12", "ABC123456789", "Apt 4B", "Springfield, IL 62704", "PO Box 12",
    "Emergency contact", "Relationship:", "Mother", "Signature", "________", ":", "\n", "\n\n",
    "\t", "  ", "ÄÖÜ", "é", "—", "\u00a0", "\u200b",
]
_form_text = st.lists(
    st.one_of(st.sampled_from(_FORM_WORDS), st.text(max_size=12)), max_size=60
).map(" ".join)


@FUZZ
@given(st.lists(st.lists(_form_text, min_size=1, max_size=3), min_size=1, max_size=3))
def test_the_form_heuristics_never_raise(docs_pages: list[list[str]]) -> None:
    docs = [
        LayoutDoc(doc_id=f"doc{d}", pages=[
            LayoutPageText(page=p + 1, full_text=text) for p, text in enumerate(pages)
        ])
        for d, pages in enumerate(docs_pages)
    ]
    contexts: dict = {}
    for doc in docs:
        parties = line_parties(doc)
        assert set(parties) <= {page.page for page in doc.pages}
    for field in SCANNERS:
        hits = scan_field(field, docs, contexts)
        for hit in hits:
            assert isinstance(hit, HeuristicHit)
            assert hit.raw_value.strip()


# -- factory parser --------------------------------------------------------------------------
_FACTORY_WORDS = [
    "Machines:", "Jobs:", "M1", "M2", "M3", "M10", "J1", "J2", "J3", "J-7", "(saw)", "(drill)",
    "->", "→", "then", ",", ";", ".", ":", "|", "---", "20 min", "1.5 h", "90 minutes", "due",
    "due 16:00", "4pm", "noon", "midnight", "ship by 9", "J1-J3", "M1 to M3", "out of service",
    "route", "all jobs", "except", "first", "1.", "-", "\n", "\n\n", "Job", "Machine", "lathe",
    "| id | route | due |", "| J1 | M1 20, M2 30 | 17 |", "J1,M1,20,16", "0 min", "-5 min",
    "25:00", "99999999999999999999 min",
]
_factory_text = st.lists(
    st.one_of(st.sampled_from(_FACTORY_WORDS), st.text(max_size=8)), max_size=80
).map(" ".join)
_CODES = {code.value for code in ErrorCode}


@st.composite
def _factory_descriptions(draw: st.DrawFn) -> str:
    """A readable description (machines, then jobs with routes and due times), then noise."""
    machines = draw(st.integers(1, 4))
    lines = ["Machines: " + ", ".join(f"M{m} ({draw(st.sampled_from(['saw', 'drill', 'lathe']))})"
                                      for m in range(1, machines + 1)) + "."]
    for job in range(1, draw(st.integers(1, 5)) + 1):
        route = draw(st.lists(st.integers(1, machines), min_size=1, max_size=3))
        steps = " -> ".join(f"M{m} {draw(st.integers(1, 240))} min" for m in route)
        due = draw(st.sampled_from(["16:00", "9", "4pm", "noon", "17:30"]))
        lines.append(f"J{job}: {steps}, due {due}.")
    words = "\n".join(lines).split(" ")
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(words)))
        words.insert(at, draw(st.one_of(st.sampled_from(_FACTORY_WORDS), st.text(max_size=6))))
    return " ".join(words)


@FUZZ
@given(st.one_of(_factory_text, _factory_descriptions()))
def test_the_factory_parser_answers_or_raises_a_coded_error(text: str) -> None:
    try:
        config = OnboardingAgent(OfflineClient()).run(text)
    except ExtractionError as exc:
        assert str(exc.code) in _CODES, exc.code
    else:
        assert isinstance(config, FactoryConfig) and config.jobs
