"""The results document of one ``spade-eval run``: everything needed to trust, compare and re-plot it.

One JSON file per run (``results.json``), validated by these pydantic models and described by
``schemas/eval_results.schema.json`` (``spade-eval schema`` writes it; a test fails when it is stale).
It holds the model's identity, the run's settings, and per benchmark: the sampling actually used, every
item with every sample (response, extracted answer, score, details), the score with a bootstrap
confidence interval over items, and benchmark-specific metrics. Reports are made from this file alone.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from spade_envs.fileio import write_atomically
from spade_eval.benchmark import ItemRecord
from spade_train.policies.base import SamplingParams

SCHEMA_VERSION = 1
BOOTSTRAP_RESAMPLES = 1000
CI_LEVEL = 0.95


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelIdentity(_Model):
    spec: str = Field(description="The policy spec used: hf:PATH, openai:URL#name, vllm:PATH, scripted.")
    kind: str = Field(description="hf, openai, vllm or scripted.")
    name: str
    fingerprint: str = Field(description="Hash of the spec and the checkpoint's files; the cache keys on it.")


class Sampling(_Model):
    temperature: float
    top_p: float
    top_k: int | None = None
    max_tokens: int
    seed: int | None = None

    @classmethod
    def of(cls, params: SamplingParams) -> Sampling:
        return cls(
            temperature=params.temperature,
            top_p=params.top_p,
            top_k=params.top_k,
            max_tokens=params.max_tokens,
            seed=params.seed,
        )


class SampleResult(_Model):
    score: float = Field(ge=0.0, le=1.0)
    response: str = ""
    extracted: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)


class ItemResult(_Model):
    id: str
    score: float = Field(ge=0.0, le=1.0, description="Mean over the item's samples.")
    gold: Any = None
    samples: list[SampleResult]


class BenchmarkResult(_Model):
    name: str
    suite: str
    metric: str = Field(description="What score means, e.g. 'pass@1 (64 samples)', 'accuracy', 'win rate'.")
    samples: int
    sampling: Sampling
    n_items: int
    score: float = Field(description="Mean item score, in [0, 1].")
    ci_low: float
    ci_high: float
    ci_level: float = CI_LEVEL
    metrics: dict[str, float] = Field(
        default_factory=dict, description="Benchmark-specific rates (win/draw/loss, invalid moves...)."
    )
    generation_errors: int = Field(0, description="Generations that failed (scored as wrong).")
    cached_generations: int = Field(0, description="Generations reused from the cache in this run.")
    duration_s: float = 0.0
    items: list[ItemResult]


class RunSettings(_Model):
    suite: str
    benchmarks: list[str]
    limit: int | None = None
    samples: int | None = Field(None, description="--samples override (None: each benchmark's default).")
    sampling_overrides: dict[str, Any] = Field(default_factory=dict)
    data_dir: str | None = None
    sandbox: str = "wasm"
    concurrency: int = 16
    seed: int = 0
    tool_call_format: str = Field("fc", description="BFCL's call format: fc (function calling) or prompt.")


class EvalResults(_Model):
    schema_version: int = SCHEMA_VERSION
    tool: str = "spade-eval"
    created: str = Field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds"))
    model: ModelIdentity
    settings: RunSettings
    benchmarks: list[BenchmarkResult] = Field(default_factory=list)
    aggregates: dict[str, float] = Field(
        default_factory=dict,
        description="Cross-benchmark numbers as each family's own table combines them (bfcl/overall_offline, "
                    "bfcl/multi_turn, acebench/overall, ...), for the families the run completed.")

    def benchmark(self, name: str) -> BenchmarkResult | None:
        return next((b for b in self.benchmarks if b.name == name), None)

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, self.model_dump_json(indent=1) + "\n")

    @classmethod
    def read(cls, path: Path) -> EvalResults:
        return cls.model_validate_json(path.read_text(encoding="utf-8"))


RESULTS_SCHEMA_MODELS: dict[str, type[BaseModel]] = {"eval_results": EvalResults}
"""What ``spade-eval schema`` writes into ``schemas/``."""


def bootstrap_ci(
    scores: list[float], *, resamples: int = BOOTSTRAP_RESAMPLES, level: float = CI_LEVEL, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean over items (items resampled with replacement).

    Items, not samples, are resampled: the samples of one item are not independent draws of the
    benchmark, so resampling them would understate the uncertainty. The seed fixes the interval.
    """
    if not scores:
        return 0.0, 0.0
    if len(scores) == 1:
        return scores[0], scores[0]
    rng = random.Random(seed)
    n = len(scores)
    means = sorted(sum(rng.choices(scores, k=n)) / n for _ in range(resamples))
    tail = (1.0 - level) / 2
    low = means[int(tail * (resamples - 1))]
    high = means[round((1.0 - tail) * (resamples - 1))]
    return low, high


def metric_label(samples: int, explicit: str | None = None) -> str:
    if explicit:
        return explicit
    return f"pass@1 ({samples} samples)" if samples > 1 else "accuracy"


def item_result(record: ItemRecord) -> ItemResult:
    return ItemResult(
        id=record.id,
        score=_unit(record.score),
        gold=_plain(record.gold),
        samples=[
            SampleResult(
                score=_unit(s.score), response=s.response, extracted=s.extracted, details=_plain(s.details)
            )
            for s in record.samples
        ],
    )


def benchmark_result(
    *,
    name: str,
    suite: str,
    metric: str,
    samples: int,
    sampling: SamplingParams,
    records: list[ItemRecord],
    metrics: dict[str, float] | None = None,
    generation_errors: int = 0,
    cached_generations: int = 0,
    duration_s: float = 0.0,
    seed: int = 0,
) -> BenchmarkResult:
    items = [item_result(record) for record in records]
    scores = [item.score for item in items]
    low, high = bootstrap_ci(scores, seed=seed)
    return BenchmarkResult(
        name=name,
        suite=suite,
        metric=metric,
        samples=samples,
        sampling=Sampling.of(sampling),
        n_items=len(items),
        score=sum(scores) / len(scores) if scores else 0.0,
        ci_low=low,
        ci_high=high,
        metrics=dict(metrics or {}),
        generation_errors=generation_errors,
        cached_generations=cached_generations,
        duration_s=round(duration_s, 3),
        items=items,
    )


def _unit(value: float) -> float:
    return min(1.0, max(0.0, float(value)))


def _plain(value: Any) -> Any:
    """A JSON-safe copy (tuples become lists, unknown objects their repr)."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    return repr(value)
