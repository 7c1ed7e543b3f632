"""The self-play state that every rollout engine of an OpenRLHF run shares.

OpenRLHF runs the agent executor in several rollout engines (processes, possibly on several nodes), but
self-play needs one state: the environments the designer has written (agent rows play them), the
memory that feeds designer prompts, and the per-skill statistics. ``SharedState`` holds it; in a run it
lives in one Ray named actor (``ray_actor``), so calls are serialised, and it is a plain class so it can
be used and tested without Ray (``LocalStateClient``).

What it does:

- **designer rows** ``plan_row``: the document, memory examples and seed for a row, the same for every
  sample of the row so its designs are compared on equal terms; ``near_duplicates`` for the attempt's
  diversity check; ``record_design``: the attempt's summary into the memory and ``attempts.jsonl`` and,
  for a played environment, its admission to the environments agent rows play.
- **agent rows** ``lease``: one environment per row (every sample of the row plays it, on its own seed),
  drawn from the ``lease_window`` newest environments (fixed environments: from all of them) and
  weighted towards those the agent wins about half the time, the same rule for self-play and the
  fixed-pool baselines; ``report_episode`` keeps those win counts and retires environments that keep
  failing.
- **steps** ``finish_row``: the executor reports each finished row and whether dynamic filtering keeps
  its group (it computes the scores, so it knows). A training step is ``rollout_batch_size`` kept
  groups, which is how OpenRLHF's sample generator fills one, so ``step`` counts real training steps
  (the designer delay and the memory's records use it) and ``done`` says when ``run.iterations`` steps
  have their data: the executor then skips the rows left over (``row_headroom``) in milliseconds.
- **storage and checkpoints**: the memory's SQLite database lives on the actor's local disk
  (``openrlhf.state_local_dir``; SQLite's WAL does not work on network file systems) and every
  checkpoint copies it, with ``shared_state.json`` (the environments' specs and counts, the step
  counters, the random state), into the run directory: ``state/latest`` after every step and every 256
  episodes (where a restarted actor resumes), and ``state/steps/step-<N>`` after the steps the model
  is checkpointed at (``run.checkpoint_every``), where ``--resume`` restores the step OpenRLHF's own
  checkpoint restarts from. Records after that step (``attempts.jsonl``, ``step_metrics.jsonl``) are
  dropped on such a resume, since the run redoes them. In the actor, a checkpoint is staged on local
  disk under the lock and copied to the run directory by a writer thread, off the calls' path.
- **calls made once** ``answer``: the actor's clients send every call with a request id and retry it once
  after the actor restarts; the answers of the latest calls are checkpointed, so a retried call is
  either answered from the restored state or applied afresh, never twice.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import shutil
import tempfile
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Protocol

from spade_envs.errors import SpadeError
from spade_envs.fileio import write_atomically
from spade_envs.spec.models import EnvSpec
from spade_train.backends.openrlhf.checkpoints import rotate_hf_snapshots
from spade_train.backends.openrlhf.command import RunPaths
from spade_train.backends.openrlhf.data import row_count
from spade_train.backends.openrlhf.pending import (
    PendingDesign,
    PendingRow,
    RipeSample,
    StoredSample,
    score_row,
)
from spade_train.config.sections import RunConfig
from spade_train.corpus import Corpus, Document
from spade_train.environments import BUNDLED, EnvironmentRecord, load_environments
from spade_train.loop.summary import AttemptSummary, remember
from spade_train.memory import DEFAULT_FILENAME, EnvironmentMemory, MemoryExample, NearDuplicate
from spade_train.rewards import WinRateEMA
from spade_train.run.directory import Checkpoints

STATE_DIR = "state"
STATE_FILE = "shared_state.json"
ATTEMPTS_FILE = "attempts.jsonl"
METRICS_FILE = "step_metrics.jsonl"
STATE_FORMAT = 4
READABLE_FORMATS = (3, 4)
"""Format 4 added the designs waiting for their delay window (``pending``); a format-3 file has none."""
CHECKPOINT_EVERY_EPISODES = 256
ANSWERS_FILE = "answers.pickle"
KEPT_ANSWERS = 16
"""Answers of the latest calls a checkpoint keeps, so a call retried after a restart is not applied twice."""
Restore = Literal["latest"] | int | None
"""Where a shared state starts: None afresh, "latest" from ``state/latest`` (a restarted actor), or
from ``state/steps/step-<N>`` (a resumed run whose model restarts from step N)."""
RETIRE_AFTER_ERRORS = 3
"""An environment whose episodes failed this many times, and in most of its plays, leaves the rotation."""


class StateError(SpadeError):
    """The shared state cannot be built or restored; the message names the file or setting."""


@dataclass
class ActiveEnvironment:
    """One environment agent rows can lease, with what the shared state has learnt about it."""

    environment: EnvironmentRecord
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

    def state(self) -> dict[str, Any]:
        """What a checkpoint keeps (the code is in the memory)."""
        return {"spec": self.environment.spec.model_dump(mode="json"), "origin": self.origin,
                "added_step": self.added_step, "regret": self.regret, "designed_win_rate": self.designed_win_rate,
                "plays": self.plays, "wins": self.wins, "errors": self.errors}


@dataclass(frozen=True)
class RowPlan:
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
    done: bool = False
    """The run's steps have their data: the row is left over and is skipped."""
    sample: int = 0
    """Which sample of the row this plan was handed to (0 .. samples-1, in the order they asked)."""


