"""Learning-curve plots for a run directory: people look at these before they read any number.

``plot_metrics`` draws ``plots/curves.png`` from the rows of ``metrics.jsonl`` (the numbers of
``spade_train.loop.metrics`` and the trainer's), one panel per question a person asks of a run: is the
designer paid more, are its designs valid and why not, is regret positive, is the agent learning, how
many samples is each point, and is training healthy. Every panel draws

- each iteration's value faintly (a dot per iteration, so an isolated value stays visible), with its 95%
  interval as a band where the row has one (``<metric>_low`` / ``<metric>_high``);
- a bold centred mean over ``SMOOTHING`` iterations on top, which has no lag: a change shows at the
  iteration it happened, except over the last ``SMOOTHING // 2`` iterations, which can only average the
  ones before them (the figure's footnote says so);
- per skill, where the metric is recorded per skill, a thin centred mean in that skill's colour.

A null (a mean over nothing: no design was played) is a gap in the line, never a zero. Panels whose
metrics a row does not have (an older run, the inference-only ``generate-pool`` without training
metrics) say so instead of drawing an empty frame.
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_envs.fileio import write_through_temporary
from spade_train.loop.metrics import rejected_key, skill_key


@dataclass(frozen=True)
class Panel:
    title: str
    metrics: tuple[str, ...]
    """``metrics.jsonl`` keys drawn as lines on the left axis."""
    label: str
    """The left axis."""
    per_skill: str | None = None
    """A metric drawn per skill too (``skill/<skill>/<metric>``)."""
    secondary: tuple[str, ...] = ()
    """Keys drawn dashed on a right-hand axis (a different unit)."""
    secondary_label: str = ""
    smooth: bool = True
    """False for counts, which are exact and drawn as they are."""
    zero_line: bool = False
    rejections: bool = False
    """The stacked counts of ``rejected/<reason>`` instead of lines."""


PANELS: tuple[Panel, ...] = (
    Panel("Designer reward (raw, before centring per skill)", ("designer_reward_raw_mean",), "mean reward",
          per_skill="designer_reward_raw_mean"),
    Panel("Valid designs", ("valid_rate",), "share of distinct designs", per_skill="valid_rate"),
    Panel("Why designs were rejected (top checks)", (), "distinct designs", rejections=True, smooth=False),
    Panel("Regret (hinted - unhinted return)", ("regret_mean",), "mean regret", per_skill="regret_mean",
          zero_line=True),
    Panel("Agent win rate", ("win_rate_unhinted", "win_rate_hinted"), "win rate"),
    Panel("Agent return without hint", ("return_unhinted",), "mean episode return"),
    Panel("Samples per iteration", ("designs", "played", "zero_variance_groups"), "designs, groups",
          secondary=("episodes_unhinted",), secondary_label="episodes per condition", smooth=False),
    Panel("Policy loss (clipped surrogate)", ("train_designer_loss", "train_agent_loss"), "loss"),
    Panel("Gradient norm and KL to the reference", ("train_designer_grad_norm", "train_agent_grad_norm"),
          "gradient norm (before clipping)", secondary=("train_designer_kl", "train_agent_kl"),
          secondary_label="KL per token"),
    Panel("Does the designer follow the agent?", ("followed_regret", "family_regret"),
          "regret over the 3 iterations before", zero_line=True),
)
"""The panels, left to right and top to bottom, three to a row. The last is drawn from ``attempts.jsonl``
where hints name design families (``tracking.with_follow``): the designer is choosing what the agent has
not learnt when its line runs above the average family's."""

LABELS: dict[str, str] = {
    "designer_reward_raw_mean": "all skills", "valid_rate": "all skills", "regret_mean": "all skills",
    "win_rate_unhinted": "without hint", "win_rate_hinted": "with hint", "return_unhinted": "without hint",
    "designs": "designs", "played": "played designs", "zero_variance_groups": "zero-variance groups",
    "episodes_unhinted": "episodes without hint (right)",
    "train_designer_loss": "designer", "train_agent_loss": "agent",
    "train_designer_grad_norm": "designer", "train_agent_grad_norm": "agent",
    "train_designer_kl": "designer KL (right)", "train_agent_kl": "agent KL (right)",
    "followed_regret": "families the designer chose", "family_regret": "average family (a blind designer)",
}

SMOOTHING = 5
"""Iterations in the centred mean (an odd number: the iteration itself and as many on each side)."""
TOP_REASONS = 6
"""Rejection reasons drawn by name; the rest are summed as "other"."""


