"""The one ``dg.Definitions`` of the code location.

Each workflow's thin Dagster layer lives in ``repro_assets/assets/<workflow>.py`` and exposes
``defs = dg.Definitions(assets=..., asset_checks=..., sensors=..., schedules=..., jobs=...)``
without resources; the shared resources are bound here once.
"""

import dagster as dg

from repro_assets.assets import workflow_modules
from repro_assets.executors import default_executor
from repro_assets.resources.registry import default_resources

defs = dg.Definitions.merge(
    *(module.defs for module in workflow_modules()),
    # REPRO_EXECUTOR picks where steps run (k8s_job_executor on Kubernetes: deploy/helm)
    dg.Definitions(resources=default_resources(), executor=default_executor()),
)
