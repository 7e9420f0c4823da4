"""``OnboardingAgent``: orchestrates stages 0→4 and turns every failure into ExtractionError.

All stage-to-stage wiring lives here; no stage calls another. Log lines per run (seed
"Observability", plus the repairs the issue asks for): detected ids, coarse counts, fine
counts, one ``factory repair:`` line per normalization repair, coverage. The text and the
payloads are never logged.

Stage 3 gathers every structure problem into one ``INVALID_STRUCTURE`` error: normalization
and invariants; machines named only in routes although the text lists its machines (both
paths); offline, every sentence about jobs the reader could not fully read (the certainty
rule); with an LLM, stage 2 against the stage-1 skeleton. With an LLM, a configuration that
passed coverage is finally compared with the offline reading when that reading is certain.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError

from repro_assets.factory.checks import (
    disagreements,
    route_only_machines,
    skeleton_problems,
    warnings_for,
)
from repro_assets.factory.coarse import extract_coarse_structure
from repro_assets.factory.coverage import assess_coverage, coverage_of
from repro_assets.factory.ids import ANY_ID_RE, extract_explicit_ids
from repro_assets.factory.models import (
    CoarseStructure,
    CoverageReport,
    ErrorCode,
    ExtractionError,
    FactoryConfig,
    OnboardingResult,
    PreparsedIds,
    RawFactoryConfig,
)
from repro_assets.factory.normalize import (
    StructureError,
    normalize_factory,
    validate_and_normalize,
)
from repro_assets.factory.reading import read_factory_text
from repro_assets.factory.steps import extract_steps
from repro_assets.llm.types import LLMClient, LLMError, LLMInvalidOutput

log = logging.getLogger(__name__)


def _pct(ratio: float | None) -> str:
    return "undefined" if ratio is None else f"{ratio:.0%}"


def coverage_details(report: CoverageReport) -> dict[str, Any]:
    """Return the coverage part of an error's details (JSON-able)."""
    return {
        "machine_coverage": report.machine_coverage,
        "job_coverage": report.job_coverage,
        "missing_machines": report.missing_machines,
        "missing_jobs": report.missing_jobs,
        "extra_machines": report.extra_machines,
        "extra_jobs": report.extra_jobs,
    }


