"""Thin Dagster layer, one module per workflow.

A workflow module defines ``defs`` (a ``dg.Definitions`` without resources) and may define
``demo(ctx: DemoContext) -> list[DemoRow]`` (see :mod:`repro_assets.demo`) and ``DEMO_ORDER``.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def workflow_modules() -> list[ModuleType]:
    """Import every workflow module of this package, ordered by ``DEMO_ORDER`` then name."""
    modules = [
        importlib.import_module(f"{__name__}.{info.name}")
        for info in pkgutil.iter_modules(__path__)
        if not info.name.startswith("_")
    ]
    modules = [module for module in modules if hasattr(module, "defs")]
    return sorted(modules, key=lambda m: (getattr(m, "DEMO_ORDER", 100), m.__name__))
