"""Segmentation: a factory description → clauses and tables, each with its source text.

* Tables: a run of lines with ``|`` cells (markdown separator rows dropped, wiki ``||``
  headers), CSV/TSV/semicolon blocks (a header line whose cells are routing columns, then the
  rows, read with :mod:`csv`), fixed-width reports (columns apart by two spaces or more under
  a header of routing columns), and rows without a header whose every column holds one kind
  of cell (job ids, machine ids, durations with their unit, clock times). Header-less pipe or
  tab rows that start with a job id but are no such table become one sentence per row
  (``J1: M1 2h -> M2 1h, due 13:00``), read strictly like any other sentence.
* Lines: each bullet or numbered item is a group of its own (indented continuation lines
  join it); other lines are groups too, except that a line starting in lower case (or after a
  line ending with ``,``, an arrow, ``then`` or ``and``) continues the previous line.
* A line ending with ``:`` (or a line that is one job id) and followed by list items is the
  items' header (``J1:`` or ``J1`` over ``- M1 2h`` / ``- M2 1h``).
* Sentences end at ``.``, ``!`` or ``?`` followed by a space (not inside parentheses, not
  after ``a.m.``/``p.m.``/``e.g.`` before a lower-case word); a sentence splits into clauses
  at ``;``.

A blank line ends a paragraph. Groups and paragraphs bound the context that pronouns
(``It takes 2 hours there``) and subject-less clauses (``Due at 3pm.``) refer to.
"""

from __future__ import annotations

import csv
import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from repro_assets.factory.ids import JOB_ID_RE, MACHINE_ID_RE, id_pattern
from repro_assets.factory.reading.backward import backward_lines
from repro_assets.factory.reading.calendar import drop_other_days
from repro_assets.factory.reading.charts import chart_lines
from repro_assets.factory.reading.chat import chat_lines
from repro_assets.factory.reading.columns import (
    Column,
    header_roles,
    infer_roles,
    is_routing_header,
    looks_like_header,
)
from repro_assets.factory.reading.copies import copy_sentences
from repro_assets.factory.reading.dates import drop_plan_date
from repro_assets.factory.reading.envelope import unwrap_lines
from repro_assets.factory.reading.instructions import work_instruction_lines
from repro_assets.factory.reading.job_sections import heading_due, job_section_lines
from repro_assets.factory.reading.keys import key_lines
from repro_assets.factory.reading.lexicon import DURATION_UNIT
from repro_assets.factory.reading.machine_lists import machine_list_lines
from repro_assets.factory.reading.markup import markup_table_lines
from repro_assets.factory.reading.matrices import (
    bracketed_unit,
    caption_unit,
    empty_mark,
    flow_order,
    is_matrix,
    with_unit_and_order,
)
from repro_assets.factory.reading.orientation import is_job_header, transposed
from repro_assets.factory.reading.outlines import tree_lines
from repro_assets.factory.reading.parallel import label_lines, respectively_sentence
from repro_assets.factory.reading.phrases import is_plain_note
from repro_assets.factory.reading.precedence import precedence_line
from repro_assets.factory.reading.provenance import TracedLines
from repro_assets.factory.reading.records import record_line
from repro_assets.factory.reading.shift_length import spell_out_shifts
from repro_assets.factory.reading.slots import slot_lines
from repro_assets.factory.reading.structured import plain_text
from repro_assets.factory.reading.topics import topic_sentences
from repro_assets.factory.reading.travelers import traveler_lines
from repro_assets.factory.reading.work_orders import work_order_lines

# "1. J1 ...", "a) J1 ...", "1 - J1 ..." (a dash after the number only before a job id)
_BULLET_RE = re.compile(r"^(?P<indent>\s*)(?:[-*•‣▪◦]|\d{1,3}[.)]|\(?[a-z][)]"
                        r"|\d{1,3}\s+[-–](?=\s+J\d)"
                        r"|(?i:priority|prio|line|item|pos|position|rank)\.?\s*#?\d{1,3}\s*[-–:]"
                        r"(?=\s+J\d))\s+(?P<body>.*)$")
# "- [ ] J1: ...": the empty box of a checklist item still to do (a ticked box, "[x]", stays:
# a job done is not planned, and the reader reports the item)
_OPEN_BOX_RE = re.compile(r"^\[ \]\s+")
# "+J142 M142 1h": a plus glued to the job id that starts a line adds that job's line
_ADDED_JOB_RE = re.compile(rf"^(\s*)\+(?={id_pattern('J')})")
_FRACTIONS = {"\u00bd": ".5", "\u00bc": ".25", "\u00be": ".75"}
#: From a run's first digit only: every start inside a long run of digits scanned it (quadratic).
_FRACTION_RE = re.compile(r"(?<!\d)(\d*)([\u00bd\u00bc\u00be])")
# "3/4 h", "1/2 hour", "1 1/2 hours": a half or quarters written with a slash, before a unit of
# hours only (a date such as "3/4" stays as it is)
_SLASH_FRACTION_RE = re.compile(
    r"(?<![\w/.])(?:(?P<whole>\d{1,2})\s+)?(?P<part>1/2|1/4|3/4)(?=\s*(?:h|hrs?|hours?)\b)")
_SLASH_PARTS = {"1/2": 0.5, "1/4": 0.25, "3/4": 0.75}
# a heading of words only over the lines below it ("Cancelled:", "Next week:", a board's column
# "== Done ==", a Markdown heading "## On hold")
_SECTION_RE = re.compile(r"[A-Za-z][A-Za-z' ,./&()-]*:|={2,}\s*[A-Za-z][A-Za-z' ,./&()-]*={2,}"
                         r"|#{1,6}\s+[A-Za-z][A-Za-z' ,./&()-]*"
                         r"|[A-Za-z][A-Za-z']*(?: [A-Za-z][A-Za-z']*){0,3}")  # "ON HOLD"
#: Heading words that put the lines below out of the plan: work done, stopped or uncertain ...
STATUS_WORDS = frozenset({
    "done", "finished", "completed", "complete", "shipped", "delivered", "cancelled",
    "canceled", "hold", "postponed", "paused", "waiting", "parked", "backlog", "blocked",
    "not", "dropped", "removed", "deferred", "stopped", "closed", "if",
    "unless", "maybe", "perhaps", "possibly", "optional", "tentative",
})
#: ... or another day, unless every job of the text stands under it (then it is the plan's day).
OTHER_DAY_RE = re.compile(
    r"(?i)\b(?:yesterday|tomorrow|(?:next|last|previous)\s+(?:week|weekend|month|shift|day|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b")
# Markdown strikethrough on one line: what it strikes out is withdrawn
_STRUCK_RE = re.compile(r"~~[^~\n]+~~")
# German hours after a number: "2 Std.", "1,5 Stunden" (never "a std route": a digit first)
_GERMAN_HOURS_RE = re.compile(r"(\d)\s*(?:Std\.?|Stunden?)(?![\w.])", re.IGNORECASE)
_PIPE_SEPARATOR_RE = re.compile(r"^\s*:?-{2,}:?\s*$")
_CONTINUES_RE = re.compile(r"(?:,|->|→|=>|\bthen|\band)\s*$", re.IGNORECASE)
_ABBREVIATIONS = ("a.m", "p.m", "e.g", "i.e", "etc", "approx", "vs")
CSV_DELIMITERS = (",", ";", "\t")
_FIXED_WIDTH_RE = re.compile(r"\s{2,}")


@dataclass(frozen=True)
class Clause:
    """One clause of running text.

    Attributes:
        text: the clause as written (trailing sentence punctuation removed).
        sentence: the whole sentence it belongs to, for quoting.
        group: number of its line or list item.
        paragraph: number of its paragraph (blank lines separate paragraphs).
        header: the text of the list header it sits under (``J1:``), if any.
        item: True inside a bullet or numbered item.
        section: the heading line of words (``Cancelled:``) above it, up to a blank line.
        first_in_sentence: True for the first clause of its sentence.
        question: True when its sentence ends with ``?``.
        source: the writer's words of its sentence, before any line pass rewrote them.
    """

    text: str
    sentence: str
    group: int
    paragraph: int
    header: str | None = None
    item: bool = False
    first_in_sentence: bool = True
    question: bool = False
    section: str | None = None  # the heading line (``Cancelled:``) its lines stand under
    source: str = ""  # the writer's words the sentence was read from


