"""Whole sentences and the relevance floor (pure functions plus the real embedder)."""

from __future__ import annotations

import pytest

from repro_assets.debate.models import DebateError
from repro_assets.debate.relevance import (
    best_sentences,
    is_whole_sentence,
    relevance_floor,
    whole_sentences,
)
from repro_assets.storage.embedder import get_embedder

# a chunk cut out of a paper's body by token windows: it starts and ends mid-sentence
PAPER_CHUNK = (
    "Delay Neural Network) with randomly ini- tialized weights in the first layer. We train the "
    "convolutional network on sentence classification with dropout on the penultimate layer. "
    "Results on the movie review benchmark improve over the strongest baseline by two points. "
    "The filters of width three capture local n-gram features and are max-pooled over"
)


def test_fragments_cut_by_chunking_are_not_whole_sentences() -> None:
    assert not is_whole_sentence("Delay Neural Network) with randomly ini-")
    assert not is_whole_sentence("tialized weights in the first layer of the network.")
    assert not is_whole_sentence("The filters of width three capture local n-gram features")
    assert not is_whole_sentence("Code is at https://example.org/repository for everyone.")
    assert is_whole_sentence("We train the convolutional network with dropout on top.")
    assert is_whole_sentence("\u201cDeep models (such as CNNs) help,\u201d the authors say.")
    assert whole_sentences(PAPER_CHUNK) == [
        "We train the convolutional network on sentence classification with dropout on the "
        "penultimate layer.",
        "Results on the movie review benchmark improve over the strongest baseline by two "
        "points.",
    ]


def test_best_sentence_is_a_whole_sentence_even_when_a_fragment_matches_better() -> None:
    question = "Which weights does the delay neural network initialize randomly?"
    [match] = best_sentences(get_embedder(), question, [(PAPER_CHUNK, None)])
    assert match is not None and is_whole_sentence(match.sentence)
    assert match.sentence in PAPER_CHUNK
    [nothing] = best_sentences(get_embedder(), question, [("with randomly ini-", None)])
    assert nothing is None


def test_floor_is_calibrated_per_model_and_overridable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEBATE_RELEVANCE_FLOOR", raising=False)
    assert 0.5 < relevance_floor("all-MiniLM-L6-v2") < 0.7
    with pytest.raises(DebateError) as info:
        relevance_floor("intfloat/e5-base-v2")
    assert info.value.code == "E_RELEVANCE_FLOOR"
    monkeypatch.setenv("DEBATE_RELEVANCE_FLOOR", "0.81")
    assert relevance_floor("intfloat/e5-base-v2") == 0.81
    monkeypatch.setenv("DEBATE_RELEVANCE_FLOOR", "high")
    with pytest.raises(DebateError):
        relevance_floor("all-MiniLM-L6-v2")


def test_hard_wrapped_pdf_lines_are_joined_into_whole_sentences() -> None:
    # PDF text arrives one printed line at a time, words hyphenated at line ends
    wrapped = ("the previous page. We report on a series of experiments with convolu-\n"
               "tional neural networks trained on top of pre-trained word\n"
               "vectors for sentence-level classification tasks.\n\nA second paragraph "
               "starts here and ends here.")
    assert whole_sentences(wrapped) == [
        "We report on a series of experiments with convolutional neural networks trained on "
        "top of pre-trained word vectors for sentence-level classification tasks.",
        "A second paragraph starts here and ends here.",
    ]


def test_a_piece_starting_with_a_bracket_is_a_fragment_and_joins_its_line() -> None:
    assert not is_whole_sentence("(CNN) trained on top of pre-trained word vectors here.")
    wrapped = ("We report on experiments with\nconvolutional\nneural networks\n(CNN) trained "
               "on top of pre-trained word vectors.")
    assert whole_sentences(wrapped) == [
        "We report on experiments with convolutional neural networks (CNN) trained on top of "
        "pre-trained word vectors."]
