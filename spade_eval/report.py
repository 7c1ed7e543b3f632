"""The report of one or more results documents: Markdown, standalone HTML and one plot.

A reader should be able to cite it without opening ``results.json``, so it is laid out in the order of
their questions:

1. **What was run**, one settings block per run: the model and its fingerprint, the item limit, the
   sampling and token limits, the data (the fingerprint of the items that ran), the sandbox. Whatever
   makes the numbers incomparable with a full run is flagged there: an item limit, overridden sampling.
   When several runs are compared, every setting that differs between them is flagged too.
2. **The numbers to cite**: each benchmark family's own overall (BFCL, ACEBench: the weighting their
   papers and leaderboards use), then, for benchmarks outside a family, the unweighted mean per suite,
   labelled as such.
3. **Every benchmark**, one table per family or suite: score in percent, its 95% bootstrap interval and
   the item count n, and beside any score a note when its answers were cut at the token limit, when
   generations failed, or when episodes errored. A benchmark whose every sample errored has no score
   (it is shown as errored, not as 0.0); a benchmark a run did not include is shown as not run.
4. Benchmark-specific rates (win / draw / loss), and in the HTML every item's prompt, replies, verdicts
   and details, folded.

Several documents (checkpoints of one training run, or a baseline and a candidate) give one column per
document and, after the first, the difference from the first: the first document is the baseline. A
difference of 0.0 is neutral, not a loss. Columns are named by run directory (the folder holding each
results.json) unless labels are given (``spade-eval report --label``).

The plot has one panel per family or suite (small multiples): horizontal bars per benchmark, one per
run, with the intervals as error bars and absent or errored results marked as such, at a fixed width.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from spade_envs.fileio import write_atomically, write_through_temporary
from spade_eval.aggregates import FAMILIES
from spade_eval.results import BenchmarkResult, EvalResults

FAMILY_TITLES = {"bfcl": "BFCL v4", "acebench": "ACEBench"}
"""How the report names each family of ``spade_eval.aggregates.FAMILIES``."""

AGGREGATE_NOTES = {
    "bfcl/multi_turn": "mean of the four multi-turn categories: the BFCL number the SPADE paper quotes",
    "bfcl/overall_leaderboard": "the leaderboard's overall; its agentic section (40%) cannot run offline "
                                "and counts as 0",
    "bfcl/overall_offline": "the leaderboard's weights over the four sections that run offline",
    "bfcl/non_live": "non-live AST section",
    "bfcl/live": "live AST section, weighted by item counts",
    "bfcl/irrelevance": "irrelevance section",
    "bfcl/relevance": "relevance section",
    "acebench/overall": "ACEBench's overall: 0.578 normal + 0.2676 special + 0.1545 agent",
    "acebench/normal": "ACEBench normal group",
    "acebench/special": "ACEBench special group",
    "acebench/agent": "ACEBench agent group",
}
"""What each family number is, for the headline table; a number without an entry is described as the
family's own weighting."""

CITE_FIRST = ("bfcl/multi_turn", "bfcl/overall_leaderboard", "acebench/overall")
"""Family numbers listed first in the headline table, in this order."""

FEW_ITEMS = 10
"""Below this many items the explanation under the title says the interval is only a rough guide."""

MAX_ITEMS_SHOWN = 50
"""Items per benchmark and run in the HTML's samples section; the rest are in results.json."""
MAX_SAMPLES_SHOWN = 8
"""Samples per item in the samples section."""
MAX_TEXT_SHOWN = 4000
"""Characters of one prompt or reply in the samples section."""


# ---------------------------------------------------------------------- columns and rows
def labels_for(
    results: Sequence[EvalResults],
    paths: Sequence[Path] | None = None,
    given: Sequence[str] | None = None,
) -> list[str]:
    """Column labels: the ``given`` labels (``--label``), else each run's directory name (the folder
    holding its results.json), else the model name. Labels that would repeat get ``#2``, ``#3``."""
    if given:
        if len(given) != len(results):
            raise ValueError(f"{len(given)} label(s) for {len(results)} results file(s)")
        raw = [str(label) for label in given]
    elif paths:
        raw = [path.parent.name or path.stem for path in paths]
    else:
        raw = [r.model.name.rstrip("/").split("/")[-1] or r.model.name for r in results]
    labels: list[str] = []
    for name in raw:
        label, copy = name, 1
        while label in labels:
            copy += 1
            label = f"{name} #{copy}"
        labels.append(label)
    return labels


