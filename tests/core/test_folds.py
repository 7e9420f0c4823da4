"""The held-back fold split every ``eval`` command shares."""

from __future__ import annotations

import argparse

import pytest

from repro_assets.folds import FoldError, in_fold, parse_fold


def test_parse_fold_accepts_k_of_n_and_refuses_the_rest() -> None:
    assert parse_fold("0/3") == (0, 3) and parse_fold(" 2 / 5 ") == (2, 5)
    for bad in ("3/3", "a/3", "1", "1/0", "-1/3"):
        with pytest.raises(FoldError) as caught:
            parse_fold(bad)
        assert caught.value.code == "E_BAD_FOLD"
        assert isinstance(caught.value, ValueError)


def test_a_bad_fold_is_a_usage_error_with_its_message() -> None:
    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("--fold", type=parse_fold)
    with pytest.raises(argparse.ArgumentError, match="0 <= K < N"):
        parser.parse_args(["--fold", "4/3"])


def test_folds_partition_names_and_do_not_depend_on_order() -> None:
    names = [f"item-{n}" for n in range(60)]
    folds = [{n for n in names if in_fold(n, (k, 3))} for k in range(3)]
    assert set().union(*folds) == set(names)
    assert all(folds) and sum(map(len, folds)) == len(names)
    assert {n for n in reversed(names) if in_fold(n, (1, 3))} == folds[1]