class OnboardingAgent:
    """Free text → :class:`FactoryConfig` with 100% id coverage, or :class:`ExtractionError`.

    Args:
        client: the LLM client; None or an offline client selects the deterministic parser
            for stages 1 and 2 (method ``heuristic``).
        logger: where the four log points go (a Dagster ``context.log`` works too).
    """

    def __init__(
        self, client: LLMClient | None = None, logger: logging.Logger | Any | None = None
    ) -> None:
        self.client = client
        self.log = logger or log

    @property
    def method(self) -> str:
        """``llm`` when stages 1 and 2 call the LLM, else ``heuristic``."""
        return "llm" if self.client is not None and self.client.available else "heuristic"

    def run(self, factory_text: str) -> FactoryConfig:
        """Run stages 0→4 and return the configuration.

        Raises:
            ExtractionError: on any failure, with a code and actionable details.
        """
        return self.run_detailed(factory_text).config

    def _llm_stage(self, stage: str, call: Any) -> Any:
        try:
            return call()
        except LLMInvalidOutput as exc:
            raise ExtractionError(
                ErrorCode.INVALID_JSON,
                f"{stage}: the model's output did not match the schema ({exc})",
                stage=stage,
                details={"llm_code": exc.code, "method": self.method},
            ) from exc
        except (ValidationError, AttributeError, TypeError) as exc:
            # from the LLM: a reply that does not fit the schema; offline: a parser defect
            code = ErrorCode.INVALID_JSON if self.method == "llm" else ErrorCode.INVALID_STRUCTURE
            raise ExtractionError(
                code,
                f"{stage}: the extracted structure did not match the schema ({exc})",
                stage=stage,
                details={"method": self.method},
            ) from exc
        except LLMError as exc:
            raise ExtractionError(
                ErrorCode.LLM_FAILURE,
                f"{stage}: the LLM call failed ({exc})",
                stage=stage,
                details={"llm_code": exc.code, "method": self.method},
            ) from exc
        except Exception as exc:  # the seed: any exception becomes an ExtractionError
            code = ErrorCode.LLM_FAILURE if self.method == "llm" else ErrorCode.INVALID_STRUCTURE
            raise ExtractionError(
                code,
                f"{stage}: {type(exc).__name__}: {exc}",
                stage=stage,
                details={"method": self.method},
            ) from exc

    def run_detailed(self, factory_text: str) -> OnboardingResult:
        """Run stages 0→4 and return the configuration with method, ids, coverage, repairs.

        Raises:
            ExtractionError: on any failure, with a code and actionable details.
        """
        ids: PreparsedIds = extract_explicit_ids(factory_text)
        self.log.info(
            "factory stage 0: detected_machines=%s, detected_jobs=%s",
            sorted(ids.machine_ids),
            sorted(ids.job_ids),
        )
        self._check_ids(ids)

        skeleton = self._llm_stage(
            "coarse", lambda: extract_coarse_structure(factory_text, ids, self.client)
        )
        self.log.info(
            "factory stage 1: extracted_machines_count=%d, extracted_jobs_count=%d",
            len(skeleton.machines),
            len(skeleton.jobs),
        )

        raw = self._llm_stage("steps", lambda: extract_steps(factory_text, skeleton, self.client))
        self.log.info(
            "factory stage 2: jobs_with_steps=%d, final_job_count=%d",
            sum(1 for job in raw.jobs if job.steps),
            len(raw.jobs),
        )

        config, repairs = self._validate(factory_text, ids, skeleton, raw)

        report = assess_coverage(ids, config)
        self._log_coverage(report)
        if not report.complete:
            parts = []
            if report.missing_machines or report.missing_jobs:
                parts.append(
                    "missing " + ", ".join(report.missing_machines + report.missing_jobs)
                )
            if report.extra_machines or report.extra_jobs:
                parts.append(
                    "not in the text " + ", ".join(report.extra_machines + report.extra_jobs)
                )
            raise ExtractionError(
                ErrorCode.COVERAGE_MISMATCH,
                f"coverage machines {_pct(report.machine_coverage)}, jobs "
                f"{_pct(report.job_coverage)}: " + "; ".join(parts),
                stage="coverage",
                details={"method": self.method, **coverage_details(report)},
            )
        if self.method == "llm":
            self._crosscheck(config, factory_text)
        return OnboardingResult(
            config=config,
            method=self.method,
            detected_machines=sorted(ids.machine_ids),
            detected_jobs=sorted(ids.job_ids),
            coverage=report,
            repairs=repairs,
            warnings=warnings_for(config, factory_text, llm=self.method == "llm"),
        )

    def _check_ids(self, ids: PreparsedIds) -> None:
        """Stage 0 decision: ids of both kinds are needed.

        No id at all leaves nothing to cover (seed case 5: ``COVERAGE_MISMATCH``, coverage
        undefined); ids of one kind only is ``NO_IDS``.
        """
        if ids.machine_ids and ids.job_ids:
            return
        details = {
            "detected_machines": sorted(ids.machine_ids),
            "detected_jobs": sorted(ids.job_ids),
            "machine_coverage": None,
            "job_coverage": None,
            "missing_machines": [],
            "missing_jobs": [],
        }
        if not ids.machine_ids and not ids.job_ids:
            raise ExtractionError(
                ErrorCode.COVERAGE_MISMATCH,
                "the text mentions no machine or job ids (expected ids like M1, M_ASSEMBLY, "
                "J1); coverage is undefined",
                stage="ids",
                details=details,
            )
        missing = "machine" if not ids.machine_ids else "job"
        raise ExtractionError(
            ErrorCode.NO_IDS,
            f"the text mentions no explicit {missing} ids (expected ids like M1, M_ASSEMBLY, "
            "J1); coverage is undefined",
            stage="ids",
            details=details,
        )

    def _validate(
        self,
        factory_text: str,
        ids: PreparsedIds,
        skeleton: CoarseStructure,
        raw: RawFactoryConfig,
    ) -> tuple[FactoryConfig, list[str]]:
        """Stage 3: normalization, invariants and the structure checks; repairs are logged.

        Every problem found is reported at once in one ``INVALID_STRUCTURE`` error.
        """
        reading = read_factory_text(factory_text)
        problems: list[str] = []
        details: dict[str, Any] = {"method": self.method}
        route_only = route_only_machines(ids, reading.declarations)
        if route_only:
            listed = "; ".join(f"'{q}'" for q in reading.declarations.inventory_quotes)
            problems += [
                f"machine {m} appears only in a job's route, not where the text lists its "
                f"machines ({listed})"
                for m in route_only
            ]
        details["route_only_machines"] = route_only
        if self.method == "heuristic":
            # the writer's words; a sentence a line pass rewrote also as read, whose ids count
            lost = [_ids_in(f"{u.quote} {u.read_as or ''}") for u in reading.unread]
            unread = [{"sentence": u.quote, "reason": u.reason, "read_as": u.read_as,
                       "ids": ids} for u, ids in zip(reading.unread, lost, strict=True)]
            problems += [f"could not read '{u.quote}': {u.reason}"
                         + (f" (read as: '{u.read_as}')" if u.read_as else "")
                         for u in reading.unread]
            details["unread"] = unread
            # the ids whose statements were not read: their coverage is not certain
            details["unread_ids"] = sorted({i for ids in lost for i in ids})
        else:
            skeleton_issues, skeleton_details = skeleton_problems(skeleton, raw)
            problems += skeleton_issues
            details["skeleton"] = skeleton_details
        normalization = normalize_factory(raw)
        for repair in normalization.repairs:
            self.log.info("factory repair: %s", repair)
        config: FactoryConfig | None = None
        try:
            config = validate_and_normalize(raw)
        except StructureError as exc:
            problems += exc.problems
            details["lost_jobs"] = exc.lost_jobs
            details["dropped_steps"] = exc.dropped_steps
        if not problems and config is not None:
            return config, normalization.repairs
        report = coverage_of(ids, (m.id for m in raw.machines), (j.id for j in raw.jobs))
        self._log_coverage(report)
        declared = {m.id.strip() for m in raw.machines}
        details["problems"] = problems
        details["undeclared_machines"] = sorted(
            {step.machine_id.strip() for job in raw.jobs for step in job.steps} - declared
        )
        details.setdefault("lost_jobs", [])
        details.update(coverage_details(report))
        raise ExtractionError(
            ErrorCode.INVALID_STRUCTURE,
            "the configuration is invalid: " + "; ".join(problems),
            stage="normalize",
            details=details,
        )

    def _crosscheck(self, config: FactoryConfig, factory_text: str) -> None:
        """LLM path: refuse an answer that differs from a certain offline reading."""
        found = disagreements(config, factory_text)
        if found:
            raise ExtractionError(
                ErrorCode.INVALID_STRUCTURE,
                "the LLM's configuration differs from the deterministic reading of the text: "
                + "; ".join(found),
                stage="crosscheck",
                details={"method": self.method, "disagreements": found},
            )

    def _log_coverage(self, report: CoverageReport) -> None:
        self.log.info(
            "factory stage 4: machine_coverage=%s, job_coverage=%s, missing_machines=%s, "
            "missing_jobs=%s",
            _pct(report.machine_coverage),
            _pct(report.job_coverage),
            report.missing_machines,
            report.missing_jobs,
        )


def _ids_in(sentence: str) -> list[str]:
    """The machine and job ids a sentence mentions (ranges expanded), in text order."""
    found = extract_explicit_ids(sentence)
    ordered = [m.group(0) for m in ANY_ID_RE.finditer(sentence)]
    extra = sorted((found.machine_ids | found.job_ids) - set(ordered))
    return list(dict.fromkeys([*ordered, *extra]))
