"""The extractor's LLM answers are cached only when they gave grounded claims (issue #13 item 6).

An empty claims list, or claims none of which is printed on its cited page, used to be cached
and replayed for ever; now such an answer is asked afresh on the next run, while a useful one is
served from the cache.
"""

from __future__ import annotations

from typing import Any

from repro_assets.papers.claims import extract_claims
from repro_assets.papers.samples import SAMPLE_PAPERS
from tests.fakes.llm_wire import OpenAIWireFake
from tests.papers.test_claims_llm import llm_claim
from tests.papers.test_claims_samples import sample_pages

GOOD = {"claims": [llm_claim(metric_name="F1", metric_value=98.3,
                             quoted_text="a macro F1 of 98.3%",
                             source_citation="Section 4, page 1")]}


def _extract(fake: OpenAIWireFake, database_url: str) -> Any:
    pages, data = sample_pages(SAMPLE_PAPERS[1])
    client = fake.make_client(cache_enabled=True, database_url=database_url)
    return extract_claims(pages, data, client, [])


def test_an_empty_or_ungrounded_answer_is_not_replayed(fresh_database) -> None:
    for useless in ({"claims": []},
                    {"claims": [llm_claim(quoted_text="The MLP reaches 99.1% accuracy",
                                          metric_value=0.991)]}):
        with OpenAIWireFake() as fake:
            fake.reply_json(useless)
            first = _extract(fake, fresh_database)
        assert first.method == "llm" and first.claims  # the heuristic claims stay
        with OpenAIWireFake() as fake:  # asked again: nothing of the useless answer cached
            fake.reply_json(useless)
            _extract(fake, fresh_database)
        assert len(fake.requests) == 1


def test_an_answer_with_grounded_claims_is_served_from_the_cache(fresh_database) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_json(GOOD)
        first = _extract(fake, fresh_database)
    with OpenAIWireFake() as fake:
        again = _extract(fake, fresh_database)
    assert fake.requests == []
    assert [c.model_dump() for c in again.claims] == [c.model_dump() for c in first.claims]