@dataclass(frozen=True)
class HintPlay:
    """An untrained hinted play an agent sample makes beside its own episode, for a design in its window
    (the release's hint phase: hinted plays only measure regret)."""

    environment: EnvironmentRecord
    """The design, with its hint in its spec."""
    seed: int


@dataclass(frozen=True)
class Lease:
    """An environment for one agent sample, with the seed that sample plays."""

    environment: EnvironmentRecord
    seed: int
    step: int
    environments: int
    """How many environments agent rows could lease at that moment."""
    done: bool = False
    """The run's steps have their data: the row is left over and is skipped."""
    hint_play: HintPlay | None = None
    """Window scoring: a hinted play to make beside this sample's episode (None: none is needed)."""


@dataclass
class _StepCounters:
    designs: int = 0
    valid: int = 0
    regrets: list[float] = field(default_factory=list)
    episodes: int = 0
    wins: int = 0
    errors: int = 0
    rows: int = 0
    kept: int = 0
    faults: int = 0


def local_state_dir(run_dir: Path, base: str | Path | None = None) -> Path:
    """The node-local directory of a run's memory database: a directory per run path under ``base``
    (``openrlhf.state_local_dir``, default the temporary directory)."""
    digest = hashlib.sha256(str(Path(run_dir).resolve()).encode()).hexdigest()[:12]
    return Path(base or tempfile.gettempdir()) / f"spade-state-{digest}"


