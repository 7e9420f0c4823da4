"""The built-in eval set: the seed's minimal eval set plus adversarial cases.

Cases marked ``scripted`` replay a faulty extractor (e.g. the seed's case 2, "LLM only
extracts M1, M2, M3") in both modes: they test the guards, not a model. The others run the
offline reader, or the configured LLM with ``--use-llm``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from repro_assets.factory.agent import OnboardingAgent
from repro_assets.factory.models import ExtractionError, OnboardingResult
from repro_assets.llm.types import CacheScope, LLMError, LLMResult, LLMUsage, Role, T, Tool


class ScriptedClient:
    """An :class:`~repro_assets.llm.types.LLMClient` replaying canned structured replies.

    Each reply is a dict (validated against the requested schema) or an exception to raise.
    """

    available = True
    provider = "scripted"

    def __init__(self, replies: Sequence[dict[str, Any] | Exception]) -> None:
        self.replies: deque[dict[str, Any] | Exception] = deque(replies)
        self.calls: list[dict[str, Any]] = []

    def model_for(self, role: Role | str) -> str:
        """The scripted client has one pseudo model."""
        return "scripted"

    def structured(
        self,
        *,
        role: Role | str,
        system: str,
        user: str,
        schema: type[T],
        tools: Sequence[Tool] = (),
        temperature: float = 0.1,
        max_tokens: int = 4096,
        fallback: Callable[[str, type[T]], T] | None = None,
        use_cache: bool = True,
    ) -> LLMResult[T]:
        """Return the next scripted reply as ``schema`` (or raise it).

        A scripted reply is validated as written: ``fallback`` is never called and nothing is
        cached (``use_cache`` has no effect), so a faulty reply reaches the guards unchanged.
        """
        self.calls.append({"role": str(role), "schema": schema.__name__, "user": user})
        if not self.replies:
            raise LLMError("no scripted reply left")
        reply = self.replies.popleft()
        if isinstance(reply, Exception):
            raise reply
        value = schema.model_validate(reply)
        usage = LLMUsage(provider="scripted", model="scripted", role=str(role))
        return LLMResult(value=value, raw_text=json.dumps(reply), usage=[usage])

    def text(self, **kwargs: Any) -> LLMResult[Any]:
        """Not used by onboarding."""
        raise LLMError("the scripted client only answers structured calls")

    def stream_text(self, **kwargs: Any) -> Iterator[str]:
        """Not used by onboarding."""
        raise LLMError("the scripted client only answers structured calls")

    @contextmanager
    def cache_scope(self) -> Iterator[CacheScope]:
        """Scripted replies are never cached."""
        yield CacheScope()

    def usage_summary(self) -> dict[str, Any]:
        """Number of scripted calls made."""
        return {"provider": "scripted", "calls": len(self.calls)}


@dataclass
class EvalCase:
    """One eval case: a text, the expected outcome and optional extra checks."""

    name: str
    source: str
    text: str
    expected_code: str | None
    checks: list[tuple[str, Callable[[OnboardingResult | ExtractionError], bool]]] = field(
        default_factory=list
    )
    scripted: list[dict[str, Any] | Exception] | None = None


def _machines(*ids: str) -> list[dict[str, str]]:
    return [{"id": i, "name": i} for i in ids]


def _routes(result: OnboardingResult | ExtractionError) -> dict[str, list[str]]:
    assert isinstance(result, OnboardingResult)
    return {job.id: [s.machine_id for s in job.steps] for job in result.config.jobs}


def _ids(result: OnboardingResult | ExtractionError, kind: str) -> list[str]:
    assert isinstance(result, OnboardingResult)
    items = result.config.machines if kind == "machines" else result.config.jobs
    return sorted(item.id for item in items)


def _detail(result: OnboardingResult | ExtractionError, name: str) -> Any:
    assert isinstance(result, ExtractionError)
    return result.details.get(name)


CASE2_TEXT = (
    "We run 4 machines: M1, M2, M3, M4. J1 and J2 use them in sequence, 1h on each, both due "
    "by 10:00."
)

CASES: list[EvalCase] = [
    EvalCase(
        "case1_clean_canonical",
        "seed",
        "We have 3 machines: M1 (assembly), M2 (drill), M3 (pack). J1, J2, J3, J4 each pass "
        "through them in sequence, taking 2h, 1h and 1h respectively. J1 and J2 are due by "
        "12:00; J3 and J4 are due by 17:00.",
        None,
        [
            ("3 machines", lambda r: _ids(r, "machines") == ["M1", "M2", "M3"]),
            ("4 jobs", lambda r: _ids(r, "jobs") == ["J1", "J2", "J3", "J4"]),
            ("coverage 100%", lambda r: isinstance(r, OnboardingResult) and r.coverage.complete),
        ],
    ),
    EvalCase(
        "case2_coverage_mismatch",
        "seed (scripted LLM omits M4)",
        CASE2_TEXT,
        "COVERAGE_MISMATCH",
        [
            ("missing [M4]", lambda r: _detail(r, "missing_machines") == ["M4"]),
            ("machine coverage 75%", lambda r: _detail(r, "machine_coverage") == 0.75),
        ],
        scripted=[
            {"machines": _machines("M1", "M2", "M3"), "jobs": _machines("J1", "J2")},
            {
                "machines": _machines("M1", "M2", "M3"),
                "jobs": [
                    {
                        "id": job,
                        "name": job,
                        "steps": [
                            {"machine_id": m, "duration_hours": 1} for m in ("M1", "M2", "M3")
                        ],
                        "due_time_hour": 10,
                    }
                    for job in ("J1", "J2")
                ],
            },
        ],
    ),
    EvalCase(
        "case3_contradictory_routing",
        "seed",
        "We have four machines: M1 (cutting), M2 (drilling), M3 (painting) and M4 (polishing). "
        "Jobs pass through M1, M2, M3 in sequence, 2h on each. J1 uses M1, M2, M4 (not M3), "
        "with 1h on M4. J2 and J3 follow the standard routing. All jobs are due by 18:00.",
        None,
        [
            ("J1 = M1, M2, M4", lambda r: _routes(r)["J1"] == ["M1", "M2", "M4"]),
            ("4 machines kept", lambda r: _ids(r, "machines") == ["M1", "M2", "M3", "M4"]),
        ],
    ),
    EvalCase(
        "case4_invalid_normalization",
        "seed",
        "M1 only. J1 does 2h on M1, 3h on M5.",
        "INVALID_STRUCTURE",
        [
            ("M5 not declared", lambda r: _detail(r, "undeclared_machines") == ["M5"]),
            ("coverage < 100%", lambda r: (_detail(r, "machine_coverage") or 1.0) < 1.0),
        ],
    ),
    EvalCase(
        "case5_empty_or_ambiguous",
        "seed (no ids at all: nothing to cover, coverage undefined)",
        "We do stuff with machines and jobs.",
        "COVERAGE_MISMATCH",
        [("coverage undefined", lambda r: _detail(r, "machine_coverage") is None)],
    ),
    EvalCase(
        "machines_but_no_job_ids",
        "adversarial (ids of one kind only)",
        "Machines M1 (saw) and M2 (drill) are ready.",
        "NO_IDS",
    ),
    EvalCase(
        "m10_is_not_m1",
        "adversarial",
        "Machines: M1 (saw) and M10 (lathe). J1: M10 2h → M1 1h, due by 9:00. J10: M1 3h.",
        None,
        [
            ("M1 and M10", lambda r: _ids(r, "machines") == ["M1", "M10"]),
            ("J1 and J10", lambda r: _ids(r, "jobs") == ["J1", "J10"]),
        ],
    ),
    EvalCase(
        "lowercase_ids_are_not_ids",
        "adversarial",
        "We have machines m1 (saw) and m2 (press). J1: m1 2h → m2 1h.",
        "NO_IDS",
    ),
    EvalCase(
        "job_range",
        "adversarial",
        "We run 2 machines: M1 (cut) and M2 (weld). Jobs J1-J4 pass through M1 then M2, 1h "
        "each. J1 to J4 are due by 4pm.",
        None,
        [("J1..J4", lambda r: _ids(r, "jobs") == ["J1", "J2", "J3", "J4"])],
    ),
    EvalCase(
        "named_ids",
        "adversarial",
        "Machines: M_ASSEMBLY (assembly) and M_PACK (packing). J_RUSH: M_ASSEMBLY 2h → M_PACK "
        "1h, due by 11:00.",
        None,
        [("named machines", lambda r: _ids(r, "machines") == ["M_ASSEMBLY", "M_PACK"])],
    ),
    EvalCase(
        "no_false_positive_ids",
        "adversarial",
        "Machines: M1 (press) and M2 (oven), certified ISO9001 and rated CAM1-compatible. "
        "J1: M1 2h → M2 2h.",
        None,
        [("only M1, M2", lambda r: _ids(r, "machines") == ["M1", "M2"])],
    ),
    EvalCase(
        "duplicate_job_routing",
        "adversarial",
        "Machines: M1 (cut), M2 (weld). J1: M1 2h → M2 1h. J1: M2 3h.",
        "INVALID_STRUCTURE",
        [("duplicate J1", lambda r: "duplicate job id J1" in _detail(r, "problems"))],
    ),
    EvalCase(
        "duplicate_machine_names",
        "adversarial",
        "M1 (cut), M2 (weld) are our machines. Later we relabelled: M1 (paint). "
        "J1: M1 1h → M2 1h.",
        "INVALID_STRUCTURE",
        [("duplicate M1", lambda r: "duplicate machine id M1" in _detail(r, "problems"))],
    ),
    EvalCase(
        "step_on_undeclared_machine",
        "adversarial",
        "We have 2 machines: M1 (cut), M2 (weld). J1: M1 1h → M3 2h → M2 1h.",
        "INVALID_STRUCTURE",
        [("missing M3", lambda r: _detail(r, "missing_machines") == ["M3"])],
    ),
    EvalCase(
        "zero_hour_duration",
        "adversarial",
        "Machines: M1 (cut), M2 (weld). J1: M1 0h → M2 2h.",
        "INVALID_STRUCTURE",
    ),
    EvalCase(
        "out_of_service_machine_kept",
        "adversarial",
        "We have 3 machines: M1 (cut), M2 (weld), M3 (paint). M4, a spare press, is out for "
        "repair this week. J1: M1 1h → M2 1h → M3 1h.",
        None,
        [
            ("M4 kept", lambda r: _ids(r, "machines") == ["M1", "M2", "M3", "M4"]),
            ("warned", lambda r: isinstance(r, OnboardingResult) and any(
                "M4" in w for w in r.warnings)),
        ],
    ),
    EvalCase(
        "machine_named_only_in_a_route",
        "adversarial (a typo in a route while the text lists its machines)",
        "Machines: M1 (cut), M2 (weld), M3 (paint). J1: M1 2h → M33 1h → M3 1h.",
        "INVALID_STRUCTURE",
        [("route-only M33", lambda r: _detail(r, "route_only_machines") == ["M33"])],
    ),
    EvalCase(
        "half_read_sentence_fails",
        "adversarial (certainty rule)",
        "Machines: M1 (cut), M2 (weld). J1: M1 2h → M2 1h. J2 normally skips M2.",
        "INVALID_STRUCTURE",
        [("quoted", lambda r: any("J2 normally skips M2" in u["sentence"]
                                  for u in _detail(r, "unread")))],
    ),
    EvalCase(
        "job_without_routing",
        "adversarial",
        "Machines: M1 (cut), M2 (weld). J1: M1 1h → M2 2h. J2 is on hold until further notice.",
        "INVALID_STRUCTURE",
        [
            ("J2 lost", lambda r: _detail(r, "lost_jobs") == ["J2"]),
            ("quoted", lambda r: _detail(r, "unread")[0]["sentence"]
             == "J2 is on hold until further notice"),
        ],
    ),
    EvalCase(
        "ambiguous_durations",
        "adversarial",
        "Machines: M1 (cut), M2 (weld), M3 (paint). J1: M1, M2, M3, 2h, 3h.",
        "INVALID_STRUCTURE",
    ),
    EvalCase(
        "due_hour_out_of_range",
        "adversarial",
        "Machines: M1 (cut). J1: M1 2h, due by 25:00.",
        "INVALID_STRUCTURE",
    ),
    EvalCase(
        "minutes_and_fractions_repaired",
        "adversarial",
        "Machines: M1 (cut), M2 (weld). J1: M1 90 min → M2 2.5h, due by 12:30.",
        None,
        [
            ("rounded to 2h and 3h", lambda r: _durations(r) == [2, 3]),
            ("repairs reported", lambda r: isinstance(r, OnboardingResult) and len(r.repairs) == 3),
        ],
    ),
    EvalCase(
        "llm_invents_machine",
        "adversarial (scripted LLM adds M9)",
        "Machines: M1 (cut). J1: M1 2h.",
        "COVERAGE_MISMATCH",
        [("extra M9", lambda r: _detail(r, "extra_machines") == ["M9"])],
        scripted=[
            {"machines": _machines("M1", "M9"), "jobs": _machines("J1")},
            {
                "machines": _machines("M1", "M9"),
                "jobs": [
                    {
                        "id": "J1",
                        "name": "J1",
                        "steps": [{"machine_id": "M1", "duration_hours": 2}],
                        "due_time_hour": None,
                    }
                ],
            },
        ],
    ),
]


def _durations(result: OnboardingResult | ExtractionError) -> list[int]:
    assert isinstance(result, OnboardingResult)
    return [step.duration_hours for step in result.config.jobs[0].steps]


@dataclass
class CaseOutcome:
    """The result of one eval case."""

    name: str
    source: str
    expected: str
    actual: str
    passed: bool
    failed_checks: list[str]
    method: str


def run_case(case: EvalCase, client: Any | None) -> CaseOutcome:
    """Run one case through ``OnboardingAgent`` and compare with the expectation."""
    agent_client = ScriptedClient(case.scripted) if case.scripted is not None else client
    agent = OnboardingAgent(agent_client)
    outcome: OnboardingResult | ExtractionError
    try:
        outcome = agent.run_detailed(case.text)
        actual = "ok"
    except ExtractionError as exc:
        outcome = exc
        actual = exc.code.value
    expected = case.expected_code or "ok"
    failed: list[str] = []
    if actual == expected:
        for label, check in case.checks:
            try:
                if not check(outcome):
                    failed.append(label)
            except (AssertionError, KeyError, TypeError, IndexError):
                failed.append(label)
    method = "scripted" if case.scripted is not None else agent.method
    return CaseOutcome(
        case.name, case.source, expected, actual, actual == expected and not failed, failed,
        method,
    )


def run_eval(client: Any | None = None) -> list[CaseOutcome]:
    """Run every case (offline parser when ``client`` is None or unavailable)."""
    return [run_case(case, client) for case in CASES]
