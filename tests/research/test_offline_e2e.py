"""A complete research session offline in local_only mode over the sample corpus."""

from __future__ import annotations

import json
from pathlib import Path

from repro_assets.llm.offline import OfflineClient
from repro_assets.research.agent import ResearchAgent
from repro_assets.research.providers import build_providers
from repro_assets.research.store import ResearchStore
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.database import get_database


def test_local_only_session_runs_to_an_exported_report(corpus_store, tmp_path, no_network):
    written: dict[str, str] = {}

    def writer(key: str, text: str) -> str:
        path = tmp_path / key
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written[key] = text
        return str(path)

    statuses: list[tuple[str, str]] = []
    store = ResearchStore(get_database())
    agent = ResearchAgent(
        build_providers("local_only", corpus_store), llm=OfflineClient(), store=store,
        writer=writer, on_status=lambda node, st: statuses.append((node, st.current_phase)),
    )
    state = agent.run("s-offline", SAMPLE_QUESTION, privacy_mode="local_only", max_cycles=6)
    print(json.dumps([c.model_dump(mode="json") for c in state.saturation_history], indent=1))
    print(state.stop_reason, len(state.results), len(state.entities_found),
          len(state.facts_extracted))
    assert state.final_report is not None
    assert Path(state.export_path).exists()
    assert set(state.provider_call_counts) == {"local"}
    assert state.extraction_method == "heuristic"
    print(written["research/s-offline/report.md"][:3000])
