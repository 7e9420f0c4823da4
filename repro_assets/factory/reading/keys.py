"""A key of the machines: other names that stand for machine ids in the rest of the text.

Some writers name each machine once, in a key, a legend or a footnote, and then use only the
other name: a letter (``Key: A = M1 (saw)  B = M2``), a marked word (``oven¹`` with the
footnote ``¹ oven = M1``), a work-centre name or code (``M1 = LASER-01``, or a table ``WC code
WC name  Scheduler id`` with a row ``SAW1  band saw  M1``). Every text passes through
:func:`key_lines`: the key's lines become a declaration of the machines (``Machines: M1 (saw),
M2``) and each other name is replaced by its id where it stands for the machine.

Only when a key line is made of such pairs and nothing else (a label before them, ``Key:``,
may stand), every name stands for one id and no name is an id itself. A name is replaced
wherever it stands as a token of its own, in routes and in prose (``A is down today``); where
the word meant something else (the article of ``A rush job``) the sentence no longer reads and
is reported. A name the key does not define stays as written, and the reader refuses the step
it stands in.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import ANY_ID_RE, id_pattern
from repro_assets.factory.reading.provenance import rebuild

_MARKS = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
#: Bounded (a key's name is a short code): unbounded, every start in a long word scanned it.
_NAME = r"[A-Za-z][A-Za-z0-9_-]{0,40}"
_MACHINE = id_pattern("M")
_PAIR_RE = re.compile(
    rf"(?P<mark>[{_MARKS}]*)\s*(?:(?P<name>{_NAME})\s*=\s*(?P<id>{_MACHINE})"
    rf"|(?P<id2>{_MACHINE})\s*=\s*(?P<name2>{_NAME}))(?:\s*\((?P<words>[^()]*)\))?")
_LABEL_RE = re.compile(r"^\s*(?:[A-Za-z][A-Za-z ]{0,30}:)?")
_SEPARATORS_RE = re.compile(r"^[\s,;]*$")
_SPLIT_RE = re.compile(r"\s{2,}|\t")


class _Key:
    """The names a text's key gives, and the lines that declare them."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}  # a name (with its footnote mark) -> the machine id
        self.words: dict[str, str] = {}  # a machine id -> the words that describe it
        self.conflict = False

    def add(self, name: str, machine: str, words: str | None) -> None:
        if ANY_ID_RE.fullmatch(name) or self.ids.get(name, machine) != machine:
            self.conflict = True
        self.ids[name] = machine
        if words and words.strip():
            self.words.setdefault(machine, words.strip())

    def declaration(self, machines: list[str]) -> str:
        """The machines of a key line as a declaration (``Machines: M4 (shear), M5``)."""
        return "Machines: " + ", ".join(
            f"{machine} ({self.words[machine]})" if machine in self.words else machine
            for machine in machines)


def _pairs_line(line: str, key: _Key) -> list[str] | None:
    """The machines a key line of pairs declares (registered in ``key``), or None."""
    rest = line[_LABEL_RE.match(line).end():]  # type: ignore[union-attr]
    pairs = list(_PAIR_RE.finditer(rest))
    if not pairs or not _SEPARATORS_RE.match(_PAIR_RE.sub(" ", rest)):
        return None
    machines = []
    for pair in pairs:
        name = pair.group("name") or pair.group("name2")
        machine = pair.group("id") or pair.group("id2")
        words = pair.group("words") or (name if len(name) > 1 else None)
        key.add(name + pair.group("mark"), machine, words)
        machines.append(machine)
    return machines


def _key_table(lines: list[str], start: int, key: _Key) -> tuple[list[str], int] | None:
    """A table whose header has a column of ids (``WC code  WC name  Scheduler id``) and
    whose rows give each machine id with its code and its name: the machines and the line
    after the table."""
    header = _SPLIT_RE.split(lines[start].strip())
    columns = [index for index, cell in enumerate(header) if re.search(r"(?i)\bid\b", cell)]
    if len(header) < 2 or len(columns) != 1 or any(
            not re.fullmatch(r"[A-Za-z][A-Za-z ]*", cell) for cell in header):
        return None
    machines: list[str] = []
    end = start + 1
    while end < len(lines) and lines[end].strip():
        cells = _SPLIT_RE.split(lines[end].strip())
        if len(cells) != len(header) or not re.fullmatch(_MACHINE, cells[columns[0]]):
            return None
        others = [cell for index, cell in enumerate(cells) if index != columns[0]]
        if any(ANY_ID_RE.search(cell) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9 _-]*", cell)
               for cell in others):
            return None
        machine = cells[columns[0]]
        codes = [cell for cell in others if " " not in cell]
        if not codes:
            return None
        for code in codes:
            key.add(code, machine, None)
        words = [cell for cell in others if " " in cell]
        if words:  # a name of several words: the name reader's business
            key.words.setdefault(machine, words[0])
        machines.append(machine)
        end += 1
    return (machines, end) if machines else None


def _replace(line: str, name: str, machine: str) -> str:
    """``line`` with each use of ``name`` as a token of its own replaced by the machine's id:
    in a route and in prose alike (``A is down today`` is about the machine; where the word
    meant something else, ``A rush job``, the sentence no longer reads and is reported)."""
    edge = rf"(?<![\w{_MARKS}-]){re.escape(name)}(?![\w{_MARKS}-])"
    return re.sub(edge, machine, line)


def key_lines(lines: list[str]) -> None:
    """Rewrite, in place, a key's lines as machine declarations and every name it gives as
    its machine id (nothing when the text has no key, or its key is in doubt)."""
    key = _Key()
    declared: dict[int, tuple[int, str]] = {}  # first line -> (line after, declaration)
    index = 0
    while index < len(lines):
        machines = _pairs_line(lines[index], key)
        if machines is not None:
            declared[index] = (index + 1, key.declaration(machines))
            index += 1
            continue
        table = _key_table(lines, index, key) if lines[index].strip() else None
        if table is not None:
            declared[index] = (table[1], key.declaration(table[0]))
            index = table[1]
            continue
        index += 1
    if not key.ids or key.conflict:
        return
    names = sorted(key.ids, key=len, reverse=True)
    rewritten: list[tuple[str, tuple[int, ...]]] = []
    index = 0
    while index < len(lines):
        if index in declared:
            after, declaration = declared[index]
            rewritten.append((declaration, tuple(range(index, after))))
            index = after
            continue
        line = lines[index]
        for name in names:
            line = _replace(line, name, key.ids[name])
        rewritten.append((line, (index,)))
        index += 1
    rebuild(lines, rewritten)
