"""The environment pool and memory that every rollout engine of a run shares.

OpenRLHF runs the agent executor in several rollout engines (processes, possibly on several nodes), but
self-play needs one state: the environments the designer has written (agent rows play them), the
memory that feeds designer prompts, and the per-skill statistics. ``EnvironmentPool`` holds it; in a run
it lives in one Ray named actor (``ray_pool``), so calls are serialised, and it is a plain class so it
can be used and tested without Ray (``LocalPoolClient``).

What it does:

- **designer rows** ``plan_design``: the document, memory examples and seed for a row, the same for every
  sample of the row so its designs are compared on equal terms; ``near_duplicates`` for the loop's
  diversity check; ``record_design``: the loop's memory writes, the attempt's line in ``attempts.jsonl``
  and, for a played environment, its admission to the pool.
- **agent rows** ``lease``: one environment per row (every sample of the row plays it, on its own seed),
  drawn from the ``pool_window`` newest environments (a fixed pool: from all of them) and weighted
  towards those the agent wins about half the time, the same rule for self-play and the fixed-pool
  baselines; ``report_episode`` keeps those win counts and retires environments that keep failing.
- **checkpoints** ``checkpoint`` writes ``pool_state.json`` (environment ids, hints and counts; the code
  stays in the memory database) whenever the estimated step advances, and every 256 episodes;
  ``restore=True`` continues from it. Designs recorded since the last checkpoint are in the memory
  database (committed at once) but rejoin the pool only when the designer writes them again.

The step is estimated from rows started (``rows // rollout_batch_size + 1``): OpenRLHF does not tell the
executor its step, and its rows are shuffled, so this is what "step" means for the designer delay and
the memory's records.
"""

from __future__ import annotations

import json
import random
import threading
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol

from spade_envs.fileio import write_atomically
from spade_envs.pool import read_pool
from spade_envs.registry import bundled_registry
from spade_envs.spec.models import EnvSpec
from spade_train.corpus import Corpus, Document
from spade_train.memory import EnvironmentMemory, MemoryExample, NearDuplicate
from spade_train.rewards import WinRateEMA, win_rate
from spade_train.run_config import RunConfig

STATE_FILE = "pool_state.json"
ATTEMPTS_FILE = "attempts.jsonl"
METRICS_FILE = "pool_metrics.jsonl"
STATE_FORMAT = 1
RETIRE_AFTER_ERRORS = 3
"""An environment whose episodes failed this many times, and in most of its plays, leaves the pool."""


class PoolError(RuntimeError):
    """The pool cannot be built or restored; the message names the file or setting."""


@dataclass
class PoolEnvironment:
    """One environment agent rows can lease, with what the pool knows about it."""

    env_id: str
    class_name: str
    kind: str
    skill: str
    max_turns: int
    hint: str | None
    origin: str
    """"seed" (bundled or seed pool), "fixed" (a fixed-pool baseline) or "designed"."""
    added_step: int = 0
    regret: float | None = None
    designed_win_rate: float | None = None
    """The unhinted win rate measured when the environment was designed."""
    plays: int = 0
    wins: int = 0
    errors: int = 0

    @property
    def weight(self) -> float:
        """Highest for environments won about half the time (where GRPO has contrast), never zero."""
        p = (self.wins + 1) / (self.plays + 2)
        return 0.1 + 4.0 * p * (1.0 - p)


@dataclass(frozen=True)
class DesignPlan:
    """What every sample of one designer row starts from."""

    row: int
    step: int
    seed: int
    document: Document | None
    corpus_name: str | None
    examples: tuple[MemoryExample, ...]
    ema: WinRateEMA | None
    train: bool
    """False while the designer's training is delayed, or in the no-designer-training ablation."""


@dataclass(frozen=True)
class Lease:
    """An environment for one agent sample, with the seed that sample plays."""

    env_id: str
    code: str
    class_name: str
    max_turns: int
    hint: str | None
    seed: int
    step: int
    pool_size: int


MemoryWrite = tuple[str, tuple[Any, ...], dict[str, Any]]
"""(method name, arguments, keyword arguments) of one write the loop made to its memory."""


@dataclass(frozen=True)
class DesignReport:
    """One design attempt as the executor saw it, for the pool to record."""

    row: int
    step: int
    kind: str
    skill: str
    memory_writes: tuple[MemoryWrite, ...]
    valid: bool
    played: bool
    env_id: str | None = None
    class_name: str | None = None
    code: str | None = None
    max_turns: int = 10
    hint: str | None = None
    hint_accepted: bool | None = None
    regret: float | None = None
    regret_ci: tuple[float, float] | None = None
    win_rate_unhinted: float | None = None
    win_rate_hinted: float | None = None
    unhinted_returns: tuple[float, ...] = ()
    raw_reward: float = 0.0
    rejection: str | None = None
    repairs: int = 0
    failures: tuple[str, ...] = ()