@dataclass(frozen=True)
class Row:
    """One benchmark across the compared documents (``None``: that document did not run it)."""

    group: str
    """The family (``bfcl``) for a family's benchmarks, else the suite (``reasoning``)."""
    suite: str
    name: str
    metric: str
    cells: list[BenchmarkResult | None]


def group_of(benchmark: BenchmarkResult) -> str:
    family = next((f for f in FAMILIES if benchmark.name.startswith(f.benchmark_prefix)), None)
    return family.name if family else benchmark.suite


def group_title(group: str) -> str:
    return FAMILY_TITLES.get(group, group)


def rows_of(results: Sequence[EvalResults]) -> list[Row]:
    """Every benchmark of any document, in first-seen order, grouped by family or suite."""
    order: list[tuple[str, str, str]] = []
    for document in results:
        for bench in document.benchmarks:
            key = (group_of(bench), bench.suite, bench.name)
            if key not in order:
                order.append(key)
    groups = list(dict.fromkeys(group for group, _, _ in order))
    rows = []
    for group in groups:
        for _, suite, name in (key for key in order if key[0] == group):
            cells = [document.benchmark(name) for document in results]
            metric = next(cell.metric for cell in cells if cell is not None)
            rows.append(Row(group, suite, name, metric, cells))
    return rows


# ---------------------------------------------------------------------- what a score can be trusted for
def errored_samples(cell: BenchmarkResult) -> tuple[int, int]:
    """(episodes that ended in an error, samples): a game whose environment or opponent failed records
    ``outcome: "error"`` (``spade_eval.suites.games``). Failed generations are counted by the runner
    (``generation_errors``); a scorer's reason for a wrong answer is not an error."""
    samples = [sample for item in cell.items for sample in item.samples]
    return sum(sample.details.get("outcome") == "error" for sample in samples), len(samples)


def is_void(cell: BenchmarkResult | None) -> bool:
    """Whether the score measures nothing: every sample errored, or every generation failed."""
    if cell is None:
        return False
    errored, total = errored_samples(cell)
    if total and errored == total:
        return True
    return cell.generations > 0 and cell.generation_errors >= cell.generations


def void_text(cell: BenchmarkResult, short: bool = False) -> str:
    """What stands in place of the score of a void cell ("errored (4 of 4)", "failed" ...)."""
    errored, total = errored_samples(cell)
    if errored:
        return "errored" if short else f"errored ({errored} of {total})"
    return "failed" if short else "failed (every generation)"


