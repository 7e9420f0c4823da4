"""Machine names as references: "J3 skips AOI", "saw 1h, drill 2h", "2 hours on pick & place".

Where the text names its machines ("M4 (AOI)", "a band saw (that's M1)", "M1 = bandsaw"), a
route may use the name instead of the id. A name refers to a machine only when it is certain:

* the whole name as declared ("pick & place", "the reflow oven"), or
* one word that belongs to the name of exactly one machine: equal to one of its words, or,
  with three letters or more, the start of one ("tap" for "tapping arm"), or the same stem
  ("welding" for "welder"), while no other machine's name has such a word.

Words of the route grammar (verbs, prepositions, fillers, words that change a route's
meaning) are never names. A name that fits two machines is no reference: the clause stays
unread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_WORD_RE = re.compile(r"[a-z0-9]+")


def name_words(text: str) -> tuple[str, ...]:
    """Lower-case words of a name (``&``, ``-`` and punctuation dropped)."""
    return tuple(_WORD_RE.findall(text.lower()))


_SUFFIXES = ("ing", "ers", "er", "ed", "es", "s")


def stem(word: str) -> str:
    """``word`` without one common English ending ("welding", "welder" -> "weld")."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@dataclass
class NameIndex:
    """Machine names of one description, for references by name.

    Attributes:
        names: machine id -> the names the text gives it (as written).
        grammar: words never taken for a name.
    """

    names: dict[str, list[str]] = field(default_factory=dict)
    grammar: frozenset[str] = frozenset()

    def add(self, machine: str, name: str) -> None:
        """Record ``name`` for ``machine``."""
        if name_words(name):
            self.names.setdefault(machine, [])
            if name not in self.names[machine]:
                self.names[machine].append(name)

    def full(self, words: tuple[str, ...]) -> str | None:
        """The machine whose whole name is ``words`` (exactly one), or None."""
        found = {m for m, names in self.names.items()
                 for name in names if name_words(name) == words}
        return found.pop() if len(found) == 1 else None

    def word(self, word: str) -> str | None:
        """The one machine whose name has ``word`` (or a word starting with it), or None."""
        if word in self.grammar or len(word) < 2 or word.isdigit():
            return None
        found = set()
        for machine, names in self.names.items():
            for name in names:
                for part in name_words(name):
                    if part == word or (len(word) >= 3 and part.startswith(word)) or (
                            len(stem(word)) >= 3 and stem(part) == stem(word)):
                        found.add(machine)
        return found.pop() if len(found) == 1 else None

    def elsewhere(self, words: list[str], machine: str) -> bool:
        """True when one of ``words`` names a machine other than ``machine``."""
        for other, names in self.names.items():
            if other == machine:
                continue
            for name in names:
                parts = name_words(name)
                if any(w == p or (len(w) >= 3 and p.startswith(w)) for w in words
                       for p in parts if w not in self.grammar):
                    return True
        return False

    def longest_name(self) -> int:
        """The number of words of the longest name."""
        return max((len(name_words(n)) for names in self.names.values() for n in names),
                   default=0)
