"""A comparison question in the debate (issue #26): both numbers, both quotes, or no consensus.

Before, any "how much higher ... than" question was refused offline. The corpus is generated
by the tests (``tests.research.generated_corpus``).
"""

from __future__ import annotations

from repro_assets.debate.loop import DebateRunner
from repro_assets.debate.models import DebateSettings
from repro_assets.llm.offline import OfflineClient
from repro_assets.storage.vectorstore import VectorStore


def _debate(store: VectorStore, question: str):
    settings = DebateSettings(question=question, live_search=False, max_turns=4)
    return DebateRunner(session_id="t-compare", settings=settings, llm=OfflineClient(),
                        store=store).run()


def test_a_comparison_with_both_sides_stated_reaches_consensus_on_the_difference(
        generated_store, no_network):
    transcript = _debate(generated_store, "How much higher is the accuracy of TextConv-tuned "
                         "than TextConv-static on the Egret review set?")
    assert transcript.terminal_state == "consensus"
    assert transcript.answer is not None and transcript.answer["value"] == "1.4"
    conclusion = transcript.conclusion or ""
    assert "1.4" in conclusion and "89.6" in conclusion and "88.2" in conclusion


def test_a_comparison_with_one_side_unstated_has_no_consensus(generated_store, no_network):
    transcript = _debate(generated_store, "How much higher is the accuracy of TextConv-tuned "
                         "than Quillnet-large on the Egret review set?")
    assert transcript.terminal_state != "consensus"
    assert transcript.answer is None
