"""A small PNG of the saturation metrics per cycle (for asset metadata)."""

from __future__ import annotations

import io

from repro_assets.research.models import CycleRecord
from repro_assets.research.saturation import NEW_ENTITIES_MIN


def saturation_png(history: list[CycleRecord], title: str = "saturation per cycle") -> bytes:
    """Line plot of the four saturation metrics per cycle (Agg backend, PNG bytes)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cycles = [c.cycle for c in history]
    fig, ax = plt.subplots(figsize=(5, 2.8), dpi=90)
    try:
        for field, label in (
            ("new_entities_ratio", "new entities"),
            ("new_facts_ratio", "new facts"),
            ("citation_circularity", "circularity"),
            ("source_coverage", "coverage"),
        ):
            ax.plot(cycles, [getattr(c.metrics, field) for c in history], marker="o",
                    label=label)
        ax.axhline(NEW_ENTITIES_MIN, color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel("cycle")
        ax.set_ylim(-0.05, 1.05)
        ax.set_xticks(cycles or [1])
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7, loc="best")
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
        return buffer.getvalue()
    finally:
        plt.close(fig)
