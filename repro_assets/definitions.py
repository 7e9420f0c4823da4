"""The one ``dg.Definitions`` of the code location.

Each workflow's thin Dagster layer lives in ``repro_assets/assets/<workflow>.py`` (assets,
checks and the jobs of ``repro_assets/jobs.py`` that run them) and its sensors and schedules in
``repro_assets/sensors/<workflow>.py``; each exposes ``defs`` without resources. The shared
resources are bound here once.
"""

import dagster as dg

from repro_assets.assets import (
    debate,
    factory,
    forms,
    paper_analysis,
    paper_report,
    paper_reproduction,
    papers,
    research,
)
from repro_assets.executors import default_executor
from repro_assets.resources.registry import default_resources
from repro_assets.sensors import factory as factory_sensors
from repro_assets.sensors import forms as forms_sensors
from repro_assets.sensors import papers as papers_sensors

defs = dg.Definitions.merge(
    papers.defs, paper_analysis.defs, paper_reproduction.defs, paper_report.defs,
    factory.defs, forms.defs,
    debate.defs, research.defs,
    papers_sensors.defs, factory_sensors.defs, forms_sensors.defs,
    # REPRO_EXECUTOR picks where steps run (k8s_job_executor on Kubernetes: deploy/helm)
    dg.Definitions(resources=default_resources(), executor=default_executor()),
)