class SharedState:
    """The run's shared self-play state (see the module docstring). Every public method is thread-safe."""

    def __init__(self, config: RunConfig, run_dir: str | Path, *, restore: Restore = None,
                 local_dir: str | Path | None = None, background_writes: bool = False) -> None:
        """``background_writes``: checkpoints taken at a step's close or every 256 episodes are copied to the
        run directory on a writer thread, so the calls behind them do not wait for shared storage (the
        actor's setting); an explicit ``checkpoint()`` still returns once written."""
        self.config = config
        self.run_dir = Path(run_dir)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.checkpoints = Checkpoints(self.run_dir / STATE_DIR)
        self._lock = threading.RLock()
        source = self._restore_source(restore)
        self.local_dir = Path(local_dir) if local_dir else local_state_dir(self.run_dir, config.openrlhf.state_local_dir)
        self.memory = _open_local_memory(self.local_dir, source)
        loop = config.loop
        needs_corpus = config.openrlhf.environments == "self_play" and (
            loop.use_corpus or "corpus_grounded" in loop.kinds)
        self.corpus = Corpus.load(loop.corpus, seed=config.run.seed) if needs_corpus else None
        self.rng = random.Random(config.run.seed)
        self.environments: dict[str, ActiveEnvironment] = {}
        self.emas: dict[str, WinRateEMA] = {}
        self.rows_started = 0
        self.groups_kept = 0
        """Finished groups that dynamic filtering keeps: the training data so far."""
        self.faults = 0
        self._plans: dict[int, tuple[RowPlan, int]] = {}
        self._leases: dict[int, tuple[str, int, int]] = {}
        self._counters = _StepCounters()
        self._reports_since_checkpoint = 0
        self._answers: OrderedDict[str, Any] = OrderedDict()
        """Request id -> answer of the latest ``answer`` calls (``KEPT_ANSWERS``), checkpointed with the state."""
        self._answering = False
        self._checkpoint_due: bool | None = None
        """A checkpoint asked for inside ``answer`` (with ``aligned``), taken once the answer is kept."""
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="spade-state-writer") if background_writes else None
        self._written: Future[Path] | None = None
        self._writer_error: str | None = None
        self._snapshots = 0
        self.semantics = config.semantics.resolved()
        """The run's options, resolved once: every episode report reads them."""
        self.window = (self.semantics.design_scoring == "window" and config.openrlhf.environments == "self_play")
        """Designs are scored over their delay window (``pending``); False: by their own attempt."""
        self.pending: dict[int, PendingRow] = {}
        """Designer row -> the designs it wrote, until a later designer row returns them (window scoring)."""
        self._pending_designs: dict[str, PendingDesign] = {}
        self._window_leases: dict[str, int] = {}
        self._claimed: dict[int, tuple[int | None, list[RipeSample], int]] = {}
        """Designer row -> (the pending row it returns, that row's scored slots, samples handed so far)."""
        if source is not None:
            self._load_state(json.loads((source / STATE_FILE).read_text(encoding="utf-8")))
            if restore == "latest" and (source / ANSWERS_FILE).is_file():
                # Only a restarted actor's clients retry calls; a resumed run starts with none in flight.
                self._answers = pickle.loads((source / ANSWERS_FILE).read_bytes())
            if restore != "latest":
                self._drop_records_after(self.trained_steps)
        else:
            self._seed()
            self.checkpoint(aligned=True)

    def _restore_source(self, restore: Restore) -> Path | None:
        """The checkpoint directory ``restore`` names (None: start afresh); StateError if it is missing."""
        if restore is None:
            return None
        if restore == "latest":
            return self.checkpoints.find()  # a restart before the first checkpoint starts afresh
        path = self._step_dir(int(restore))
        if not (path / STATE_FILE).is_file():
            raise StateError(f"the model resumes from step {restore} but {path} holds no shared state; resume "
                             "from a run directory whose state/steps match its checkpoints")
        return path

    def _step_dir(self, step: int) -> Path:
        return self.checkpoints.root / "steps" / f"step-{step}"

    # ------------------------------------------------------------------ settings for the executors
    def settings(self) -> dict[str, Any]:
        """The run configuration, as JSON data: every executor reads its settings from it."""
        return json.loads(self.config.model_dump_json())

    # ------------------------------------------------------------------ seeding
    def _seed(self) -> None:
        section = self.config.openrlhf
        if section.environments == "fixed":
            assert section.fixed_pool is not None
            self.add_environments(load_environments(section.fixed_pool), origin="fixed")
        else:
            kinds = set(self.config.loop.kinds)
            found = load_environments(section.seed_pool, kinds=kinds if section.seed_pool == BUNDLED else None)
            if not found and section.seed_pool == BUNDLED:
                raise StateError(f"no bundled environment has a kind in loop.kinds {sorted(kinds)}; "
                                 "set openrlhf.seed_pool to a pool directory")
            self.add_environments(found, origin="seed")
        if not self.environments:
            raise StateError("no environments to start from: agent rows would have nothing to play")

    def add_environments(self, records: list[EnvironmentRecord], *, origin: str) -> int:
        """Admit trusted environments (the seed or fixed ones); they are also stored in the memory."""
        with self._lock, self.memory.batch():
            for record in records:
                self.memory.add_environment(record, valid=True)
                self._admit(ActiveEnvironment(environment=record, origin=origin))
            return len(self.environments)

    def _admit(self, environment: ActiveEnvironment) -> None:
        self.environments.pop(environment.environment.id, None)  # re-admission moves it to the newest end
        self.environments[environment.environment.id] = environment

    # ------------------------------------------------------------------ steps
    @property
    def trained_steps(self) -> int:
        """Training steps whose data is complete (OpenRLHF trains a step on rollout_batch_size kept groups)."""
        return self.groups_kept // self.config.openrlhf.rollout_batch_size

    @property
    def step(self) -> int:
        """The training step whose data is being generated (1-based)."""
        return self.trained_steps + 1

    @property
    def done(self) -> bool:
        """Every one of ``run.iterations`` steps has its data: rows still coming are left over."""
        return self.trained_steps >= self.config.run.iterations

    def _start_row(self) -> int:
        self.rows_started += 1
        self._counters.rows += 1
        return self.step

    def finish_row(self, row: int, kept: bool, faults: int = 0) -> int:
        """Count a finished row (``kept``: dynamic filtering keeps its group); returns the step after it.

        Closing a step writes its metrics and the ``latest`` checkpoint, and at the model's checkpoint
        steps the step-aligned one (and rotates OpenRLHF's Hugging Face snapshots).
        """
        with self._lock:
            self.faults += faults
            self._counters.faults += faults
            self._release_claim(row)
            if not kept:
                return self.step
            before = self.trained_steps
            self.groups_kept += 1
            self._counters.kept += 1
            if self.trained_steps != before:
                self._close_step(self.trained_steps)
            return self.step

    def _close_step(self, step: int) -> None:
        counters, self._counters = self._counters, _StepCounters()
        row = {"step": step, "designs": counters.designs, "valid": counters.valid,
               "regret_mean": sum(counters.regrets) / len(counters.regrets) if counters.regrets else None,
               "episodes": counters.episodes,
               "win_rate": counters.wins / counters.episodes if counters.episodes else None,
               "episode_errors": counters.errors, "environments": len(self.environments),
               "rows": counters.rows, "groups_kept": counters.kept, "faults": counters.faults,
               "pass_rate": counters.kept / counters.rows if counters.rows else None,
               "rows_last_to_step": self._rows_last_to_step()}
        self._append(METRICS_FILE, row)
        every = self.config.run.checkpoint_every
        self._checkpoint_soon(aligned=step % every == 0 or step == self.config.run.iterations)

    def _rows_last_to_step(self) -> int | None:
        """The step the rows written would reach at the pass rate measured so far (None: nothing kept)."""
        if not self.groups_kept:
            return None
        left = row_count(self.config) - self.rows_started
        groups = self.groups_kept + left * self.groups_kept / self.rows_started
        return int(groups // self.config.openrlhf.rollout_batch_size)

    # ------------------------------------------------------------------ designer rows
    def plan_row(self, row: int, samples: int, skill: str, kind: str) -> RowPlan:
        """The plan every sample of designer row ``row`` shares (made by the first sample to ask)."""
        with self._lock:
            if self.done:
                return RowPlan(row=row, step=self.step, seed=0, document=None, corpus_name=None, examples=(),
                               ema=None, train=False, done=True)
            cached = self._plans.get(row)
            if cached is None:
                cached = (self._new_plan(row, self._start_row(), skill, kind), 0)
            plan, handed = cached[0], cached[1] + 1
            if handed >= samples:
                self._plans.pop(row, None)
            else:
                self._plans[row] = (plan, handed)
            return replace(plan, sample=handed - 1)

    def replan_row(self, row: int, step: int, skill: str, kind: str, sample: int = 0) -> RowPlan:
        """A fresh plan for one sample of designer row ``row`` (a new document, memory draw and seed, the
        same step): the next attempt when an invalid design is re-sampled. Starts no row."""
        with self._lock:
            return replace(self._new_plan(row, step, skill, kind), sample=sample)

    def _new_plan(self, row: int, step: int, skill: str, kind: str) -> RowPlan:
        loop = self.config.loop
        document = None
        if self.corpus is not None and (loop.use_corpus or kind == "corpus_grounded"):
            document = self.corpus.sample_for(kind)
        ties = self.semantics.memory_ties
        examples = (tuple(self.memory.prompt_examples([skill], self.rng, ties=ties))
                    if loop.use_memory else ())
        train = loop.train_designer and step > self.config.openrlhf.designer_delay_steps
        return RowPlan(row=row, step=step, seed=self.rng.randrange(2**31), document=document,
                       corpus_name=self.corpus.name if self.corpus else None, examples=examples,
                       ema=self.emas.get(skill), train=train, done=self.done)

    def near_duplicates(self, code: str, threshold: float) -> list[NearDuplicate]:
        """A read: the memory is thread-safe on its own, so this runs beside other calls without the state's
        lock (parsing ``code`` is the slow part)."""
        return self.memory.find_near_duplicates(code, threshold)

    def record_design(self, row: int, summary: AttemptSummary) -> bool:
        """Record one attempt of designer row ``row``; returns whether its environment joined the rotation."""
        with self._lock:
            remember(self.memory, [summary], self.semantics.memory_win_rate)
            self._append(ATTEMPTS_FILE, {"row": row, **summary.to_json()})
            counters = self._counters
            counters.designs += 1
            counters.valid += int(summary.valid)
            if summary.regret is not None:
                counters.regrets.append(summary.regret)
            admitted = summary.played and summary.environment is not None
            if admitted:
                assert summary.environment is not None
                self._admit(ActiveEnvironment(environment=summary.environment, origin="designed",
                                              added_step=summary.step, regret=summary.regret,
                                              designed_win_rate=summary.win_rate_unhinted))
            if summary.played and summary.unhinted_wins:
                ema = self.emas.get(summary.skill, WinRateEMA())
                self.emas[summary.skill] = ema.update(sum(summary.unhinted_wins) / len(summary.unhinted_wins))
            return admitted

    # ------------------------------------------------------------------ the delay window
    @property
    def window_steps(self) -> int:
        """R: the steps a design's window lasts (offsets 0 .. R-1), the run's regeneration interval."""
        return self.config.openrlhf.designer_every

    def _window_open(self, design: PendingDesign) -> bool:
        return self.step - design.step < self.window_steps

    def record_window_design(self, row: int, sample: int, summary: AttemptSummary,
                             stored: StoredSample | None) -> bool:
        """Record the design of sample ``sample`` of designer row ``row`` (window scoring): the attempt goes to
        the memory and ``attempts.jsonl``; a valid design joins the rotation at once, with its hint, and
        waits in ``pending`` with its trained sample ``stored`` until its window closes. An invalid one
        (every re-sample used) fills its slot with nothing to train. Returns whether it joined."""
        with self._lock:
            remember(self.memory, [summary], self.semantics.memory_win_rate)
            self._append(ATTEMPTS_FILE, {"row": row, "sample": sample, **summary.to_json()})
            counters = self._counters
            counters.designs += 1
            counters.valid += int(summary.valid)
            pending = self.pending.setdefault(row, PendingRow(row=row, step=summary.step, skill=summary.skill))
            admitted = summary.valid and summary.environment is not None
            # The same code as a design still in its window: one set of plays cannot score two samples, so
            # the later copy's slot is left with nothing to train (the release's pool holds a file once).
            repeat = admitted and summary.environment is not None and summary.environment.id in self._pending_designs
            design = None
            if admitted and not repeat:
                assert summary.environment is not None
                environment = summary.environment
                self._admit(ActiveEnvironment(environment=environment, origin="designed", added_step=summary.step))
                design = PendingDesign(env_id=environment.id, skill=summary.skill, step=summary.step,
                                       sample=stored, has_hint=environment.spec.hint is not None)
                self._pending_designs[environment.id] = design
            pending.slots[sample] = design
            return admitted

    def ripe_sample(self, row: int, sample: int, samples: int) -> RipeSample | None:
        """What sample ``sample`` of designer row ``row`` returns: slot ``sample`` of the oldest earlier row
        whose window has closed, scored over its window; None when no row is ripe (the same answer for
        every sample of the row: the first to ask decides). The ripe row's designs get their window's
        evaluation in the memory when it is scored."""
        with self._lock:
            claimed = self._claimed.get(row)
            if claimed is None:
                ripe = [r for r in self.pending.values()
                        if r.row != row and r.row not in self._claimed_rows()
                        and self.step - r.step >= self.window_steps]
                if ripe:
                    oldest = min(ripe, key=lambda r: (r.step, r.row))
                    scored = self._score_ripe(oldest, samples)
                    claimed = (oldest.row, scored, 0)
                else:
                    claimed = (None, [], 0)
            source, scored, handed = claimed
            handed += 1
            if handed >= samples:
                self._claimed.pop(row, None)
                if source is not None:
                    self._retire_pending(source)
            else:
                self._claimed[row] = (source, scored, handed)
            if source is None:
                return None
            return scored[sample] if sample < len(scored) else RipeSample(sample=None, reward=None)

    def _release_claim(self, row: int) -> None:
        """A designer row that finished before all its samples asked for their ripe slots (a sample faulted
        first) still holds the earlier row it claimed: retire that row now, or it would stay pending and
        claimed for the rest of the run. Its designs were scored and recorded when it was claimed; the
        finished row's group had a fault, so filtering drops it and none of its slots is trained."""
        claimed = self._claimed.pop(row, None)
        if claimed is not None and claimed[0] is not None:
            self._retire_pending(claimed[0])

    def _claimed_rows(self) -> set[int]:
        return {source for source, _, _ in self._claimed.values() if source is not None}

    def _score_ripe(self, pending: PendingRow, samples: int) -> list[RipeSample]:
        """Score a ripe row (``pending.score_row``), record each design's window in the memory and count
        its regret in the step's metrics."""
        rewards = self.config.designer_rewards()
        scored, emas = score_row(pending, samples, rewards, self.emas)
        if rewards.variant == "learning_potential":
            self.emas = emas  # score_window updated the skill's EMA with the window's plays
        with self.memory.batch():
            for index, ripe in enumerate(scored):
                design = pending.slots.get(index)
                if design is None or ripe.regret is None or not design.unhinted_returns:
                    continue
                rate = memory_win_rate(design, self.semantics.memory_win_rate, self.semantics.memory_plays)
                # No usable hint: no regret to remember (the release caches none, and reads 0).
                regret = ripe.regret if design.hinted_returns else 0.0
                hinted = design.hinted_returns
                self.memory.record_evaluation(
                    design.env_id, step=pending.step, unhinted_win_rate=rate, regret=regret,
                    hinted_win_rate=sum(r >= 0.999 for r in hinted) / len(hinted) if hinted else None,
                    plays=len(design.unhinted_returns) + len(hinted))
                self._counters.regrets.append(ripe.regret)
                environment = self.environments.get(design.env_id)
                if environment is not None:
                    environment.regret, environment.designed_win_rate = regret, rate
        return scored

    def _retire_pending(self, row: int) -> None:
        pending = self.pending.pop(row, None)
        if pending is None:
            return
        for design in pending.slots.values():
            if design is not None:
                self._pending_designs.pop(design.env_id, None)
                self._window_leases.pop(design.env_id, None)

    def _open_designs(self) -> list[PendingDesign]:
        return [d for d in self._pending_designs.values() if self._window_open(d) and d.env_id in self.environments]

    def _hint_play(self) -> HintPlay | None:
        """A hinted play for the open design with a hint that has been given the fewest, while it has fewer
        than K (``loop.episodes_per_condition``)."""
        wanting = [d for d in self._open_designs()
                   if d.has_hint and d.hint_plays_assigned < self.config.loop.episodes_per_condition]
        if not wanting:
            return None
        design = min(wanting, key=lambda d: (d.hint_plays_assigned, d.step))
        design.hint_plays_assigned += 1
        return HintPlay(environment=self.environments[design.env_id].environment, seed=self.rng.randrange(2**31))

    def report_hint_play(self, env_id: str, episode_return: float, timed_out: bool = False) -> None:
        """Record a hinted play made for a design's window (``Lease.hint_play``); a timeout flags the design
        under either ``semantics.timeout_plays`` (the release makes every hinted play at the regeneration
        step)."""
        with self._lock:
            design = self._pending_designs.get(env_id)
            if design is not None:
                design.hinted_returns.append(float(episode_return))
                design.timed_out = design.timed_out or timed_out

    # ------------------------------------------------------------------ agent rows
    def lease(self, row: int, samples: int, hinted: bool = False) -> Lease:
        """The environment and seed for the next sample of agent row ``row``."""
        with self._lock:
            if self.done:  # a left-over row: nothing is drawn or counted
                environment = next(reversed(self.environments.values())).environment
                return Lease(environment=environment, seed=0, step=self.step, environments=len(self.environments),
                             done=True)
            held = self._leases.get(row)
            if held is None or held[0] not in self.environments:
                step = self._start_row() if held is None else self.step
                env_id = self._choose(hinted)
                if env_id in self._pending_designs:
                    self._window_leases[env_id] = self._window_leases.get(env_id, 0) + samples
                held = (env_id, self.rng.randrange(2**31), 0)
            else:
                step = self.step
            env_id, base_seed, handed = held
            if handed + 1 >= samples:
                self._leases.pop(row, None)
            else:
                self._leases[row] = (env_id, base_seed, handed + 1)
            return Lease(environment=self.environments[env_id].environment, seed=base_seed + handed, step=step,
                         environments=len(self.environments), done=self.done,
                         hint_play=self._hint_play() if self.window else None)

    def _choose(self, hinted: bool) -> str:
        if self.window and not hinted:
            # Window scoring: unhinted rows play the designs whose window is open, the least played first, as
            # the release's actor plays every game of the current generation each step.
            open_designs = self._open_designs()
            if open_designs:
                fewest = min(self._window_leases.get(d.env_id, 0) for d in open_designs)
                least = [d for d in open_designs if self._window_leases.get(d.env_id, 0) == fewest]
                return self.rng.choice(least).env_id
        window = list(self.environments.values())
        if self.config.openrlhf.environments == "self_play":
            window = window[-self.config.openrlhf.lease_window:]
        if hinted and any(e.environment.spec.hint is not None for e in window):
            window = [e for e in window if e.environment.spec.hint is not None]
        return self.rng.choices(window, weights=[e.weight for e in window])[0].environment.id

    def report_episode(self, env_id: str, episode_return: float, won: bool, env_error: bool, *,
                       step: int | None = None, hinted: bool = False, timed_out: bool = False,
                       dropped: bool = False) -> None:
        """Count one finished episode; an environment that keeps failing is retired. An unhinted play of a
        design in its window (``step``: the lease's) is recorded at its step offset, unless ``dropped``
        (a play the harness could not finish twice, under ``failed_plays = "retry_then_drop"``)."""
        with self._lock:
            design = self._pending_designs.get(env_id)
            if design is not None and not hinted and step is not None and 0 <= step - design.step < self.window_steps:
                design.record_play(step - design.step, episode_return, won, timed_out,
                                   self.semantics.timeout_plays, counted=not dropped)
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
            self._reports_since_checkpoint += 1
            if self._reports_since_checkpoint >= CHECKPOINT_EVERY_EPISODES:
                self._checkpoint_soon()

    # ------------------------------------------------------------------ state
    def state_dict(self) -> dict[str, Any]:
        with self._lock:
            version, internal, gauss = self.rng.getstate()
            return {
                "format": STATE_FORMAT,
                "rows_started": self.rows_started,
                "groups_kept": self.groups_kept,
                "faults": self.faults,
                "rng": [version, list(internal), gauss],
                "environments": [e.state() for e in self.environments.values()],
                "emas": {skill: asdict(ema) for skill, ema in self.emas.items()},
                "pending": [row.state() for row in self.pending.values()],
            }

    def _load_state(self, state: dict[str, Any]) -> None:
        if state.get("format") not in READABLE_FORMATS:
            raise StateError(f"{STATE_FILE} has format {state.get('format')!r}, this code reads "
                             f"{' and '.join(map(str, READABLE_FORMATS))}")
        self.rows_started = int(state["rows_started"])
        self.groups_kept = int(state["groups_kept"])
        self.faults = int(state["faults"])
        version, internal, gauss = state["rng"]
        self.rng.setstate((version, tuple(internal), gauss))
        self.emas = {skill: WinRateEMA(**values) for skill, values in state["emas"].items()}
        for values in state["environments"]:
            spec = EnvSpec.model_validate(values.pop("spec"))
            stored = self.memory.get(spec.id)
            if stored is None:
                raise StateError(f"{STATE_FILE} lists {spec.id}, which the memory database lacks")
            self._admit(ActiveEnvironment(environment=EnvironmentRecord(spec, stored.code), **values))
        for values in state.get("pending", []):
            pending = PendingRow.from_state(values)
            self.pending[pending.row] = pending
            for design in pending.slots.values():
                if design is not None:
                    self._pending_designs[design.env_id] = design

    # ------------------------------------------------------------------ calls and checkpoints
    def answer(self, request: str, method: str, *args: Any, **kwargs: Any) -> Any:
        """Run one client call, once: a call retried with the same ``request`` id (its first try may or may
        not have run before the actor died) gets the first try's answer instead of being applied twice.

        Answers are kept for the latest ``KEPT_ANSWERS`` calls and go into every checkpoint, and a checkpoint
        asked for during the call is taken after its answer is kept. So a retry after a restart is either
        answered from the checkpoint (its first try is in the restored state) or applied afresh (it is not).
        """
        with self._lock:
            if request in self._answers:
                return self._answers[request]
            self._answering, self._checkpoint_due = True, None
            try:
                result = getattr(self, method)(*args, **kwargs)
            finally:
                self._answering = False
            self._answers[request] = result
            while len(self._answers) > KEPT_ANSWERS:
                self._answers.popitem(last=False)
            if self._checkpoint_due is not None:
                self.checkpoint(aligned=self._checkpoint_due, wait=False)
            return result

    def _checkpoint_soon(self, *, aligned: bool = False) -> None:
        """A checkpoint the state's own progress calls for (a closed step, many episodes)."""
        if self._answering:
            self._checkpoint_due = bool(self._checkpoint_due) or aligned
        else:
            self.checkpoint(aligned=aligned, wait=False)

    def checkpoint(self, *, aligned: bool = False, wait: bool = True) -> Path:
        """Write ``state/latest`` (the state, a copy of the memory and the kept answers), swapped in whole;
        with ``aligned`` also ``state/steps/step-<trained steps>`` and rotate the model's Hugging Face
        snapshots.

        The snapshot is taken under the lock on the node's local disk (milliseconds); copying it to the run
        directory, which is often shared storage, happens on the writer thread when there is one and
        ``wait`` is False. Returns ``state/latest`` (once written, where ``wait``). A failed background
        write fails every later checkpoint with a ``StateError`` naming it, so it cannot go unnoticed.
        """
        with self._lock:
            if self._writer_error is not None:
                raise StateError(f"writing the shared state's checkpoint failed: {self._writer_error}")
            self._snapshots += 1
            staged = self.local_dir / f"snapshot-{self._snapshots}"
            shutil.rmtree(staged, ignore_errors=True)
            staged.mkdir(parents=True)
            self.memory.backup_to(staged / DEFAULT_FILENAME)
            (staged / STATE_FILE).write_text(json.dumps(self.state_dict()) + "\n", encoding="utf-8")
            (staged / ANSWERS_FILE).write_bytes(pickle.dumps(self._answers))
            self._reports_since_checkpoint = 0
            step = self.trained_steps
            if self._writer is None:
                return self._write_checkpoint(staged, step, aligned)
            self._written = self._writer.submit(self._write_in_background, staged, step, aligned)
            written = self._written
        return written.result() if wait else self.checkpoints.latest

    def wait_for_writes(self) -> None:
        """Return once the checkpoint copies already started are done (failed or not)."""
        if self._writer is not None:
            self._writer.submit(lambda: None).result()

    def _write_in_background(self, staged: Path, step: int, aligned: bool) -> Path:
        try:
            return self._write_checkpoint(staged, step, aligned)
        except Exception as error:  # kept, and raised by the next checkpoint
            # No lock here: finish() holds it while it waits for this thread.
            self._writer_error = f"{type(error).__name__}: {error}"
            raise

    def _write_checkpoint(self, staged: Path, step: int, aligned: bool) -> Path:
        """Copy a staged snapshot into ``state/latest`` (and the step's directory where ``aligned``)."""
        def write(directory: Path) -> None:
            directory.mkdir(parents=True, exist_ok=True)
            for name in (DEFAULT_FILENAME, STATE_FILE, ANSWERS_FILE):
                shutil.copyfile(staged / name, directory / name)

        try:
            latest = self.checkpoints.save({"step": step}, write)
            if aligned:
                target = self._step_dir(step)
                staging = target.with_name(f".staging-{target.name}")
                shutil.rmtree(staging, ignore_errors=True)
                shutil.copytree(latest, staging)
                shutil.rmtree(target, ignore_errors=True)
                staging.rename(target)
                rotate_hf_snapshots(RunPaths(self.run_dir).checkpoints, self.config.openrlhf.keep_hf_snapshots)
        finally:
            shutil.rmtree(staged, ignore_errors=True)
        return latest

    def _drop_records_after(self, step: int) -> None:
        """Drop the attempt and metric lines of steps after ``step``: a resumed run redoes those steps."""
        for name in (ATTEMPTS_FILE, METRICS_FILE):
            path = self.run_dir / name
            if not path.exists():
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            kept = [line for line in lines if line.strip() and _record_step(line) <= step]
            if len(kept) != len(lines):
                write_atomically(path, "".join(line + "\n" for line in kept))

    def finish(self, name: str | None = None) -> int:
        """Checkpoint, close the last step and export the memory's valid environments to ``pool/``."""
        with self._lock:
            counters = self._counters
            if counters.rows or counters.designs or counters.episodes:
                self._append(METRICS_FILE, {"step": self.step, "partial": True, "rows": counters.rows,
                                            "groups_kept": counters.kept, "designs": counters.designs,
                                            "episodes": counters.episodes, "faults": counters.faults})
            self.checkpoint(wait=True)
            manifest = self.memory.export_pool(self.run_dir / "pool", name or f"spade-{self.run_dir.name}")
            return len(manifest.entries)

    def summary(self) -> dict[str, Any]:
        with self._lock:
            origins: dict[str, int] = {}
            for environment in self.environments.values():
                origins[environment.origin] = origins.get(environment.origin, 0) + 1
            return {"step": self.step, "rows_started": self.rows_started, "groups_kept": self.groups_kept,
                    "faults": self.faults, "environments": len(self.environments), "origins": origins,
                    "memory": self.memory.count()}

    def close(self) -> None:
        if self._writer is not None:
            self._writer.shutdown(wait=True)
        self.memory.close()

    def _append(self, name: str, row: dict[str, Any]) -> None:
        with open(self.run_dir / name, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row, default=str) + "\n")


