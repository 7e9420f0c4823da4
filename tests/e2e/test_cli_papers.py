"""``repro-assets ingest`` / ``materialize`` / ``show`` through a local OpenAI-compatible server.

The real command runs in a subprocess with ``REPRO_LLM_PROVIDER=openai_compatible`` and
``REPRO_LLM_BASE_URL`` pointing at :class:`OpenAIServer` on loopback; the verifier and the
claims extractor talk to it over HTTP in the Chat Completions wire format (tool calls, JSON
answers) and meet its scripted faults.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repro_assets.papers.pdf import validate_pdf
from tests.e2e.conftest import Cli
from tests.fakes.openai_server import OpenAIServer, RecordedRequest, Reply, error_body
from tests.pdfs import PAPER_PAGES, make_pdf

pytestmark = pytest.mark.slow

VERDICT = {
    "reproducible": True,
    "reasoning": "Dataset, hyperparameters and seed are stated.",
    "missing_elements": [],
    "evidence": [{"element": "dataset", "page": 1,
                  "quote": "We study support vector machines on the Wine dataset."}],
}
CLAIMS = {"claims": [{
    "dataset_name": "Wine", "split": "test", "metric_name": "accuracy", "metric_value": 0.972,
    "units": "%", "method_snippet": "linear SVM", "source_citation": "Section 3, page 2",
    "confidence": 0.9, "page": 2,
    "quoted_text": "The model achieves 97.2% accuracy on the Wine test split."}]}


class PaperScript:
    """Answers the verifier and the extractor by schema; faults are switched per phase."""

    def __init__(self) -> None:
        self.verifier_fault: str | None = None
        self.extractor_fault: str | None = None
        self.seen: list[str] = []

    def __call__(self, request: RecordedRequest) -> Reply:
        name = request.schema_name or "?"
        self.seen.append(name)
        if name == "VerifierOutput":
            if self.verifier_fault == "truncated":
                first = self.seen.count(name) == 1
                if first:  # a rate limit first, then bodies cut in the middle
                    return Reply(status=429, body=error_body(429), headers={"Retry-After": "0"})
                return _truncated(VERDICT)
            if self.verifier_fault == "slow":
                return Reply(answer=_answer(VERDICT), delay_s=6.0)
            if not request.has_tool_results:
                return Reply(answer=_tool("search_paper", {"query": "random seed", "k": 3}))
            return Reply(answer=_answer(VERDICT))
        if name == "ExtractorOutput":
            if self.extractor_fault == "tool_loop":  # never stops searching
                return Reply(answer=_tool("search_paper", {"query": "accuracy", "k": 2}))
            return Reply(answer=_answer(CLAIMS))
        return Reply(status=400, body=error_body(400, f"unscripted schema {name}"))


def _answer(obj: object):  # noqa: ANN202 - tests.fakes.openai_server.Answer
    from tests.fakes.openai_server import Answer

    return Answer(content=json.dumps(obj))


def _tool(name: str, args: dict):  # noqa: ANN202
    from tests.fakes.openai_server import Answer

    return Answer(tool_calls=[(name, args)])


def _truncated(obj: object) -> Reply:
    return Reply(answer=_answer(obj), truncate_at=120)


def _shown(cli: Cli, asset: str, key: str, env: dict[str, str]) -> dict:
    result = cli("show", asset, "--partition", key, "--json", env=env)
    assert result.returncode == 0, result
    return json.loads(result.stdout)


def _verdict(key: str) -> dict:
    """The stored verdict (the same row ``repro-assets show reproducibility_verdict`` prints)."""
    from repro_assets.papers.verdict import load_verdict
    from repro_assets.storage.database import get_database

    verdict = load_verdict(get_database(), key)
    assert verdict is not None
    return verdict.model_dump(mode="json")


def _metadata(asset: str, key: str) -> dict:
    """The latest materialization's metadata, read from the instance the CLI wrote to."""
    import dagster as dg

    from repro_assets.instance import get_instance

    records = get_instance().fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[key]), limit=1,
    ).records
    assert records, f"{asset} [{key}] was not materialized"
    return {k: getattr(v, "value", v)
            for k, v in records[0].asset_materialization.metadata.items()}


def test_papers_workflow_through_a_local_server_with_faults(
    fresh_database: str, cli: Cli, tmp_path: Path
) -> None:
    pdf = tmp_path / "wine.pdf"
    pdf.write_bytes(make_pdf(PAPER_PAGES, title="SVMs on Wine"))
    key = validate_pdf(pdf.read_bytes()).paper_id
    script = PaperScript()
    with OpenAIServer(models=["local-llm"], known_models_only=True, responder=script) as server:
        base = server.env()
        ingest = cli("ingest", str(pdf), env=base)
        assert ingest.returncode == 0, ingest
        assert not server.chat_requests  # the ingest job calls no model

        # 1. no model configured: the client reads /v1/models and uses what the server serves
        run = cli("materialize", "paper_claims", "--partition", key, env=base)
        assert run.returncode == 0, run
        assert "materialized reproducibility_verdict" in run.stdout
        assert {r.model for r in server.chat_requests} == {"local-llm"}
        assert any(r.path == "/v1/models" for r in server.requests)
        verifier_turns = [r for r in server.chat_requests if r.schema_name == "VerifierOutput"]
        assert verifier_turns[-1].messages[-1]["role"] == "tool"  # the tool result went back
        verdict = _shown(cli, "reproducibility_verdict", key, base)
        claims = _metadata("paper_claims", key)
        assert verdict["method"] == "llm" and verdict["reproducible"] is True
        assert claims["method"] == "llm" and "llm_error" not in claims

        # 2. faults (another model name, so that the response cache does not answer):
        # the verifier gets a 429 then bodies cut mid-JSON, the extractor loops on its tool
        server.models = ["local-llm", "local-llm-b"]
        faults = server.env(REPRO_LLM_MODEL="local-llm-b", TOOL_CAP_FILE_SEARCH_PER_RUN="2")
        script.verifier_fault, script.extractor_fault = "truncated", "tool_loop"
        before = len(server.chat_requests)
        run = cli("materialize", "reproducibility_verdict", "--partition", key, env=faults)
        assert run.returncode == 1 and "E_VERIFY_OPENAI_ERROR" in run.stderr, run
        assert "E_LLM_BAD_RESPONSE" in run.stderr  # the verifier was asked and failed: coded
        run = cli("materialize", "paper_claims", "--partition", key, env=faults)
        assert run.returncode == 1 and "E_POLICY_CAP_EXCEEDED" in run.stderr, run
        new = server.chat_requests[before:]
        assert {r.model for r in new} == {"local-llm-b"}
        assert sum(r.schema_name == "VerifierOutput" for r in new) == 3  # 429 + 2 cut bodies
        assert sum(r.schema_name == "ExtractorOutput" for r in new) == 3  # cap 2, 3rd call
        verdict = _verdict(key)
        claims = _metadata("paper_claims", key)
        assert verdict["method"] == "llm"  # the failed runs overwrote nothing
        assert claims["method"] == "llm" and "llm_error" not in claims

        # 3. a server slower than the call's deadline: one attempt, then a coded error
        slow = server.env(REPRO_LLM_MODEL="local-llm-b", REPRO_LLM_DEADLINE_S="1.5")
        script.verifier_fault = "slow"
        before = len(server.chat_requests)
        run = cli("materialize", "reproducibility_verdict", "--partition", key, env=slow)
        assert run.returncode == 1 and "E_VERIFY_OPENAI_ERROR" in run.stderr, run
        assert "E_LLM_TIMEOUT" in run.stderr
        assert len(server.chat_requests[before:]) == 1