@dataclass
class _StepCounters:
    designs: int = 0
    valid: int = 0
    regrets: list[float] = field(default_factory=list)
    episodes: int = 0
    wins: int = 0
    errors: int = 0


class EnvironmentPool:
    """The run's shared self-play state (see the module docstring). Every public method is thread-safe."""

    def __init__(self, config: RunConfig, run_dir: str | Path, *, restore: bool = False) -> None:
        self.config = config
        self.run_dir = Path(run_dir)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self.memory = EnvironmentMemory.for_run(self.run_dir)
        loop = config.loop
        needs_corpus = config.openrlhf.pool == "self_play" and (loop.use_corpus or "corpus_grounded" in loop.kinds)
        self.corpus = Corpus.load(loop.corpus, seed=config.run.seed) if needs_corpus else None
        self.rng = random.Random(config.run.seed)
        self.environments: dict[str, PoolEnvironment] = {}
        self._code: dict[str, str] = {}
        self.emas: dict[str, WinRateEMA] = {}
        self.rows_started = 0
        self._plans: dict[int, tuple[DesignPlan, int]] = {}
        self._leases: dict[int, tuple[str, int, int]] = {}
        self._counters = _StepCounters()
        self._reports_since_checkpoint = 0
        state_path = self.run_dir / STATE_FILE
        if restore and state_path.is_file():
            self._load_state(json.loads(state_path.read_text(encoding="utf-8")))
        else:
            self._seed()
            self.checkpoint()

    # ------------------------------------------------------------------ settings for the executors
    def settings(self) -> dict[str, Any]:
        """The run configuration, as JSON data: every executor builds its loop from it."""
        return json.loads(self.config.model_dump_json())

    # ------------------------------------------------------------------ seeding
    def _seed(self) -> None:
        section = self.config.openrlhf
        if section.pool == "fixed":
            assert section.fixed_pool is not None
            self._add_pool_directory(Path(section.fixed_pool), origin="fixed")
        elif section.seed_pool == "bundled":
            kinds = set(self.config.loop.kinds)
            entries = [(entry.spec(), entry.source()) for entry in bundled_registry() if entry.kind in kinds]
            if not entries:
                raise PoolError(f"no bundled environment has a kind in loop.kinds {sorted(kinds)}; "
                                "set openrlhf.seed_pool to a pool directory")
            self.add_environments(entries, origin="seed")
        else:
            self._add_pool_directory(Path(section.seed_pool), origin="seed")
        if not self.environments:
            raise PoolError("the environment pool is empty: agent rows would have nothing to play")

    def _add_pool_directory(self, directory: Path, *, origin: str) -> None:
        from spade_envs.pool import PoolError as ReadError

        try:
            loaded = read_pool(directory)
        except ReadError as error:
            raise PoolError(str(error)) from None
        self.add_environments([(entry.spec, code) for entry, code in loaded], origin=origin)

    def add_environments(self, entries: list[tuple[EnvSpec, str]], *, origin: str) -> int:
        """Admit trusted environments (the seed or fixed pool); they are also stored in the memory."""
        with self._lock, self.memory.batch():
            for spec, code in entries:
                self.memory.add_environment(spec, code, valid=True)
                self._admit(PoolEnvironment(env_id=spec.id, class_name=spec.class_name, kind=spec.kind,
                                            skill=spec.skill, max_turns=spec.max_turns, hint=spec.hint,
                                            origin=origin), code)
            return len(self.environments)

    def _admit(self, environment: PoolEnvironment, code: str) -> None:
        self.environments.pop(environment.env_id, None)  # re-admission moves it to the newest end
        self.environments[environment.env_id] = environment
        self._code[environment.env_id] = code

    # ------------------------------------------------------------------ steps
    @property
    def step(self) -> int:
        return self.rows_started // self.config.openrlhf.rollout_batch_size + 1

    def _start_row(self) -> int:
        before = self.step
        self.rows_started += 1
        if self.step != before:
            self._close_step(before)
        return self.step

    def _close_step(self, step: int) -> None:
        counters, self._counters = self._counters, _StepCounters()
        row = {"step": step, "designs": counters.designs, "valid": counters.valid,
               "regret_mean": sum(counters.regrets) / len(counters.regrets) if counters.regrets else None,
               "episodes": counters.episodes,
               "win_rate": counters.wins / counters.episodes if counters.episodes else None,
               "episode_errors": counters.errors, "pool_size": len(self.environments)}
        self._append(METRICS_FILE, row)
        self.checkpoint()

    # ------------------------------------------------------------------ designer rows
    def plan_design(self, row: int, samples: int, skill: str, kind: str) -> DesignPlan:
        """The plan every sample of designer row ``row`` shares (made by the first sample to ask)."""
        with self._lock:
            cached = self._plans.get(row)
            if cached is None:
                step = self._start_row()
                loop = self.config.loop
                document = None
                if self.corpus is not None and (loop.use_corpus or kind == "corpus_grounded"):
                    document = self.corpus.sample()
                examples = tuple(self.memory.prompt_examples([skill], self.rng)) if loop.use_memory else ()
                train = loop.train_designer and step > self.config.openrlhf.designer_delay_steps
                plan = DesignPlan(row=row, step=step, seed=self.rng.randrange(2**31), document=document,
                                  corpus_name=self.corpus.name if self.corpus else None, examples=examples,
                                  ema=self.emas.get(skill), train=train)
                cached = (plan, 0)
            plan, handed = cached[0], cached[1] + 1
            if handed >= samples:
                self._plans.pop(row, None)
            else:
                self._plans[row] = (plan, handed)
            return plan

    def near_duplicates(self, code: str, threshold: float) -> list[NearDuplicate]:
        with self._lock:
            return self.memory.find_near_duplicates(code, threshold)

    def record_design(self, report: DesignReport) -> bool:
        """Record one attempt; returns whether its environment joined the pool."""
        with self._lock:
            with self.memory.batch():
                for method, args, kwargs in report.memory_writes:
                    if method not in ("add_environment", "record_evaluation"):
                        raise ValueError(f"unexpected memory write {method!r}")
                    getattr(self.memory, method)(*args, **kwargs)
            self._append(ATTEMPTS_FILE, {f.name: getattr(report, f.name) for f in fields(report)
                                         if f.name not in ("memory_writes", "code", "unhinted_returns")})
            counters = self._counters
            counters.designs += 1
            counters.valid += int(report.valid)
            if report.regret is not None:
                counters.regrets.append(report.regret)
            admitted = report.valid and report.played and report.env_id is not None and report.code is not None
            if admitted:
                assert report.env_id is not None and report.class_name is not None and report.code is not None
                self._admit(PoolEnvironment(env_id=report.env_id, class_name=report.class_name, kind=report.kind,
                                            skill=report.skill, max_turns=report.max_turns, hint=report.hint,
                                            origin="designed", added_step=report.step, regret=report.regret,
                                            designed_win_rate=report.win_rate_unhinted), report.code)
            if report.played and report.unhinted_returns:
                ema = self.emas.get(report.skill, WinRateEMA())
                self.emas[report.skill] = ema.update(win_rate(report.unhinted_returns))
            return admitted

    # ------------------------------------------------------------------ agent rows
    def lease(self, row: int, samples: int, hinted: bool = False) -> Lease:
        """The environment and seed for the next sample of agent row ``row``."""
        with self._lock:
            held = self._leases.get(row)
            if held is None or held[0] not in self.environments:
                step = self._start_row() if held is None else self.step
                env_id = self._choose(hinted)
                held = (env_id, self.rng.randrange(2**31), 0)
            else:
                step = self.step
            env_id, base_seed, handed = held
            if handed + 1 >= samples:
                self._leases.pop(row, None)
            else:
                self._leases[row] = (env_id, base_seed, handed + 1)
            environment = self.environments[env_id]
            return Lease(env_id=env_id, code=self._code[env_id], class_name=environment.class_name,
                         max_turns=environment.max_turns, hint=environment.hint, seed=base_seed + handed, step=step,
                         pool_size=len(self.environments))

    def _choose(self, hinted: bool) -> str:
        window = list(self.environments.values())
        if self.config.openrlhf.pool == "self_play":
            window = window[-self.config.openrlhf.pool_window:]
        if hinted and any(e.hint for e in window):
            window = [e for e in window if e.hint]
        return self.rng.choices(window, weights=[e.weight for e in window])[0].env_id

    def report_episode(self, env_id: str, episode_return: float, won: bool, env_error: bool) -> None:
        """Count one finished episode; an environment that keeps failing is retired."""
        with self._lock:
            counters = self._counters
            counters.episodes += 1
            counters.wins += int(won)
            counters.errors += int(env_error)
            environment = self.environments.get(env_id)
            if environment is None:
                return
            environment.plays += 1
            environment.wins += int(won)
            environment.errors += int(env_error)
            if (environment.errors >= RETIRE_AFTER_ERRORS and 2 * environment.errors > environment.plays
                    and len(self.environments) > 1):
                del self.environments[env_id]
                self._code.pop(env_id, None)
            self._reports_since_checkpoint += 1
            if self._reports_since_checkpoint >= 256:
                self.checkpoint()

    # ------------------------------------------------------------------ state
    def state_dict(self) -> dict[str, Any]:
        with self._lock:
            version, internal, gauss = self.rng.getstate()
            return {
                "format": STATE_FORMAT,
                "rows_started": self.rows_started,
                "rng": [version, list(internal), gauss],
                "environments": [asdict(e) for e in self.environments.values()],
                "emas": {skill: asdict(ema) for skill, ema in self.emas.items()},
            }

    def _load_state(self, state: dict[str, Any]) -> None:
        if state.get("format") != STATE_FORMAT:
            raise PoolError(f"{self.run_dir / STATE_FILE} has format {state.get('format')!r}, "
                            f"this code reads {STATE_FORMAT}")
        self.rows_started = int(state["rows_started"])
        version, internal, gauss = state["rng"]
        self.rng.setstate((version, tuple(internal), gauss))
        self.emas = {skill: WinRateEMA(**values) for skill, values in state["emas"].items()}
        for values in state["environments"]:
            record = self.memory.get(values["env_id"])
            if record is None:
                raise PoolError(f"{STATE_FILE} lists {values['env_id']}, which the memory database lacks")
            self._admit(PoolEnvironment(**values), record.code)

    def checkpoint(self) -> Path:
        """Write the state atomically; returns its path."""
        with self._lock:
            path = self.run_dir / STATE_FILE
            write_atomically(path, json.dumps(self.state_dict()) + "\n")
            self._reports_since_checkpoint = 0
            return path

    def finish(self, name: str | None = None) -> int:
        """Checkpoint, close the last step and export the memory's valid environments to ``pool/``."""
        with self._lock:
            self._close_step(self.step)
            manifest = self.memory.export_pool(self.run_dir / "pool", name or f"spade-{self.run_dir.name}")
            return len(manifest.entries)

    def summary(self) -> dict[str, Any]:
        with self._lock:
            origins: dict[str, int] = {}
            for environment in self.environments.values():
                origins[environment.origin] = origins.get(environment.origin, 0) + 1
            return {"step": self.step, "rows_started": self.rows_started, "environments": len(self.environments),
                    "origins": origins, "memory": self.memory.count()}

    def close(self) -> None:
        self.memory.close()

    def _append(self, name: str, row: dict[str, Any]) -> None:
        with open(self.run_dir / name, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row, default=str) + "\n")


