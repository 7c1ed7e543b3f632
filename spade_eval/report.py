"""Paper-style tables and a plot from one or more results documents.

One document gives a table of benchmarks with score (in percent), its 95% bootstrap interval, the metric
and the item count. Several documents (checkpoints of one training run, or a baseline and a candidate)
give one column per document and, after the first, the difference from the first: the first document
is the baseline. Suite averages are the unweighted mean over the benchmarks every document has, as
papers average benchmarks. The same table is written as Markdown and as standalone HTML, and the plot is
a grouped bar chart with the intervals as error bars.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from spade_envs.fileio import write_atomically
from spade_eval.results import BenchmarkResult, EvalResults


@dataclass(frozen=True)
class Row:
    suite: str
    name: str
    metric: str
    cells: list[BenchmarkResult | None]


def labels_for(results: Sequence[EvalResults], paths: Sequence[Path] | None = None) -> list[str]:
    """Column labels: model names, made unique with the file name where two runs share a model name."""
    names = [r.model.name.rstrip("/").split("/")[-1] or r.model.name for r in results]
    labels = []
    for index, name in enumerate(names):
        if names.count(name) > 1:
            suffix = paths[index].parent.name if paths else str(index + 1)
            name = f"{name} ({suffix})"
        labels.append(name)
    return labels


def rows_of(results: Sequence[EvalResults]) -> list[Row]:
    order: list[tuple[str, str]] = []
    for document in results:
        for bench in document.benchmarks:
            if (bench.suite, bench.name) not in order:
                order.append((bench.suite, bench.name))
    rows = []
    for suite, name in order:
        cells = [document.benchmark(name) for document in results]
        metric = next(cell.metric for cell in cells if cell is not None)
        rows.append(Row(suite, name, metric, cells))
    return rows


def suite_averages(rows: list[Row], columns: int) -> list[tuple[str, list[float | None]]]:
    """Per suite (and overall when there are several), the mean score over rows complete in every column."""
    out = []
    suites = list(dict.fromkeys(row.suite for row in rows))
    groups = [(suite, [row for row in rows if row.suite == suite]) for suite in suites]
    if len(suites) > 1:
        groups.append(("all", rows))
    for suite, members in groups:
        complete = [row for row in members if all(cell is not None for cell in row.cells)]
        if len(complete) < 2 and suite != "all":
            continue
        averages: list[float | None] = [
            sum(_score(row.cells[c]) for row in complete) / len(complete) if complete else None
            for c in range(columns)
        ]
        out.append((f"average ({suite}, {len(complete)} benchmarks)", averages))
    return out


def _score(cell: BenchmarkResult | None) -> float:
    return cell.score if cell is not None else 0.0


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _delta(value: float | None, base: float | None) -> str:
    if value is None or base is None:
        return "-"
    return f"{100 * (value - base):+.1f}"


def _table(results: Sequence[EvalResults], labels: list[str]) -> tuple[list[str], list[list[str]]]:
    rows = rows_of(results)
    header = ["benchmark", "metric", "n"]
    for index, label in enumerate(labels):
        header.append(label)
        if index > 0:
            header.append(f"Δ vs {labels[0]}")
    body = []
    for row in rows:
        first = row.cells[0]
        n = next((str(cell.n_items) for cell in row.cells if cell is not None), "-")
        line = [row.name, row.metric, n]
        for index, cell in enumerate(row.cells):
            line.append(
                "-" if cell is None else f"{_pct(cell.score)} [{_pct(cell.ci_low)}, {_pct(cell.ci_high)}]"
            )
            if index > 0:
                line.append(_delta(cell.score if cell else None, first.score if first else None))
        body.append(line)
    summaries = suite_averages(rows, len(results)) + family_aggregates(results)
    for label, averages in summaries:
        line = [label, "mean score" if label.startswith("average") else "family's own weighting", ""]
        for index, value in enumerate(averages):
            line.append(_pct(value))
            if index > 0:
                line.append(_delta(value, averages[0]))
        body.append(line)
    return header, body


def family_aggregates(results: Sequence[EvalResults]) -> list[tuple[str, list[float | None]]]:
    """The cross-benchmark numbers of each document (BFCL overall, ACEBench overall, ...), one row each."""
    names = list(dict.fromkeys(name for document in results for name in document.aggregates))
    return [(name, [document.aggregates.get(name) for document in results]) for name in names]


def rate_lines(results: Sequence[EvalResults], labels: list[str]) -> list[str]:
    """Benchmark-specific rates (games: win / draw / loss and invalid moves), one line per benchmark
    and run: the single score column cannot say how a game was lost."""
    lines = []
    for row in rows_of(results):
        for label, cell in zip(labels, row.cells):
            if cell is not None and cell.metrics:
                rates = ", ".join(f"{key} {value:.3g}" for key, value in cell.metrics.items())
                lines.append(f"{row.name} ({label}): {rates}")
    return lines


def render_markdown(results: Sequence[EvalResults], labels: list[str] | None = None) -> str:
    labels = labels or labels_for(results)
    header, body = _table(results, labels)
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in body]
    notes = [
        f"- {label}: `{r.model.spec}` ({r.created}, fingerprint {r.model.fingerprint})"
        for label, r in zip(labels, results)
    ]
    rates = rate_lines(results, labels)
    rates_text = ("\n\nRates:\n\n" + "\n".join(f"- {line}" for line in rates)) if rates else ""
    return (
        "Scores in percent with 95% bootstrap intervals over items; Δ is the difference from the first "
        "column.\n\n" + "\n".join(lines) + rates_text + "\n\n" + "\n".join(notes) + "\n"
    )


def render_html(
    results: Sequence[EvalResults], labels: list[str] | None = None, plot_file: str | None = None
) -> str:
    labels = labels or labels_for(results)
    header, body = _table(results, labels)

    def cell(text: str, tag: str = "td") -> str:
        css = ""
        if tag == "td" and text[:1] in "+-" and text not in ("-",):
            css = ' class="up"' if text.startswith("+") and text != "+0.0" else ' class="down"'
        return f"<{tag}{css}>{html.escape(text)}</{tag}>"

    head = "".join(cell(h, "th") for h in header)
    rows = "\n".join("<tr>" + "".join(cell(c) for c in row) + "</tr>" for row in body)
    models = "".join(
        f"<li>{html.escape(label)}: <code>{html.escape(r.model.spec)}</code> ({html.escape(r.created)})</li>"
        for label, r in zip(labels, results)
    )
    image = f'<p><img src="{html.escape(plot_file)}" alt="scores"></p>' if plot_file else ""
    rates = "".join(f"<li>{html.escape(line)}</li>" for line in rate_lines(results, labels))
    rates = f"<h2>Rates</h2><ul>{rates}</ul>" if rates else ""
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>spade-eval report</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}
td:first-child,th:first-child{{text-align:left}}
.up{{color:#070}}.down{{color:#a00}}</style></head><body>
<h1>spade-eval report</h1>
<p>Scores in percent with 95% bootstrap intervals over items;
&Delta; is the difference from the first column.</p>
<table><thead><tr>{head}</tr></thead><tbody>
{rows}
</tbody></table>
{rates}
<ul>{models}</ul>
{image}
</body></html>
"""


