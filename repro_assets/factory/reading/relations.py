"""Records of kinds: a plan written as rows of named fields, whatever prints the rows.

A planning tool keeps its plan as relations (machines, jobs, steps), and staff paste them in
the form the tool prints: a database dump of ``INSERT INTO step (job_id, seq, machine_id,
minutes) VALUES (...), (...);`` statements, or an application's log of one record a line
(``2026-01-05 06:00:01 INFO step.add job=J4 seq=1 machine=M7 hours=2``). Both are the same
records: a kind (the table, the log's subject) and its fields. :func:`relation_tree` gives them
as the tree ``{kind: [record, ...]}`` that ``structured.py`` reads like any JSON or XML plan
(a step relation is joined to its jobs there).

Only a paste made entirely of such records is read. In a dump, every statement is an
``INSERT`` whose row has as many values as the columns (quoted text, a number or ``NULL``), and
a comment (``-- ...``) holds no number and no word that changes a meaning. In a log, every line
is a timestamp, a level that reports no problem (``INFO``, ``DEBUG``, ``NOTICE``) and a record
of ``key=value`` fields; a record adds (``add``, ``create``, ``insert``, ``new``) a thing, or is
the plan's own bookkeeping (``plan.publish by=...``: who and which day, dropped), written
when the plan is made or published (``plan.cancel``, ``schedule.rollback`` undo it, and are
refused), its name a plain name. The log's
timestamps are when the lines were written, never dues. Anything else raises ``ValueError``.
"""

from __future__ import annotations

import re

from repro_assets.factory.reading.phrases import MEANING_WORDS

_INSERT_RE = re.compile(
    r"^\s*INSERT\s+INTO\s+[`\"\[]?(?P<table>\w+)[`\"\]]?\s*\((?P<columns>[^()]*)\)\s*"
    r"VALUES\s*(?P<rows>.*)$", re.IGNORECASE | re.DOTALL)
# one value of a row: quoted text ('' is a quote inside it), a number or NULL
_VALUE_RE = re.compile(r"\s*(?:'(?P<text>(?:[^']|'')*)'|(?P<number>-?\d+(?:\.\d+)?)"
                       r"|(?P<null>NULL))\s*", re.IGNORECASE)
_SQL_COMMENT_RE = re.compile(r"^\s*--(?P<comment>.*)$")
_LOG_LINE_RE = re.compile(
    r"^\s*(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s+"
    r"\[?(?:INFO|DEBUG|NOTICE|TRACE)\]?\s+(?P<kind>[A-Za-z_]+)\.(?P<verb>[A-Za-z_]+)"
    r"(?P<fields>(?:\s+\w+=(?:\"[^\"]*\"|\S+))+)\s*$")
_FIELD_RE = re.compile(r"(\w+)=(\"[^\"]*\"|\S+)")
_ADDING_VERBS = frozenset({"add", "added", "create", "created", "insert", "inserted", "new"})
#: The plan's own record: who wrote or published it, and for which day.
_PLAN_KINDS = frozenset({"plan", "schedule"})
_PLAN_FIELDS = frozenset({"by", "user", "author", "day", "date", "name"})
#: What the plan's own record may say happened to it: it was made or published.
_PLAN_VERBS = _ADDING_VERBS | frozenset({
    "publish", "published", "save", "saved", "export", "exported", "generate", "generated",
    "start", "started", "open", "opened", "load", "loaded"})
_DAY_RE = re.compile(r"\d{4}-\d{2}-\d{2}")

Records = dict[str, list[dict[str, object]]]


def _plain_comment(comment: str) -> bool:
    """A comment the dump drops: words only, none that changes a meaning, no number."""
    words = {word.lower() for word in re.findall(r"[A-Za-z]+", comment)}
    return not re.search(r"\d", comment) and not words & MEANING_WORDS


def _statements(text: str) -> list[str]:
    """The dump's statements, split at semicolons outside quoted text."""
    statements: list[str] = []
    current: list[str] = []
    quoted = False
    for char in text:
        if char == "'":
            quoted = not quoted
        if char == ";" and not quoted:
            statements.append("".join(current))
            current = []
        else:
            current.append(char)
    if quoted:
        raise ValueError("a quote is not closed")
    if "".join(current).strip():
        raise ValueError("a statement does not end with a semicolon")
    return [statement for statement in statements if statement.strip()]


