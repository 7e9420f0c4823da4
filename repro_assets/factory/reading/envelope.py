"""The envelope of a message: what chat apps and mail clients put around what staff wrote.

Before segmentation, each line loses the wrapping that says who sent it and when, never what
it says:

* quote markers of a mail reply (``> ``, ``>> ``): the quoted lines are read like the others
  (a quoted plan that contradicts the reply is still a conflict); a change of quote depth
  ends the paragraph, as a blank line would;
* a chat line's time stamp and sender (``[07:02] Dana: ...``, ``[26/11, 07:02] Dana: ...``,
  ``26/11/2026, 07:02 - Dana: ...``, and without brackets, ``07:02 Dana: ...`` or ``Dana
  07:02: ...``, when two or more lines of the text start so): the stamp is when the message
  was sent, not a due time, and each message is a sentence of its own;
* mail header fields (``From:``, ``To:``, ``Cc:``, ``Sent:``, ``Date:``) and the line that
  attributes a quote (``On Wed, ... at 4:10 PM Lars wrote:``); a ``Subject:`` line
  is dropped only when it names no machine, no duration and no clock time (``Subject: Re:
  J51 rush``), otherwise its text (without ``Re:``/``Fwd:``) is read like any sentence;
* a reply that only confirms what it quotes (``Confirmed, will do.``) makes each quoted request
  to plan a job (``Could you plan J1 on M1 for 1h?``) the statement it asks for;
* emoji presentation selectors (``➡️`` is the arrow ``➡``) and emphasis marks around words
  (``*J501*``, ``**Total**``).
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import id_pattern
from repro_assets.factory.reading.phrases import (
    DUE_KEYS,
    DUE_KEYS_NEED_BY,
    DUE_PREPOSITIONS,
    FILLERS,
    MEANING_WORDS,
    NOTE_STOP,
    PREPOSITIONS,
    ROUTE_VERBS,
)

_QUOTE_RE = re.compile(r"^\s*((?:>\s?)+)")
_STAMP = r"\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?"
_DATE = r"\d{1,4}[./-]\d{1,2}(?:[./-]\d{1,4})?"
_SENDER = r"[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)?"
# "*J501*", "**Total**", "_M3_": chat and markdown emphasis around a word or an id
_EMPHASIS_RE = re.compile(r"(?<![\w*])(\*{1,2}|_{1,2})(?=[^\s*_])([^*_\n]+?)(?<=\S)\1(?![\w*])")
_CHAT_RE = re.compile(
    rf"^\s*(?:\[(?:{_DATE},?\s*)?{_STAMP}\]|{_DATE},?\s+{_STAMP}\s+[-–]\s+(?={_SENDER}:))"
    rf"\s*(?:{_SENDER}:\s*)?",
    re.IGNORECASE,
)
# a stamp and a sender without brackets, either way round ("07:10 Sven: ...", "Sven 07:10:
# ..."): a chat only when every such line of the text has one and there are two or more
_NAME = rf"(?![MJ][0-9]){_SENDER}"
_BARE_CHAT_RES = (
    re.compile(rf"^\s*{_STAMP}\s+{_NAME}:\s*", re.IGNORECASE),
    re.compile(rf"^\s*{_NAME}\s+{_STAMP}\s*:\s*", re.IGNORECASE),
)
_HEADER_RE = re.compile(r"^\s*(?:from|to|cc|bcc|sent|date)\s*:", re.IGNORECASE)
# "On Wed, Nov 25, 2026 at 4:10 PM Lars <...> wrote:": who wrote the quote below, and when
_ATTRIBUTION_RE = re.compile(r"^\s*On\s.{4,200}\swrote:\s*$")
_SUBJECT_RE = re.compile(r"^\s*subject\s*:\s*(?:(?:re|fwd?|aw|wg)\s*:\s*)*", re.IGNORECASE)
# what a subject line may not carry to be dropped: a machine id, a duration or a clock time
_CONTENT_RE = re.compile(
    r"\bM[0-9]|\d\s*(?:h|hr|hrs|hours?|min|mins|minutes?)\b|\d{1,2}[:.]\d{2}|\d\s*[ap]\.?m\b",
    re.IGNORECASE,
)


# words the reader knows: a line that starts "Due 14:00:" or "14:00 Deadline:" is no message
_NOT_SENDERS = (DUE_KEYS | DUE_KEYS_NEED_BY | DUE_PREPOSITIONS | ROUTE_VERBS | FILLERS
                | MEANING_WORDS | PREPOSITIONS | NOTE_STOP | frozenset({
                    "ship", "ships", "until", "till", "after", "start", "starts", "ready",
                    "delivery", "deliver", "dispatch", "finish", "end", "break", "lunch",
                    "note", "notes", "time", "times", "slot", "release", "released", "plan",
                    "load", "loading", "collect", "collection", "truck", "run", "from"}))


def _sender_of(match: re.Match[str]) -> bool:
    """Whether the words a bare chat prefix takes for the sender can be a name."""
    words = re.findall(r"[A-Za-z][\w.'-]*", re.sub(_STAMP, " ", match.group(0), flags=re.I))
    return bool(words) and not {w.lower().rstrip(".") for w in words} & _NOT_SENDERS


def _bare_chat(lines: list[str]) -> re.Pattern[str] | None:
    """The bracket-less stamp-and-sender form the text's messages share (``07:10 Sven:``),
    when two or more lines start with it and every such line's sender can be a name; None
    otherwise."""
    for pattern in _BARE_CHAT_RES:
        found = [m for line in lines if (m := pattern.match(line)) is not None]
        if len(found) >= 2 and all(_sender_of(m) for m in found):
            return pattern
    return None


def _unwrap(line: str, bare: re.Pattern[str] | None = None) -> tuple[str, int]:
    """The line without its envelope and its quote depth."""
    depth = 0
    quote = _QUOTE_RE.match(line)
    if quote is not None:
        depth = quote.group(1).count(">")
        line = line[quote.end():]
    chat = _CHAT_RE.match(line)
    if chat is None and bare is not None:
        chat = bare.match(line)
    if chat is not None:
        line = line[chat.end():]
    if _HEADER_RE.match(line) or _ATTRIBUTION_RE.match(line):
        return "", depth
    subject = _SUBJECT_RE.match(line)
    if subject is not None:
        rest = line[subject.end():]
        line = rest if _CONTENT_RE.search(rest) else ""
    return _EMPHASIS_RE.sub(r"\2", line).replace("\ufe0f", ""), depth


def _is_message(line: str, bare: re.Pattern[str] | None) -> bool:
    """Whether the line starts a chat message (a stamp, and a sender if any)."""
    line = line[m.end():] if (m := _QUOTE_RE.match(line)) else line
    return bool(_CHAT_RE.match(line) or (bare is not None and bare.match(line)))


# "Could you plan J1 on M1 for 1h?": a request to plan a job, put as a question
_REQUEST_RE = re.compile(
    rf"(?i)^(?:could|can|would|will)\s+you\s+(?:please\s+)?(?:plan|schedule|book|run)\s+"
    rf"(?P<body>{id_pattern('J')}.*?)\s*\?\s*$")
# a reply that only agrees to what it quotes
_CONFIRM_RE = re.compile(
    r"(?i)^\W*(?:(?:confirmed|confirm|will do|ok|okay|sure|yes|agreed|noted|fine|no problem|"
    r"consider it done|done)\W*)+$")


def _confirmed_requests(rows: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The quoted requests of a reply that only confirms them, as the statements they ask
    for (``Confirmed, will do.`` over ``> Could you plan J1 on M1 for 1h?`` is ``J1 on M1 for
    1h.``); the rows unchanged when the reply says anything else or quotes nothing."""
    reply = [line for line, depth in rows if depth == 0 and line.strip()]
    if not reply or not all(_CONFIRM_RE.match(line) for line in reply) or not any(
            depth for _, depth in rows):
        return rows
    out = []
    for line, depth in rows:
        request = _REQUEST_RE.match(line.strip()) if depth else None
        out.append((f"{request.group('body')}." if request else line, depth))
    return out


def unwrap_message(text: str) -> str:
    """``text`` without quote markers, chat stamps, mail header fields and emoji selectors.

    Args:
        text: the description, line ends already normalised to ``\\n``.

    Returns:
        The text to segment; a change of quote depth becomes a blank line.
    """
    return "\n".join(line for line, _ in unwrap_lines(text))


def unwrap_lines(text: str) -> list[tuple[str, int | None]]:
    """The lines of :func:`unwrap_message`, each with the number of the line of ``text`` it
    comes from (None for a blank line put between two quote depths)."""
    out: list[tuple[str, int | None]] = []
    previous_depth = 0
    lines = text.split("\n")
    bare = _bare_chat(lines)
    rows = _confirmed_requests([_unwrap(raw, bare) for raw in lines])
    for number, (raw, (line, depth)) in enumerate(zip(lines, rows, strict=True)):
        if depth != previous_depth and out and out[-1][0].strip():
            out.append(("", None))  # a new quote depth: a new paragraph
        if _is_message(raw, bare) and re.search(r"[\w)]\s*$", line):
            line = line.rstrip() + "."  # a chat message is a sentence of its own
        previous_depth = depth
        out.append((line, number))
    return out
