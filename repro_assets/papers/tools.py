"""LLM tools of the papers stages (seed 000): search_paper, dataset_resolver, license_checker,
budget_estimator.

``search_paper`` replaces the seed's hosted ``file_search``: it queries the project's pgvector
store restricted to one paper and counts against the ``file_search`` cap (10 per run).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.llm.types import Tool
from repro_assets.papers.registry import (
    BLOCKED_DATASETS,
    blocked_name,
    license_compatible,
    lookup_dataset,
)

#: Budget cap in minutes (seed: CPU cap).
MAX_BUDGET_MINUTES = 20

SearchFn = Callable[[str, int], Sequence[Any]]


class SearchPaperArgs(BaseModel):
    """Arguments of search_paper."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(description="What to look for in the paper, e.g. 'accuracy on SST-2'.")
    k: int = Field(default=5, ge=1, le=10, description="Number of passages (1-10).")


class DatasetResolverArgs(BaseModel):
    """Arguments of dataset_resolver."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Dataset name as printed in the paper.")


class LicenseCheckerArgs(BaseModel):
    """Arguments of license_checker."""

    model_config = ConfigDict(extra="forbid")

    dataset: str = Field(description="Dataset name.")


class BudgetEstimatorArgs(BaseModel):
    """Arguments of budget_estimator."""

    model_config = ConfigDict(extra="forbid")

    dataset_size: int = Field(ge=1, description="Training samples per epoch.")
    model_type: str = Field(description="'sklearn' for classical models, else a neural type.")
    epochs: int = Field(ge=1, description="Epochs.")
    batch_size: int = Field(ge=1, description="Batch size.")


def hit_to_dict(hit: Any) -> dict[str, Any]:
    """A search hit (SearchHit or dict) as the JSON the model sees."""
    get = hit.get if isinstance(hit, dict) else (lambda k, d=None: getattr(hit, k, d))
    return {
        "content": get("content"),
        "page_start": get("page_start"),
        "page_end": get("page_end"),
        "section": get("section"),
        "distance": round(float(get("distance", 0.0) or 0.0), 4),
    }


def dataset_resolver(name: str) -> dict[str, Any]:
    """Check if a dataset is available in the registry (seed tool)."""
    blocked = blocked_name(name)
    if blocked:
        return {"available": False, "blocked": True, "canonical_name": blocked,
                "reason": "blocked: too large for a CPU budget"}
    metadata = lookup_dataset(name)
    if metadata is None:
        return {"available": False, "blocked": False}
    return {
        "available": True,
        "canonical_name": metadata.name,
        "source": metadata.source,
        "hf_dataset": metadata.hf_dataset,
        "hf_config": metadata.hf_config,
        "typical_size_mb": metadata.typical_size_mb,
        "n_samples": metadata.n_samples,
        "splits": list(metadata.split_available),
        "task": metadata.task,
    }


def license_checker(dataset: str) -> dict[str, Any]:
    """Check dataset license compatibility (registry licenses; MIT/Apache-2.0/BSD/CC0/CC-BY)."""
    metadata = lookup_dataset(dataset)
    if metadata is None:
        return {"license": "Unknown", "compatible": False}
    return {"license": metadata.license, "compatible": license_compatible(metadata.license)}


def budget_estimator(dataset_size: int, model_type: str, epochs: int, batch_size: int) -> dict[
    str, Any
]:
    """Estimate CPU training time (the seed's simplified formula)."""
    batches_per_epoch = dataset_size / max(batch_size, 1)
    seconds_per_batch = 0.1 if model_type.lower() in {"sklearn", "scikit-learn"} else 2.0
    total_minutes = batches_per_epoch * seconds_per_batch * epochs / 60
    return {
        "estimated_minutes": round(total_minutes, 1),
        "within_budget": total_minutes <= MAX_BUDGET_MINUTES,
    }


def search_paper_tool(search: SearchFn) -> Tool:
    """The search_paper tool over ``search(query, k)`` (one paper's chunks)."""

    def run(args: SearchPaperArgs) -> list[dict[str, Any]]:
        return [hit_to_dict(hit) for hit in search(args.query, args.k)]

    return Tool(
        name="search_paper",
        description="Search the paper's text; returns passages with their page numbers.",
        args_model=SearchPaperArgs,
        fn=run,
        cap_key="file_search",
    )


def planner_tools(search: SearchFn | None) -> list[Tool]:
    """Stage 1 planner tools: search_paper (if a search is given) + the three registry tools."""
    tools = [search_paper_tool(search)] if search is not None else []
    tools += [
        Tool(name="dataset_resolver", description="Check if a dataset is in the registry.",
             args_model=DatasetResolverArgs, fn=lambda a: dataset_resolver(a.name)),
        Tool(name="license_checker", description="Check a dataset's license compatibility.",
             args_model=LicenseCheckerArgs, fn=lambda a: license_checker(a.dataset)),
        Tool(name="budget_estimator", description="Estimate CPU training minutes.",
             args_model=BudgetEstimatorArgs,
             fn=lambda a: budget_estimator(a.dataset_size, a.model_type, a.epochs,
                                           a.batch_size)),
    ]
    return tools


__all__ = ["BLOCKED_DATASETS", "budget_estimator", "dataset_resolver", "license_checker",
           "planner_tools", "search_paper_tool"]
