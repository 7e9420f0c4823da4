"""Labelled factory cases written in tests: one builder shared by the phrasing test sets."""

from __future__ import annotations

from repro_assets.factory.grading import LabelledCase

#: A job's expected (route, hours per step, due hour).
Steps = tuple[list[str], list[int], int | None]


def labelled_case(
    name: str,
    text: str,
    machines: tuple[str, ...] | None,
    expect: str,
    jobs: dict[str, Steps] | None = None,
) -> LabelledCase:
    """A labelled case; ``jobs`` maps a job id to (route, hours, due hour)."""
    labelled = (
        None
        if jobs is None
        else {
            job: {"route": route, "hours": hours, "due": due}
            for job, (route, hours, due) in jobs.items()
        }
    )
    return LabelledCase(name, text, expect, machines, labelled)
