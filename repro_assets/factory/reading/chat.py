"""What a chat thread adds around its messages: pictures of feelings, reactions, who wrote when.

A team chat pasted as it shows (``Priya  6:41 AM`` over each message, emoji and ``:shortcodes:``
in the text, a line of reaction counts ``:+1: 3   :eyes: 1`` under it) says nothing about the
plan in those parts. :func:`chat_lines` removes them: an emoji or a shortcode becomes a space,
a line left with nothing but counts goes, and a message's header (a name and the clock time it
was sent, in a thread of at least two such headers) goes.

A mark of work done or not to do (a check mark, a cross, ``:white_check_mark:``, ``:x:``) is
kept as written: it is a status the reader refuses. A header is only a name of one or two
capitalised words that is no word of time (``Due 4:00 PM`` stays), and a time of day.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import ANY_ID_RE
from repro_assets.factory.reading.provenance import rebuild

# pictures: the emoji blocks and the dingbats and symbols, without the marks of a status
_STATUS_MARKS = "\u2611\u2612\u2713\u2714\u2715\u2716\u2717\u2718\u2705\u274c\u274e"
_EMOJI_RE = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b50\u2b55\u2934\u2935\u3030\u303d\u3297\u3299]"
    "[\ufe0f\u200d\U0001f3fb-\U0001f3ff]*")
_JOINERS_RE = re.compile("[\ufe0f\u200d]")
_SHORTCODE_RE = re.compile(r"(?<!\S):(?:[a-z][a-z0-9_+-]*|\+1|-1):(?!\S)")
_STATUS_CODES = frozenset({":white_check_mark:", ":heavy_check_mark:", ":ballot_box_with_check:",
                           ":x:", ":negative_squared_cross_mark:", ":heavy_multiplication_x:",
                           ":no_entry:", ":no_entry_sign:", ":warning:", ":question:",
                           ":grey_question:", ":thinking_face:", ":thinking:"})
_COUNTS_RE = re.compile(r"^[\s\d]*$")
_HEADER_RE = re.compile(
    r"^\s*(?P<name>[A-Z][a-z]+(?:\s[A-Z][a-z.]*)?)\s+\d{1,2}:\d{2}\s*(?:[AaPp]\.?[Mm]\.?)?\s*$")
_TIME_WORDS = frozenset({
    "due", "deadline", "ship", "ships", "ready", "start", "starts", "end", "ends", "finish",
    "latest", "pickup", "delivery", "shift", "break", "lunch", "from", "until", "till", "at",
    "by", "before", "after", "open", "close", "closes", "opens", "today", "tomorrow", "noon",
    "done", "out", "memo", "recorded", "sent", "updated", "posted", "edited",
})
# pictures of doubt, warning, a stop or a state stay for the reader too ("M3 after M2? 🤔",
# a traffic light's red or yellow dot, a construction sign, a sleeping "zzz")
_KEPT_RE = re.compile(
    f"[{_STATUS_MARKS}\U0001f914\u26a0\u2753\u2754\U0001f6d1\u26d4\U0001f6ab"
    "\U0001f534\U0001f535\U0001f7e0-\U0001f7eb\u26aa\u26ab\U0001f6a7\U0001f4a4]")
_GONE = "\x00"


def _picture(match: re.Match[str]) -> str:
    text = match.group(0)
    return text if _KEPT_RE.match(text) else _GONE


def _shortcode(match: re.Match[str]) -> str:
    return match.group(0) if match.group(0) in _STATUS_CODES else _GONE


def _is_header(line: str) -> bool:
    match = _HEADER_RE.match(line)
    return match is not None and not ANY_ID_RE.search(line) and not (
        set(match.group("name").lower().replace(".", " ").split()) & _TIME_WORDS)


def _headers(lines: list[str]) -> set[int]:
    """The lines that head a message: at least two, each over a line of text, and no name of
    them said anywhere else (a machine's name and a time, ``Lathe 7:00``, is no header)."""
    found = {index for index, line in enumerate(lines) if _is_header(line)
             and index + 1 < len(lines) and lines[index + 1].strip()}
    rest = " ".join(line for index, line in enumerate(lines) if index not in found).lower()
    for index in list(found):
        name = _HEADER_RE.match(lines[index]).group("name")  # type: ignore[union-attr]
        if any(re.search(rf"\b{re.escape(word)}\b", rest)
               for word in name.lower().replace(".", " ").split()):
            found.discard(index)
    return found if len(found) >= 2 else set()


def chat_lines(lines: list[str]) -> None:
    """Remove, in place, a chat's pictures, reaction counts and message headers."""
    headers = _headers(lines)
    kept: list[tuple[str, tuple[int, ...]]] = []
    for index, line in enumerate(lines):
        if index in headers:
            continue
        cleaned = _SHORTCODE_RE.sub(_shortcode, _EMOJI_RE.sub(_picture, line))
        if _GONE in cleaned:
            if _COUNTS_RE.match(cleaned.replace(_GONE, "")):
                continue  # only pictures and their counts: reactions
            indent = line[:len(line) - len(line.lstrip())]
            cleaned = indent + re.sub(rf"[ \t]*{_GONE}[ \t{_GONE}]*", " ", cleaned).strip()
        kept.append((_JOINERS_RE.sub("", cleaned), (index,)))
    rebuild(lines, kept)
