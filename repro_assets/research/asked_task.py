"""The task a question asks its number for, against the task a table's caption names.

"What BLEU ... on image caption generation?" asks a number of one task; a row under a
caption "Results on the X to Y translation task" is a number of another. Both tasks are read
by their place in the sentence, never from a list of task names: the question's phrase after
"on"/"for"/"in" that ends in a task noun ("... generation", "... captioning", "... task"),
and the caption's "on/for (the) ... task" phrase.
"""

from __future__ import annotations

import re

from repro_assets.research.question_terms import stemmed_words

#: Words that open a clause or join phrases: never inside a task's name.
_STOP = (r"(?:on|for|in|of|with|by|at|and|or|the|a|an|is|are|does|do|did|what|which|when|how"
         r"|that|who)")
#: A word of a task's name (not a joining word).
_WORD = rf"(?!{_STOP}\b)[A-Za-z][\w'\-]*"
#: The question's task: "on image caption generation", "for the sentence parsing task".
_ASKED_TASK_RE = re.compile(
    rf"\b(?:on|for|in)\s+(?:the\s+)?((?:{_WORD}\s+){{1,4}}"
    rf"(?:tasks?|(?!{_STOP}\b)[A-Za-z][\w\-]*(?:tion|ing)))\b", re.IGNORECASE)
#: A caption's task: "Results on the English to French translation task".
_NAMED_TASK_RE = re.compile(
    r"\b(?:on|for)\s+(?:the\s+)?((?:[A-Za-z][\w'\-]*\s+){1,6}?)tasks?\b", re.IGNORECASE)
#: Words a task phrase shares with any other: they tell no task apart.
_GENERIC = frozenset({"task", "the", "to", "a", "an", "of"})


def _words(phrase: str) -> set[str]:
    return {w for w in stemmed_words(phrase) if w not in _GENERIC}


def asked_tasks(question: str) -> list[set[str]]:
    """The words of each task the question names its number for (empty: it names none)."""
    return [w for m in _ASKED_TASK_RE.finditer(question) if (w := _words(m.group(1)))]


def task_contradicted(question: str, caption: str) -> bool:
    """True when the question names the task its number is for and ``caption`` (a table's
    caption or headers) names a task "on ... task" that shares no word with it: the number
    is of another task ("on image caption generation" against "on the X translation task")."""
    asked = asked_tasks(question)
    if not asked:
        return False
    named = [w for m in _NAMED_TASK_RE.finditer(caption) if (w := _words(m.group(1)))]
    if not named:
        return False
    return not any(a & n for a in asked for n in named)
