"""Where each rewritten line came from, so that a refusal quotes the writer's own words.

The line passes of :mod:`~repro_assets.factory.reading.segments` rewrite the text in place
(a chat's pictures removed, a key's letters made ids, a copy written as ``same as``, a sheet
made one route line ...). :class:`TracedLines` is the list they rewrite: it keeps, for every
line, the numbers of the writer's lines it came from. An assignment to one line keeps its
origin; a slice replaced by as many lines keeps them one to one, by another number of lines
gives each new line all the replaced lines; a line inserted takes the origin of the line it is
put before. A pass that rebuilds the whole list says where each new line comes from with
:func:`rebuild`.

:func:`in_writers_words` then turns an :class:`~repro_assets.factory.reading.statements.Unread`
whose quote the writer never wrote into one that quotes the writer's line(s), with the
rewritten form kept as ``read_as``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import SupportsIndex

from repro_assets.factory.reading.statements import Unread

Origin = frozenset[int]
_NONE: Origin = frozenset()


class TracedLines(list[str]):
    """Lines being rewritten, each with the numbers of the writer's lines it came from.

    Attributes:
        origins: one set of writer's line numbers per line.
        written: the writer's lines (the text as given, line ends normalised).
    """

    def __init__(self, lines: Iterable[str], origins: Iterable[Origin],
                 written: Sequence[str]) -> None:
        super().__init__(lines)
        self.origins: list[Origin] = list(origins)
        self.written = tuple(written)
        if len(self.origins) != len(self):
            raise ValueError("one origin per line")

    def __setitem__(self, key: SupportsIndex | slice, value: object) -> None:  # type: ignore[override]
        if not isinstance(key, slice):
            super().__setitem__(key, value)  # type: ignore[call-overload]
            return
        start, stop, step = key.indices(len(self))
        new = list(value)  # type: ignore[call-overload]
        old = self.origins[start:stop] if step == 1 else []
        if step != 1 or len(new) == len(old):
            origins = old if step == 1 else self.origins[key]
        else:
            merged = frozenset().union(*old) if old else self._near(start)
            origins = [merged] * len(new)
        super().__setitem__(key, new)
        self.origins[key] = origins

    def __delitem__(self, key: SupportsIndex | slice) -> None:
        super().__delitem__(key)
        del self.origins[key]

    def _near(self, index: int) -> Origin:
        if index < len(self.origins):
            return self.origins[index]
        return self.origins[-1] if self.origins else _NONE

    def insert(self, index: SupportsIndex, value: str) -> None:
        """Insert a line; it comes from the line it is put before."""
        position = min(max(int(index), 0), len(self)) if int(index) >= 0 else max(
            len(self) + int(index), 0)
        origin = self._near(position)
        super().insert(position, value)
        self.origins.insert(position, origin)

    def append(self, value: str) -> None:
        """Append a line of no writer's line."""
        super().append(value)
        self.origins.append(_NONE)

    def extend(self, values: Iterable[str]) -> None:
        """Append lines of no writer's line."""
        for value in values:
            self.append(value)

    def pop(self, index: SupportsIndex = -1) -> str:
        """Remove and return a line."""
        self.origins.pop(index)
        return super().pop(index)

    def remove(self, value: str) -> None:
        """Remove the first line equal to ``value``."""
        del self[self.index(value)]

    def writers_text(self, origin: Iterable[int]) -> str:
        """The writer's lines of ``origin``, in order, stripped."""
        return "\n".join(self.written[i] for i in sorted(origin)).strip()


def rebuild(lines: list[str], new: Iterable[tuple[str, Iterable[int]]]) -> None:
    """Replace every line of ``lines``, each new line given with the indices of the current
    lines it comes from (a plain list just gets the new lines)."""
    pairs = [(text, tuple(sources)) for text, sources in new]
    if isinstance(lines, TracedLines):
        origins = [frozenset().union(*(lines.origins[i] for i in sources))
                   for _, sources in pairs]
        list.__setitem__(lines, slice(None), [text for text, _ in pairs])
        lines.origins[:] = origins
    else:
        lines[:] = [text for text, _ in pairs]


def squeezed(text: str) -> str:
    """``text`` with every run of white space one space."""
    return " ".join(text.split())


def in_writers_words(unread: Unread, text: str, sources: Mapping[str, str]) -> Unread:
    """``unread`` quoting the writer's own words when its quote is a rewritten form.

    Args:
        unread: a refusal, its quote as the reader saw it.
        text: the description as written.
        sources: rewritten sentences, clauses and rows → the writer's text they came from.

    Returns:
        ``unread`` itself when the writer wrote its quote (or its source is unknown), else a
        copy that quotes the writer's text and keeps the quote as ``read_as``.
    """
    reason = _QUOTED_RE.sub(lambda m: _writers_quote(m, text, sources), unread.reason)
    quote = unread.quote.strip()
    writer = None
    if quote and squeezed(quote) not in squeezed(text):
        writer = sources.get(quote)
        if writer is None:
            writer = next((w for rewritten, w in sources.items() if quote in rewritten), None)
    if not writer or squeezed(writer) == squeezed(quote):
        return unread if reason == unread.reason else Unread(unread.quote, reason,
                                                             unread.read_as)
    return Unread(writer, reason, read_as=unread.quote)


# a sentence a reason quotes ("J7 is given 2 different routes ('...'; '...')")
_QUOTED_RE = re.compile(r"'([^'\n]{3,})'")


def _writers_quote(match: re.Match[str], text: str, sources: Mapping[str, str]) -> str:
    """A sentence quoted in a reason, in the writer's words when a pass rewrote it whole."""
    said = match.group(1)
    writer = sources.get(said.strip())
    if writer is None or squeezed(said) in squeezed(text):
        return match.group(0)
    return f"'{squeezed(writer)}'"