@dataclass(frozen=True)
class Table:
    """A table of rows under a header row (markdown/pipe table or CSV/TSV lines).

    Attributes:
        header: the header cells.
        rows: the data rows (cells), each with the line it came from.
        header_line: the header line as written.
        routing: True when every header cell is a known routing column.
        section: a heading of status above it (``Cancelled:``): its rows are no work to plan.
        sources: each of its lines as read, with the writer's words it came from.
        turned: written with its jobs as columns, and turned so that they are rows.
    """

    header: tuple[str, ...]
    rows: tuple[tuple[tuple[str, ...], str], ...]
    header_line: str
    routing: bool
    section: str | None = None
    sources: tuple[tuple[str, str], ...] = ()
    turned: bool = False


Segment = Clause | Table


# a line that is one job id (with its name in parentheses) heads the list under it: "J1"
_JOB_ONLY_RE = re.compile(rf"(?:[Jj]ob\s+)?{id_pattern('J')}\s*(?:\([^()]*\))?")


def _pipe_cells(line: str) -> list[str] | None:
    stripped = line.strip().replace("||", "|")  # wiki markup: "|| Job || Route ||" headers
    if stripped.count("|") < 2 and not (stripped.startswith("|") and stripped.count("|") >= 1):
        return None
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|"):
        stripped = stripped[:-1]
    return [cell.strip() for cell in stripped.split("|")]


def _csv_cells(line: str, delimiter: str) -> list[str]:
    """The cells of a delimited line; a quote left open (a ditto mark ``"``, inches ``3"``)
    is a character of its cell, never a quoted cell that swallows the cells after it."""
    if line.count('"') % 2 == 0:
        rows = csv.reader([line], delimiter=delimiter)
    else:
        rows = csv.reader([line], delimiter=delimiter, quoting=csv.QUOTE_NONE)
    return [cell.strip() for cell in next(rows)]


def _csv_header(line: str) -> str | None:
    for delimiter in CSV_DELIMITERS:
        if delimiter in line and looks_like_header(
                [cell for cell in _csv_cells(line, delimiter) if cell]):
            return delimiter
    return None


def _without_empty_columns(header: list[str], rows: list[tuple[tuple[str, ...], str]]
                           ) -> tuple[list[str], list[tuple[tuple[str, ...], str]]]:
    """Drop the columns that are empty in the header and in every row (a spreadsheet's
    blank first column pasted with the cells: ``\tJob\tMachine``)."""
    empty = {index for index, cell in enumerate(header) if not cell and all(
        index < len(cells) and not cells[index] for cells, _ in rows)}
    if not empty:
        return header, rows
    keep = [index for index in range(len(header)) if index not in empty]
    return ([header[i] for i in keep],
            [(tuple(cells[i] for i in keep if i < len(cells)), line) for cells, line in rows])


def _split_sentences(text: str) -> list[tuple[list[str], bool]]:
    """Sentences of ``text``, each a list of clauses (split at ``;``) and whether the
    sentence is a question."""
    sentences: list[tuple[list[str], bool]] = []
    clause_start = 0
    clauses: list[str] = []
    depth = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and char == ";":
            clauses.append(text[clause_start:index])
            clause_start = index + 1
        elif depth == 0 and char in ".!?":
            after = text[index + 1:index + 2]
            before = text[max(0, index - 6):index].lower()
            abbreviation = any(before.endswith(a) for a in _ABBREVIATIONS)
            rest = text[index + 1:].lstrip()
            if (after == "" or after.isspace()) and not (
                abbreviation and rest[:1].islower()
            ):
                clauses.append(text[clause_start:index])
                sentences.append((clauses, char == "?"))
                clauses = []
                clause_start = index + 1
        index += 1
    tail = text[clause_start:]
    question = tail.rstrip().endswith("?")
    if tail.strip():
        clauses.append(tail.rstrip().rstrip("?") if question else tail)
    if clauses:
        sentences.append((clauses, question))
    return [([c.strip() for c in s if c.strip()], asked) for s, asked in sentences
            if any(c.strip() for c in s)]


# a transcript line: words and ids with no punctuation at all
_PUNCTUATION_RE = re.compile(r"[.,;:!?()\[\]|\t–>→=/]|(?<![A-Za-z])-|-(?![A-Za-z])")
# where a new job statement starts in a transcript: "... job J2 ...", "... M3 J2 runs",
# "... two hours J2 ...", "... today J2 runs ..."
_TRANSCRIPT_BREAK_RE = re.compile(
    r"(?<=\S)\s+(?=(?i:job)\s+J\d)"
    r"|(?<=\bM\d)\s+(?=J\d)|(?<=\bM\d\d)\s+(?=J\d)|(?<=\bM\d\d\d)\s+(?=J\d)"
    r"|(?i:(?<=hours)|(?<=hour)|(?<=minutes)|(?<=today)|(?<=tonight))\s+(?:and\s+)?(?=J\d)"
    r"|(?<=\S)\s+(?=(?i:we|i)\s+(?i:have|got)\s+M\d)"  # "... two hours we have M1 M2"
)
_FILLERS_RE = re.compile(r"(?i)\b(?:um+|uh+|erm|er|hmm+)\b\s*")
_OPENERS_RE = re.compile(r"(?i)^\s*(?:(?:ok|okay|right|so|well|alright)\s+)+(?=J\d)")
# a hesitation in speech ("for, uh, three hours", "on M1 for um two hours"), with the commas a
# transcriber put around it; only the lower-case or capitalized word, never glued to another
# ("UH-60", "Uhr", "umbrella")
_SPOKEN_FILLER_RE = re.compile(
    r"(?P<before>,\s*)?(?<![\w-])(?:[Uu]h+|[Uu]m+|[Ee]rm+|[Hh]mm+|er)(?![\w'-])"
    r"(?P<after>\s*,)?[ \t]*")
# words a comma never follows in speech: a filler's comma after them is the transcriber's
_BINDING_WORDS = frozenset({
    "a", "about", "after", "an", "and", "around", "at", "before", "by", "for", "from", "in",
    "into", "is", "of", "on", "onto", "over", "the", "then", "to", "until", "with",
})


# "Plan three hours for it." / "Allow 2h for this job.": a sentence of its own that gives the
# time of the job named before, as "It takes three hours." does
_ALLOW_FOR_IT_RE = re.compile(
    r"(?i)(?:^|(?<=[.!?]\s))(?:please\s+)?(?:plan|allow|budget|reserve|book)\s+"
    r"(?P<d>(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|an?)\s*"
    r"(?:hours?|hrs?|h|minutes?|mins?))\s+for\s+(?:it|this\s+job|that\s+job)"
    r"(?=\s*(?:[.!]|$))")


def _allow_for_it(line: str) -> str:
    """``Plan three hours for it.`` written as ``it takes three hours.``"""
    return _ALLOW_FOR_IT_RE.sub(lambda m: f"It takes {m.group('d')}", line)


# the words that open a spoken statement before its job ("Right, J1.", "So J1 goes on M1 ..."),
# at the start of a sentence only
_SPOKEN_OPENERS_RE = re.compile(
    r"(?i)(?:^|(?<=[.!?]\s))(?:(?:ok|okay|right|so|well|alright|and)\s*,?\s+)+(?=J\d)")
_QUOTES = ('"', "\u201c", "\u201d")


def _unquoted(lines: list[str]) -> list[str]:
    """The lines with the quotation marks around a whole quoted passage removed (a transcript
    given in quotes: the opening mark starts a line, the closing one ends a line, and no other
    double quote stands between them)."""
    out = list(lines)
    for start, line in enumerate(lines):
        if not line.lstrip().startswith(_QUOTES):
            continue
        count = 0
        for end in range(start, len(lines)):
            count += sum(lines[end].count(mark) for mark in _QUOTES)
            if count > 2:
                break
            if count == 2 and lines[end].rstrip().endswith(_QUOTES):
                first = out[start].lstrip()
                out[start] = out[start][:len(out[start]) - len(first)] + first[1:]
                last = out[end].rstrip()
                out[end] = last[:-1]
                break
    return out


