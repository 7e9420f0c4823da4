"""The extract SSE stream with provider anthropic (issue #13 item 6: ``token`` events).

With an OpenAI(-compatible) model the answer's text arrived as ``token`` events; with provider
anthropic none ever did, because the Anthropic client never streamed structured turns.
The app is served by uvicorn (``live_server``) and called with plain ``httpx``: the wire fake
intercepts the SDK's ``httpx2`` transport, which the in-process TestClient shares.
"""

from __future__ import annotations

import json

import httpx

from tests.api.test_papers_api import SEED_EVENTS, parse_sse
from tests.fakes.llm_wire import AnthropicWireFake
from tests.pdfs import make_pdf


def test_extract_streams_search_calls_and_tokens_of_claude(live_server, monkeypatch) -> None:
    data = make_pdf(["# Abstract\nWe study ridge classifiers on the Wine dataset.",
                     "# 3 Results\nThe ridge model reaches 96.1% accuracy on the Wine test "
                     "split."], title="Streaming Ridge Classifiers")
    client = httpx.Client(base_url=live_server.url, timeout=120)
    paper = client.post("/api/v1/papers/ingest",
                        files={"file": ("ridge.pdf", data, "application/pdf")}).json()["paper_id"]
    answer = {"claims": [{
        "dataset_name": "Wine", "split": "test", "metric_name": "accuracy", "metric_value": 0.961,
        "units": "%", "method_snippet": "ridge classifier", "source_citation": "Section 3, page 2",
        "confidence": 0.9, "page": 2,
        "quoted_text": "The ridge model reaches 96.1% accuracy on the Wine test split."}]}
    for key, value in {"REPRO_LLM_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "sk-ant-test",
                       "REPRO_LLM_CACHE": "0"}.items():
        monkeypatch.setenv(key, value)
    with AnthropicWireFake() as fake:
        fake.reply_tool_call("search_paper", {"query": "accuracy on Wine", "k": 2})
        fake.reply_json(answer)
        events = parse_sse(client.post(f"/api/v1/papers/{paper}/extract").text)
    client.close()
    assert [r.json.get("stream") for r in fake.requests] == [True, True]
    names = [name for name, _ in events]
    assert set(names) <= SEED_EVENTS and names[-1] == "extract_complete", names
    searches = [d for n, d in events if n == "file_search_call"]
    assert [(d["query"], d["k"]) for d in searches] == [("accuracy on Wine", 2)]
    text = "".join(d["delta"] for n, d in events if n == "token")
    # the tool turn's own words, then the answer (the output tool's input) as it was written
    assert text.startswith("Let me look that up.")
    assert json.loads(text.removeprefix("Let me look that up.")) == answer
    assert names.index("file_search_call") < names.index("persist_start")
    assert events[-1][1]["method"] == "llm"