def memory_win_rate(design: PendingDesign, rule: str, plays: str) -> float:
    """The win rate the memory records for a design whose window closed.

    ``plays``: "regeneration_step" counts the plays of the step it was written in (the release records its
    memory at that step, from that step's plays), "window" all of its window's. ``rule``: "positive_return"
    counts returns above 0 (the release), "wins" won episodes; over the regeneration step's plays alone a
    win is a return of at least 0.999 (a win's reward; the plays keep no termination flag).
    """
    if plays == "regeneration_step" and design.plays:
        returns = design.plays[min(design.plays)]
        won = sum(r >= 0.999 for r in returns)
    else:
        returns, won = design.unhinted_returns, design.wins
    return (sum(r > 0 for r in returns) if rule == "positive_return" else won) / len(returns)


def _record_step(line: str) -> int:
    """The step of a record line; a torn last line (the actor died mid-write) sorts after every step."""
    try:
        return int(json.loads(line).get("step", 0))
    except (ValueError, AttributeError, TypeError):
        return 1 << 62


def _open_local_memory(local: Path, source: Path | None) -> EnvironmentMemory:
    """The memory database in ``local`` (node-local disk), a copy of ``source``'s when restoring.

    Whatever an earlier actor of this run left in ``local`` is discarded: the checkpoint is the truth.
    """
    local.mkdir(parents=True, exist_ok=True)
    path = local / DEFAULT_FILENAME
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if source is not None:
        shutil.copyfile(source / DEFAULT_FILENAME, path)
    return EnvironmentMemory(path)