def _without_fillers(line: str) -> str:
    """A line without the hesitations of speech (``uh``, ``um``, ``erm``, ``hmm``) and the
    words that open a statement before its job (``Right, J1.``): a filler between commas
    leaves one comma (``M1, uh, M2`` is a list) unless the word before binds to what follows
    (``finished by, uh, two`` is ``finished by two``)."""

    def replace(match: re.Match[str]) -> str:
        if match.group("before") is None:
            return ""
        previous = re.search(r"(\w+)\s*$", line[:match.start()])
        if previous is not None and previous.group(1).lower() in _BINDING_WORDS:
            return " "
        return ", "

    return _SPOKEN_OPENERS_RE.sub("", _SPOKEN_FILLER_RE.sub(replace, line))


# "J2, that's just M2, one hour": a speaker's apposition after a job says what the job is
_JOB_APPOSITION_RE = re.compile(
    rf"(?P<job>{id_pattern('J')}),\s+(?:that's|that is|which is|it's)\s+(?=\S)",
    re.IGNORECASE)


def _job_apposition(line: str) -> str:
    """``J2, that's just M2`` as ``J2: just M2``."""
    return _JOB_APPOSITION_RE.sub(lambda m: f"{m.group('job')}: ", line)


def _transcript_sentences(line: str) -> str:
    """A voice transcript's line (no punctuation, eight words or more) without hesitation
    words and with a sentence break before each statement it runs on into (``... M718 job J2
    goes ...``, ``... two hours and J3 ...``, ``... one hour we have M1 M2``)."""
    if _PUNCTUATION_RE.search(line) or len(line.split()) < 8:
        return line
    line = _FILLERS_RE.sub("", line)  # "J2 uh M1 two hours": hesitations say nothing
    line = _OPENERS_RE.sub("", line)  # "right so J2 ...": the job opens the statement
    return _TRANSCRIPT_BREAK_RE.sub(". ", line)


@dataclass
class _Group:
    text: str
    paragraph: int
    item: bool
    header: str | None
    indent: int = 0
    section: str | None = None
    origin: frozenset[int] = frozenset()  # the writer's lines it was read from


def _headerless(rows: list[tuple[tuple[str, ...], str]]) -> Table | None:
    """A table of ``rows`` that has no header row, when its columns say what they are."""
    names = infer_roles([list(cells) for cells, _ in rows])
    if names is None:
        return None
    return Table(tuple(names), tuple(rows), rows[0][1], True)


def _fixed_width_cells(line: str) -> list[str]:
    return [cell for cell in _FIXED_WIDTH_RE.split(line.strip()) if cell]


_JOB_START_RE = re.compile(rf"^{id_pattern('J')}")
_JOB_CELL_RE = re.compile(rf"^{id_pattern('J')}$")


#: A cell that is nothing but a time of day with a colon or am/pm (``15:00``, ``3pm``);
#: ``2.00`` may be hours and stays out.
_CLOCK_CELL_RE = re.compile(r"(?i)\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?")


def _row_cells(line: str) -> list[str] | None:
    """The cells of a header-less pipe, tab or semicolon row, or of a comma row written as a
    CSV export writes it (no space after any comma); None: not such a row."""
    if "|" in line:
        return _pipe_cells(line)
    for delimiter in ("\t", ";"):
        if delimiter in line:
            return [c.strip() for c in line.split(delimiter)]
    if "," in line and not re.search(r",\s", line.rstrip()):
        return [c.strip() for c in line.split(",")]
    return None


def _clock_column(rows: list[list[str]]) -> int | None:
    """The last column of header-less job rows when it holds only bare times of day or
    nothing (``J1 | M1 2h | 15:00`` over ``J2 | M2 1h |``), with at least one time: the
    rows' due column. None when any row has a cell after it or another kind of cell in it."""
    width = max(len(cells) for cells in rows)
    for index in range(width - 1, 0, -1):
        column = [cells[index] if index < len(cells) else "" for cells in rows]
        if not any(column):
            continue
        if all(not cell or _CLOCK_CELL_RE.fullmatch(cell) for cell in column):
            return index
        return None
    return None


_DUE_WORDS_RE = re.compile(r"(?i)\b(?:due|deadlines?|ship|shipping|dispatch|deliver|delivery|"
                           r"ready|collect(?:ion|ed)?)\b")
#: Words that may make a time of day something other than a due (a start, a release).
_OTHER_TIME_RE = re.compile(r"(?i)\b(?:start\w*|begin\w*|releas\w*|earliest|arriv\w*|"
                            r"availab\w*|from|load\w*|setup|set-up|clock(?:ed)?)\b")


def _times_may_be_dues(lines: list[str], start: int, end: int) -> bool:
    """Whether a last column of bare times in the rows ``lines[start:end]`` may be their due
    column: a heading right above them (a line ending with a colon) must name a due, and no
    other line may speak of start, release or arrival times."""
    above = lines[start - 1].strip() if start > 0 else ""
    if above.endswith(":") and not _DUE_WORDS_RE.search(above):
        return False
    return not any(_OTHER_TIME_RE.search(line) for index, line in enumerate(lines)
                   if not start <= index < end)


def _rows_as_sentences(lines: list[str], start: int) -> None:
    """Rewrite a run of header-less pipe, tab or semicolon rows that each start with one job
    id (``J5 | M7 3h -> M8 1h | due 11:00``) as sentences (``J5: M7 3h -> M8 1h, due
    11:00``), unless their columns say what they are (then they are a table): the clause
    reader then reads each row strictly, like any other sentence about a job. A last column
    of bare times of day (:func:`_clock_column`) is the rows' due column."""
    end = start
    rows: list[tuple[str, list[str]]] = []
    while end < len(lines) and lines[end].strip():
        line = lines[end]
        cells = _row_cells(line)
        if cells is None or len(cells) < 2 or not _JOB_CELL_RE.match(cells[0]):
            break
        rows.append((line, cells))
        end += 1
    if not rows:
        return
    due = _clock_column([cells for _, cells in rows]) if _times_may_be_dues(
        lines, start, end) else None
    rewritten = []
    for line, cells in rows:
        marked = [f"due {c}" if i == due and c else c for i, c in enumerate(cells)]
        rest = [c for c in marked[1:] if c and not _PIPE_SEPARATOR_RE.match(c)]
        rewritten.append((line, cells, f"{cells[0]}: {', '.join(rest)}"))
    if infer_roles([cells for _, cells, _ in rewritten]) is not None:
        return
    if start > 0 and lines[start - 1].strip() and (
            _pipe_cells(lines[start - 1]) is not None or "\t" in lines[start - 1]
            or len(_row_cells(lines[start - 1]) or []) >= 2):
        return  # rows under a header row: a table
    for offset, (_, _, sentence) in enumerate(rewritten):
        lines[start + offset] = sentence


def _one_pipe_cells(line: str) -> list[str] | None:
    """The two cells of a line with one pipe and no outer pipes (``J1 | M1 > M2``)."""
    stripped = line.strip()
    if stripped.count("|") != 1 or stripped.startswith("|") or stripped.endswith("|"):
        return None
    return [cell.strip() for cell in stripped.split("|")]


def _two_column_table(lines: list[str], start: int) -> tuple[Table | None, int]:
    """A table of two columns apart by one pipe under a routing header (``Job | Route``):
    one pipe between two cells is a table only below such a header, never between steps."""
    header = _one_pipe_cells(lines[start])
    if header is None or not is_routing_header(header):
        return None, start
    end = start + 1
    rows: list[tuple[tuple[str, ...], str]] = []
    while end < len(lines) and (row := _one_pipe_cells(lines[end])) is not None:
        rows.append((tuple(row), lines[end].strip()))
        end += 1
    if not rows:
        return None, start
    return Table(tuple(header), tuple(rows), lines[start].strip(), True), end


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
             "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6}
