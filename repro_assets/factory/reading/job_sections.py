"""A heading that names one job over the lines of its steps, in any writer's format.

Bills of operations (``Part J1 (side panel)`` over ``OP010  M1  run 1.0 h``), tickets with
sub-tasks (``[J1] Pump shaft - Due: 13:00`` over ``J1-1  Turn on M1  Estimate: 2h``) and
recipes (``How we make J1 today:`` over ``First, cut on M4 for three hours.``) all say one
relation: the job, then its machines in order, each with its duration, and maybe its due.
:func:`job_section_lines` rewrites such a section as the job's route on one line (``J1: M1
1.0 h, M2 2 hours, due 13:00``); the same lead of plain words before a job's own route on one
line (``How we make J2: first M2 (2 hours), finally M3 (1 hour)``) is dropped.

Only when the heading names exactly one job and no machine, no duration, at most one due and
otherwise plain words (no status, doubt, change or other day); every line under it, up to a
blank line or a line naming another job, names exactly one machine and one duration, besides
plain words of the work, an operation number, its sub-task number and words of order that
agree with the lines' order (``first`` on the first, ``finally`` on the last); a line of plain
words ending in ``:`` may stand between. Anything else leaves the section as written, for the
reader to read or to report.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import ANY_ID_RE, JOB_ID_RE, MACHINE_ID_RE, id_pattern
from repro_assets.factory.reading.phrases import is_plain_note

_TIME = r"\d{1,2}[:.]\d{2}|\d{1,2}\s*[ap]\.?m\.?|noon|midday"
_DUE_RE = re.compile(
    rf"(?i)(?:\bdue|\bready\s+by|\bdeliver(?:y|ed)?\s+by)\s*:?\s*(?:today\s+)?"
    rf"(?P<time>{_TIME})(?![\w:])")
_NO_DUE_RE = re.compile(r"(?i)\bno\s+due(?:\s+(?:date|time))?\b")
_DURATION_RE = re.compile(
    r"(?i)(?<![\w.])\d+(?:\.\d+)?\s*(?:h|hrs?|hours?)(?:\s*\d{1,2}\s*(?:m|min|mins|minutes)?)?"
    r"(?![\w])|(?<![\w.])\d+\s*(?:m|min|mins|minutes)(?!\w)")
_OPERATION_RE = re.compile(r"(?i)^\s*(?:[-*\u2022]\s+)?(?:op\s*)?(?P<number>\d{1,4})\b\.?\s*")
_ORDER_RE = re.compile(
    r"(?i)^\s*(?P<word>first|next|then|after\s+that|afterwards|finally|lastly|last)\b[\s,:]*")
_FIRST, _LAST = frozenset({"first"}), frozenset({"finally", "lastly", "last"})
_LABELS_RE = re.compile(r"(?i)\b(?:estimate|est|run|time|duration|hrs|hours)\s*:")
#: words that make a heading more than a title: a status, a change, a copy, another day
_NOT_A_TITLE = frozenset({
    "remove", "removed", "delete", "deleted", "drop", "dropped", "move", "moved", "swap",
    "swapped", "replace", "replaced", "change", "changed", "update", "updated", "add", "added",
    "cancel", "stop", "stopped", "undo", "old", "previous", "draft", "copy", "template",
    "example", "sample", "test", "waiting", "blocked", "backlog", "parked", "closed",
    "deferred", "yesterday", "next", "last", "ignore", "ignored", "forget", "was", "were",
    "any", "each", "pc", "pcs", "piece", "pieces", "unit", "units", "ea", "lot", "qty",
    "setup", "set", "teardown", "queue", "transit", "transport", "soon", "later", "asap",
    "urgent", "eventually", "sometime", "someday", "alternative", "alternatives", "option",
    "options", "choice", "choices", "candidate", "candidates", "one", "spare",
})
_LEAD_RE = re.compile(
    rf"^(?P<indent>\s*)(?P<lead>[A-Za-z][A-Za-z' ]*?)\s+(?={id_pattern('J')}\s*:)")


def _is_title(words: str) -> bool:
    """True when ``words`` only name or describe the job (``Part``, ``(side panel)``)."""
    found = set(re.findall(r"[a-z]+", words.lower()))
    return not re.search(r"\d|\?", words) and is_plain_note(words) and not found & _NOT_A_TITLE


def heading_due(line: str) -> tuple[str, str | None] | None:
    """A heading without its one due (``Job J1  (due 16:00)``) and the due as written; the
    heading as it is when it has none; None when it has several or says it has none."""
    dues = list(_DUE_RE.finditer(line))
    if len(dues) > 1 or _NO_DUE_RE.search(line):
        return None
    if not dues:
        return line, None
    rest = _DUE_RE.sub(" ", line)
    rest = re.sub(r"\(\s*\)|\s+[-\u2013,|]\s*$", " ", rest).rstrip()
    return rest, dues[0].group("time")


def _heading(line: str) -> tuple[str, str | None] | None:
    """The job and the due (as written) of a section's heading, or None."""
    jobs = set(JOB_ID_RE.findall(line))
    if len(jobs) != 1 or MACHINE_ID_RE.search(line) or _DURATION_RE.search(line):
        return None
    dues = list(_DUE_RE.finditer(line))
    if len(dues) > 1 or (dues and _NO_DUE_RE.search(line)):
        return None
    rest = _NO_DUE_RE.sub(" ", _DUE_RE.sub(" ", line))
    rest = re.sub(r"(?i)\btoday\b", " ", JOB_ID_RE.sub(" ", rest))
    if not _is_title(rest):
        return None
    return jobs.pop(), dues[0].group("time") if dues else None


