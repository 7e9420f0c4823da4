"""`repro-assets eval claims`: recall, unmatched and conflicting claims on a generated corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repro_assets.papers.evaluation import (
    TruthClaim,
    TruthFileError,
    dataset_matches,
    evaluate,
    format_table,
    totals,
)
from tests.papers.layouts import Page, Table, prose, render

ROW = "RAN-large | 48.0 | 86.1 | 93.6"


def _corpus(tmp_path: Path, truth: list[dict]) -> Path:
    results = Table("Table 2: Test accuracy of our models against other methods.",
                    [["Model", "Reviews-5", "NewsCat", "QA-6"]],
                    [["RAN-small", "45.0", "82.7", "91.2"], ["RAN-large", "48.0", "86.1", "93.6"]],
                    [72.0, 250.0, 320.0, 390.0], 560)
    body = prose("We evaluate Recurrent Attention Networks (RAN) on the Reviews-5, NewsCat and "
                 "QA-6 datasets; Table 2 lists the test accuracy.", 72, 660)
    pdf = render([Page(title="Recurrent Attention Networks", lines=body, tables=[results])])
    (tmp_path / "ran.pdf").write_bytes(pdf)
    (tmp_path / "truth.json").write_text(json.dumps({"papers": {"ran.pdf": truth}}))
    return tmp_path


def _truth(keys: list[str], value: float, **extra: object) -> dict:
    return {"keys": keys, "metric": "accuracy", "value": value, "quote": ROW, **extra}


def test_recall_unmatched_and_conflicting(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, [
        _truth(["newscat"], 86.1),      # found
        _truth(["qa6"], 93.6),          # found
        _truth(["otherset"], 48.0),     # the cell is read as Reviews-5: conflicting
        _truth(["missing"], 77.7, quote="nowhere"),  # a miss, nothing printed
    ])
    [score] = evaluate(corpus)
    assert (score.truth, score.found, score.ungrounded) == (4, 2, 0)
    assert score.conflicting == 1
    assert score.conflicting_claims[0]["dataset"] == "Reviews-5"
    assert score.unmatched == score.claims - 2
    assert totals([score])["conflicting"] == 1
    table = format_table([score], verbose=True)
    assert "| conflicting |" in table and "CONFLICT ran.pdf: Reviews-5 accuracy=48.0" in table


def test_connector_words_and_short_keys() -> None:
    truth = TruthClaim(keys=["newsweather", "nw"], metric="accuracy", value=1.0)
    assert dataset_matches("News and Weather", truth)
    assert dataset_matches("NW", truth)
    assert not dataset_matches("NWX", truth)
    excluded = TruthClaim(keys=["zeta10"], metric="accuracy", value=1.0,
                          exclude_keys=["zeta100"])
    assert dataset_matches("Zeta-10", excluded) and not dataset_matches("Zeta-100", excluded)


def test_a_bad_truth_file_is_a_coded_error(tmp_path: Path) -> None:
    (tmp_path / "truth.json").write_text('{"papers": {"a.pdf": [{"keys": ["x"]}]}}')
    with pytest.raises(TruthFileError) as info:
        evaluate(tmp_path)
    assert info.value.code == "E_BAD_TRUTH_FILE"


def test_folds_split_a_corpus_by_file_name_hash(tmp_path: Path) -> None:
    from repro_assets.folds import in_fold, parse_fold

    assert parse_fold("0/3") == (0, 3) and parse_fold(" 2 / 5 ") == (2, 5)
    for bad in ("3/3", "a/3", "1"):
        with pytest.raises(ValueError):
            parse_fold(bad)
    names = [f"paper{i}.pdf" for i in range(30)]
    folds = [[n for n in names if in_fold(n, (k, 3))] for k in range(3)]
    assert sorted(sum(folds, [])) == sorted(names)  # every paper in exactly one fold
    corpus = _corpus(tmp_path, [_truth(["newscat"], 86.1)])
    inside = in_fold("ran.pdf", (0, 2))
    assert len(evaluate(corpus, fold=(0, 2))) == int(inside)
    assert len(evaluate(corpus, exclude_fold=(0, 2))) == int(not inside)


def test_sample_prints_unmatched_claims_with_quotes(tmp_path: Path) -> None:
    from repro_assets.papers.evaluation import sample_unmatched

    corpus = _corpus(tmp_path, [_truth(["newscat"], 86.1)])
    [score] = evaluate(corpus)
    lines = sample_unmatched([score], 3)
    assert len(lines) == 3 and all(line.startswith("SAMPLE ran.pdf:") for line in lines)
    assert all("quote:" in line and "RAN-" in line for line in lines)
    assert sample_unmatched([score], 3) == lines  # reproducible


def test_conflicting_and_recall_are_also_counted_at_the_plan_threshold(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, [_truth(["newscat"], 86.1), _truth(["otherset"], 48.0)])
    [score] = evaluate(corpus)
    assert score.conflicting == 1 and score.conflicting_confident == 1  # a column header
    assert score.found_confident == 1
    total = totals([score])
    assert (total["conflicting_confident"], total["found_confident"]) == (1, 1)
    assert total["recall_confident"] == 0.5
    assert "| conflicting >= 0.7 |" in format_table([score])
