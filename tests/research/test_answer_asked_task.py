"""The task a question names its number for must not be contradicted by the table's caption
(#26, Q4 precision).

"What BLEU ... on pebble label writing?" asks a number of one task; a row under a caption
"Outcomes on the rock to shell sorting task" is a number of another task and must abstain,
while a caption naming the asked task still answers. Every name, sentence and number here is
made up by the test.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer
from repro_assets.research.asked_task import asked_tasks, task_contradicted

TODAY = dt.date(2026, 6, 1)

QUESTION = "What test BLEU does the damped GRU reach on pebble label writing?"


def _table(caption: str) -> str:
    return (f"Table 5: {caption}\nModel\nTest perplexity\nTest BLEU\n"
            "Plain GRU\n9.12\n17.6\nDamped GRU\n8.40\n19.8")


def _check(question: str, *windows: str) -> str | None:
    source = SourceText(key="corpus://pdf/a", title="Damping recurrent sorters",
                        windows=windows, identity="Damping recurrent sorters")
    check = check_answer(question, [source], TODAY)
    return check.answer.value if check.answer else None


def test_a_caption_naming_another_task_is_no_answer() -> None:
    assert _check(QUESTION, _table("Outcomes on the rock to shell sorting task.")) is None


def test_a_caption_naming_the_asked_task_answers() -> None:
    assert _check(QUESTION, _table("Outcomes on the pebble label writing task.")) == "19.8"


def test_a_caption_naming_no_task_answers() -> None:
    assert _check(QUESTION, _table("Outcomes of the damped sorters.")) == "19.8"


def test_the_task_phrases_are_read_by_their_place() -> None:
    assert asked_tasks(QUESTION) == [{"pebble", "label", "writing"}]
    assert asked_tasks("For the tide ranking task, what recall does ShellNet get?") \
        == [{"tide", "ranking"}]
    # a setting named without a task noun ("on RockBank gravel") asks no task
    assert asked_tasks("What recall does ShellNet get on RockBank gravel?") == []
    assert task_contradicted(QUESTION, "Scores for the tide ranking task")
    assert not task_contradicted(QUESTION, "Scores on the label writing task")
    assert not task_contradicted("What recall does ShellNet get?", "Scores for the tide task")