# "Step 2", "Op 3", "First step", "2nd operation": a group label over one step's columns
_STEP_GROUP_RE = re.compile(
    r"(?i)^(?:(?:step|op|operation)\s*#?\s*(?P<n>\d{1,2})"
    r"|(?P<ord>first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th)\s+"
    r"(?:step|op|operation))$")
# the sub-column under a step group: its machine, or its duration in hours or minutes
_STEP_PARTS = {"machine": "Step", "machine id": "Step", "resource": "Step", "station": "Step",
               "hours": "Hrs", "hrs": "Hrs", "h": "Hrs", "minutes": "Min", "min": "Min",
               "mins": "Min"}


def _group_number(label: str) -> int | None:
    match = _STEP_GROUP_RE.match(label.strip())
    if match is None:
        return None
    return int(match.group("n")) if match.group("n") else _ORDINALS[match.group("ord").lower()]


def _merged_header(group: list[str], sub: list[str]) -> list[str] | None:
    """The header of a Markdown table whose header spans two rows: a row of group labels
    (a label spans the empty cells right of it, as a merged cell does) over the row of column
    names. Under a step group (``Step 1``, ``First step``) the machine and duration columns
    become ``Step 1`` / ``Hrs 1``; any other label is kept before the column name it stands
    over (``Cutting`` over ``M3 (h)`` is ``Cutting M3 (h)``), so a label that says more than a
    name leaves the column unknown. None when the rows do not fit."""
    if len(group) != len(sub) or not any(group) or not group[0] and not sub[0]:
        return None
    merged: list[str] = []
    label = ""
    for top, name in zip(group, sub, strict=True):
        if top:
            label = top
        number = _group_number(label) if label else None
        if number is not None:
            part = _STEP_PARTS.get(name.strip().lower())
            if part is None:
                return None
            merged.append(f"{part} {number}")
        else:
            merged.append(f"{label} {name}" if label and name else name or label)
    return merged


def _two_row_header_table(lines: list[str], start: int) -> tuple[Table | None, int]:
    """A Markdown table whose header spans the two rows above its separator row."""
    if start + 3 >= len(lines):
        return None, start
    group, sub = _pipe_cells(lines[start]), _pipe_cells(lines[start + 1])
    separator = _pipe_cells(lines[start + 2])
    if group is None or sub is None or separator is None or not all(
            _PIPE_SEPARATOR_RE.match(cell) for cell in separator if cell):
        return None, start
    header = _merged_header(group, sub)
    if header is None or not is_routing_header(header):
        return None, start
    end = start + 3
    rows: list[tuple[tuple[str, ...], str]] = []
    while end < len(lines) and (row := _pipe_cells(lines[end])) is not None:
        rows.append((tuple(row), lines[end].strip()))
        end += 1
    if not rows:
        return None, start
    return Table(tuple(header), tuple(rows), lines[start].strip(), True), end


def _pipe_table(lines: list[str], start: int) -> tuple[Table | None, int]:
    """A pipe table starting at ``lines[start]`` and the index after it (or None, start)."""
    cells = _pipe_cells(lines[start])
    if cells is None or len(cells) < 2:
        return _two_column_table(lines, start)
    two_rows, after = _two_row_header_table(lines, start)
    if two_rows is not None:
        return two_rows, after
    end = start
    rows: list[tuple[tuple[str, ...], str]] = []
    open_end = not lines[start].strip().endswith("|")
    while end < len(lines) and (row := _pipe_cells(lines[end])) is not None:
        if open_end and end > start and len(row) == len(cells) - 1 \
                and lines[end].strip().endswith("|"):
            row = [*row, ""]  # "J2 | M3 | 45 |" under a header without outer pipes
        if end > start and not all(_PIPE_SEPARATOR_RE.match(c) for c in row if c):
            rows.append((tuple(row), lines[end].strip()))
        end += 1
    if not rows:
        return None, start
    if not looks_like_header(cells) and not is_routing_header(cells):
        headerless = _headerless([(tuple(cells), lines[start].strip()), *rows])
        if headerless is not None:
            return headerless, end
    return Table(tuple(cells), tuple(rows), lines[start].strip(),
                 is_routing_header(cells)), end


def _csv_table(lines: list[str], start: int) -> tuple[Table | None, int]:
    """A CSV/TSV table with a header row at ``lines[start]``, or a header-less one whose
    columns say what they are; the index after it (or None, start)."""
    delimiter = _csv_header(lines[start])
    if delimiter is not None:
        header = _csv_cells(lines[start], delimiter)
        end = start + 1
        rows: list[tuple[tuple[str, ...], str]] = []
        while end < len(lines) and lines[end].strip() and delimiter in lines[end]:
            row = _csv_cells(lines[end], delimiter)
            rows.append((tuple(row), lines[end].strip()))
            end += 1
        if rows:
            header, rows = _without_empty_columns(header, rows)
            return Table(tuple(header), tuple(rows), lines[start].strip(),
                         is_routing_header(header)), end
    for delimiter in CSV_DELIMITERS:
        end = start
        rows = []
        while end < len(lines) and lines[end].strip() and delimiter in lines[end]:
            rows.append((tuple(_csv_cells(lines[end], delimiter)), lines[end].strip()))
            end += 1
        if len(rows) >= 2 and (headerless := _headerless(rows)) is not None:
            return headerless, end
    return None, start


_SPAN_RE = re.compile(r"\S+(?: \S+)*")


def _wrapped_header(first: str, second: str) -> list[str] | None:
    """A header wrapped over two lines, as a PDF pastes it (``Work order  Work   Run`` over
    ``            centre   hours``): each word cell of the second line joins the header
    cell it stands under (their columns overlap); None when the second line holds anything
    but words or a cell stands under no header cell."""
    top = [(m.start(), m.end(), m.group(0)) for m in _SPAN_RE.finditer(first)]
    below = [(m.start(), m.end(), m.group(0)) for m in _SPAN_RE.finditer(second)]
    if len(top) < 3 or not below or not all(
            re.fullmatch(r"[A-Za-z][A-Za-z ./#()]*", text) for _, _, text in below):
        return None
    merged = [text for _, _, text in top]
    for start, end, text in below:
        under = [i for i, (a, b, _) in enumerate(top) if start < b + 2 and a < end + 2]
        if len(under) != 1:
            return None
        merged[under[0]] = f"{merged[under[0]]} {text}"
    return merged


def _fixed_width_table(lines: list[str], start: int) -> tuple[Table | None, int]:
    """A fixed-width table (columns apart by runs of spaces) with a header row at
    ``lines[start]`` (or wrapped over it and the next line); the index after it (or None,
    start)."""
    header = _fixed_width_cells(lines[start])
    end = start + 1
    if not is_routing_header(header) and end < len(lines):
        wrapped = _wrapped_header(lines[start], lines[end])
        if wrapped is not None and is_routing_header(wrapped):
            header, end = wrapped, end + 1
    if len(header) < 3 or not looks_like_header(header):
        return None, start
    rows: list[tuple[tuple[str, ...], str]] = []
    while end < len(lines) and len(row := _fixed_width_cells(lines[end])) >= 2:
        row = _padded_row(row, lines[end], lines[start], len(header))
        rows.append((tuple(row), lines[end].strip()))
        end += 1
    if not rows:
        return None, start
    return Table(tuple(header), tuple(rows), lines[start].strip(),
                 is_routing_header(header)), end


_HEADER_CELL_RE = re.compile(r"\S+(?: \S+)*")


def _jobs_across_table(lines: list[str], start: int) -> tuple[Table | None, int]:
    """A table whose header row is a corner cell and job ids only, over rows of a label and
    one cell per job: apart by a delimiter (``op;J1;J2``) or in fixed-width columns with an
    empty corner (``M1   2   .   1`` under ``     J1   J2   J3``); the index after it (or
    None, start), turned by :func:`~.orientation.transposed`: a header of jobs whose rows
    it cannot turn is no table here."""
    splits: list[Callable[[str], list[str]]] = [
        lambda line, d=delimiter: _csv_cells(line, d)  # type: ignore[misc]
        for delimiter in CSV_DELIMITERS if delimiter in lines[start]]
    if lines[start][:1].isspace():
        splits.append(lambda line: ["", *_fixed_width_cells(line)] if line[:1].isspace()
                      else _fixed_width_cells(line))
    for split in splits:
        header = split(lines[start])
        if not is_job_header(header):
            continue
        end = start + 1
        rows: list[tuple[tuple[str, ...], str]] = []
        while end < len(lines) and lines[end].strip() and len(
                row := split(lines[end])) == len(header):
            rows.append((tuple(row), lines[end].strip()))
            end += 1
        turned = transposed(Table(tuple(header), tuple(rows), lines[start].strip(), False))
        if rows and turned is not None:
            return turned, end
    return None, start


