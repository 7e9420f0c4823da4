"""A tool-cap breach in the claims step is reported as such (issue #17, item 5)."""

from __future__ import annotations

from typing import Any

import pytest

from repro_assets.papers.claims import ClaimsError, extract_claims
from repro_assets.papers.tools import search_paper_tool
from tests.e2e.test_llm_faults import MODEL, client_for, pages
from tests.fakes.openai_server import OpenAIServer


def test_tool_cap_breach_in_claims_is_e_policy_cap_exceeded() -> None:
    paper = pages("This essay discusses the history of the printing press.")
    searches: list[str] = []

    def search(query: str, k: int) -> list[dict[str, Any]]:
        searches.append(query)
        return [{"content": paper.pages[0].text, "page_start": 1, "page_end": 1,
                 "section": None, "distance": 0.2}]

    with OpenAIServer(models=[MODEL]) as server:
        for n in range(3):
            server.reply_tool_call("search_paper", {"query": f"results {n}", "k": 3})
        client = client_for(server, tool_cap_file_search=2)
        with pytest.raises(ClaimsError) as info:
            extract_claims(paper, None, client, [search_paper_tool(search)])
    assert info.value.code == "E_POLICY_CAP_EXCEEDED"
    assert len(searches) == 2