# ---------------------------------------------------------------------------------- clients
class StateClient(Protocol):
    """How an executor talks to the shared state: every call awaitable."""

    async def settings(self) -> dict[str, Any]: ...

    async def plan_row(self, row: int, samples: int, skill: str, kind: str) -> RowPlan: ...

    async def near_duplicates(self, code: str, threshold: float) -> list[NearDuplicate]: ...

    async def record_design(self, row: int, summary: AttemptSummary) -> bool: ...

    async def lease(self, row: int, samples: int, hinted: bool) -> Lease: ...

    async def report_episode(self, env_id: str, episode_return: float, won: bool, env_error: bool, *,
                             step: int | None = None, hinted: bool = False, timed_out: bool = False,
                             dropped: bool = False) -> None: ...

    async def replan_row(self, row: int, step: int, skill: str, kind: str, sample: int) -> RowPlan: ...

    async def record_window_design(self, row: int, sample: int, summary: AttemptSummary,
                                   stored: StoredSample | None) -> bool: ...

    async def ripe_sample(self, row: int, sample: int, samples: int) -> RipeSample | None: ...

    async def report_hint_play(self, env_id: str, episode_return: float, timed_out: bool = False) -> None: ...

    async def finish_row(self, row: int, kept: bool, faults: int) -> int: ...