# ---------------------------------------------------------------------------------- clients
class PoolClient(Protocol):
    """How an executor talks to the pool: awaitable calls, except ``near_duplicates``, which the loop
    makes synchronously (the executor runs design attempts in worker threads, where blocking is fine)."""

    async def settings(self) -> dict[str, Any]: ...

    async def plan_design(self, row: int, samples: int, skill: str, kind: str) -> DesignPlan: ...

    def near_duplicates(self, code: str, threshold: float) -> list[NearDuplicate]: ...

    async def record_design(self, report: DesignReport) -> bool: ...

    async def lease(self, row: int, samples: int, hinted: bool) -> Lease: ...

    async def report_episode(self, env_id: str, episode_return: float, won: bool, env_error: bool) -> None: ...


class LocalPoolClient:
    """A ``PoolClient`` over an ``EnvironmentPool`` in this process (tests, single-process tools)."""

    def __init__(self, pool: EnvironmentPool) -> None:
        self.pool = pool

    async def settings(self) -> dict[str, Any]:
        return self.pool.settings()

    async def plan_design(self, row: int, samples: int, skill: str, kind: str) -> DesignPlan:
        return self.pool.plan_design(row, samples, skill, kind)

    def near_duplicates(self, code: str, threshold: float) -> list[NearDuplicate]:
        return self.pool.near_duplicates(code, threshold)

    async def record_design(self, report: DesignReport) -> bool:
        return self.pool.record_design(report)

    async def lease(self, row: int, samples: int, hinted: bool) -> Lease:
        return self.pool.lease(row, samples, hinted)

    async def report_episode(self, env_id: str, episode_return: float, won: bool, env_error: bool) -> None:
        self.pool.report_episode(env_id, episode_return, won, env_error)