def _padded_row(row: list[str], line: str, header_line: str, width: int) -> list[str]:
    """A fixed-width row with its empty last cells (``J2   1   M5   2.00`` under a header
    that ends with ``Due``): the row's text ends before the first header cell it lacks, so
    the cells it has are the first ones. Any other short row is left as it is."""
    starts = [match.start() for match in _HEADER_CELL_RE.finditer(header_line)]
    if len(starts) != width or len(row) >= width or len(line.rstrip()) >= starts[len(row)]:
        return row
    return [*row, *([""] * (width - len(row)))]


_SLASH_RE = re.compile(r"\s+/\s+")
# "op 10" and "30 min" are one cell each when a line's cells are apart by single spaces
_JOINED_RE = re.compile(
    r"(?i)\b(?P<a>(?:op|oper|opn|operation|seq|step)\.?|\d+(?:[.,]\d+)?)\s+"
    r"(?P<b>#?\d+\b|(?:h|hr|hrs|hours?|min|mins|minutes?|s|sec|secs|seconds?)\b)")


def _spaced_cells(line: str) -> list[str]:
    joined = _JOINED_RE.sub(
        lambda m: m.group("a") + m.group("b")
        if m.group("a")[0].isdigit() != m.group("b").lstrip("#")[0].isdigit()
        else m.group(0), line.strip())
    return joined.split()


def _delimited_table(lines: list[str], start: int) -> tuple[Table | None, int]:
    """Header-less rows whose cells are apart by `` / `` (``J1 / op 10 / M1 / 2h``) or by
    single spaces (``J1 op10 M1 30min``), when every column says what it is
    (:func:`~repro_assets.factory.reading.columns.infer_roles`): rows read as a table,
    one step each; rows apart by spaces need an operation column (``op10``)."""
    for split, needs_step in ((_SLASH_RE.split, False), (_spaced_cells, True)):
        end = start
        rows: list[tuple[tuple[str, ...], str]] = []
        while end < len(lines) and lines[end].strip():
            cells = [cell.strip() for cell in split(lines[end].strip())]
            if len(cells) < 3:
                break
            rows.append((tuple(cells), lines[end].strip()))
            end += 1
        while len(rows) >= 2:  # the longest run of rows from the start
            names = infer_roles([list(cells) for cells, _ in rows])
            if names is not None and (not needs_step or "step" in names):
                return Table(tuple(names), tuple(rows), rows[0][1], True), start + len(rows)
            rows.pop()
    return None, start


def _table_at(lines: list[str], start: int) -> tuple[Table | None, int]:
    """A table starting at ``lines[start]`` and the index after it (or None, start)."""
    for reader in (_pipe_table, _csv_table, _fixed_width_table, _jobs_across_table,
                   _delimited_table):
        table, end = reader(lines, start)
        if table is not None:  # jobs as columns: the same table with jobs as rows
            return transposed(table) or table, end
    return None, start


_DUE_HEADING_RE = re.compile(
    r"(?i)^\s*(?:due(?:\s+(?:dates?|times?|hours?))?|deadlines?|ship(?:ping)?\s+times?|"
    r"dispatch(?:\s+times?)?|due\s+by)\s*:?\s*$")
_DUE_ROW_RE = re.compile(
    rf"^(?P<lead>\s*(?:[-*•]\s+)?)(?P<jobs>{id_pattern('J')}(?:\s*(?:,|&|and)\s*"
    rf"{id_pattern('J')})*)\s*(?:[-–—:|=]\s*)?"
    # a time of day: "14:00", "4pm", "4 p.m.", "1400", "noon" (never "2h", a duration)
    r"(?P<time>(?:\d{1,2}[:.]\d{2}|\d{1,2}\s*[ap]\.?m\b\.?|\d{4}|noon\b|midday\b).*)$",
    re.IGNORECASE)


_MACHINE_FIELD_RE = re.compile(
    r"(?i)^(?P<indent>\s*(?:[-*•]\s+)?)(?:machine|station|resource|work\s?cent(?:er|re)|wc)"
    rf"\s*:\s*(?P<machine>{id_pattern('M')})\s*$")
_TIME_FIELD_RE = re.compile(
    r"(?i)^\s*(?:[-*•]\s+)?(?:(?P<hours>hours|hrs|hr|h)|(?P<minutes>minutes|mins|min)|time|"
    r"duration)\s*:\s*(?P<value>\d+(?:\.\d+)?(?:\s*[a-z]+)?)\s*$")


def _field_pairs(lines: list[str]) -> None:
    """A step written as two field lines (``Station: M22`` over ``Hrs: 2``) becomes one line
    (``M22 2h``): the machine field, then the time field right under it; a bare number takes
    the unit its field names (a ``Time:`` number without a unit is left as written)."""
    index = 0
    while index + 1 < len(lines):
        machine = _MACHINE_FIELD_RE.match(lines[index])
        time = _TIME_FIELD_RE.match(lines[index + 1])
        if machine is None or time is None:
            index += 1
            continue
        value = time.group("value")
        if re.fullmatch(r"\d+(?:\.\d+)?", value):
            if time.group("hours"):
                value += "h"
            elif time.group("minutes"):
                value += " min"
            else:
                index += 1
                continue
        lines[index] = f"{machine.group('indent')}{machine.group('machine')} {value}"
        del lines[index + 1]
        index += 1


def _due_heading_rows(lines: list[str]) -> None:
    """Under a heading that names what the lines give (``Deadlines``, ``Due times:``), rows
    of a job and a time (``J1 - 14:00``, ``- J2: 4pm``) are due times: each row is rewritten
    as a sentence with the heading's keyword (``J1 due 14:00``) and the heading dropped.
    Every row up to the next blank line must have that form, else nothing is rewritten."""
    for index, line in enumerate(lines):
        if not _DUE_HEADING_RE.match(line):
            continue
        end = index + 1
        rows = []
        while end < len(lines) and lines[end].strip():
            match = _DUE_ROW_RE.match(lines[end])
            if match is None:
                break
            rows.append(f"{match.group('lead')}{match.group('jobs')} due {match.group('time')}")
            end += 1
        if not rows or (end < len(lines) and lines[end].strip() and not _starts_section(
                lines[end])):
            continue
        lines[index] = ""
        lines[index + 1:end] = rows


# what a heading over one job's table may not hold: a machine id, a duration, a time of day
_NOT_A_HEADING_RE = re.compile(
    rf"{id_pattern('M')}|\d\s*(?:{DURATION_UNIT})\b"
    r"|\d{1,2}[:.]\d{2}|\d\s*[ap]\.?m\b|[,;|\t]", re.IGNORECASE)


def _jobless_header(line: str) -> tuple[list[str], str] | None:
    """The cells of a header line that lacks only a job column, and how its cells are apart
    (a delimiter, or ``"  "`` for fixed width); None when it is no such header."""
    for delimiter in CSV_DELIMITERS:
        if delimiter in line:
            cells = _csv_cells(line, delimiter)
            return (cells, delimiter) if is_routing_header(["Job", *cells]) else None
    cells = _fixed_width_cells(line)
    if len(cells) >= 2 and is_routing_header(["Job", *cells]):
        return cells, "  "
    return None


_QUANTITY_RE = re.compile(r"(?i)\b(?:qty|quantity)\s*:?\s*(?P<n>\d+)\b(?:\s*(?:pcs|pieces|units))?"
                          r"|\b(?P<m>\d+)\s*(?:pcs|pieces|units)\b")
