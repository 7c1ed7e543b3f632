"""The results document of one ``spade-eval run``: everything needed to trust, compare and re-plot it.

One JSON file per run (``results.json``), validated by these pydantic models and described by
``schemas/eval_results.schema.json`` (``spade-eval schema`` writes it; a test fails when it is stale).
It holds the model's identity, the run's settings, and per benchmark: the sampling actually used, every
item with every sample (response, extracted answer, score, details), the score with a bootstrap
confidence interval over items, and benchmark-specific metrics. Reports are made from this file alone.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from spade_envs.fileio import write_atomically
from spade_eval.benchmark import EvalSettings, ItemRecord
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
    prompt: str | None = Field(
        None, description="The item's first request as the model saw it (each message as '[role] text'); "
                          "a multi-turn item shows its opening turn. None in results written before it was "
                          "recorded.")
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
    generation_error_causes: dict[str, int] = Field(
        default_factory=dict, description="Why generations failed: one example message per kind of failure "
                                          "(messages that differ only in their numbers are one kind), with "
                                          "how many failed that way; the most frequent kinds first.")
    generations: int = Field(0, description="Generations asked for (cached ones included); 0 in results "
                                            "written before it was counted.")
    truncated_generations: int = Field(
        0, description="Generations that stopped at the token limit (finish reason 'length'): their "
                       "answers may be cut off.")
    cached_generations: int = Field(0, description="Generations reused from the cache in this run.")
    data_version: str | None = Field(
        None, description="Fingerprint of the items that ran (SHA-256 of their ids and contents, 16 hex "
                          "digits): two runs with the same value scored the same questions.")
    duration_s: float = 0.0
    items: list[ItemResult]


class RunSettings(_Model):
    """The run's settings as the results document records them: ``RunSettings.of`` writes the
    evaluation's one settings record (``spade_eval.benchmark.EvalSettings``) down, field by name."""

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
    user_simulator: str | None = Field(
        None, description="The simulated user's model in multi-turn tool-use dialogues (ACEBench's agent "
                          "categories, tau2-bench); None: the model under test played it too.")
    code_execution: dict[str, Any] | None = Field(
        None, description="Where generated programs ran, under which limits (CodeExecution), and the Python "
                          "version of each place (`python`: backend -> version, asked of the backend).")

    @classmethod
    def of(cls, settings: EvalSettings, benchmarks: list[str], *, ran_code: bool) -> RunSettings:
        """The record of ``settings`` for a run of ``benchmarks``; ``ran_code``: one of them ran generated
        programs, so where and under which limits is recorded too."""
        shared = {name: getattr(settings, name) for name in cls.model_fields
                  if name not in ("benchmarks", "data_dir", "code_execution", "user_simulator")}
        user = settings.user_simulator.name if settings.user_simulator is not None else None
        return cls(**shared, benchmarks=benchmarks, data_dir=str(settings.data_dir) if settings.data_dir else None,
                   user_simulator=user,
                   code_execution={**settings.code_execution.settings(),
                                   "python": settings.code_execution.interpreters()} if ran_code else None)


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


def pass_at_k(n: int, correct: int, k: int) -> float:
    """The unbiased pass@k estimate from ``n`` samples of which ``correct`` are right (Chen et al., 2021):
    the chance that k samples drawn without replacement contain a right one."""
    if n - correct < k:
        return 1.0
    return 1.0 - math.comb(n - correct, k) / math.comb(n, k)


def sample_metrics(records: list[ItemRecord]) -> dict[str, float]:
    """For items with several samples each scored 0 or 1: ``pass@k`` with k = the samples per item
    (any sample right), beside the score itself, which is avg@k (pass@1 over k samples)."""
    counts = {len(record.samples) for record in records}
    if len(counts) != 1 or counts == {0} or counts == {1}:
        return {}
    if any(sample.score not in (0.0, 1.0) for record in records for sample in record.samples):
        return {}
    (n,) = counts
    values = [pass_at_k(n, sum(int(s.score) for s in record.samples), n) for record in records]
    return {f"pass@{n}": sum(values) / len(values)}


def metric_label(samples: int, explicit: str | None = None) -> str:
    if explicit:
        return explicit
    return f"pass@1 ({samples} samples)" if samples > 1 else "accuracy"


def item_result(record: ItemRecord, prompt: str | None = None) -> ItemResult:
    return ItemResult(
        id=record.id,
        score=_unit(record.score),
        gold=_plain(record.gold),
        prompt=prompt,
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
    generation_error_causes: Mapping[str, int] | None = None,
    generations: int = 0,
    truncated_generations: int = 0,
    cached_generations: int = 0,
    duration_s: float = 0.0,
    seed: int = 0,
    prompts: Mapping[str, str] | None = None,
    data_version: str | None = None,
) -> BenchmarkResult:
    """The result of one benchmark from its item records; ``prompts`` maps an item id to its first request
    as text (``prompt_text``)."""
    items = [item_result(record, (prompts or {}).get(record.id)) for record in records]
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
        metrics={**sample_metrics(records), **(metrics or {})},
        generation_errors=generation_errors,
        generation_error_causes=dict(generation_error_causes or {}),
        generations=generations,
        truncated_generations=truncated_generations,
        cached_generations=cached_generations,
        duration_s=round(duration_s, 3),
        data_version=data_version,
        items=items,
    )


def prompt_text(messages: Sequence[Mapping[str, Any]]) -> str:
    """A request's messages as one text, each as ``[role] content``, for the report's samples."""
    return "\n\n".join(f"[{message.get('role', '?')}] {message.get('content') or ''}" for message in messages)


def data_version(items: Sequence[Any]) -> str:
    """The fingerprint of a benchmark's items (``EvalItem``: id and payload): 16 hex digits of SHA-256
    over their JSON form, so that reports can tell whether two runs scored the same questions."""
    digest = hashlib.sha256()
    for item in items:
        digest.update(json.dumps([item.id, _stable(item.payload)], sort_keys=True).encode())
        digest.update(b"\n")
    return digest.hexdigest()[:16]


def _stable(value: Any) -> Any:
    """A JSON form of an item's payload that is the same in every process: dataclasses by their fields,
    other objects by their repr without memory addresses."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: _stable(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): _stable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_stable(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(_stable(item)) for item in value)
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))


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