def plot(results: Sequence[EvalResults], path: Path, labels: list[str] | None = None) -> None:
    """Grouped bars (one group per benchmark, one bar per document) with the intervals as error bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = labels or labels_for(results)
    rows = rows_of(results)
    width = 0.8 / max(1, len(results))
    figure, axis = plt.subplots(figsize=(max(6.0, 0.9 * len(rows) * max(1, len(results)) + 2), 4.5))
    for column, label in enumerate(labels):
        xs, heights, low, high = [], [], [], []
        for index, row in enumerate(rows):
            cell = row.cells[column]
            if cell is None:
                continue
            xs.append(index + (column - (len(results) - 1) / 2) * width)
            heights.append(100 * cell.score)
            low.append(100 * max(0.0, cell.score - cell.ci_low))
            high.append(100 * max(0.0, cell.ci_high - cell.score))
        axis.bar(xs, heights, width=width, label=label, yerr=[low, high], capsize=3)
    axis.set_xticks(range(len(rows)))
    axis.set_xticklabels([row.name for row in rows], rotation=30, ha="right")
    axis.set_ylabel("score (%)")
    axis.set_ylim(0, 100)
    axis.legend(fontsize="small")
    axis.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    tmp = path.with_name(f".{path.name}.tmp.png")
    figure.savefig(tmp, dpi=120)
    plt.close(figure)
    tmp.replace(path)


def write_report(
    results: Sequence[EvalResults], directory: Path, paths: Sequence[Path] | None = None
) -> list[Path]:
    """``report.md``, ``report.html`` and ``report.png`` in ``directory``; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    labels = labels_for(results, paths)
    written = [directory / "report.png", directory / "report.md", directory / "report.html"]
    plot(results, written[0], labels)
    write_atomically(written[1], render_markdown(results, labels))
    write_atomically(written[2], render_html(results, labels, plot_file="report.png"))
    return written
