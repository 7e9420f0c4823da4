"""Stage 0: harvest the explicitly mentioned machine and job ids with regular expressions.

Ids are ``M``/``J`` followed by a digit and word characters (``M1``, ``M10``, ``J2b``) or by an
underscore and an upper-case word (``M_ASSEMBLY``, ``J_RUSH``). A match must not be glued to a
word character on either side, so ``ISO9001``, ``CAM1``, ``XM1`` or ``M1x`` parts of longer words
are not ids, and ``M10`` is never read as ``M1``. Matching is case-sensitive: ``m1`` is not an
explicit id.

Explicit ranges with numeric suffixes and a shared prefix (``J1-J4``, ``J1–J4``, ``J1 to J4``,
``J1..J4``) mention every id in between; that is pattern matching too, not inference. ``from M1
to M3`` is a route, not a range.
"""

from __future__ import annotations

import re

from repro_assets.factory.models import PreparsedIds

#: What follows an id's letter: a digit and word characters, or an underscore and an upper-case
#: word. The one definition of the id grammar; every pattern that names an id is built from it.
ID_BODY = r"(?:[0-9][A-Za-z0-9_]*|_[A-Z0-9][A-Za-z0-9_]*)"
#: An id (or a range of ids) is not glued to a word character on either side.
ID_EDGE_BEFORE = r"(?<![A-Za-z0-9_])"
ID_EDGE_AFTER = r"(?![A-Za-z0-9_])"


def id_pattern(kinds: str = "MJ", group: str | None = None) -> str:
    """The regular expression (source text) of one explicit id, to build larger patterns with.

    Args:
        kinds: the id letters it may start with: ``"M"`` (machines), ``"J"`` (jobs) or both.
        group: the name of a capturing group around the id, or None for none.

    Returns:
        The pattern, edges included, so ``M10`` is never read as ``M1``.
    """
    letter = kinds if len(kinds) == 1 else f"[{kinds}]"
    body = f"{letter}{ID_BODY}"
    if group is not None:
        body = f"(?P<{group}>{body})"
    return f"{ID_EDGE_BEFORE}{body}{ID_EDGE_AFTER}"


MACHINE_ID_RE = re.compile(id_pattern("M"))
JOB_ID_RE = re.compile(id_pattern("J"))
ANY_ID_RE = re.compile(id_pattern())

RANGE_SEPARATORS = r"(?:-|–|—|\.\.|\s+to\s+|\s+through\s+|\s+thru\s+)"
RANGE_RE = re.compile(
    rf"{ID_EDGE_BEFORE}(?P<kind>[MJ])(?P<start>[0-9]+)\s*{RANGE_SEPARATORS}\s*"
    rf"(?P=kind)(?P<end>[0-9]+){ID_EDGE_AFTER}"
)
MAX_RANGE = 100


def expand_ranges(text: str) -> list[tuple[str, list[str]]]:
    """Return ``(matched text, ids)`` for every explicit id range in ``text``.

    Only ascending ranges of at most :data:`MAX_RANGE` ids with the same prefix count; the ends
    keep their written form (``J01-J03`` gives ``J01, J02, J03``).
    """
    found: list[tuple[str, list[str]]] = []
    for match in RANGE_RE.finditer(text):
        if re.search(r"(?i:\bfrom\s+)$", text[: match.start()]):
            continue
        start, end = match.group("start"), match.group("end")
        first, last = int(start), int(end)
        if last <= first or last - first >= MAX_RANGE:
            continue
        width = len(start) if start.startswith("0") else 0
        kind = match.group("kind")
        ids = [f"{kind}{str(n).zfill(width)}" for n in range(first, last + 1)]
        found.append((match.group(0), ids))
    return found


def extract_explicit_ids(factory_text: str) -> PreparsedIds:
    """Return every machine and job id mentioned explicitly in ``factory_text``.

    Pure pattern matching: no LLM, no validation, no assumptions about names or relations.

    Args:
        factory_text: the free-text factory description.

    Returns:
        The sets of machine and job ids.
    """
    machines = set(MACHINE_ID_RE.findall(factory_text))
    jobs = set(JOB_ID_RE.findall(factory_text))
    for _, ids in expand_ranges(factory_text):
        (machines if ids[0].startswith("M") else jobs).update(ids)
    return PreparsedIds(machine_ids=frozenset(machines), job_ids=frozenset(jobs))