def _numbers(lines: list[str], job: str) -> list[int]:
    """The operation or sub-task numbers the lines start with (each line has one, or none)."""
    found = []
    for line in lines:
        match = re.match(rf"^\s*{re.escape(job)}-(\d{{1,3}})\b", line) or _OPERATION_RE.match(
            line)
        if match is not None:
            found.append(int(match.group(1)))
    return found if len(found) == len(lines) else []


def _step(line: str, job: str, position: int, count: int) -> str | None:
    """The step a section's line gives (``M1 2h`` as written), or None."""
    text = re.sub(rf"^\s*{re.escape(job)}-\d{{1,3}}\b", " ", line)  # a sub-task's number
    text = _OPERATION_RE.sub(" ", text, count=1)
    order = _ORDER_RE.match(text)
    if order is not None:
        word = order.group("word").lower()
        if (word in _FIRST) != (position == 0) or (word in _LAST and position != count - 1):
            return None
        text = text[order.end():]
    machines = MACHINE_ID_RE.findall(text)
    durations = list(_DURATION_RE.finditer(text))
    if len(machines) != 1 or len(durations) != 1 or ANY_ID_RE.search(
            MACHINE_ID_RE.sub(" ", text)) or text[durations[0].end():].lstrip()[:1] == "/":
        return None
    rest = _LABELS_RE.sub(" ", MACHINE_ID_RE.sub(" ", _DURATION_RE.sub(" ", text)))
    if not _is_title(rest):
        return None
    return f"{machines[0]} {durations[0].group(0)}"


def _body(lines: list[str], start: int) -> int:
    """The line after the section whose heading is at ``start``."""
    def indent(line: str) -> int:
        return len(line) - len(line.lstrip())

    end = start + 1
    if end < len(lines) and re.match(r"\s*[-*\u2022]\s", lines[start]) and indent(
            lines[end]) <= indent(lines[start]):
        return end  # a list item's own list is nested under it
    while end < len(lines) and lines[end].strip():
        if end > start + 1 and indent(lines[end]) < indent(lines[start + 1]):
            break  # back out of the section's indent
        if re.sub(rf"{id_pattern('J')}-\d{{1,3}}\b", " ", lines[end]) != lines[end]:
            end += 1  # a sub-task's number: its job is checked with the step
            continue
        if JOB_ID_RE.search(lines[end]):
            break
        end += 1
    return end


def job_section_lines(lines: list[str]) -> None:
    """Rewrite, in place, each section of one job's steps under its heading as the job's
    route on one line, and drop a lead of plain words before a job's own route line."""
    index = 0
    while index < len(lines):
        lead = _LEAD_RE.match(lines[index])
        if lead is not None and MACHINE_ID_RE.search(lines[index]) and _is_title(
                lead.group("lead")) and not re.search(r"(?i)\btoday\b", lead.group("lead")):
            lines[index] = lead.group("indent") + lines[index][lead.end():]
        heading = _heading(lines[index])
        if heading is None:
            index += 1
            continue
        end = _body(lines, index)
        body = [line for line in lines[index + 1:end]
                if not (line.rstrip().endswith(":") and _is_title(line))]
        if len({len(line) - len(line.lstrip()) for line in body}) > 1:
            index += 1  # a line nested under a step: a part of it or an alternative to it,
            continue    # not the next step
        steps = [_step(line, heading[0], position, len(body))
                 for position, line in enumerate(body)]
        numbers = _numbers(body, heading[0])
        if numbers != sorted(set(numbers)) or len(numbers) not in (0, len(body)):
            index += 1
            continue  # operations numbered out of their lines' order
        if not steps or None in steps or any(
                re.search(rf"{id_pattern('J')}-", line) and not line.strip().startswith(
                    f"{heading[0]}-") for line in body):
            index += 1
            continue
        if any(re.search(r"(?i)\dh\s*\d{1,2}\s*m$", step or "") for step in steps):
            steps = [re.sub(r"(\d)\s*m$", r"\1 min", step or "") for step in steps]
        route = f"{heading[0]}: {', '.join(step for step in steps if step)}"
        if heading[1] is not None:
            route += f", due {heading[1]}"
        lines[index:end] = [route]
        index += 1