def centred_mean(values: Sequence[float | None], window: int = SMOOTHING) -> list[float | None]:
    """The mean of the values present within ``window // 2`` iterations either side of each present
    value; None where the value itself is None (a gap stays a gap)."""
    half = window // 2
    averaged: list[float | None] = []
    for index, value in enumerate(values):
        if value is None:
            averaged.append(None)
            continue
        near = [v for v in values[max(0, index - half) : index + half + 1] if v is not None]
        averaged.append(sum(near) / len(near))
    return averaged


def smoothing_note(iterations: int) -> str:
    """What the bold lines are, stated on the figure."""
    if iterations <= 2 * SMOOTHING:
        return "each point is one iteration (too few iterations to smooth)"
    half = SMOOTHING // 2
    return (f"bold lines: centred {SMOOTHING}-iteration mean (no lag, except over the last {half} iterations, "
            f"which average only the ones before them); faint: each iteration; bands: each iteration's 95% "
            "interval; a gap: nothing to average that iteration")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _series(rows: Sequence[dict[str, Any]], key: str) -> list[float | None]:
    return [_number(row.get(key)) for row in rows]


def _nan(values: Sequence[float | None]) -> list[float]:
    """None as NaN: matplotlib breaks a line at NaN, which is how a gap is drawn."""
    return [math.nan if value is None else value for value in values]


HEADING_WIDTH = 150
"""Characters per line of the figure's heading: a subtitle with many ``--set`` options wraps onto more lines
instead of running off both edges of the 16-inch figure."""


def heading_text(title: str, subtitle: str | None = None) -> str:
    """The figure's heading: the title, then the subtitle wrapped to ``HEADING_WIDTH`` (breaking at spaces)."""
    lines = [_text(title)]
    if subtitle:
        lines += textwrap.wrap(_text(subtitle), HEADING_WIDTH, break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines)


def _text(text: str) -> str:
    """``text`` as matplotlib shows it literally (a ``$`` would start mathtext)."""
    return text.replace("$", r"\$")


def skills_of(rows: Sequence[dict[str, Any]]) -> list[str]:
    found = {key.split("/")[1] for row in rows for key in row if key.startswith("skill/") and key.count("/") >= 2}
    return sorted(found)


