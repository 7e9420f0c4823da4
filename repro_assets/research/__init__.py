"""Research agent (seed 004): providers, obstacle handling, saturation-based cycles, reports.

Pure domain logic: :mod:`~repro_assets.research.agent` runs the workflow over
:class:`~repro_assets.research.models.ResearchState`; the Dagster layer is
``repro_assets/assets/research.py``.
"""