_QUANTITY_LABELS = frozenset({"qty", "quantity", "pcs"})


def _heading_quantity(heading: str) -> str | None:
    """The one quantity a job's heading states (``Qty 60 pcs``, ``60 pieces``), or None."""
    found = [m.group("n") or m.group("m") for m in _QUANTITY_RE.finditer(heading)]
    return found[0] if len(found) == 1 else None


def _job_heading_tables(lines: list[str]) -> None:
    """A table of one job's operations under a heading that names that job and nothing else
    (``Routing export  Order: J1`` over ``Op  Work center  Run (min)``): the header has no
    job column, so the job of the heading becomes one (``Job`` and the id before every row),
    and the table is read as any routing table. Only when the heading names exactly one job
    id and no machine, duration or time, and the header with the job column is a routing
    header. A quantity in the heading (``WORK ORDER J1  Qty 60 pcs``) becomes a ``Qty``
    column too, when the table has none (a time per piece then counts for every piece)."""
    index = -1
    while (index := index + 1) < len(lines) - 2:
        without_due = heading_due(lines[index])
        heading = without_due[0] if without_due else lines[index]
        jobs = set(JOB_ID_RE.findall(heading))
        if len(jobs) != 1 or _NOT_A_HEADING_RE.search(heading):
            continue
        found = _jobless_header(lines[index + 1])
        if found is None or is_routing_header(found[0]):
            continue
        apart = found[1]
        end = index + 2
        while end < len(lines) and lines[end].strip() and (
                apart.strip() == "" or apart in lines[end]) and not (
                JOB_ID_RE.search(lines[end]) and not MACHINE_ID_RE.search(lines[end])):
            end += 1  # up to a blank line or the next job's heading ("Job J2")
        if end == index + 2:
            continue
        job = next(iter(jobs))
        due = without_due[1] if without_due else None
        if due is not None:
            lines[index] = heading
            lines.insert(index, f"{job} due {due}")  # "Job J1  (due 16:00)": its due
            index += 1
            end += 1
        columns = [jobs.pop()]
        quantity = _heading_quantity(heading)
        if quantity is not None and not any(
                cell.strip().lower() in _QUANTITY_LABELS for cell in found[0]):
            columns.append(quantity)
            title = _QUANTITY_RE.sub(" ", JOB_ID_RE.sub(" ", heading))
            if not re.search(r"\d", title) and is_plain_note(title):
                lines[index] = ""  # all it says is now in the table
        labels = ["Job", "Qty"][:len(columns)]
        if apart.strip():
            lines[index + 1] = apart.join([*labels, lines[index + 1]])
            lines[index + 2:end] = [apart.join([*columns, row]) for row in lines[index + 2:end]]
        else:
            widths = [max(len(cell), 3) + 3 for cell in columns]
            lines[index + 1] = "".join(
                label.ljust(w) for label, w in zip(labels, widths, strict=True)) + lines[
                    index + 1]
            lines[index + 2:end] = ["".join(cell.ljust(w) for cell, w in zip(
                columns, widths, strict=True)) + row for row in lines[index + 2:end]]


_INLINE_DUE_RE = re.compile(
    r"(?i)^\s*(?:due(?:\s+(?:dates?|times?|hours?))?|deadlines?|ship(?:ping)?\s+times?)\s*:"
    r"\s*(?P<pairs>.+)$")
_DUE_PAIR_RE = re.compile(
    rf"(?i)^\s*(?P<job>{id_pattern('J')})\s*(?:[-\u2013:=]\s*|at\s+|by\s+)?"
    r"(?P<time>\d{1,2}[:.]\d{2}|\d{1,2}\s*[ap]\.?m\.?|noon|midday)\s*$")


def _inline_due_rows(lines: list[str]) -> None:
    """A line of due times for several jobs (``Due: J1 11:00, J2 17:00``) becomes one line
    per job (``J1 due 11:00``); only when every part between commas or semicolons is one
    job and one time of day."""
    index = 0
    while index < len(lines):
        match = _INLINE_DUE_RE.match(lines[index])
        parts = re.split(r"[,;]", match.group("pairs")) if match else []
        pairs = [_DUE_PAIR_RE.match(part) for part in parts]
        if len(pairs) >= 2 and all(pairs):
            rows = [f"{pair.group('job')} due {pair.group('time')}" for pair in pairs if pair]
            lines[index:index + 1] = rows
            index += len(rows)
            continue
        index += 1


_ORDER_DUE_RE = re.compile(
    r"(?i)^\s*(?:sales\s+|purchase\s+|customer\s+)?(?:order|po|so)\s*(?:no\.?|nr\.?|#)?\s*\d+"
    r"(?:\s*\([^()]*\))?\s*[,:\-\u2013]?\s*(?:all\s+)?due\s+(?:by\s+|at\s+)?"
    r"(?P<time>\d{1,2}[:.]\d{2}|\d{1,2}\s*[ap]\.?m\.?)\s*:?\s*$")
_ITEM_LINE_RE = re.compile(r"^(?:\s+|\s*[-*\u2022]\s+)\S")


def _order_due_rows(lines: list[str]) -> None:
    """An order heading with one due time over its items (``Order 55 (Acme), due 16:00`` over
    indented or bulleted lines of one job each) gives every item that due: the heading is
    dropped and ``, due 16:00`` added to each item. An item that states a due of its own, or
    names no job or several, leaves the heading as it is (read, and reported, as a clause)."""
    for index, line in enumerate(lines):
        match = _ORDER_DUE_RE.match(line)
        if match is None:
            continue
        end = index + 1
        while end < len(lines) and _ITEM_LINE_RE.match(lines[end]):
            end += 1
        items = lines[index + 1:end]
        if not items or any(len(JOB_ID_RE.findall(item)) != 1
                            or re.search(r"(?i)\b(?:due|by|ship|ships|before)\b", item)
                            for item in items):
            continue
        lines[index] = ""
        lines[index + 1:end] = [f"{item.rstrip().rstrip('.')}, due {match.group('time')}"
                                for item in items]


def _starts_section(line: str) -> bool:
    """A line that begins something new after a block of rows: a heading (no digits, at most
    four words) or a line that ends with ``:``."""
    stripped = line.strip()
    return stripped.endswith(":") or (
        not re.search(r"\d", stripped) and len(stripped.split()) <= 4)


_MACHINE_HEADER_RE = re.compile(
    r"^(?:(?i:machine|station|resource|work\s?cent(?:er|re)|wc)\s+)?"
    rf"(?P<machine>{id_pattern('M')})(?:\s*\([^()]*\))?(?P<words>(?:\s+[A-Za-z][\w-]*){{0,3}})"
    r"\s*:$")
# words after a machine's id that make its section something else than its queue of jobs
_NOT_A_QUEUE = frozenset({"not", "no", "except", "without", "skip", "skips", "down", "off",
                          "broken", "instead", "or", "backup", "spare", "done", "finished",
                          "completed", "complete", "shipped", "cancelled", "canceled", "hold"})
_MACHINE_ITEM_RE = re.compile(
    rf"^(?P<jobs>{id_pattern('J')}(?:\s*(?:,|&|and)\s*{id_pattern('J')})*)\s*"
    r"(?:[:\-–—]\s*)?(?P<rest>(?:\(|for\s+)?\d.*)$")


def _under_machine(header: str | None, body: str) -> str:
    """An item under a machine's own section (``M1 (saw) queue:`` over ``- J1 2h``) is that
    job's step on the machine (``J1: M1 2h``); a job listed under two sections then has two
    routes, a conflict the reader reports (the order of the sections is no route)."""
    if header is None:
        return body
    section = _MACHINE_HEADER_RE.match(header.strip())
    item = _MACHINE_ITEM_RE.match(body)
    if section is None or item is None or set(
            section.group("words").lower().split()) & _NOT_A_QUEUE:
        return body
    return f"{item.group('jobs')}: {section.group('machine')} {item.group('rest')}"


_STEP_LINE_RE = re.compile(r"(?i)^(?:step|op|operation)\s*#?\s*\d{1,3}\s*[:.)\-–]\s*\S")


