"""Thin Dagster layer, one module per workflow.

A workflow module defines ``defs`` (a ``dg.Definitions`` of its assets, asset checks and the
jobs of :mod:`repro_assets.jobs` that run them, without resources); its sensors are in
:mod:`repro_assets.sensors`, its read side in the workflow's ``views`` module and its demo hook
in :mod:`repro_assets.demos`. :mod:`repro_assets.definitions` merges them by name.
"""
