"""Learning-curve plots for a run directory: people look at these before they read any number."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

PANELS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("Designer: valid environments", ("valid_rate",), "share of designs"),
    ("Regret (hinted - unhinted return)", ("regret_mean",), "regret"),
    ("Agent win rate", ("win_rate_unhinted", "win_rate_hinted"), "win rate"),
    ("Agent return without hint", ("return_unhinted",), "episode return"),
)


def plot_metrics(rows: Sequence[dict[str, Any]], out: Path, title: str = "SPADE run") -> Path | None:
    """Write a 2x2 PNG of the per-iteration metrics; returns its path (None without matplotlib or data)."""
    if not rows:
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display on servers and CI
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    steps = [row.get("step", index) for index, row in enumerate(rows)]
    figure, axes = plt.subplots(2, 2, figsize=(10, 7), constrained_layout=True)
    for axis, (heading, keys, label) in zip(axes.flat, PANELS):
        for key in keys:
            values = [row.get(key) for row in rows]
            points = [(s, v) for s, v in zip(steps, values) if v is not None]
            if points:
                axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=key)
        axis.set_title(heading)
        axis.set_xlabel("iteration")
        axis.set_ylabel(label)
        axis.grid(alpha=0.3)
        if len(keys) > 1:
            axis.legend()
    figure.suptitle(title)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.stem}.tmp.png")
    figure.savefig(tmp, dpi=100)
    plt.close(figure)
    tmp.replace(out)
    return out
