"""Work instructions: a heading that names one job over numbered ``Step N:`` lines.

A work instruction tells the operator what to do, one step a line, with the machine and the
time somewhere in the sentence (``Step 2: Deburr the edges on M4 (15 min)``). It is rewritten
as the job's list (``J7:`` over ``- M4 15 min``) when it has exactly that form:

* the heading line names exactly one job id and no machine, duration or time of day, and no
  word that changes the meaning (``Work instruction WI-7 (J7)``, ``J7 work instruction``; not
  ``J7 rework instruction if it fails``);
* every line after it, up to a blank line or the end, is ``Step N:`` with N counting up from 1
  (a ``Step 2 (optional):`` line is not of that form, and nothing is rewritten);
* a step whose sentence holds exactly one machine id, exactly one duration, which closes it,
  and otherwise only plain words (no number, no other id, no word that changes the meaning
  such as ``if``, ``or``, ``again``, ``optional``, ``until``, no day, time of day or due word)
  is that machine for that time; any other step is kept as written, for the reader to read or
  to report.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import JOB_ID_RE, id_pattern
from repro_assets.factory.reading.lexicon import DURATION_UNIT, NUMBER_WORDS, Kind, tokenize
from repro_assets.factory.reading.phrases import (
    DUE_KEYS,
    DUE_KEYS_NEED_BY,
    MEANING_WORDS,
    UnreadPhrase,
)

# what the heading may not hold: a machine id, a duration, a time of day, a list
_NOT_A_HEADING_RE = re.compile(
    rf"{id_pattern('M')}|\d\s*(?:{DURATION_UNIT})\b"
    r"|\d{1,2}[:.]\d{2}|\d\s*[ap]\.?m\b|[,;|\t]", re.IGNORECASE)
_STEP_RE = re.compile(r"^\s*step\s+(?P<n>\d{1,2})\s*:\s*(?P<body>\S.*)$", re.IGNORECASE)
# words that join the parts of the sentence without saying anything about the step
_PLAIN_PUNCTUATION = frozenset({Kind.COMMA})
# words that say more than what the step does: a condition, a time for each piece, a day, a
# time of day or a due
_NOT_PLAIN = MEANING_WORDS | DUE_KEYS | DUE_KEYS_NEED_BY | frozenset(NUMBER_WORDS) | frozenset({
    "each", "every", "apiece", "today", "tonight", "tomorrow", "yesterday", "overnight",
    "night", "morning", "afternoon", "evening", "noon", "midday", "midnight", "lunch", "day",
    "days", "week", "weeks", "next", "later", "shift", "by", "until", "monday", "tuesday",
    "wednesday", "thursday", "friday", "saturday", "sunday"})


def _step_text(body: str) -> str:
    """``M4 15 min`` when the step sentence is one machine, one duration and plain words;
    the sentence as written otherwise."""
    try:
        tokens = tokenize(re.sub(r"[()]", " ", body).rstrip(". "))
    except UnreadPhrase:
        return body
    if not tokens or tokens[-1].kind is not Kind.DURATION:
        return body  # "Cut on M1 (1h) tomorrow": the time must close the sentence
    machines = [t for t in tokens if t.kind is Kind.MACHINE]
    durations = [t for t in tokens if t.kind is Kind.DURATION]
    others = [t for t in tokens if t.kind not in (Kind.MACHINE, Kind.DURATION, Kind.WORD)
              and t.kind not in _PLAIN_PUNCTUATION]
    words = {str(t.value) for t in tokens if t.kind is Kind.WORD}
    if (len(machines) != 1 or len(machines[0].value) != 1 or len(durations) != 1 or others
            or words & _NOT_PLAIN):
        return body
    return f"{machines[0].value[0]} {durations[0].text}"


def work_instruction_lines(lines: list[str]) -> None:
    """Rewrite each work instruction in ``lines`` (in place) as its job's list."""
    for index, heading in enumerate(lines):
        jobs = set(JOB_ID_RE.findall(heading))
        if len(jobs) != 1 or _NOT_A_HEADING_RE.search(heading) or _STEP_RE.match(heading) or (
                set(re.findall(r"[a-z]+", heading.lower())) & MEANING_WORDS):
            continue  # "J7 rework instruction, if it fails": the heading is left to the reader
        end = index + 1
        while end < len(lines) and lines[end].strip():
            match = _STEP_RE.match(lines[end])
            if match is None or int(match.group("n")) != end - index:
                break
            end += 1
        if end == index + 1 or (end < len(lines) and lines[end].strip()):
            continue
        lines[index] = f"{jobs.pop()}:"
        lines[index + 1:end] = [f"- {_step_text(_STEP_RE.match(line).group('body'))}"  # type: ignore[union-attr]
                                for line in lines[index + 1:end]]
