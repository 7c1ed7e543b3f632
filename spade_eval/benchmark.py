"""What a benchmark is to ``spade-eval``: items to load, and a way to score a policy on one item.

Every suite (math, code, Reasoning Gym, BBEH, games, tool use) implements the same small protocol, so the
runner, the generation cache, the results document and the report serve all of them with one piece of
code. A benchmark owns its data format, its prompt and its scorer; it never owns the model: it receives a
``Policy`` (``spade_train.policies``) and only calls ``generate`` on it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from spade_envs.errors import SpadeError
from spade_eval.suites.code_exec import CodeExecution
from spade_train.policies.base import Generation, GenerationRequest, Policy, SamplingParams

Generate = Callable[[GenerationRequest], Awaitable[Generation]]
"""How a benchmark asks for a generation. The runner passes a cached ``policy.generate``: an interrupted
run resumes without asking the model again for what it already answered."""


class BenchmarkDataError(SpadeError):
    """The benchmark's data is missing or malformed; the message names the file and the fix."""


@dataclass(frozen=True)
class EvalItem:
    """One question, task or game of a benchmark."""

    id: str
    """Stable across runs: the generation cache and the comparison report key on it."""
    payload: Any
    """What the benchmark needs to pose and score the item (problem and answer, tests, game settings)."""


@dataclass
class SampleRecord:
    """One attempt at an item: what the model said (last turn for multi-turn items) and its score."""

    score: float
    """In [0, 1] (1 = correct / win). Games score win 1, draw 0.5, loss 0."""
    response: str = ""
    extracted: str | None = None
    """The answer the scorer read from the response, when there is one."""
    details: dict[str, Any] = field(default_factory=dict)
    """Benchmark-specific numbers and labels (outcome, invalid_move, turns, error, ...)."""


@dataclass
class ItemRecord:
    """Every sample of one item; the item's score is the mean over samples (avg@k / pass@1 over k)."""

    id: str
    samples: list[SampleRecord]
    gold: Any = None

    @property
    def score(self) -> float:
        return sum(s.score for s in self.samples) / len(self.samples) if self.samples else 0.0


@runtime_checkable
class Benchmark(Protocol):
    """A benchmark ``spade-eval`` can run."""

    name: str
    """Stable name on the command line and in results (``aime24``, ``humaneval_plus``, ``tictactoe``)."""
    suite: str
    """``reasoning``, ``tool_use`` or ``games``."""
    sampling: SamplingParams
    """The paper's settings for this benchmark; the command line may override them."""
    samples: int
    """Samples per item by default (AIME: 64, GPQA: 8, most others: 1)."""

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        """The items, in a fixed order; ``limit`` keeps the first N. Raises ``BenchmarkDataError``."""
        ...

    async def run_item(self, item: EvalItem, generate: Generate, sampling: SamplingParams,
                       samples: int) -> ItemRecord:
        """Pose the item ``samples`` times and score each attempt."""
        ...


@dataclass(frozen=True)
class EvalSettings:
    """Every setting of an evaluation run, in one record: the command line fills it once; benchmark
    factories read what shapes a benchmark (data, sandbox, code execution, pool, user simulator, call
    format, seed), the runner what shapes a run (samples, sampling, limit, concurrency, cache), and the
    results document records it (``spade_eval.results.RunSettings.of``)."""

    suite: str = "all"
    """The suite asked for (``--suite``)."""
    data_dir: Path | None = None
    """Root of local benchmark data (``--data-dir``); each benchmark knows its own sub-path."""
    sandbox: str = "wasm"
    """Execution backend for anything model-written that runs (generated code, environments)."""
    code_execution: CodeExecution = field(default_factory=CodeExecution)
    """Where and under which limits generated programs run (code benchmarks); its ``sandbox`` is the
    command line's ``--sandbox`` too."""
    env_pool: Path | None = None
    """A SPADE environment pool (exported by ``spade-train``) for the games suite; None: the bundled library."""
    user_simulator: Policy | None = None
    """The simulated user of multi-turn tool-use dialogues; None: the model under test plays it too."""
    tool_call_format: Literal["fc", "prompt"] = "fc"
    """How BFCL asks for calls: "fc" passes the functions as tool schemas and reads the reply's tool
    calls; "prompt" puts them in the system prompt and parses calls written as text, as BFCL's prompting
    mode does for models without native function calling."""
    seed: int = 0
    """Seeds every sampler (sample k of an item: seed + k) and the benchmarks' own generators."""
    samples: int | None = None
    """Samples per item for every benchmark; None keeps each benchmark's paper default."""
    sampling_overrides: dict[str, Any] = field(default_factory=dict)
    """``SamplingParams`` fields to force: ``temperature``, ``top_p``, ``top_k``, ``max_tokens``, ``seed``."""
    limit: int | None = None
    """Items per benchmark (the first N); None: all of them."""
    concurrency: int = 16
    """Generations in flight at once."""
    cache_dir: Path | None = None
    """Where cached generations live; None: no cache (nothing to resume)."""


EvalOptions = EvalSettings
"""The settings as benchmark factories receive them (the same record; the name factories were written with)."""


class SummarizingBenchmark(Benchmark, Protocol):
    """Optional extras a benchmark may define; the runner reads them with ``getattr``.

    - ``metric: str``: what the score means in reports ("win rate", "accuracy"); default
      ``pass@1 (k samples)`` for k > 1, else ``accuracy``;
    - ``summary_metrics(records)``: benchmark-specific rates for the results document (win / draw /
      loss and invalid-move rates for games, per-group accuracy), each a float;
    - ``close()``: release what ``load``/``run_item`` opened (sandbox backends, sessions);
    - ``user_supplied_data: bool``: the data cannot be bundled (GPQA, LiveCodeBench); a run of the whole
      suite skips the benchmark with a note when the data is absent.
    """

    metric: str

    def summary_metrics(self, records: list[ItemRecord]) -> dict[str, float]: ...

    def close(self) -> None: ...


BenchmarkFactory = Callable[[EvalSettings], Benchmark]
"""Each suite module exposes ``BENCHMARKS: dict[str, BenchmarkFactory]``; the registry gathers them."""
