"""Data types of factory onboarding (seed 001): the stage DTOs, FactoryConfig and errors.

Stage boundaries (seed "Data Flow"):

* stage 0 -> :class:`PreparsedIds`
* stage 1 -> :class:`CoarseStructure`
* stage 2 -> :class:`RawFactoryConfig`
* stage 3 -> :class:`FactoryConfig`
* stage 4 -> :class:`CoverageReport` (and the decision, in :mod:`repro_assets.factory.agent`)

The DTOs are plain pydantic models without business logic; :class:`FactoryConfig` carries the
structural invariants (they are what "valid" means for the schema itself).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from repro_assets.errors import CodedError


class ErrorCode(StrEnum):
    """The codes an :class:`ExtractionError` can carry.

    * ``COVERAGE_MISMATCH``: the parsed ids differ from the ids in the text (missing or
      extra), or the text names no id at all, so coverage is undefined (seed case 5).
    * ``INVALID_STRUCTURE``: an invariant fails (undeclared machine, job without steps,
      duplicate ids, bad duration or due hour), a machine is named only in a route although the
      text lists its machines, stage 2 does not match the stage-1 skeleton, a sentence about
      jobs could not be fully read (``details.unread`` quotes it), or an LLM answer differs
      from a certain offline reading (``details.disagreements``).
    * ``LLM_FAILURE`` / ``INVALID_JSON``: the LLM call failed / answered outside the schema.
    * ``NO_IDS``: the text names machine ids but no job id, or job ids but no machine id.
    """

    COVERAGE_MISMATCH = "COVERAGE_MISMATCH"
    INVALID_STRUCTURE = "INVALID_STRUCTURE"
    LLM_FAILURE = "LLM_FAILURE"
    INVALID_JSON = "INVALID_JSON"
    NO_IDS = "NO_IDS"


class ExtractionError(CodedError):
    """Onboarding failed; internal error raised by ``OnboardingAgent.run``.

    Attributes:
        code: one of :class:`ErrorCode`.
        stage: the stage that failed (``ids``, ``coarse``, ``steps``, ``normalize``,
            ``coverage``).
        details: actionable details: missing ids, coverage ratios, structural problems.
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        stage: str,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, code=code, details=details or {})
        self.args = (f"{code.value}: {message}",)
        self.code: ErrorCode = code
        self.stage = stage

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-able description (code, stage, message, details)."""
        return {
            "code": self.code.value,
            "stage": self.stage,
            "message": self.message,
            "details": self.details,
        }


# --- stage 0 ---------------------------------------------------------------------------------


class PreparsedIds(BaseModel):
    """Machine and job ids mentioned explicitly in the text (stage 0)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    machine_ids: frozenset[str] = Field(
        default_factory=frozenset, description="Machine ids such as M1 or M_ASSEMBLY."
    )
    job_ids: frozenset[str] = Field(
        default_factory=frozenset, description="Job ids such as J1 or J_RUSH."
    )


# --- stage 1 ---------------------------------------------------------------------------------


class CoarseMachine(BaseModel):
    """A machine of the skeleton: id and name only."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Machine id exactly as written in the text, e.g. 'M1'.")
    name: str = Field(description="Short human name, e.g. 'assembly'; the id if none is given.")


class CoarseJob(BaseModel):
    """A job of the skeleton: id and name only."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Job id exactly as written in the text, e.g. 'J1'.")
    name: str = Field(description="Short human name; the id if none is given.")


class CoarseStructure(BaseModel):
    """Machines and jobs without steps or durations (stage 1 output)."""

    model_config = ConfigDict(extra="forbid")

    machines: list[CoarseMachine] = Field(description="Every machine declared in the text.")
    jobs: list[CoarseJob] = Field(description="Every job mentioned in the text.")


# --- stage 2 ---------------------------------------------------------------------------------


class RawStep(BaseModel):
    """One routing step before normalization."""

    model_config = ConfigDict(extra="forbid")

    machine_id: str = Field(description="Id of the machine this step runs on.")
    duration_hours: float | None = Field(
        description="Processing time in hours as stated in the text; null if not stated."
    )


