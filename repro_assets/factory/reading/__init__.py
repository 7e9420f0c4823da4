"""The offline reader of factory descriptions (stages 1 and 2 without an LLM).

It runs in four steps, one module each:

1. ``segments.py``: text → clauses (sentences split at ``;``, with their line, list item and
   paragraph) and tables (markdown/pipe/wiki tables, CSV/TSV lines with or without a header,
   fixed-width reports; ``columns.py`` names the columns; a table with its jobs as columns is
   turned to jobs as rows by ``orientation.py``); before that, line passes turn each
   writer's format into the forms the reader knows, one relation each: a table's HTML or
   LaTeX source (``markup.py``), a tree outline (``outlines.py``), a label whose route and
   times are two lists or a sentence with ``respectively`` (``parallel.py``), a job's
   precedence pairs and times (``precedence.py``), a route told from its end
   (``backward.py``), a chat's noise
   (``chat.py``), a key of names for the machines (``keys.py``), a job as a record of
   fields (``records.py``), a copy of another job (``copies.py``), a job as a sentence's
   topic (``topics.py``), a sheet of header fields over operations (``travelers.py``), a
   heading over one job's steps (``job_sections.py``); a whole paste of JSON, YAML, TOML, XML, a
   database dump or a log of records (``structured.py``, ``relations.py``) becomes sentences;
2. ``lexicon.py`` + ``phrases.py`` + ``clauses.py`` / ``tables.py``: recognizers turn each
   clause or table row into statements (machines, jobs, routes, skips and replacements,
   standard-route and same-route references, defaults, due times; ``times.py`` is the
   due-time grammar, ``definitions.py`` the time words a text defines for itself,
   ``names.py`` the machines' names that routes may use instead of ids);
3. ``assemble.py``: statements → the stage-1 skeleton and the stage-2 raw configuration;
4. the certainty check: every sentence about jobs that was not fully read, and every conflict
   between statements, is kept as an :class:`~repro_assets.factory.reading.statements.Unread`
   with the sentence and the reason; the agent fails the run on any of them. A sentence a line
   pass rewrote is quoted in the writer's own words (``provenance.py`` keeps, for every
   rewritten line, the writer's lines it came from), the rewritten form as ``read_as``.

:func:`read_factory_text` runs them all (pure, cached per text), twice when the text names
its machines: the first pass finds the names wherever they stand, the second reads with them.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from repro_assets.factory.reading.assemble import Assembly, Declarations, assemble
from repro_assets.factory.reading.clauses import ClauseReader
from repro_assets.factory.reading.days import days_apart
from repro_assets.factory.reading.definitions import TimeTerms, find_terms
from repro_assets.factory.reading.names import NameIndex
from repro_assets.factory.reading.numbering import numbers_out_of_order, reversed_order
from repro_assets.factory.reading.phrases import NOT_NAMES
from repro_assets.factory.reading.provenance import in_writers_words
from repro_assets.factory.reading.segments import Clause, segment
from repro_assets.factory.reading.statements import Reading, Unread
from repro_assets.factory.reading.tables import read_table

__all__ = ["Assembly", "Declarations", "Unread", "read_factory_text"]


def _read(text: str, terms: TimeTerms, names: NameIndex | None
          ) -> tuple[Reading, dict[str, str]]:
    """The statements of ``text`` and, for every sentence, clause and table line as read,
    the writer's words it came from."""
    reading = Reading()
    reader = ClauseReader(reading, terms, names)
    sources: dict[str, str] = {}
    for item in segment(text):
        if isinstance(item, Clause):
            for said in (item.sentence, item.text):
                sources.setdefault(said.strip(), item.source)
        else:
            for said, source in item.sources:
                sources.setdefault(said, source)
        try:
            if isinstance(item, Clause):
                reader.read(item)
            else:
                read_table(item, reading, names)
        except Exception as exc:  # a reader defect must fail the sentence, not the run
            quote = item.sentence if isinstance(item, Clause) else item.header_line
            reading.unread.append(Unread(quote, f"reader error {type(exc).__name__}: {exc}"))
    return reading, sources


def _names(reading: Reading) -> NameIndex:
    index = NameIndex(grammar=NOT_NAMES)
    for mention in reading.machines:
        for machine, name in mention.names.items():
            index.add(machine, name)
    for machine, name in [*reading.machine_names, *reading.aside_names]:
        if name:  # a machine of a done operation has none
            index.add(machine, name)
    return index


@lru_cache(maxsize=64)
def read_factory_text(text: str) -> Assembly:
    """Read a factory description without an LLM.

    Two passes: the first finds the machines' names (wherever the text gives them), the
    second reads the text again with them, so that a route may name a machine by its name.
    The result is shared between calls with the same text: treat it as read-only.

    Args:
        text: the free-text description.

    Returns:
        The skeleton, the raw configuration, the unread sentences and where machines are
        declared.
    """
    terms = find_terms(text)
    reading, sources = _read(text, terms, None)
    names = _names(reading)
    if names.names:
        reading, sources = _read(text, terms, names)
    reading.unread.extend(days_apart(text))
    reading.unread.extend(numbers_out_of_order(text))
    reading.unread.extend(reversed_order(text))
    assembly = assemble(reading)
    written = text.replace("\r\n", "\n").replace("\r", "\n")
    return dataclasses.replace(assembly, unread=tuple(
        in_writers_words(unread, written, sources) for unread in assembly.unread))