def rejection_reasons(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The reasons in the rows, most frequent over the run first."""
    totals: Counter[str] = Counter()
    for row in rows:
        for key, value in row.items():
            if key.startswith("rejected/") and _number(value):
                totals[key.removeprefix("rejected/")] += float(value)
    return [reason for reason, _ in sorted(totals.items(), key=lambda item: (-item[1], item[0]))]


def _draw_lines(axis: Any, steps: Sequence[int], rows: Sequence[dict[str, Any]], keys: Sequence[str],
                panel: Panel, smooth: bool, *, colours: Sequence[str], dashed: bool = False) -> bool:
    drawn = False
    for key, colour in zip(keys, colours):
        values = _series(rows, key)
        if all(value is None for value in values):
            continue
        drawn = True
        style = "--" if dashed else "-"
        label = LABELS.get(key, key)
        lows, highs = _series(rows, f"{key}_low"), _series(rows, f"{key}_high")
        if any(value is not None for value in lows):
            axis.fill_between(steps, _nan(lows), _nan(highs), color=colour, alpha=0.13, linewidth=0)
        if smooth and panel.smooth:
            axis.plot(steps, _nan(values), style, color=colour, alpha=0.35, linewidth=0.8, marker=".",
                      markersize=3)
            axis.plot(steps, _nan(centred_mean(values)), style, color=colour, linewidth=2.2, label=label)
        else:
            axis.plot(steps, _nan(values), style, color=colour, linewidth=1.6, marker="o", markersize=3,
                      label=label)
    return drawn


def _draw_rejections(axis: Any, steps: Sequence[int], rows: Sequence[dict[str, Any]]) -> bool:
    recorded = [row for row in rows if "valid_n" in row]  # rows older than rejected/* counts have no valid_n
    reasons = rejection_reasons(rows)
    if not recorded:
        return False
    named, other = reasons[:TOP_REASONS], reasons[TOP_REASONS:]
    bottom = [0.0] * len(rows)
    colours = _palette(len(named) + 1)
    groups = [(reason, [rejected_key(reason)]) for reason in named]
    if other:
        groups.append((f"other ({len(other)} reasons)", [rejected_key(reason) for reason in other]))
    for (label, keys), colour in zip(groups, colours):
        heights = [sum(_number(row.get(key)) or 0.0 for key in keys) if "valid_n" in row else 0.0 for row in rows]
        axis.bar(steps, heights, bottom=bottom, color=colour, width=0.85, label=_text(label))
        bottom = [b + h for b, h in zip(bottom, heights)]
    if not groups:
        axis.text(0.5, 0.5, "no design was rejected", ha="center", va="center", transform=axis.transAxes)
    return True


def _palette(count: int) -> list[str]:
    import matplotlib

    colours = matplotlib.colormaps["tab10"].colors
    return [matplotlib.colors.to_hex(colours[index % len(colours)]) for index in range(count)]


def plot_metrics(rows: Sequence[dict[str, Any]], out: Path, title: str = "SPADE run",
                 subtitle: str | None = None) -> Path | None:
    """Write the panels of ``PANELS`` as a PNG; returns its path (None without matplotlib or rows).

    ``title`` names the run, ``subtitle`` the models and configuration (both shown on the figure).
    """
    if not rows:
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display on servers and CI
    except ImportError:
        return None
    return save_figure(curves_figure(rows, title, subtitle), out)


def save_figure(figure: Any, out: Path) -> Path:
    """Write ``figure`` to ``out`` as a PNG through a temporary file (a reader never sees half an image),
    then close it."""
    import matplotlib.pyplot as plt

    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_through_temporary(out, lambda tmp: figure.savefig(tmp, dpi=100))
    finally:
        plt.close(figure)
    return out


def curves_figure(rows: Sequence[dict[str, Any]], title: str, subtitle: str | None = None) -> Any:
    """The matplotlib figure of ``plot_metrics`` (the caller closes it)."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    steps = [int(row.get("step", index + 1)) for index, row in enumerate(rows)]
    smooth = len(rows) > 2 * SMOOTHING
    skills = skills_of(rows)
    skill_colours = dict(zip(skills, _palette(len(skills) + 2)[2:]))
    grid_rows = -(-len(PANELS) // 3)
    figure, axes = plt.subplots(grid_rows, 3, figsize=(16, 4.2 * grid_rows), constrained_layout=True)
    for axis in list(axes.flat)[len(PANELS):]:
        axis.set_axis_off()
    for axis, panel in zip(axes.flat, PANELS):
        if panel.rejections:
            drawn = _draw_rejections(axis, steps, rows)
        else:
            main = ["black"] if panel.per_skill else _palette(len(panel.metrics))
            drawn = _draw_lines(axis, steps, rows, panel.metrics, panel, smooth, colours=main)
            if panel.per_skill:
                for skill in skills:
                    values = _series(rows, skill_key(skill, panel.per_skill))
                    if any(value is not None for value in values):
                        line = centred_mean(values) if smooth else values
                        axis.plot(steps, _nan(line), color=skill_colours[skill], linewidth=1.1, alpha=0.9,
                                  marker=None if smooth else ".")
            if panel.secondary:
                twin = axis.twinx()
                if _draw_lines(twin, steps, rows, panel.secondary, panel, smooth,
                               colours=_palette(len(panel.metrics) + len(panel.secondary))[len(panel.metrics):],
                               dashed=True):
                    drawn = True
                    twin.set_ylabel(panel.secondary_label)
                    handles, labels = axis.get_legend_handles_labels()
                    more, more_labels = twin.get_legend_handles_labels()
                    axis.legend(handles + more, labels + more_labels, fontsize="small", loc="best")
                else:
                    twin.set_axis_off()
        if panel.zero_line and drawn:
            axis.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
        axis.set_title(panel.title)
        axis.set_xlabel("iteration")
        axis.set_ylabel(panel.label)
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.grid(alpha=0.3)
        if not drawn:
            axis.text(0.5, 0.5, "not recorded in metrics.jsonl", ha="center", va="center", color="grey",
                      transform=axis.transAxes)
        elif axis.get_legend() is None and axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize="small", loc="best")
    if skills:
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], color="black", linewidth=2.2)] + [
            Line2D([], [], color=skill_colours[skill], linewidth=1.5) for skill in skills]
        # At the foot of the figure, with what the lines are as its title (one block: nothing overlaps).
        legend = figure.legend(handles, ["all skills", *(_text(skill) for skill in skills)],
                               loc="outside lower center", ncols=min(len(skills) + 1, 6), fontsize="medium",
                               frameon=False, title=_text(f"{smoothing_note(len(rows))}\nthin lines: per skill "
                                                          "(reward, validity, regret)"))
        legend.get_title().set_fontsize("small")
    else:
        figure.supxlabel(_text(smoothing_note(len(rows))), fontsize="small", color="dimgrey")
    figure.suptitle(heading_text(title, subtitle), fontsize="large")
    return figure
