"""An outline drawn as a tree (``tree`` output, a file manager's copy) is a nested list.

A tree outline draws each node after branch marks (``├── J4``, ``│   └── 1. M6 · 3 h``): the
marks say only how deep the node stands. :func:`tree_lines` writes each node as a list item
indented by its depth (``- J4``, ``    - 1. M6 · 3 h``), the nested list the reader already
reads (a job over its steps). The tree's own count under it (``2 jobs, 3 steps``, as ``tree``
prints ``2 directories, 3 files``) is dropped when it counts exactly the top nodes and the
deepest ones; a count that disagrees stays for the reader to refuse.
"""

from __future__ import annotations

import re

# "│   ├── ", "    └── ", "|-- ", "`-- ": the branch marks before a node
_BRANCH_RE = re.compile(
    r"^(?P<marks>(?:[│|]   |    )*)(?:[├└]──|[|`]--)\s+(?P<node>[^\s\-|─].*)$")
_COUNT_RE = re.compile(r"^\s*(?P<top>\d+)\s+(?P<top_word>[a-z]+)\s*,\s*(?P<deep>\d+)\s+"
                       r"(?P<deep_word>[a-z]+)\s*\.?\s*$", re.IGNORECASE)
_TOP_WORDS = frozenset({"job", "jobs", "order", "orders", "directory", "directories"})
_DEEP_WORDS = frozenset({"step", "steps", "operation", "operations", "op", "ops", "file",
                         "files"})


def tree_lines(lines: list[str]) -> None:
    """Rewrite, in place, every run of tree branch lines as a nested list, and the tree's
    count right under it (after at most one blank line) when it agrees."""
    index = 0
    while index < len(lines):
        depths: list[int] = []
        end = index
        while end < len(lines) and (match := _BRANCH_RE.match(lines[end])) is not None:
            depth = len(match.group("marks")) // 4
            if depth > (depths[-1] + 1 if depths else 0):
                break  # a node deeper than under its parent: no tree
            depths.append(depth)
            lines[end] = "    " * depth + "- " + match.group("node")
            end += 1
        if not depths:
            index += 1
            continue
        _drop_agreeing_count(lines, end, depths)
        index = end


def _drop_agreeing_count(lines: list[str], end: int, depths: list[int]) -> None:
    """Drop the count line right under a tree (a blank line between allowed) when it names the
    top nodes and the deepest ones and counts them exactly."""
    at = end + 1 if end < len(lines) and not lines[end].strip() else end
    match = _COUNT_RE.match(lines[at]) if at < len(lines) else None
    if match is None or match.group("top_word").lower() not in _TOP_WORDS or match.group(
            "deep_word").lower() not in _DEEP_WORDS:
        return
    deepest = max(depths)
    if deepest > 0 and int(match.group("top")) == depths.count(0) and int(
            match.group("deep")) == depths.count(deepest):
        del lines[at]