def _shorten(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cell_notes(cell: BenchmarkResult) -> list[str]:
    """What a reader must know beside this score: cut answers, failed generations, errored episodes.
    (Its item count is in the cell itself.)"""
    notes = []
    limit = cell.sampling.max_tokens
    if cell.truncated_generations:
        if cell.generations and cell.truncated_generations >= cell.generations:
            notes.append(f"every one of {cell.generations} generations stopped at the {limit}-token limit: "
                         "the answers are cut off, so the score measures the limit")
        else:
            of = f" of {cell.generations}" if cell.generations else ""
            notes.append(f"{cell.truncated_generations}{of} generations stopped at the {limit}-token limit "
                         "(answers cut off)")
    if cell.generation_errors:
        of = f" of {cell.generations}" if cell.generations else ""
        causes = "; ".join(f"{message} ({count})" if len(cell.generation_error_causes) > 1 else message
                           for message, count in cell.generation_error_causes.items())
        notes.append(f"{cell.generation_errors}{of} generations failed (scored as wrong)"
                     + (f": {_shorten(causes)}" if causes else ""))
    errored, total = errored_samples(cell)
    if errored:
        if errored == total:
            notes.append(f"all {total} episodes errored: there is no score")
        else:
            notes.append(f"{errored} of {total} episodes errored (scored as losses)")
    return notes


def run_warnings(result: EvalResults) -> list[str]:
    """What makes this run's numbers incomparable with a full run at the benchmarks' own settings."""
    settings = result.settings
    lines = []
    if settings.limit is not None:
        lines.append(f"--limit {settings.limit}: only the first {settings.limit} items of each benchmark ran; "
                     "the scores are not comparable with full runs")
    overrides = {k: v for k, v in settings.sampling_overrides.items() if k != "seed"}
    if overrides:
        shown = ", ".join(f"{key} = {value}" for key, value in sorted(overrides.items()))
        lines.append(f"sampling overridden for every benchmark ({shown}); the papers' settings differ")
    if settings.samples is not None:
        lines.append(f"--samples {settings.samples}: every benchmark sampled {settings.samples} time(s) per "
                     "item instead of its own default")
    return lines


RUN_SETTING_FIELDS = ("suite", "limit", "samples", "sandbox", "tool_call_format", "user_simulator", "code_execution")
"""Run-wide settings whose difference makes two columns measure different things."""
DIALOGUE_BENCHMARKS = ("tau2_", "acebench_agent_multi_turn")
"""Benchmarks in which a simulated user speaks: the run's summary names it."""
SAMPLING_FIELDS = ("temperature", "top_p", "top_k", "max_tokens", "seed")
_ABSENT = object()


def settings_warnings(results: Sequence[EvalResults], labels: list[str]) -> list[str]:
    """One line per setting that differs between the compared runs: sampling (temperature, top-p,
    top-k, token limit, seed), samples per benchmark and the items that ran, and the run-wide settings
    that change what is measured (item limit, sandbox, call format, code execution). Empty when all
    runs agree. Benchmarks that differ in the same setting by the same values share one line."""
    if len(results) < 2:
        return []
    lines = []

    def values_shown(values: list[object]) -> str | None:
        present = [(label, value) for label, value in zip(labels, values) if value is not _ABSENT]
        if len({repr(value) for _, value in present}) < 2:
            return None
        return ", ".join(f"{label}: {value}" for label, value in present)

    for setting in RUN_SETTING_FIELDS:
        shown = values_shown([getattr(r.settings, setting, _ABSENT) for r in results])
        if shown:
            lines.append(f"warning: {setting} differs between runs ({shown})")
    per_benchmark: dict[tuple[str, str], list[str]] = {}
    for row in rows_of(results):
        checks = [(setting, [_ABSENT if c is None else getattr(c.sampling, setting) for c in row.cells])
                  for setting in SAMPLING_FIELDS]
        checks.append(("samples", [_ABSENT if c is None else c.samples for c in row.cells]))
        checks.append(("items (data fingerprint)",
                       [_ABSENT if c is None or c.data_version is None else c.data_version for c in row.cells]))
        for setting, values in checks:
            shown = values_shown(values)
            if shown:
                per_benchmark.setdefault((setting, shown), []).append(row.name)
    for (setting, shown), names in per_benchmark.items():
        which = names[0] if len(names) == 1 else f"for {len(names)} benchmarks ({_names(names)})"
        what = f"{which} {setting}" if len(names) == 1 else f"{setting} {which}"
        lines.append(f"warning: {what} differs between runs ({shown})")
    return lines


@dataclass
class RunSummary:
    """One run's settings block: (name, value) pairs and its warnings."""

    label: str
    facts: list[tuple[str, str]]
    warnings: list[str]


def run_summary(result: EvalResults, label: str) -> RunSummary:
    settings, model = result.settings, result.model
    facts = [
        ("model", model.spec),
        ("fingerprint", model.fingerprint),
        ("created", result.created),
        ("suite", f"{settings.suite}: {len(result.benchmarks)} benchmark(s)"),
        ("items", "all" if settings.limit is None else f"the first {settings.limit} of each benchmark"),
        ("samples per item", "each benchmark's default" if settings.samples is None else str(settings.samples)),
        ("sampling", _sampling_text(result.benchmarks)),
        ("data", f"--data-dir {settings.data_dir}" if settings.data_dir else "no --data-dir: bundled data"),
        ("items' fingerprints", _versions_text(result.benchmarks)),
        ("sandbox", settings.sandbox + (f", BFCL call format {settings.tool_call_format}"
                                        if any(b.name.startswith("bfcl_") for b in result.benchmarks) else "")),
    ]
    if any(b.name.startswith(DIALOGUE_BENCHMARKS) for b in result.benchmarks):
        facts.append(("simulated user", settings.user_simulator or "the model under test"))
    if settings.code_execution:
        facts.append(("code execution", ", ".join(f"{k} {v}" for k, v in settings.code_execution.items())))
    return RunSummary(label, facts, run_warnings(result))


def _sampling_text(benchmarks: Sequence[BenchmarkResult]) -> str:
    """The distinct sampling settings and which benchmarks used each."""
    groups: dict[str, list[str]] = {}
    for bench in benchmarks:
        s = bench.sampling
        key = (f"T = {s.temperature:g}, top-p {s.top_p:g}" + (f", top-k {s.top_k}" if s.top_k else "")
               + f", at most {s.max_tokens} tokens" + (f", seed {s.seed}" if s.seed is not None else ""))
        groups.setdefault(key, []).append(bench.name)
    if not groups:
        return "-"
    if len(groups) == 1:
        return next(iter(groups))
    return "; ".join(f"{key} ({_names(names)})" for key, names in groups.items())


def _names(names: list[str], shown: int = 4) -> str:
    return ", ".join(names) if len(names) <= shown else f"{', '.join(names[:shown])} and {len(names) - shown} more"


def _versions_text(benchmarks: Sequence[BenchmarkResult]) -> str:
    known = [f"{b.name} {b.data_version[:8]}" for b in benchmarks if b.data_version]
    missing = len(benchmarks) - len(known)
    text = ", ".join(known) if known else ""
    if missing:
        text += ("; " if text else "") + f"not recorded for {missing} benchmark(s) (results written before 0.1)"
    return text or "-"


# ---------------------------------------------------------------------- numbers
def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def delta(value: float | None, base: float | None) -> tuple[str, str]:
    """(text, direction) of a difference in points: direction is up, down, or same when it rounds to 0.0."""
    if value is None or base is None:
        return "", "none"
    points = round(100 * (value - base), 1)
    if points == 0:
        return "0.0", "same"
    return f"{points:+.1f}", "up" if points > 0 else "down"


def score_text(cell: BenchmarkResult) -> str:
    return f"{_pct(cell.score)} [{_pct(cell.ci_low)}, {_pct(cell.ci_high)}], n = {cell.n_items}"


@dataclass
class Cell:
    """One table cell: its text, the numbers of the notes beside it, and its kind for the HTML."""

    text: str
    notes: list[int] = field(default_factory=list)
    kind: str = "score"
    """score, absent, void, delta-up, delta-down, delta-same, delta-none, label."""


@dataclass
class Table:
    title: str
    header: list[str]
    rows: list[list[Cell]]
    notes: list[str]
    """Numbered notes, 1-based in the cells."""
    caption: str = ""


def _benchmark_table(group: str, rows: list[Row], labels: list[str]) -> Table:
    header = ["benchmark", "metric"]
    for index, label in enumerate(labels):
        header.append(label)
        if index > 0:
            header.append(f"Δ vs {labels[0]}")
    notes: list[str] = []
    body = []
    for row in rows:
        line = [Cell(row.name, kind="label"), Cell(row.metric, kind="label")]
        base = row.cells[0]
        for index, (label, cell) in enumerate(zip(labels, row.cells)):
            if cell is None:
                line.append(Cell("not run", kind="absent"))
            else:
                numbers = []
                for note in cell_notes(cell):
                    notes.append(f"{row.name}, {label}: {note}")
                    numbers.append(len(notes))
                if is_void(cell):
                    line.append(Cell(void_text(cell), numbers, kind="void"))
                else:
                    line.append(Cell(score_text(cell), numbers))
            if index > 0:
                usable = cell is not None and base is not None and not is_void(cell) and not is_void(base)
                text, direction = delta(cell.score if usable and cell else None, base.score if usable and base else None)
                line.append(Cell(text, kind=f"delta-{direction}"))
        body.append(line)
    return Table(group_title(group), header, body, notes)


def headline_rows(results: Sequence[EvalResults]) -> list[tuple[str, str, list[float | None]]]:
    """(name, what it is, value per document) of the numbers to cite: the families' own overalls (the
    ones papers quote first), then the unweighted mean per suite over the benchmarks outside any family
    that every document scored (when there are at least two)."""
    names = list(dict.fromkeys(name for document in results for name in document.aggregates))
    ordered = [name for name in CITE_FIRST if name in names] + [name for name in names if name not in CITE_FIRST]
    out = [(name, AGGREGATE_NOTES.get(name, "the family's own weighting"),
            [document.aggregates.get(name) for document in results]) for name in ordered]
    rows = [row for row in rows_of(results) if row.group == row.suite]
    for suite in dict.fromkeys(row.suite for row in rows):
        members = [row for row in rows if row.suite == suite]
        complete = [row for row in members if all(c is not None and not is_void(c) for c in row.cells)]
        if len(complete) < 2:  # the mean of one benchmark is that benchmark, in its own table
            continue
        left_out = len(members) - len(complete)
        what = (f"unweighted mean over {len(complete)} benchmark(s); no published weighting"
                + (f"; {left_out} left out (not run or errored in a run)" if left_out else ""))
        means = [sum(row.cells[c].score for row in complete) / len(complete)  # type: ignore[union-attr]
                 for c in range(len(results))]
        out.append((f"{suite} mean", what, list(means)))
    return out


def _headline_table(results: Sequence[EvalResults], labels: list[str]) -> Table | None:
    rows = headline_rows(results)
    if not rows:
        return None
    header = ["number", "what it is"]
    for index, label in enumerate(labels):
        header.append(label)
        if index > 0:
            header.append(f"Δ vs {labels[0]}")
    body = []
    for name, what, values in rows:
        line = [Cell(name, kind="label"), Cell(what, kind="label")]
        for index, value in enumerate(values):
            line.append(Cell("not complete", kind="absent") if value is None else Cell(_pct(value)))
            if index > 0:
                text, direction = delta(value, values[0])
                line.append(Cell(text, kind=f"delta-{direction}"))
        body.append(line)
    caption = ("A family's number is reported only when a run completed all of its categories; it has "
               "no interval (the per-benchmark tables below have them)."
               if any("/" in name for name, _, _ in rows) else "")
    return Table("The numbers to cite", header, body, [], caption)


def tables(results: Sequence[EvalResults], labels: list[str]) -> list[Table]:
    """The headline table (when there is one), then one table per family or suite."""
    rows = rows_of(results)
    out = []
    headline = _headline_table(results, labels)
    if headline is not None:
        out.append(headline)
    for group in dict.fromkeys(row.group for row in rows):
        out.append(_benchmark_table(group, [row for row in rows if row.group == group], labels))
    return out


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


EXPLANATION = ("Scores in percent; in brackets the 95% bootstrap interval over items, then n, the number "
               f"of items (with fewer than {FEW_ITEMS}, the interval is a rough guide: two wrong answers give "
               "[0.0, 0.0]). Δ is the difference in points from the first run. ⚠ marks a note below the "
               "table.")


# ---------------------------------------------------------------------- Markdown
def render_markdown(results: Sequence[EvalResults], labels: list[str] | None = None) -> str:
    labels = labels or labels_for(results)
    parts = ["# spade-eval report", "", EXPLANATION, ""]
    for result, label in zip(results, labels):
        summary = run_summary(result, label)
        parts += [f"## Run: {label}", ""]
        parts += [f"- {name}: {_md_code(value) if name in ('model', 'fingerprint') else value}"
                  for name, value in summary.facts]
        parts += [f"- **warning: {line}**" for line in summary.warnings]
        parts.append("")
    comparison = settings_warnings(results, labels)
    if comparison:
        parts += ["## Differences between the runs", ""] + [f"- **{line}**" for line in comparison] + [""]
    for table in tables(results, labels):
        parts += [f"## {table.title}", ""]
        if table.caption:
            parts += [table.caption, ""]
        parts.append("| " + " | ".join(_md_cell(h) for h in table.header) + " |")
        parts.append("| " + " | ".join("---" for _ in table.header) + " |")
        for row in table.rows:
            parts.append("| " + " | ".join(_md_cell(_with_marks(cell)) for cell in row) + " |")
        if table.notes:
            parts.append("")
            parts += [f"- ⚠{number} {note}" for number, note in enumerate(table.notes, start=1)]
        parts.append("")
    rates = rate_lines(results, labels)
    if rates:
        parts += ["## Rates", ""] + [f"- {line}" for line in rates] + [""]
    return "\n".join(parts)


def _with_marks(cell: Cell) -> str:
    return cell.text + "".join(f" ⚠{number}" for number in cell.notes)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def _md_code(text: str) -> str:
    ticks = "``" if "`" in text else "`"
    return f"{ticks}{text}{ticks}"


# ---------------------------------------------------------------------- HTML
_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:0;color:#1d1d1f;
  line-height:1.45}
