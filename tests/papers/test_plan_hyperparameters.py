"""Offline hyper-parameter reading: the value forms papers print (issue #13 item 6)."""

from __future__ import annotations

import pytest

from repro_assets.papers.hyperparameters import find_hyperparameters, parse_number
from repro_assets.papers.models import PageText, PaperPages


def pages_of(*texts: str) -> PaperPages:
    """A paper whose pages hold ``texts`` (no PDF needed for sentence-level rules)."""
    return PaperPages(paper_id="0" * 16, title="t", pages=[
        PageText(page_no=n, text=text, has_text_layer=True) for n, text in enumerate(texts, 1)])


@pytest.mark.parametrize(("sentence", "name", "value"), [
    ("We apply a dropout of 10% to the penultimate layer.", "dropout", 0.1),
    ("We use a dropout rate (p) of 0.5 on the penultimate layer.", "dropout", 0.5),
    ("The learning rate is 5 × 10^-4 for all runs.", "learning_rate", 0.0005),
    ("The learning rate is 5 × 10−4 for all runs.", "learning_rate", 0.0005),
    ("The learning rate is 5·10−4 for all runs.", "learning_rate", 0.0005),
    ("The learning rate is 5x10^{-4} for all runs.", "learning_rate", 0.0005),
    ("The learning rate is 5 × 10⁻⁴ for all runs.", "learning_rate", 0.0005),
    ("We set the learning rate to 5e-4 for all runs.", "learning_rate", 0.0005),
    ("We set the learning rate to 10^-3 for all runs.", "learning_rate", 0.001),
    ("We use a learning rate of 0.5% for all runs.", "learning_rate", 0.005),
    ("We apply a dropout of 1/8 after every layer.", "dropout", 0.125),
    ("Weight decay of 1 × 10−5 is applied.", "weight_decay", 0.00001),
    ("We train with a mini-batch size of 50 for 25 epochs.", "batch_size", 50),
    ("We train with a mini-batch size of 50 for 25 epochs.", "epochs", 25),
    ("We use filter windows (h) of 3, 4, 5 with 100 feature maps each.", "filter_sizes",
     [3, 4, 5]),
    ("We use filter windows (h) of 3, 4, 5 with 100 feature maps each.", "num_filters", 100),
])
def test_value_forms(sentence: str, name: str, value: object) -> None:
    found = find_hyperparameters(pages_of(sentence), None)
    assert name in found, sorted(found)
    got = found[name].value
    if isinstance(value, float):
        assert got == pytest.approx(value), (sentence, got)
    else:
        assert got == value
    assert found[name].quote == sentence


@pytest.mark.parametrize(("text", "value"), [
    ("0.001", 0.001), ("5e-4", 0.0005), ("5E-4", 0.0005), ("5 × 10^-4", 0.0005),
    ("5×10−4", 0.0005), ("2.5 · 10^{-3}", 0.0025), ("10^-3", 0.001), ("10⁻⁵", 0.00001),
    ("1e−3", 0.001), ("10%", 0.1), ("0.5 %", 0.005), ("1/8", 0.125), (".5", 0.5),
])
def test_parse_number(text: str, value: float) -> None:
    assert parse_number(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "abc", "10-30", "3/0", "1/2/3"])
def test_parse_number_rejects(text: str) -> None:
    assert parse_number(text) is None


def test_dropout_above_one_is_not_a_rate() -> None:
    # "dropout of 50" without a percent sign is not a rate: rejected, never 50.0
    found = find_hyperparameters(pages_of("We use a dropout of 50 on the input layer."), None)
    assert "dropout" not in found
