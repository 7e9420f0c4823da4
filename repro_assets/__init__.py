"""repro_assets: a Dagster code location that turns documents into traceable data assets."""

__version__ = "0.1.0"