# a lower-case line that opens a statement of its own ("machines are M4 and M5")
_OPENER_RE = re.compile(r"(?i)^(?:machines?|jobs|orders|work\s?cent(?:er|re)s)\b")
_LEAD_RE = re.compile(r"(?i)^(?:and\s+)?(?:then|next|after\s+that|afterwards|finally)\b")


def _continues_job_line(previous: _Group | None, paragraph: int,
                        bullet: re.Match[str]) -> bool:
    """Whether an indented bullet that starts with ``then`` / ``next`` / ``finally`` goes on
    with the route of the job line right above it (``J1: M1 2h`` over ``  - then M2 1h``)."""
    return (previous is not None and not previous.item and previous.paragraph == paragraph
            and len(bullet.group("indent")) > 0 and _JOB_START_RE.match(previous.text) is not None
            and _LEAD_RE.match(bullet.group("body").strip()) is not None)


def _under_a_step(previous: _Group | None, header: str | None, header_indent: int | None,
                  indent: int) -> bool:
    """Whether a bullet stands deeper than the item above it in a job's nested list (``- J1``
    over ``  - M1 2h`` over ``    - M3 1h``): under a step, not beside it (a part of that step,
    an alternative to it), so it is given no job and the reader reports it."""
    return (header_indent is not None and previous is not None and previous.item
            and previous.header == header and header_indent < previous.indent < indent)


def _indented_item(previous: _Group | None, header: str | None, header_indent: int | None,
                   indent: int, line: str = "") -> bool:
    """True when an indented line without a bullet is an item of the header line above it
    (``J1`` / ``J1:`` over ``  M1 2h``): right under the header, or under an item of it
    indented alike. A line that starts with a step label (``Step 1: M150 2h``) is an item
    without an indent too."""
    if indent == 0 and _STEP_LINE_RE.match(line.strip()):
        indent = -1  # not indented, but an item all the same
    if previous is None or header is None or header_indent is not None or indent == 0:
        return False
    if previous.item:
        return previous.header == header and previous.indent == max(indent, 0)
    return previous.text == header


def _join(previous: _Group, line: str) -> bool:
    """Append ``line`` to the group above it; True when the joined line, outside a list,
    now ends with a colon (a heading over the lines below)."""
    previous.text = f"{previous.text} {line.strip()}"
    return not previous.item and previous.text.endswith(":")


def _plain_and_written(text: str) -> tuple[str, list[str]]:
    """The text with line ends, spaces and quotes made plain and a JSON or YAML paste made
    sentences, and the writer's lines a refusal quotes (the sentences of such a paste)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    written = text.split("\n")
    text = text.replace("\u00a0", " ").replace("\u2019", "'").replace("\ufeff", "")  # a BOM
    text = plain_text(text)  # a JSON or YAML paste: the sentences it stands for
    if text.count("\n") + 1 != len(written):
        written = text.split("\n")
    return text, written


def segment(text: str) -> list[Segment]:
    """Split a factory description into clauses and tables, in order.

    Args:
        text: the description.

    Returns:
        :class:`Clause` and :class:`Table` items in reading order.
    """
    text, written = _plain_and_written(text)
    text = _FRACTION_RE.sub(  # "1½h" is "1.5h", "¾ h" is "0.75 h"
        lambda m: f"{m.group(1) or 0}{_FRACTIONS[m.group(2)]}", text)
    text = _SLASH_FRACTION_RE.sub(  # "1 1/2 hours" is "1.5 hours"
        lambda m: f"{int(m.group('whole') or 0) + _SLASH_PARTS[m.group('part')]:g}", text)
    text = _GERMAN_HOURS_RE.sub(r"\1 h", text)  # "2 Std." is "2 h"
    text = _STRUCK_RE.sub("", text)  # "due ~~14:00~~ 16:00": struck out, no longer said
    unwrapped = unwrap_lines(text)
    traced = TracedLines(
        [_allow_for_it(_transcript_sentences(_without_fillers(
            _job_apposition(topic_sentences(copy_sentences(respectively_sentence(precedence_line(record_line(
                _ADDED_JOB_RE.sub(r"\1", line))))))))))
         for line in _unquoted(drop_plan_date([line for line, _ in unwrapped]))],
        [frozenset() if number is None else frozenset({number}) for _, number in unwrapped],
        written)
    lines: list[str] = traced
    markup_table_lines(lines)
    tree_lines(lines)
    label_lines(lines)
    backward_lines(lines)
    chat_lines(lines)
    key_lines(lines)
    drop_other_days(lines)
    spell_out_shifts(lines)
    chart_lines(lines)
    slot_lines(lines)
    machine_list_lines(lines)
    traveler_lines(lines)
    work_order_lines(lines)
    job_section_lines(lines)
    _job_heading_tables(lines)
    work_instruction_lines(lines)
    _due_heading_rows(lines)
    _inline_due_rows(lines)
    _order_due_rows(lines)
    _field_pairs(lines)
    items: list[_Group | Table] = []
    paragraph = 0
    header: str | None = None
    header_indent: int | None = None  # the indent of a list item that heads a nested list
    section: str | None = None  # a heading of words over the lines up to a blank line
    index = 0
    while index < len(lines):
        _rows_as_sentences(lines, index)
        line = lines[index]
        if not line.strip():
            paragraph += 1
            section = None
            index += 1
            continue
        table, after = _table_at(lines, index)
        if table is not None:
            table, after = _table_words(table, items, lines, index, after)
        if table is not None:
            if section is not None and set(re.findall(r"[a-z]+", section.lower())) & (
                    STATUS_WORDS):
                table = dataclasses.replace(table, section=section)  # "Cancelled:" over it
            table = dataclasses.replace(table, sources=_table_sources(table, traced, index,
                                                                      after))
            items.append(table)
            paragraph += 1
            header, header_indent = None, None
            index = after
            continue
        bullet = _BULLET_RE.match(line)
        previous = items[-1] if items and isinstance(items[-1], _Group) else None
        indent = len(line) - len(line.lstrip())
        if bullet is None and _indented_item(previous, header, header_indent, indent, line):
            paragraph += 1  # "J1" over "  M1 2h" / "  Due: 15:00": items without bullets
            items.append(_Group(_under_machine(header, line.strip()), paragraph, True, header,
                                indent, section))
        elif bullet is not None and _continues_job_line(previous, paragraph, bullet):
            assert previous is not None  # "J1: M1 2h" over "  - then M2 1h": one route
            previous.text = f"{previous.text}, {bullet.group('body').strip()}"
        elif bullet is not None:
            paragraph += 1
            indent = len(bullet.group("indent"))
            if header_indent is not None and indent <= header_indent:
                header, header_indent = None, None  # back out of a job's nested list
            body = _under_machine(header, _OPEN_BOX_RE.sub("", bullet.group("body").strip()))
            items.append(_Group(body, paragraph, True, None if _under_a_step(
                previous, header, header_indent, indent) else header, indent, section))
            if _JOB_ONLY_RE.fullmatch(body):
                header, header_indent = body, indent  # "- J1" over "  - M1 2h"
        elif previous is not None and previous.paragraph == paragraph and (
            (previous.item and len(line) - len(line.lstrip()) > previous.indent)
            or (not previous.item and ((line.lstrip()[:1].islower()
                                        and not _OPENER_RE.match(line.lstrip()))
                                       or _CONTINUES_RE.search(previous.text)))
        ):
            if _join(previous, line):
                header, header_indent = previous.text, None  # "Hi all,\nfor J1 plan:"
        else:
            if previous is not None and previous.item:
                paragraph += 1
            stripped = line.strip()
            header = stripped if stripped.endswith(":") or _JOB_ONLY_RE.fullmatch(
                stripped) else None
            header_indent = None
            if _SECTION_RE.fullmatch(stripped):
                section = stripped  # "Cancelled:" over the lines up to a blank line
            items.append(_Group(stripped, paragraph, False, None, section=section))
        group = items[-1]
        assert isinstance(group, _Group)  # the line went to the group last opened or joined
        group.origin |= traced.origins[index]
        index += 1
    return _segments(items, traced)


def _table_sources(table: Table, traced: TracedLines, start: int, after: int
                   ) -> tuple[tuple[str, str], ...]:
    """Each line of a table as read, with the writer's words it came from; a row the table
    was turned into (jobs as columns) comes from the writer's whole table."""
    sources = [(traced[k].strip(), traced.writers_text(traced.origins[k]))
               for k in range(start, after)]
    known = {line for line, _ in sources}
    whole = traced.writers_text(frozenset().union(*traced.origins[start:after]))
    return (*sources, *[(line, whole) for line in
                        (table.header_line, *[line for _, line in table.rows])
                        if line not in known])


