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


SMOOTHING = 5


def moving_average(values: Sequence[float], window: int) -> list[float]:
    """Trailing mean over up to ``window`` values (shorter at the start, so no point is dropped)."""
    averaged, total = [], 0.0
    for index, value in enumerate(values):
        total += value
        if index >= window:
            total -= values[index - window]
        averaged.append(total / min(index + 1, window))
    return averaged


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
            if not points:
                continue
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            if len(points) > 2 * SMOOTHING:  # per-iteration values are noisy: show the trend over them
                line = axis.plot(xs, ys, alpha=0.3, linewidth=1)[0]
                axis.plot(xs, moving_average(ys, SMOOTHING), color=line.get_color(), linewidth=2,
                          label=f"{key} ({SMOOTHING}-iteration mean)")
            else:
                axis.plot(xs, ys, marker="o", label=key)
        if "regret_mean" in keys:
            axis.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
        axis.set_title(heading)
        axis.set_xlabel("iteration")
        axis.set_ylabel(label)
        axis.grid(alpha=0.3)
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize="small")
    figure.suptitle(title)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.stem}.tmp.png")
    figure.savefig(tmp, dpi=100)
    plt.close(figure)
    tmp.replace(out)
    return out