class LocalStateClient:
    """A ``StateClient`` over a ``SharedState`` in this process (tests, single-process tools)."""

    def __init__(self, state: SharedState) -> None:
        self.state = state

    async def settings(self) -> dict[str, Any]:
        return self.state.settings()

    async def plan_row(self, row: int, samples: int, skill: str, kind: str) -> RowPlan:
        return self.state.plan_row(row, samples, skill, kind)

    async def near_duplicates(self, code: str, threshold: float) -> list[NearDuplicate]:
        return self.state.near_duplicates(code, threshold)

    async def record_design(self, row: int, summary: AttemptSummary) -> bool:
        return self.state.record_design(row, summary)

    async def lease(self, row: int, samples: int, hinted: bool) -> Lease:
        return self.state.lease(row, samples, hinted)

    async def report_episode(self, env_id: str, episode_return: float, won: bool, env_error: bool, *,
                             step: int | None = None, hinted: bool = False, timed_out: bool = False,
                             dropped: bool = False) -> None:
        self.state.report_episode(env_id, episode_return, won, env_error, step=step, hinted=hinted,
                                  timed_out=timed_out, dropped=dropped)

    async def replan_row(self, row: int, step: int, skill: str, kind: str, sample: int) -> RowPlan:
        return self.state.replan_row(row, step, skill, kind, sample)

    async def record_window_design(self, row: int, sample: int, summary: AttemptSummary,
                                   stored: StoredSample | None) -> bool:
        return self.state.record_window_design(row, sample, summary, stored)

    async def ripe_sample(self, row: int, sample: int, samples: int) -> RipeSample | None:
        return self.state.ripe_sample(row, sample, samples)

    async def report_hint_play(self, env_id: str, episode_return: float, timed_out: bool = False) -> None:
        self.state.report_hint_play(env_id, episode_return, timed_out)

    async def finish_row(self, row: int, kept: bool, faults: int) -> int:
        return self.state.finish_row(row, kept, faults)