def _caption_above(items: list[_Group | Table], lines: list[str], start: int,
                   turned: bool) -> tuple[str | None, int]:
    """The caption of a matrix: the prose line right above it, or the two lines right above
    it read as one, when it gives the cells' unit; the caption and how many lines it has."""
    for count in (1, 2):
        groups = items[-count:]
        if len(groups) < count or start < count or not all(
                isinstance(group, _Group) and not group.item
                and lines[start - count + k].strip() == group.text
                for k, group in enumerate(groups)):
            return None, 0
        caption = " ".join(group.text for group in groups if isinstance(group, _Group))
        if caption_unit(caption, turned) is not None:
            return caption, count
    return None, 0


# a bare number in parentheses after a machine in a route cell: "M4 (2)"
_BRACKETED_NUMBER_RE = re.compile(r"(?<=\S)(\s*)\((\d+(?:\.\d+)?)\)")


#: A ditto mark: the cell says again what the cell above it says.
_DITTO_MARKS = frozenset({'"', "''", "\u201d", "\u201c", "\u3003", "ditto", "do.", "-do-"})
#: Marks that are also how an export writes an empty text: a ditto only under its legend.
_DITTO_MARKS_WITH_LEGEND = frozenset({"''"})
_DITTO_LEGEND_RE = re.compile(
    r"(?i)^\(?\s*(?:\"|''|\u201d|\u201c|\u3003|ditto|do\.)\s*(?:=|means?|:)\s*(?:the\s+)?"
    r"same(?:\s+\w+)?\s+as\s+(?:in\s+)?the\s+(?:line|row|cell)\s+above\s*\)?\.?$")


_DITTO_KEY_RE = re.compile(r"(?i)^\(?\s*(?:\"|''|\u201d|\u201c|\u3003|ditto|do\.)\s*(?:=|means?|:)")


def _ditto_marks(table: Table, lines: list[str], after: int) -> tuple[Table, int]:
    """A table with each ditto mark (``"``) replaced by the cell above it in its column, and
    the legend of the mark right under it (``(" = same job as the line above)``) taken out of
    the text; a mark with nothing above it, or every mark when a legend under the table gives
    it another meaning, stays for the reader to refuse."""
    rows = list(table.rows)
    for number in range(1, len(rows)):
        cells, line = rows[number]
        above = rows[number - 1][0]
        if len(above) != len(cells):
            continue
        rows[number] = (tuple(
            above[k] if cell.strip().lower() in _DITTO_MARKS and above[k].strip().lower() not in (
                _DITTO_MARKS | {""}) else cell for k, cell in enumerate(cells)), line)
    if tuple(rows) == table.rows:
        return table, after
    under = lines[after].strip() if after < len(lines) else ""
    legend = _DITTO_LEGEND_RE.match(under) is not None
    if not legend and _DITTO_KEY_RE.match(under):
        return table, after  # a legend that gives the mark another meaning: marks left
    if not legend and any(cell.strip() in _DITTO_MARKS_WITH_LEGEND
                          for cells, _ in table.rows[1:] for cell in cells):
        return table, after  # '' may be an empty text: without a legend, marks left
    return dataclasses.replace(table, rows=tuple(rows)), after + legend


def _table_words(table: Table, items: list[_Group | Table], lines: list[str], start: int,
                 after: int) -> tuple[Table, int]:
    """A table with the words right above (and, for a matrix, under) it that say what its
    numbers are: a matrix's caption and flow (:func:`_matrix_words`), or a caption that gives
    the unit of the bare numbers in parentheses of its route cells (``(hours in
    parentheses)``), taken out of the text when it is read; the table and where the text
    goes on."""
    table, after = _ditto_marks(table, lines, after)
    if is_matrix(table):
        return _matrix_words(table, items, lines, start, after)
    roles = header_roles(list(table.header))
    caption = items[-1] if items and isinstance(items[-1], _Group) else None
    if caption is None or caption.item or start == 0 or lines[start - 1].strip() != (
            caption.text) or Column.ROUTE not in roles:
        return table, after
    unit = bracketed_unit(caption.text)
    if unit is None:
        return table, after
    suffix = " h" if unit == "hours" else " min"
    rows = tuple((tuple(_BRACKETED_NUMBER_RE.sub(rf"\1(\2{suffix})", cell)
                        if role is Column.ROUTE else cell
                        for cell, role in zip(cells, roles, strict=False)), line)
                 for cells, line in table.rows)
    if rows == table.rows:
        return table, after
    items.pop()
    return dataclasses.replace(table, rows=rows), after


def _matrix_words(table: Table, items: list[_Group | Table], lines: list[str], start: int,
                  after: int) -> tuple[Table, int]:
    """A routing matrix with the words right above and under it that say what its numbers are
    and the order of its machines: the caption line(s) above (its unit, a legend of the empty
    cell, the flow's order) and a flow sentence under it (``All jobs go M3 first, then M1
    ...``), each taken out of the text when it is read; the table and where the text goes on."""
    caption, count = _caption_above(items, lines, start, table.turned)
    unit = caption_unit(caption, table.turned) if caption is not None else None
    order = flow_order(lines[after]) if after < len(lines) else None
    rewritten = with_unit_and_order(table, unit, order,
                                    empty_mark(caption) if caption is not None else None)
    if rewritten is None or (unit is None and order is None):
        return table, after
    del items[len(items) - count:]
    return rewritten, after + (order is not None)


def _off_plan_sections(items: list[_Group | Table]) -> None:
    """Keep, on the groups, only the headings that put their lines out of the plan: a word of
    status (``Cancelled:``, ``Done:``), or of another day (``Tomorrow:``) when some job stands
    elsewhere in the text (a heading over every job names the plan's own day)."""
    groups = [item for item in items if isinstance(item, _Group)]
    kept: set[str] = set()
    for section in {group.section for group in groups if group.section is not None}:
        words = set(re.findall(r"[a-z]+", section.lower()))
        elsewhere = len(groups) < len(items) or any(
            group.section != section and JOB_ID_RE.search(group.text) for group in groups)
        if words & STATUS_WORDS or (OTHER_DAY_RE.search(section) and elsewhere):
            kept.add(section)
    for group in groups:
        if group.section not in kept:
            group.section = None


def _writers_sentences(text: str, count: int) -> list[str] | None:
    """The writer's ``text`` split into sentences as the rewritten text was, when it has
    ``count`` of them."""
    found = ["; ".join(clauses).strip() for clauses, _ in _split_sentences(text)]
    if len(found) != count:
        return None
    return [said if said in text or count > 1 else text for said in found]


def _segments(items: list[_Group | Table], traced: TracedLines) -> list[Segment]:
    """The tables and the clauses of the groups, in order, each with the writer's words."""
    _off_plan_sections(items)
    segments: list[Segment] = []
    for number, item in enumerate(items):
        if isinstance(item, Table):
            segments.append(item)
            continue
        writer = traced.writers_text(item.origin)
        sentences = _split_sentences(item.text)
        own = _writers_sentences(writer, len(sentences)) if writer else None
        for place, (sentence, question) in enumerate(sentences):
            whole = "; ".join(sentence)
            source = own[place] if own is not None else writer
            for position, clause in enumerate(sentence):
                segments.append(
                    Clause(
                        text=clause.rstrip(".!? "),
                        sentence=whole,
                        group=number,
                        paragraph=item.paragraph,
                        header=item.header,
                        item=item.item,
                        first_in_sentence=position == 0,
                        question=question,
                        section=item.section,
                        source=source,
                    )
                )
    return segments
