"""Held-back folds of an evaluation corpus: a fixed, order-free split by name.

An item (a paper's file name, a case name, a case folder) is in fold ``K`` of ``N`` when
``int(sha1(name), 16) % N == K``. Every ``eval`` command takes ``--fold K/N`` (only that fold)
and ``--exclude-fold K/N`` (everything else), so a fold chosen before a reader changes stays the
same fold however the corpus grows.
"""

from __future__ import annotations

import argparse
import hashlib
import re

from repro_assets.errors import CodedError


class FoldError(CodedError, argparse.ArgumentTypeError, ValueError):
    """A fold argument that is not ``K/N`` with ``0 <= K < N``.

    It is an ``ArgumentTypeError`` (argparse prints its message when it is a ``type=``) and a
    ``ValueError`` (callers that parse by hand catch it so).
    """

    code = "E_BAD_FOLD"


def parse_fold(text: str) -> tuple[int, int]:
    """``"K/N"`` as ``(K, N)`` with ``0 <= K < N`` (spaces around the numbers allowed).

    Raises:
        FoldError: not two integers ``K/N`` with ``0 <= K < N``.
    """
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not match or not 0 <= int(match[1]) < int(match[2]):
        raise FoldError(f"a fold is K/N with 0 <= K < N, got {text!r}")
    return int(match[1]), int(match[2])


def in_fold(name: str, fold: tuple[int, int]) -> bool:
    """True when ``int(sha1(name), 16) % N == K`` for ``fold = (K, N)``."""
    k, n = fold
    return int(hashlib.sha1(name.encode("utf-8")).hexdigest(), 16) % n == k