def _row_values(rows: str) -> list[list[object]]:
    """``('J1', 2, NULL), ('J2', 1, 'x')`` as lists of values."""
    found: list[list[object]] = []
    position = 0
    while True:
        opening = re.compile(r"\s*\(").match(rows, position)
        if opening is None:
            raise ValueError("a row does not open with a parenthesis")
        position = opening.end()
        values: list[object] = []
        while True:
            match = _VALUE_RE.match(rows, position)
            if match is None:
                raise ValueError("a value is neither text, a number nor NULL")
            values.append(None if match.group("null") else match.group("number")
                          if match.group("number") is not None
                          else match.group("text").replace("''", "'"))
            position = match.end()
            if rows.startswith(",", position):
                position += 1
                continue
            if rows.startswith(")", position):
                position += 1
                break
            raise ValueError("a row does not close")
        found.append(values)
        separator = re.compile(r"\s*,").match(rows, position)
        if separator is None:
            break
        position = separator.end()
    if rows[position:].strip():
        raise ValueError("words after the rows")
    return found


def _sql_records(text: str) -> Records:
    kept: list[str] = []
    for line in text.split("\n"):
        comment = _SQL_COMMENT_RE.match(line)
        if comment is None:
            kept.append(line)
        elif not _plain_comment(comment.group("comment")):
            raise ValueError("a comment says more than a name")
    records: Records = {}
    for statement in _statements("\n".join(kept)):
        match = _INSERT_RE.match(statement)
        if match is None:
            raise ValueError("a statement other than INSERT")
        columns = [column.strip().strip('`"[]') for column in match.group("columns").split(",")]
        if not all(re.fullmatch(r"\w+", column) for column in columns):
            raise ValueError("a column is not a name")
        if len(set(columns)) != len(columns):
            raise ValueError("a column is named twice")
        for values in _row_values(match.group("rows")):
            if len(values) != len(columns):
                raise ValueError("a row has more or fewer values than columns")
            records.setdefault(match.group("table"), []).append(
                dict(zip(columns, values, strict=True)))
    return records


def _log_records(lines: list[str]) -> Records:
    records: Records = {}
    for line in lines:
        match = _LOG_LINE_RE.match(line)
        if match is None:
            raise ValueError("a line is no record of the log")
        kind, verb = match.group("kind").lower(), match.group("verb").lower()
        fields: dict[str, object] = {}
        for key, value in _FIELD_RE.findall(match.group("fields")):
            if key in fields:
                raise ValueError("a field is given twice")
            fields[key] = value.strip('"')
        if kind in _PLAN_KINDS:
            if set(fields) - _PLAN_FIELDS or any(
                    _DAY_RE.search(str(value)) is None for key, value in fields.items()
                    if key in ("day", "date")):
                raise ValueError("a record of the plan says more than who and which day")
            if verb not in _PLAN_VERBS:
                raise ValueError(f"a record of the plan that does not make it: {verb!r}")
            if not all(_plain_comment(str(value)) for key, value in fields.items()
                       if key not in ("day", "date")):
                raise ValueError("a record of the plan says more than a name")
            continue
        if verb not in _ADDING_VERBS:
            raise ValueError(f"a record that does not add: {verb!r}")
        records.setdefault(kind, []).append(fields)
    return records


def relation_tree(text: str) -> Records:
    """The records of a database dump or of an application's log, by kind.

    Args:
        text: the whole paste.

    Returns:
        ``{kind: [fields, ...]}`` in the order written.

    Raises:
        ValueError: the paste is not made entirely of such records.
    """
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines:
        raise ValueError("no records")
    if re.search(r"^\s*INSERT\s+INTO\b", text, re.IGNORECASE | re.MULTILINE):
        records = _sql_records(text)
    elif all(_LOG_LINE_RE.match(line) for line in lines):
        records = _log_records(lines)
    else:
        raise ValueError("neither a dump nor a log")
    if not records:
        raise ValueError("no records")
    return records
