"""Run benchmarks against one model: sampling settings, concurrency, the generation cache, progress.

A benchmark only poses items and scores answers (``spade_eval.benchmark``); everything that is the same
for all of them lives here. Each item runs as its own task, at most ``concurrency`` generations are in
flight at once (a server batches what it receives together; a local transformers model runs one at a
time anyway), and every generation goes through the on-disk cache first, so a rerun of an interrupted
evaluation asks the model only for what it has not answered yet. The bar shows items done and the
running score.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from spade_eval.aggregates import aggregate
from spade_eval.benchmark import Benchmark, EvalItem, EvalSettings, ItemRecord
from spade_eval.cache import GenerationCache, request_key
from spade_eval.models import ModelHandle
from spade_eval.results import (
    BenchmarkResult,
    EvalResults,
    ModelIdentity,
    RunSettings,
    benchmark_result,
    data_version,
    metric_label,
    prompt_text,
)
from spade_train.policies.base import Generation, GenerationRequest, SamplingParams

SAMPLING_FIELDS = ("temperature", "top_p", "top_k", "max_tokens", "seed")


RunOptions = EvalSettings
"""The settings as the runner reads them (the same record as the benchmark factories')."""


def effective_sampling(benchmark: Benchmark, overrides: dict[str, Any]) -> SamplingParams:
    unknown = set(overrides) - set(SAMPLING_FIELDS)
    if unknown:
        raise ValueError(f"unknown sampling setting(s): {', '.join(sorted(unknown))}")
    return replace(benchmark.sampling, **overrides)


class _CachedGenerate:
    """The ``generate`` a benchmark gets for one item: cache first, then the model, bounded in flight.

    It also keeps what the report shows of the item: its first request as text, and how many
    generations stopped at the token limit."""

    def __init__(self, runner: _BenchmarkRun, item_id: str) -> None:
        self.runner = runner
        self.item_id = item_id
        self.occurrences: Counter[str] = Counter()
        self.prompt: str | None = None

    async def __call__(self, request: GenerationRequest) -> Generation:
        generation = await self._generate(request)
        run = self.runner
        if self.prompt is None:
            self.prompt = prompt_text(request.messages)
        run.generations += 1
        if generation.ok and generation.finish_reason == "length":
            run.truncated_generations += 1
        return generation

    async def _generate(self, request: GenerationRequest) -> Generation:
        run = self.runner
        base = request_key(run.fingerprint, run.name, self.item_id, request, 0)
        occurrence = self.occurrences[base]
        self.occurrences[base] += 1
        key = (
            base
            if occurrence == 0
            else request_key(run.fingerprint, run.name, self.item_id, request, occurrence)
        )
        cached = run.cache.get(key)
        if cached is not None:
            return cached
        async with run.in_flight:
            generation = await run.policy.generate(request)
        if generation.ok:
            run.cache.put(key, generation)
        else:
            run.generation_errors += 1
            run.error_causes.add(generation.error or "no reason given")
        return generation


class ErrorCauses:
    """Why generations failed, tallied by kind: messages that differ only in their numbers ("prompt of
    5012 tokens does not fit the model's context of 4096" and "... of 4500 tokens ...") are one kind,
    shown by its first message. The table's note names the causes; without them a reader sees "12 of
    40 generations failed" and must open the drill-down to learn that the prompts overflow the context."""

    KEPT = 5
    """Kinds recorded per benchmark (the most frequent); the rest are counted in the total only."""

    def __init__(self) -> None:
        self._examples: dict[str, str] = {}
        self._counts: Counter[str] = Counter()

    def add(self, message: str) -> None:
        kind = _NUMBERS.sub("#", message)
        self._examples.setdefault(kind, message)
        self._counts[kind] += 1

    def counts(self) -> dict[str, int]:
        """{first message of a kind: failures of that kind}, the most frequent kinds first."""
        return {self._examples[kind]: count for kind, count in self._counts.most_common(self.KEPT)}


_NUMBERS = re.compile(r"\d[\d,._]*")


@dataclass
class _BenchmarkRun:
    name: str
    fingerprint: str
    policy: Any
    cache: GenerationCache
    in_flight: asyncio.Semaphore
    generation_errors: int = 0
    error_causes: ErrorCauses = field(default_factory=ErrorCauses)
    generations: int = 0
    truncated_generations: int = 0
    prompts: dict[str, str] = field(default_factory=dict)


async def run_benchmark(
    benchmark: Benchmark,
    model: ModelHandle,
    options: EvalSettings,
    progress: TextIO | None = None,
    items: Sequence[EvalItem] | None = None,
) -> BenchmarkResult:
    """Load (unless ``items`` are given), run and score one benchmark; the per-item records in order."""
    start = time.monotonic()
    if items is None:
        items = benchmark.load(options.data_dir, options.limit)
    sampling = effective_sampling(benchmark, options.sampling_overrides)
    samples = options.samples or benchmark.samples
    cache = GenerationCache(options.cache_dir, benchmark.name)
    run = _BenchmarkRun(
        benchmark.name, model.fingerprint, model.policy, cache, asyncio.Semaphore(max(1, options.concurrency))
    )
    item_slots = asyncio.Semaphore(max(1, options.concurrency))
    records: list[ItemRecord | None] = [None] * len(items)
    bar = _bar(progress, benchmark.name, len(items))
    done_scores: list[float] = []

    async def one(index: int, item: EvalItem) -> None:
        async with item_slots:
            generate = _CachedGenerate(run, item.id)
            record = await benchmark.run_item(item, generate, sampling, samples)
        if generate.prompt is not None:
            run.prompts[record.id] = generate.prompt
        records[index] = record
        done_scores.append(record.score)
        if bar is not None:
            bar.set_postfix_str(f"score={sum(done_scores) / len(done_scores):.3f}", refresh=False)
            bar.update(1)

    try:
        await asyncio.gather(*(one(index, item) for index, item in enumerate(items)))
    finally:
        cache.close()
        if bar is not None:
            bar.close()
    finished = [record for record in records if record is not None]
    summarize = getattr(benchmark, "summary_metrics", None)
    metrics = summarize(finished) if callable(summarize) else {}
    return benchmark_result(
        name=benchmark.name,
        suite=benchmark.suite,
        metric=metric_label(samples, getattr(benchmark, "metric", None)),
        samples=samples,
        sampling=sampling,
        records=finished,
        metrics=metrics,
        generation_errors=run.generation_errors,
        generation_error_causes=run.error_causes.counts(),
        generations=run.generations,
        truncated_generations=run.truncated_generations,
        cached_generations=cache.hits,
        duration_s=time.monotonic() - start,
        seed=options.seed,
        prompts=run.prompts,
        data_version=data_version(items),
    )


async def run_benchmarks(
    benchmarks: Sequence[tuple[Benchmark, Sequence[EvalItem] | None]],
    model: ModelHandle,
    options: EvalSettings,
    settings: RunSettings,
    out_file: Path | None = None,
    progress: TextIO | None = None,
) -> EvalResults:
    """Run each benchmark in turn (with its items, or loading them when None); with ``out_file`` the
    document is rewritten after each benchmark, so what finished survives an interruption."""
    results = EvalResults(
        model=ModelIdentity(spec=model.spec, kind=model.kind, name=model.name, fingerprint=model.fingerprint),
        settings=settings,
    )
    for benchmark, items in benchmarks:
        try:
            results.benchmarks.append(await run_benchmark(benchmark, model, options, progress, items))
            results.aggregates = aggregate(results.benchmarks)
        finally:
            close = getattr(benchmark, "close", None)
            if callable(close):
                close()
        if out_file is not None:
            results.write(out_file)
    return results


def _bar(out: TextIO | None, name: str, total: int) -> Any:
    if out is None:
        return None
    from spade_train.run.progress import progress_bar

    return progress_bar(out, total=total, desc=name, unit="item")
