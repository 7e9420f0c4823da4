"""A job as the topic of a sentence whose subject is the writer's team (#24): ``For J7 we run
M4 2h, then M5 1h``, ``On J7, we use ...``, ``For the J7 we pass first on the M4`` (an article
before the id), ``J7: we run ...``. A verb of ability (``we can run``), a negation or a verb in
the past leaves the sentence as written, and the reader refuses it.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of


@pytest.mark.parametrize("sentence", [
    "For J7 we run M4 2h, then M5 1h.",
    "On J7, we use M4 for 2h and then M5 for 1h.",
    "For the J7 we pass first on the M4 (2h), then on the M5 (1h).",
    "J7: we will run M4 2h, then M5 1h.",
])
def test_a_job_as_the_topic_is_the_subject_of_its_route(sentence: str) -> None:
    assert jobs_of(f"J6: M5 3h. {sentence}\n") == {"J6": (["M5"], [3], None),
                                                 "J7": (["M4", "M5"], [2, 1], None)}


@pytest.mark.parametrize("sentence", [
    "For J7 we can run M4 2h, then M5 1h.",  # what could be done
    "For J7 we ran M4 2h, then M5 1h.",  # what was done
    "For J7 we don't run M5; J7: M4 2h.",  # a negation
])
def test_a_topic_sentence_in_doubt_fails_with_a_code(sentence: str) -> None:
    assert "INVALID_STRUCTURE" in fails(f"J6: M5 3h. {sentence}\n")
