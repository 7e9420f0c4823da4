"""Schemas and tools shared by the LLM-layer tests."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.llm import Tool


class Claim(BaseModel):
    """One reported metric."""

    model_config = ConfigDict(extra="forbid")
    dataset_name: str = Field(description="dataset the metric is reported on")
    metric_name: str = Field(description="metric, e.g. accuracy")
    metric_value: float = Field(description="reported value")


class ExtractorOutput(BaseModel):
    """Claims extracted from a paper."""

    model_config = ConfigDict(extra="forbid")
    claims: list[Claim] = Field(description="every claim found")


class SearchArgs(BaseModel):
    """Arguments of search_paper."""

    model_config = ConfigDict(extra="forbid")
    query: str = Field(description="what to look for in the paper")


GOOD = {"claims": [{"dataset_name": "SST-2", "metric_name": "accuracy", "metric_value": 88.1}]}


def search_tool(calls: list[str] | None = None, cap_key: str | None = "file_search") -> Tool:
    """A ``search_paper`` tool that records its queries."""
    seen = calls if calls is not None else []

    def run(args: SearchArgs) -> list[dict[str, Any]]:
        seen.append(args.query)
        return [{"content": "CNN-static reaches 88.1% accuracy on SST-2", "page": 5}]

    return Tool(name="search_paper", description="Search the paper's chunks.",
                args_model=SearchArgs, fn=run, cap_key=cap_key)
