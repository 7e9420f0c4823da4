"""Every area's error root is a CodedError and keeps its name, code and built-in base."""

from __future__ import annotations

import pytest

from repro_assets.api.errors import ApiError
from repro_assets.debate.models import DebateError
from repro_assets.embeddings.base import EmbeddingError
from repro_assets.errors import CodedError
from repro_assets.factory.models import ErrorCode, ExtractionError
from repro_assets.factory.store import FactoryNotFound
from repro_assets.forms.runfolder import FormsError, NoInputDocs
from repro_assets.llm.types import GuardrailError, LLMError, LLMInvalidOutput
from repro_assets.net import FetchBlocked, FetchError
from repro_assets.papers.claims.models import ClaimsError
from repro_assets.papers.notebook.errors import NotebookError
from repro_assets.papers.pdf import PaperIngestError
from repro_assets.papers.plan_models import PlanError
from repro_assets.papers.store import PaperNotFound
from repro_assets.papers.verdict import VerdictError
from repro_assets.research.errors import PaywallError, ResearchError
from repro_assets.scholarly.models import ScholarlyError


@pytest.mark.parametrize(("error", "code", "builtin"), [
    (ResearchError("m"), "E_RESEARCH", RuntimeError),
    (PaywallError("m"), "E_PAYWALL", RuntimeError),
    (LLMError("m", code="E_LLM_CONFIG"), "E_LLM_CONFIG", RuntimeError),
    (LLMInvalidOutput("m", raw_text="{"), "E_LLM_INVALID_OUTPUT", RuntimeError),
    (GuardrailError("g", "m", "E_G"), "E_G", RuntimeError),
    (ApiError(400, "no_input_docs", "m"), "no_input_docs", Exception),
    (ScholarlyError("m", "E_S", 503), "E_S", RuntimeError),
    (DebateError("m", "E_D"), "E_D", RuntimeError),
    (FetchError("m"), "E_FETCH_FAILED", RuntimeError),
    (FetchBlocked("m"), "E_FETCH_BLOCKED", RuntimeError),
    (PlanError("m", "E_P", {"k": 1}), "E_P", RuntimeError),
    (ClaimsError("m", "E_C"), "E_C", RuntimeError),
    (VerdictError("m", "E_V"), "E_V", RuntimeError),
    (NotebookError("E_N", "m"), "E_N", RuntimeError),
    (PaperIngestError("E_PDF_CORRUPT", "m"), "E_PDF_CORRUPT", ValueError),
    (ExtractionError(ErrorCode.NO_IDS, "m", stage="ids"), "NO_IDS", Exception),
    (FormsError("m"), "run_failed", RuntimeError),
    (NoInputDocs("m"), "no_input_docs", RuntimeError),
    (EmbeddingError("m", "E_E"), "E_E", RuntimeError),
    (PaperNotFound("m"), "E_PAPER_NOT_FOUND", LookupError),
    (FactoryNotFound("m"), "E_FACTORY_NOT_FOUND", LookupError),
])
def test_error_roots_share_the_coded_base(error: Exception, code: str, builtin: type) -> None:
    assert isinstance(error, CodedError) and isinstance(error, builtin)
    assert error.code == code
    assert error.error_dict()["code"] == code


def test_messages_and_details_are_kept() -> None:
    assert str(PaperIngestError("E_PDF_CORRUPT", "broken")) == "E_PDF_CORRUPT: broken"
    assert PaperIngestError("E_PDF_CORRUPT", "broken").message == "broken"
    extraction = ExtractionError(ErrorCode.NO_IDS, "none", stage="ids", details={"n": 0})
    assert str(extraction) == "NO_IDS: none" and extraction.details == {"n": 0}
    assert PlanError("m", "E_P", {"k": 1}).details == {"k": 1}
    assert PlanError("m", "E_P").details == {}
    assert str(GuardrailError("g", "m", "E_G")) == "Guardrail 'g' failed: m"
    assert ApiError(404, "E_X", "gone", extra={"run_id": "r"}).body() == {
        "error": "E_X", "message": "gone", "run_id": "r"}