main{max-width:68rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.6rem;margin:.2rem 0 .6rem}h2{font-size:1.25rem;margin:2rem 0 .6rem}h3{font-size:1.05rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:.9rem;margin:.4rem 0}
td,th{border:1px solid #d0d0d7;padding:.3rem .55rem;text-align:right;vertical-align:top}
th{background:#f3f3f6}
td.label,th:first-child,th:nth-child(2){text-align:left}
td.label:first-child{white-space:nowrap;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
td.absent,td.void{color:#6b6b75;font-style:italic}
td.void{background:#fff4e5}
td.delta-up{color:#0a6b2d}td.delta-down{color:#b3261e}td.delta-same,td.delta-none{color:#6b6b75}
sup.note{color:#b35c00;font-weight:bold;padding-left:.15rem}
ol.notes{font-size:.88rem;color:#5c3b00;margin:.3rem 0 0}
.run{border:1px solid #d0d0d7;border-radius:6px;padding:.2rem 1rem .6rem;margin:.8rem 0}
.run dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.4rem 0;font-size:.92rem}
.run dt{color:#5c5c66}.run dd{margin:0;overflow-wrap:anywhere}
.warning{color:#8a1c12;font-weight:600;margin:.3rem 0}
.caption{color:#5c5c66;font-size:.9rem}
.phone-only{display:none}
img.plot{max-width:100%;height:auto;border:1px solid #e3e3e8}
details{margin:.25rem 0}summary{cursor:pointer}
details.item{margin-left:1rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f8;padding:.5rem .7rem;border-radius:4px;
  font-size:.82rem;max-height:24rem;overflow-y:auto}
.verdict-right{color:#0a6b2d;font-weight:600}.verdict-wrong{color:#b3261e;font-weight:600}
.verdict-partial{color:#8a5a00;font-weight:600}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em}
@media (max-width:40rem){
  main{padding:1rem .8rem}
  .scroll table,.scroll thead,.scroll tbody,.scroll tr,.scroll td{display:block}
  .scroll thead{display:none}
  .scroll tr{border:1px solid #d0d0d7;border-radius:6px;margin:.5rem 0;padding:.2rem .5rem}
  .scroll td{border:0;border-bottom:1px solid #ececf0;text-align:left;padding:.25rem 0;overflow-wrap:anywhere}
  .scroll td:last-child{border-bottom:0}
  .scroll td::before{content:attr(data-label);display:block;font-size:.78rem;color:#5c5c66}
  td.label:first-child{white-space:normal}
  .run dl{grid-template-columns:1fr}.run dt{margin-top:.3rem}
  .phone-only{display:block}
}
"""


def render_html(
    results: Sequence[EvalResults], labels: list[str] | None = None, plot_file: str | None = None
) -> str:
    labels = labels or labels_for(results)
    e = html.escape
    parts = ["<h1>spade-eval report</h1>", f"<p class=\"caption\">{e(EXPLANATION)}</p>"]
    parts.append("<h2>What was run</h2>")
    for result, label in zip(results, labels):
        summary = run_summary(result, label)
        facts = "".join(
            f"<dt>{e(name)}</dt><dd>{_html_value(name, value)}</dd>" for name, value in summary.facts)
        warnings = "".join(f'<p class="warning">warning: {e(line)}</p>' for line in summary.warnings)
        parts.append(f'<section class="run"><h3>{e(label)}</h3>{warnings}<dl>{facts}</dl></section>')
    comparison = settings_warnings(results, labels)
    if comparison:
        parts.append("<h2>Differences between the runs</h2>")
        parts += [f'<p class="warning">{e(line)}</p>' for line in comparison]
    for index, table in enumerate(tables(results, labels)):
        parts.append(f"<h2>{e(table.title)}</h2>")
        if table.caption:
            parts.append(f'<p class="caption">{e(table.caption)}</p>')
        parts.append(_html_table(table, f"t{index}"))
        if index == 0 and plot_file:
            # A link to the image itself: on a phone the page shrinks it, the image opens at full size.
            parts.append(f'<p><a href="{e(plot_file)}"><img class="plot" src="{e(plot_file)}" alt="scores per '
                         f'benchmark, one panel per family or suite"></a></p>'
                         '<p class="caption phone-only">Open the plot to see it at full size.</p>')
    rates = rate_lines(results, labels)
    if rates:
        parts.append("<h2>Rates</h2><ul>" + "".join(f"<li>{e(line)}</li>" for line in rates) + "</ul>")
    parts.append(_samples_section(results, labels))
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>spade-eval report: {e(', '.join(labels))}</title>\n<style>{_STYLE}</style></head>\n"
            f"<body><main>\n{body}\n</main></body></html>\n")


def _html_value(name: str, value: str) -> str:
    escaped = html.escape(value)
    if name in ("model", "fingerprint"):
        return f"<code>{escaped}</code>"
    if name == "items' fingerprints" and value.count(",") >= 6:  # one per benchmark: folded when many
        return f"<details><summary>{value.count(',') + 1} item sets</summary>{escaped}</details>"
    return escaped


def _html_table(table: Table, anchor: str) -> str:
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in table.header)
    rows = []
    for row in table.rows:
        cells = []
        for heading, cell in zip(table.header, row):
            marks = "".join(f'<sup class="note"><a href="#{anchor}-n{n}">⚠{n}</a></sup>' for n in cell.notes)
            title = f' title="{e(cell.text)}"' if cell.kind == "absent" else ""
            # data-label: on a phone each row is a card, and each cell says which column it is
            cells.append(f'<td class="{cell.kind}" data-label="{e(heading)}"{title}>{e(cell.text)}{marks}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    notes = "".join(f'<li id="{anchor}-n{n}">{e(note)}</li>' for n, note in enumerate(table.notes, start=1))
    notes_html = f'<ol class="notes">{notes}</ol>' if notes else ""
    return (f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
            f"</table></div>{notes_html}")


def _samples_section(results: Sequence[EvalResults], labels: list[str]) -> str:
    """Every benchmark's items, folded: prompt, then each sample's verdict, reply, extracted answer and
    details (the scorer's reasons, a game's outcome, an error)."""
    e = html.escape
    parts = ["<h2>Samples</h2>",
             (f'<p class="caption">Each item\'s first request, and each sample\'s reply, verdict and details, '
             f"as recorded in results.json (at most {MAX_ITEMS_SHOWN} items per benchmark and "
             f"{MAX_SAMPLES_SHOWN} samples per item here).</p>")]
    for result, label in zip(results, labels):
        for bench in result.benchmarks:
            summary = (f"{e(label)} · <code>{e(bench.name)}</code> · {len(bench.items)} item(s), "
                       f"score {_pct(bench.score)}")
            items = []
            for item in bench.items[:MAX_ITEMS_SHOWN]:
                verdicts = " ".join(_verdict(sample.score)[0] for sample in item.samples[:MAX_SAMPLES_SHOWN])
                inner = [f"<p><b>prompt</b></p><pre>{e(_clip(item.prompt))}</pre>" if item.prompt
                         else "<p><i>prompt not recorded</i></p>"]
                if item.gold is not None:
                    inner.append(f"<p><b>expected</b></p><pre>{e(_clip(_json(item.gold)))}</pre>")
                for number, sample in enumerate(item.samples[:MAX_SAMPLES_SHOWN], start=1):
                    mark, css = _verdict(sample.score)
                    extracted = (f" · answer read: <code>{e(sample.extracted)}</code>"
                                 if sample.extracted is not None else "")
                    why = (f"<p><b>why</b></p><pre>{e(_clip(_json(sample.details)))}</pre>"
                           if sample.details else "")
                    inner.append(f'<p>sample {number}: <span class="{css}">{mark} (score {sample.score:g})</span>'
                                 f"{extracted}</p><pre>{e(_clip(sample.response) or '(empty reply)')}</pre>{why}")
                if len(item.samples) > MAX_SAMPLES_SHOWN:
                    inner.append(f"<p><i>{len(item.samples) - MAX_SAMPLES_SHOWN} more samples in "
                                 f"results.json</i></p>")
                items.append(f'<details class="item"><summary><code>{e(item.id)}</code> · score '
                             f"{item.score:.2f} · {e(verdicts)}</summary>{''.join(inner)}</details>")
            if len(bench.items) > MAX_ITEMS_SHOWN:
                items.append(f"<p><i>{len(bench.items) - MAX_ITEMS_SHOWN} more items in results.json</i></p>")
            parts.append(f"<details><summary>{summary}</summary>{''.join(items)}</details>")
    return "\n".join(parts)


def _verdict(score: float) -> tuple[str, str]:
    if score >= 1.0:
        return "right", "verdict-right"
    if score <= 0.0:
        return "wrong", "verdict-wrong"
    return "partial", "verdict-partial"


def _clip(text: str | None) -> str:
    text = text or ""
    if len(text) <= MAX_TEXT_SHOWN:
        return text
    return text[:MAX_TEXT_SHOWN] + f"\n… {len(text) - MAX_TEXT_SHOWN} more characters in results.json"


def _json(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, indent=1, ensure_ascii=False, default=repr)


# ---------------------------------------------------------------------- the plot
PLOT_WIDTH_IN = 9.0
"""The figure's width in inches (at 120 dpi, 1,080 px): the same whatever the number of benchmarks."""


def plot(results: Sequence[EvalResults], path: Path, labels: list[str] | None = None) -> None:
    """Small multiples: one panel per family or suite, a horizontal bar per benchmark and run with its
    interval and value; a result a run lacks is marked "not run", one whose samples all errored
    "errored", one whose generations all failed "failed"."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = labels or labels_for(results)
    rows = rows_of(results)
    groups = list(dict.fromkeys(row.group for row in rows))
    runs = max(1, len(results))
    heights = [0.9 + 0.22 * runs * sum(1 for row in rows if row.group == group) for group in groups]
    figure, axes = plt.subplots(len(groups), 1, figsize=(PLOT_WIDTH_IN, sum(heights) + 0.4), squeeze=False,
                                gridspec_kw={"height_ratios": heights})
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    bar = 0.8 / runs
    for axis, group in zip(axes[:, 0], groups):
        members = [row for row in rows if row.group == group]
        for column, label in enumerate(labels):
            ys, widths, low, high = [], [], [], []
            for index, row in enumerate(members):
                cell = row.cells[column]
                y = index + (column - (runs - 1) / 2) * bar
                if cell is None or is_void(cell):
                    axis.text(1, y, "not run" if cell is None else void_text(cell, short=True), va="center",
                              fontsize=7, color="#6b6b75", style="italic")
                    continue
                ys.append(y)
                widths.append(100 * cell.score)
                low.append(100 * max(0.0, cell.score - cell.ci_low))
                high.append(100 * max(0.0, cell.ci_high - cell.score))
                # The value beside the bar: a score of 0 is a visible "0", never mistaken for a gap.
                axis.text(100 * cell.ci_high + 1.5, y, f"{100 * cell.score:.0f}", va="center", fontsize=7)
            axis.barh(ys, widths, height=bar, xerr=[low, high], capsize=2, color=colours[column % len(colours)],
                      label=label, error_kw={"elinewidth": 0.8})
        axis.set_yticks(range(len(members)))
        axis.set_yticklabels([row.name for row in members], fontsize=8)
        axis.set_ylim(len(members) - 0.5, -0.5)  # first benchmark on top, every bar inside the panel
        axis.set_xlim(0, 110)
        axis.set_xticks(range(0, 101, 20))
        axis.set_title(group_title(group), fontsize=10, loc="left")
        axis.grid(axis="x", alpha=0.3)
        axis.tick_params(axis="x", labelsize=8)
    axes[-1, 0].set_xlabel("score (%), with 95% intervals")
    if len(results) > 1:
        axes[0, 0].legend(fontsize=8, loc="lower right")
    figure.tight_layout()
    try:
        write_through_temporary(path, lambda tmp: figure.savefig(tmp, dpi=120))
    finally:
        plt.close(figure)


def write_report(
    results: Sequence[EvalResults],
    directory: Path,
    paths: Sequence[Path] | None = None,
    labels: Sequence[str] | None = None,
) -> list[Path]:
    """``report.md``, ``report.html`` and ``report.png`` in ``directory``; returns the paths written.
    Columns are named by ``labels``, else by each results file's run directory (see ``labels_for``)."""
    directory.mkdir(parents=True, exist_ok=True)
    labels = labels_for(results, paths, labels)
    written = [directory / "report.png", directory / "report.md", directory / "report.html"]
    plot(results, written[0], labels)
    write_atomically(written[1], render_markdown(results, labels))
    write_atomically(written[2], render_html(results, labels, plot_file="report.png"))
    return written