class RawJob(BaseModel):
    """A job with its steps, before normalization."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Job id from the skeleton.")
    name: str = Field(description="Job name from the skeleton.")
    steps: list[RawStep] = Field(description="Steps in processing order.")
    due_time_hour: float | None = Field(
        description="Due time as an hour of the day (17 for 17:00); null if not stated."
    )


class RawFactoryConfig(BaseModel):
    """Shape-compatible with :class:`FactoryConfig`, pre-normalization (stage 2 output)."""

    model_config = ConfigDict(extra="forbid")

    machines: list[CoarseMachine] = Field(description="The machines of the skeleton.")
    jobs: list[RawJob] = Field(description="The jobs of the skeleton with their steps.")


# --- stage 3 ---------------------------------------------------------------------------------


class Machine(BaseModel):
    """A machine of the factory."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="Machine id, e.g. 'M1'.")
    name: str = Field(min_length=1, description="Human name.")


class Step(BaseModel):
    """One operation of a job on one machine."""

    model_config = ConfigDict(extra="forbid")

    machine_id: str = Field(min_length=1, description="Machine the step runs on.")
    duration_hours: int = Field(ge=1, description="Processing time in whole hours (>= 1).")


class Job(BaseModel):
    """A job: an ordered routing through machines and an optional due time."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="Job id, e.g. 'J1'.")
    name: str = Field(min_length=1, description="Human name.")
    steps: list[Step] = Field(min_length=1, description="Steps in processing order (>= 1).")
    due_time_hour: int | None = Field(
        default=None, ge=0, le=24, description="Due time as an hour of the day 0-24, if any."
    )


class FactoryConfig(BaseModel):
    """A validated factory: unique ids, every step on a declared machine, every job >= 1 step."""

    model_config = ConfigDict(extra="forbid")

    machines: list[Machine] = Field(min_length=1, description="Declared machines.")
    jobs: list[Job] = Field(min_length=1, description="Jobs with their routings.")

    @model_validator(mode="after")
    def _check_invariants(self) -> FactoryConfig:
        problems = structure_problems(self)
        if problems:
            raise ValueError("; ".join(problems))
        return self


def structure_problems(config: FactoryConfig) -> list[str]:
    """Return the structural invariant violations of ``config`` (empty when valid)."""
    problems: list[str] = []
    machine_ids = [machine.id for machine in config.machines]
    job_ids = [job.id for job in config.jobs]
    for kind, ids in (("machine", machine_ids), ("job", job_ids)):
        seen: set[str] = set()
        for item in ids:
            if item in seen:
                problems.append(f"duplicate {kind} id {item}")
            seen.add(item)
    declared = set(machine_ids)
    for job in config.jobs:
        for index, step in enumerate(job.steps, start=1):
            if step.machine_id not in declared:
                problems.append(
                    f"job {job.id} step {index} references undeclared machine {step.machine_id}"
                )
    return problems


# --- stage 4 ---------------------------------------------------------------------------------


class CoverageReport(BaseModel):
    """Detected ids (stage 0) versus parsed ids (stage 3)."""

    model_config = ConfigDict(extra="forbid")

    machine_coverage: float | None = Field(
        description="|parsed ∩ detected| / |detected| for machines; None if none detected."
    )
    job_coverage: float | None = Field(
        description="|parsed ∩ detected| / |detected| for jobs; None if none detected."
    )
    missing_machines: list[str] = Field(description="Detected machine ids not parsed (sorted).")
    missing_jobs: list[str] = Field(description="Detected job ids not parsed (sorted).")
    extra_machines: list[str] = Field(description="Parsed machine ids never detected (sorted).")
    extra_jobs: list[str] = Field(description="Parsed job ids never detected (sorted).")

    @property
    def complete(self) -> bool:
        """True when both ratios are 1.0 and nothing extra was parsed."""
        return (
            self.machine_coverage == 1.0
            and self.job_coverage == 1.0
            and not self.extra_machines
            and not self.extra_jobs
        )


class OnboardingResult(BaseModel):
    """What the agent returns besides the config: method, ids, coverage, repairs."""

    model_config = ConfigDict(extra="forbid")

    config: FactoryConfig = Field(description="The validated configuration.")
    method: str = Field(description="'llm' or 'heuristic' (offline parser).")
    detected_machines: list[str] = Field(description="Stage-0 machine ids (sorted).")
    detected_jobs: list[str] = Field(description="Stage-0 job ids (sorted).")
    coverage: CoverageReport = Field(description="Stage-4 coverage report.")
    repairs: list[str] = Field(description="Repairs made by normalization.")
    warnings: list[str] = Field(
        default_factory=list,
        description="Things worth knowing that do not fail the run (machines without steps).",
    )
