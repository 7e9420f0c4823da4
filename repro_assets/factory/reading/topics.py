"""A job as the topic of a sentence whose subject is the writer's team.

``For J5 we run M4 3h, then M6 2h``, ``On J5, we use M1 for 2h``, ``For the J8 we pass first on
the M3`` (a French planner's article before the id) and ``J5: we run M1 2h`` all say the job's
route with "we" as the one who does it. :func:`topic_sentences` writes such a sentence with the
job as its subject (``J5: run M4 3h, then M6 2h``), for the reader to read as any route.

Only at the start of a sentence, with ``we``, ``I`` or ``they`` and a plain verb of work right
after it (``will`` may stand between); a verb of ability or doubt (``we can run``, ``we might
use``), a negation (``we don't run``) or any other word leaves the sentence as written.
"""

from __future__ import annotations

import re

from repro_assets.factory.ids import id_pattern

_VERBS = ("run|use|do|pass|go|need|process|make|send|route|put|start|take|machine|mill|cut"
          "|turn|grind|weld|drill|paint|pack")
_TOPIC_RE = re.compile(
    rf"(?:^|(?<=[.!?]\s))(?P<lead>\s*(?:[-*\u2022]\s+)?)(?:(?:for|on|with)\s+)?(?:the\s+)?"
    rf"(?P<job>{id_pattern('J')})\s*[,:]?\s+(?:we|I|they)\s+(?:will\s+|'ll\s+)?"
    rf"(?P<verb>(?:{_VERBS})\b)", re.IGNORECASE)


def topic_sentences(line: str) -> str:
    """A line whose sentences about a job done by "we" have the job as their subject."""
    return _TOPIC_RE.sub(lambda m: f"{m.group('lead')}{m.group('job')}: {m.group('verb')}", line)
