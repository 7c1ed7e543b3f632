"""The agent executor: turns a role-tagged row into one trained sample.

OpenRLHF awaits ``execute`` ``n_samples_per_prompt`` times per row, concurrently, inside a rollout
engine, and trains on the returned token sequence. Two kinds of row (``labels.RowLabel``):

- **designer**: one design slot, ``spade_train.loop.design.design_slot``, the same function the embedded
  loop runs: the designer writes an environment (this generation is the trained sample), the checker
  judges it in the sandbox and the model writes a hint; with ``semantics.invalid_designs = "resampled"``
  (reference mode) an invalid design is re-sampled up to ``loop.design_attempts`` times from a fresh plan
  of the shared state (``replan_row``), and a sample whose every attempt is invalid is masked. What the
  sample returns depends on ``semantics.design_scoring``:

  - ``"attempt"`` (toolkit): the agent plays K episodes with the hint and K without (nested, untrained
    generations through the same engine), and the sample is the attempt's reply with its own designer
    reward (uncentred: OpenRLHF's ``group_norm`` compares the row's designs, which share skill, document
    and examples).
  - ``"window"`` (reference, the release's delayed scoring): no nested play. A valid design joins the
    rotation at once and its sample waits in the shared state (``record_window_design``); unhinted agent
    rows play the designs whose window is open, and agent samples make the untrained hinted plays beside
    their own episode (``Lease.hint_play``). The sample then *returns* slot i of an earlier designer row
    whose window (``openrlhf.designer_every`` steps) has closed (``ripe_sample``): that design's stored
    tokens and rollout log-probs, rewarded with ``spade_train.window.score_window`` over its window, so
    the group is one earlier row's designs (one skill and prompt). With nothing ripe the row returns
    untrained placeholders (dropped), as the designer delay does.

  The attempt runs on the engine's event loop; its only contact with the run's memory is the
  near-duplicate check, an awaitable call to the shared state (``StateDuplicates``), and its summary
  goes there afterwards.
- **agent**: one episode of an environment leased from the shared state, played by
  ``rollout.play_episode`` through a ``TrajectoryRecorder``; the episode return is the reward. The
  report carries the lease's step and whether it was hinted, which places a play in a window.

Every response has the same ``extra_logs`` keys (OpenRLHF batches the two roles together and needs
equal keys), numbers only; a role's own figures are 0 on the other role's samples, so divide a mean by
the mean of ``spade/designer`` (or ``spade/agent``) to read it per role.

**Fault barrier.** OpenRLHF gathers a row's samples with ``asyncio.gather`` and its trainer calls
``ray.get`` on them without a try, so one exception out of ``execute`` would end the whole job.
``execute`` therefore returns a well-formed sample whatever happens: a failure of our code, of the
sandbox, of the shared-state actor (errors and timeouts) or an unreadable label is a *fault*, logged in
one bounded line, counted (``faults``, ``spade/fault``, the state's ``faults``) and answered with a
placeholder whose group dynamic filtering drops. Only cancellation passes through, and ``RunStopped``
(``stops.py``): a failure every later sample would share, which must end the job rather than let it
train on nothing. The shared state gone for good (``StateLost``) is one; faults in
``openrlhf.max_fault_share`` of a step's worth of samples are the other.

**Groups and scores.** The samples of one row run concurrently in one engine, so they meet (``_Group``)
before returning and are scored together (``score_group``); OpenRLHF's dynamic filtering keeps a group
when its mean score lies strictly inside (0, 1). A group whose rewards differ gets
``0.5 + 0.49 tanh(reward)`` per sample (distinct rewards give distinct scores, all inside the range, so
a group with returns {-1, 0} is kept); a group whose rewards are all equal gets 0 (no contrast:
dropped), or with ``grpo.drop_zero_variance = false`` (the release keeps them) 0.5, kept and trained at
advantage 0; a group with a fault, a designer group that must not be trained yet (designer delay, the
no-designer-training ablation) and a row left over once the run's steps have their data get -1
(dropped). The last sample to finish then tells the shared state whether the group is kept, which is
how the state counts training steps.

**Masked samples.** An episode that ended on an environment error, a design attempt over its
wall-clock budget (``openrlhf.design_budget_s``) and a designer call that failed are not the model's
doing: such a sample is a short placeholder with no action range (none of its tokens is trained) and
the mean reward of the rest of its group (so it does not move the group's baseline).

**The sandbox** is built on a worker thread, never on the engine's event loop: OpenRLHF's file
(``agent_executor.AgentExecutor``) starts building the WebAssembly sandbox when the rollout actor
constructs it, before the engine serves, and the first rows wait for that build without blocking
generation.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from spade_envs.runtime.backend import ExecutionBackend, create_backend
from spade_envs.runtime.budget import MemoryBudget
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.threads import SessionThreads
from spade_train.advantages import Sample, group_advantages
from spade_train.backends.openrlhf.engine_policy import EnginePolicy, TrajectoryRecorder
from spade_train.backends.openrlhf.labels import RowLabel
from spade_train.backends.openrlhf.pending import RipeSample, StoredSample
from spade_train.backends.openrlhf.shared_state import HintPlay, Lease, RowPlan, StateClient
from spade_train.backends.openrlhf.stops import RunStopped
from spade_train.config import RunConfig, parse_run_config
from spade_train.designer.language import design_language
from spade_train.designer.prompts import DesignerPrompt
from spade_train.loop.checker import Checker
from spade_train.loop.design import DesignAttempt, DesignContext, DesignPlan, design_slot, resampled_attempts
from spade_train.loop.self_judge import SELF as SELF_JUDGE
from spade_train.loop.self_judge import PolicyJudge
from spade_train.loop.summary import AttemptSummary, DesignerScore
from spade_train.memory import NearDuplicate
from spade_train.policies.base import Policy
from spade_train.policies.roles import Policies
from spade_train.release_prompts import ReleasePrompts
from spade_train.rewards import WinRateEMA, designer_reward
from spade_train.rollout import Episode, RolloutConfig, harness_failed, play_episode
from spade_train.window import env_reward_scale

UNTRAINED_SCORE = -1.0
"""Score of a group that must not be trained (a fault, the designer delay, a left-over row): below any
dynamic-filtering range."""
NO_CONTRAST_SCORE = 0.0
"""Score of a group whose rewards are all equal: the range's open lower end, so it is dropped."""
FLAT_KEPT_SCORE = 0.5
"""Score of such a group where ``grpo.drop_zero_variance`` is false: inside the range, so it is kept."""
GROUP_WAIT_MARGIN_S = 600.0
"""How long a finished sample waits for the rest of its row beyond the longest a sibling may take."""

LOG_KEYS = (
    "spade/designer", "spade/design_trained", "spade/design_valid", "spade/design_played", "spade/design_regret",
    "spade/design_win_rate", "spade/design_win_rate_hinted", "spade/design_hint_accepted",
    "spade/design_repairs", "spade/design_timeout", "spade/agent", "spade/episode_return", "spade/episode_won",
    "spade/episode_turns", "spade/episode_hinted", "spade/episode_env_error", "spade/environments",
    "spade/fault", "spade/masked", "spade/left_over", "spade/unfinished_untrained",
)

logger = logging.getLogger(__name__)
T = TypeVar("T")


# ---------------------------------------------------------------------------------- samples
@dataclass
class TrainedSample:
    """One response in OpenRLHF's shape (see ``response``)."""

    tokens: list[int]
    action_ranges: list[tuple[int, int]]
    logprobs: list[float]
    reward: float
    score: float = NO_CONTRAST_SCORE
    truncated: bool = False
    logs: dict[str, float] = field(default_factory=dict)

    def response(self, prompt: str, label: str) -> dict[str, Any]:
        extra = {key: _finite(self.logs.get(key, 0.0)) for key in LOG_KEYS}
        return {"prompt": prompt, "label": label, "images": None, "mm_train_inputs": None,
                "observation_tokens": list(self.tokens), "action_ranges": list(self.action_ranges),
                "rollout_log_probs": list(self.logprobs), "reward": _finite(self.reward),
                "scores": _finite(self.score), "truncated": bool(self.truncated), "extra_logs": extra}


def _finite(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return number if math.isfinite(number) else 0.0


def placeholder_sample(tokenizer: Any, note: str, *, reward: float = 0.0,
                       logs: dict[str, float] | None = None) -> TrainedSample:
    """A short sample with no action range: OpenRLHF trains none of its tokens. Never raises (a tokenizer
    that fails gives a one-token sequence)."""
    try:
        tokens = [int(t) for t in tokenizer(f"[spade: {note[:200]}]", add_special_tokens=False)["input_ids"]][:64]
        eos = tokenizer.eos_token_id
        tokens.append(int(eos) if eos is not None else 0)
    except Exception:  # noqa: BLE001 - the placeholder must exist whatever the tokenizer does
        tokens = [0]
    return TrainedSample(tokens=tokens, action_ranges=[], logprobs=[0.0] * len(tokens), reward=reward,
                         logs=dict(logs or {}))


def describe_fault(error: BaseException) -> str:
    """One bounded, terminal-safe line for a fault (its text may hold model output: ``ascii`` escapes it)."""
    text = ascii(" ".join(str(error).split())[:300])[1:-1]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


@dataclass
class SampleOutcome:
    """What one sample came to, before its group is scored."""

    sample: TrainedSample
    masked: bool = False
    """Not the model's doing (environment error, budget, failed call): nothing trained, no say in the score."""
    fault: str | None = None
    trainable: bool = True
    """False: the group must not be trained (designer delay, left-over row)."""


def kept_score(reward: float) -> float:
    """The score of a sample in a group with contrast: strictly inside (0, 1), increasing in the reward."""
    return 0.5 + 0.49 * math.tanh(reward)


Shaping = Callable[[list[float]], list[float]]
"""A group's live rewards -> the advantages they are trained with (``release_advantages``)."""


def release_advantages(config: RunConfig, role: str) -> Shaping | None:
    """With ``openrlhf.advantage = "release"``, the release's advantage for a row of ``role``; else None.

    Agent: the plays' returns z-scored, population std plus 1e-8 (``advantages.group_advantages``, which
    ``benchmarks/release_differential.py`` finds bit-equal to the release). Designer: the rewards centered
    and multiplied by the release's scale (``window.env_reward_scale``); window rewards arrive centered over
    the row already, so only the scale is applied to them.
    """
    if config.openrlhf.advantage != "release":
        return None
    if role == "agent":
        def agent(rewards: list[float]) -> list[float]:
            samples = [Sample("agent", "row", reward) for reward in rewards]
            return [a or 0.0 for a in group_advantages(samples, normalize_std=True).advantages]
        return agent
    section = config.openrlhf
    scale = env_reward_scale(section.rollout_batch_size * section.n_samples_per_prompt,
                             config.loop.envs_per_iteration, section.designer_every)
    centered = config.semantics.resolved().design_scoring == "window"

    def designer(rewards: list[float]) -> list[float]:
        mean = 0.0 if centered else sum(rewards) / len(rewards)
        return [scale * (reward - mean) for reward in rewards]
    return designer


def score_group(outcomes: Sequence[SampleOutcome], shaping: Shaping | None = None, *,
                keep_flat: bool = False) -> tuple[list[TrainedSample], bool]:
    """The group's samples with their final rewards and scores, and whether dynamic filtering keeps it
    (see the module docstring).

    ``shaping`` turns a kept group's live rewards into the advantages it is trained with; its masked
    samples then carry what brings the group's mean to 0, so OpenRLHF's dr_grpo centering leaves the
    live advantages exactly as shaped (masked samples train no token)."""
    live = [o.sample.reward for o in outcomes if not o.masked and o.fault is None]
    fill = sum(live) / len(live) if live else 0.0
    rewards = [fill if o.masked or o.fault is not None else o.sample.reward for o in outcomes]
    if any(o.fault is not None or not o.trainable for o in outcomes):
        score, kept = UNTRAINED_SCORE, False
    elif len(live) < 2 or max(live) - min(live) <= 1e-9:
        if keep_flat and len(live) >= 2:  # trained at advantage 0 (OpenRLHF's centering makes it so)
            return [replace(o.sample, reward=r, score=FLAT_KEPT_SCORE) for o, r in zip(outcomes, rewards)], True
        score, kept = NO_CONTRAST_SCORE, False
    else:
        scores = [kept_score(r) for r in rewards]
        if shaping is not None:
            shaped = iter(shaping(live))
            masked = len(outcomes) - len(live)
            advantages = [next(shaped) if not (o.masked or o.fault is not None) else 0.0 for o in outcomes]
            balance = -sum(advantages) / masked if masked else 0.0
            rewards = [balance if o.masked or o.fault is not None else a for o, a in zip(outcomes, advantages)]
        return [replace(o.sample, reward=r, score=s) for o, r, s in zip(outcomes, rewards, scores)], True
    return [replace(o.sample, reward=r, score=score) for o, r in zip(outcomes, rewards)], kept


class _Group:
    """The samples of one row meeting before they return."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.outcomes: list[SampleOutcome] = []
        self.scored: list[TrainedSample] | None = None
        self.kept = False
        self.complete = asyncio.Event()
        self.abandoned = False
        """A sample gave up waiting: every sample of the group is then dropped, and the state told once."""

    def add(self, outcome: SampleOutcome, shaping: Shaping | None = None, *, keep_flat: bool = False) -> int:
        """Add a finished sample; returns its index. The last one to arrive scores the group."""
        self.outcomes.append(outcome)
        if len(self.outcomes) == self.size:
            self.scored, self.kept = score_group(self.outcomes, shaping, keep_flat=keep_flat)
            self.complete.set()
        return len(self.outcomes) - 1


class StateDuplicates:
    """The shared state's memory as an attempt's ``DuplicateFinder``."""

    def __init__(self, client: StateClient) -> None:
        self.client = client

    async def near_duplicates(self, code: str, threshold: float) -> Sequence[NearDuplicate]:
        return await self.client.near_duplicates(code, threshold)


# ---------------------------------------------------------------------------------- the executor
@dataclass
class _Run:
    """What an executor keeps per run (per shared-state actor): configuration, sandbox, worker threads."""

    config: RunConfig
    client: StateClient
    backend: ExecutionBackend
    sessions: SessionThreads
    checker: Checker
    rollout: RolloutConfig
    release: ReleasePrompts | None = None
    """The release's prompts (``semantics.release_dir``, as this node sees it), loaded once per run."""

    def close(self) -> None:
        self.sessions.close()
        self.checker.close()


def connect_ray(label: RowLabel) -> StateClient:
    from spade_train.backends.openrlhf.ray_actor import RayStateClient

    return RayStateClient.connect(label.actor, label.namespace)


class SpadeAgentExecutor:
    """OpenRLHF's agent executor for SPADE rows (``agent_executor.AgentExecutor`` adds OpenRLHF's base class).

    ``connect`` maps a row label to its state client; the default finds the run's Ray named actor. The
    run's configuration comes from the shared state, so the executor needs no arguments (OpenRLHF builds
    it with none) and no shared file system. ``warm_sandbox`` names a sandbox backend to start building
    now, on a worker thread (OpenRLHF's file passes "wasm"). ``faults`` counts faults by exception type.
    """

    def __init__(self, connect: Callable[[RowLabel], StateClient] | None = None, *,
                 warm_sandbox: str | None = None) -> None:
        self._connect = connect or connect_ray
        self._runs: dict[tuple[str, str], _Run] = {}
        self._building: dict[tuple[str, str], asyncio.Future[_Run]] = {}
        self._groups: dict[tuple[str, str, int], _Group] = {}
        self._lock = threading.Lock()
        self._builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="spade-sandbox-build")
        self._backends: dict[str, Future[ExecutionBackend]] = {}
        self.faults: Counter[str] = Counter()
        self._recent: dict[tuple[str, str], deque[str | None]] = {}
        """Per run: the fault (or None) of each of its latest samples, a step's worth."""
        if warm_sandbox is not None:
            self._backend(warm_sandbox)

    async def execute(self, prompt: str, label: str, sampling_params: Any, max_length: int, hf_tokenizer: Any,
                      llm_engine: Any, images: Any = None) -> dict[str, Any]:
        try:
            row = RowLabel.parse(label)
        except Exception as error:  # noqa: BLE001 - LabelError, and anything a hostile label string does
            outcome = self._fault(hf_tokenizer, "the row label", error)
            return score_group([outcome])[0][0].response(prompt, label)
        key = (row.actor, row.namespace, row.row)
        group = self._groups.setdefault(key, _Group(row.samples))
        outcome, run = await self._outcome(row, sampling_params, max_length, hf_tokenizer, llm_engine)
        if run is not None:
            self._count_fault(row, run, outcome.fault)
        sample = await self._settle(key, group, outcome, run, row)
        return sample.response(prompt, label)

    async def _outcome(self, row: RowLabel, sampling_params: Any, max_length: int, tokenizer: Any,
                       engine: Any) -> tuple[SampleOutcome, _Run | None]:
        """The sample's outcome; every failure becomes a fault here (the barrier)."""
        run = None
        try:
            run = await self._run_for(row)
            policy = EnginePolicy(engine, tokenizer, sampling_params, max_length=max_length,
                                  engine_loop=asyncio.get_running_loop(),
                                  chat_options=chat_options(run.config))
            if row.role == "designer":
                return await self._design(run, row, policy), run
            return await self._play(run, row, policy), run
        except RunStopped:
            raise  # a failure every later sample would share: see the module docstring
        except Exception as error:  # noqa: BLE001 - the fault barrier: see the module docstring
            return self._fault(tokenizer, f"{row.role} row {row.row}", error), run

    def _count_fault(self, row: RowLabel, run: _Run, fault: str | None) -> None:
        """Stop the run once ``openrlhf.max_fault_share`` of its last step's worth of samples faulted."""
        section = run.config.openrlhf
        window = section.rollout_batch_size * section.n_samples_per_prompt
        with self._lock:
            recent = self._recent.setdefault((row.actor, row.namespace), deque(maxlen=window))
            recent.append(fault)
            faults = [cause for cause in recent if cause is not None]
        if len(recent) == window and len(faults) >= section.max_fault_share * window:
            cause, count = Counter(faults).most_common(1)[0]
            raise RunStopped(f"{len(faults)} of the last {window} samples failed (a step's worth; "
                             f"openrlhf.max_fault_share = {section.max_fault_share:g}); the most common cause, "
                             f"{count} times: {cause}")

    def _fault(self, tokenizer: Any, where: str, error: BaseException) -> SampleOutcome:
        cause = describe_fault(error)
        with self._lock:
            self.faults[type(error).__name__] += 1
        logger.warning("spade: a sample of %s failed and is dropped: %s", where, cause)
        return SampleOutcome(placeholder_sample(tokenizer, "fault", logs={"spade/fault": 1.0}), fault=cause)

    async def _settle(self, key: tuple[str, str, int], group: _Group, outcome: SampleOutcome, run: _Run | None,
                      row: RowLabel) -> TrainedSample:
        """Wait for the rest of the row, then return this sample scored with its group."""
        index = group.add(outcome, release_advantages(run.config, row.role) if run is not None else None,
                          keep_flat=run is not None and not run.config.grpo.drop_zero_variance)
        if len(group.outcomes) == group.size:
            self._groups.pop(key, None)
        if not group.complete.is_set() and not group.abandoned:
            wait = GROUP_WAIT_MARGIN_S + (run.config.openrlhf.design_budget_s if run is not None else 0.0)
            try:
                await asyncio.wait_for(group.complete.wait(), timeout=wait)
            except TimeoutError:
                if not group.abandoned:
                    group.abandoned = True
                    logger.warning("spade: row %d: only %d of %d samples finished in %.0f s; the row is dropped",
                                   row.row, len(group.outcomes), group.size, wait)
                    await self._report(run, row, kept=False, faults=1)
        if group.abandoned or group.scored is None:
            return replace(outcome.sample, score=UNTRAINED_SCORE)
        if index == group.size - 1:  # the last to arrive reports the group, once
            trained = group.kept
            left_over = any(not o.trainable and o.sample.logs.get("spade/left_over") for o in group.outcomes)
            if not left_over:
                await self._report(run, row, kept=trained, faults=sum(o.fault is not None for o in group.outcomes))
        return group.scored[index]

    async def _report(self, run: _Run | None, row: RowLabel, *, kept: bool, faults: int) -> None:
        if run is None:
            return
        try:
            await run.client.finish_row(row.row, kept, faults)
        except RunStopped:
            raise
        except Exception as error:  # noqa: BLE001 - the state missing one row's count must not fail the row
            with self._lock:
                self.faults[type(error).__name__] += 1
            logger.warning("spade: row %d: the shared state did not take its result: %s", row.row,
                           describe_fault(error))

    # -------------------------------------------------------------- per run
    def _backend(self, name: str) -> Future[ExecutionBackend]:
        """The sandbox backend ``name``, built once on the builder thread."""
        with self._lock:
            future = self._backends.get(name)
            if future is None or (future.done() and future.exception() is not None):
                future = self._builder.submit(create_backend, name, ExecutionLimits())
                self._backends[name] = future
            return future

    async def _run_for(self, row: RowLabel) -> _Run:
        key = (row.actor, row.namespace)
        run = self._runs.get(key)
        if run is not None:
            return run
        building = self._building.get(key)
        if building is None:  # the first sample of the run builds it; the others await the same future
            building = asyncio.ensure_future(self._build_run(row))
            self._building[key] = building
        try:
            run = await asyncio.shield(building)
        except Exception:
            if self._building.get(key) is building:
                del self._building[key]  # the next row tries again
            raise
        self._runs[key] = run
        self._building.pop(key, None)
        return run

    async def _build_run(self, row: RowLabel) -> _Run:
        client = self._connect(row)
        config = parse_run_config(await client.settings(), source=f"the settings of {row.actor}")
        if hasattr(client, "timeout_s"):  # RayStateClient: the run's own timeout from now on
            client.timeout_s = config.openrlhf.state_timeout_s
        backend = await asyncio.wrap_future(self._backend(config.run.sandbox))
        # Each attempt validates its code once: repeats and verdict reuse are batch matters. Sessions and
        # checks share the engine's sandbox memory budget, so the sandboxes beside vLLM stay within it.
        release = config.semantics.release_prompts()
        budget = MemoryBudget(int(config.openrlhf.sandbox_memory_gib * 1024))
        return _Run(config=config, client=client, backend=backend,
                    sessions=SessionThreads(backend, workers=config.openrlhf.env_workers, budget=budget),
                    checker=Checker(backend, config.loop.validator(plan_salt=config.run.seed), reuse_verdicts=False,
                                    reject_warnings=config.loop.warnings == "rejected", budget=budget),
                    rollout=config.rollout(release), release=release)

    def close(self) -> None:
        """Stop the worker threads (OpenRLHF never calls this; tests and tools do)."""
        with self._lock:
            runs, self._runs = list(self._runs.values()), {}
        for run in runs:
            run.close()
        self._builder.shutdown(wait=False, cancel_futures=True)

    # -------------------------------------------------------------- designer rows
    async def _design(self, run: _Run, row: RowLabel, policy: EnginePolicy) -> SampleOutcome:
        assert row.skill is not None and row.kind is not None
        config = run.config
        plan = await run.client.plan_row(row.row, row.samples, row.skill, row.kind)
        if plan.done:
            return _left_over(policy.tokenizer, designer=True)
        semantics = config.semantics.resolved()
        window = semantics.design_scoring == "window"
        context = DesignContext(
            policies=Policies(designer=policy.with_chat_options(chat_options(config, "designer")), agent=policy,
                              hinter=policy),
            language=design_language(config.design.language, config.design.prompt), backend=run.backend, sessions=run.sessions,
            checker=run.checker, memory=StateDuplicates(run.client), loop=config.loop,
            designer_sampling=config.sampling.designer(), rollout=run.rollout, corpus_name=plan.corpus_name,
            hint=config.hint_settings(), invalid_designs=semantics.invalid_designs, release_prompts=run.release,
            judge=PolicyJudge(policy, max_tokens=config.loop.judge_max_tokens) if config.loop.judge == SELF_JUDGE else None)

        async def replan(old: DesignPlan) -> DesignPlan:
            # A re-sampled attempt: a fresh document, memory draw and seed from the state, the same step.
            fresh = await run.client.replan_row(row.row, plan.step, old.skill, old.kind, plan.sample)
            return _design_plan(config, row, fresh)

        design = design_slot(_design_plan(config, row, plan), context, replan, play=not window)
        try:
            tries = await _within(design, config.openrlhf.design_budget_s)
        except TimeoutError:
            tries = None
        if window:
            return await self._design_in_window(run, row, plan, tries, policy.tokenizer)
        if tries is None:
            logs = {"spade/designer": 1.0, "spade/design_trained": float(plan.train), "spade/design_timeout": 1.0,
                    "spade/masked": 1.0}
            return SampleOutcome(placeholder_sample(policy.tokenizer, "design budget spent", logs=logs),
                                 masked=True, trainable=plan.train)
        summaries = []
        for attempt in tries:
            raw = designer_reward(attempt.env_outcome(), config.designer_rewards(), plan.ema or WinRateEMA())
            summaries.append(AttemptSummary.of(attempt, DesignerScore(raw=raw, reward=raw, baseline=None)))
            await run.client.record_design(row.row, summaries[-1])
        outcome = designer_outcome(tries[-1], summaries[-1], plan, policy.tokenizer)
        if not tries[-1].valid and resampled_attempts(context) > 1:
            # Every re-sample was invalid: the release never trains such a slot (no say in the score either).
            logs = {**outcome.sample.logs, "spade/masked": 1.0}
            return SampleOutcome(placeholder_sample(policy.tokenizer, "no valid design", logs=logs), masked=True,
                                 trainable=plan.train)
        return outcome

    async def _design_in_window(self, run: _Run, row: RowLabel, plan: RowPlan,
                                tries: list[DesignAttempt] | None, tokenizer: Any) -> SampleOutcome:
        """Window scoring: record this sample's design as pending (a valid one joins the rotation now), then
        return slot ``plan.sample`` of an earlier row whose window has closed (``ripe_designer_outcome``)."""
        if tries is not None:
            for attempt in tries:  # every try goes to the memory and attempts.jsonl; the last fills the slot
                summary = AttemptSummary.of(attempt, DesignerScore(raw=0.0, reward=None, baseline=None))
                last = attempt is tries[-1]
                if not last:
                    await run.client.record_design(row.row, summary)
                else:
                    stored = stored_sample(attempt, summary) if attempt.valid else None
                    await run.client.record_window_design(row.row, plan.sample, summary, stored)
        ripe = await run.client.ripe_sample(row.row, plan.sample, row.samples)
        outcome = ripe_designer_outcome(ripe, plan, tokenizer)
        if tries is None:
            outcome.sample.logs["spade/design_timeout"] = 1.0
        elif tries[-1].valid:
            outcome.sample.logs["spade/design_valid"] = 1.0
        return outcome

    # -------------------------------------------------------------- agent rows
    async def _play(self, run: _Run, row: RowLabel, policy: EnginePolicy) -> SampleOutcome:
        lease = await run.client.lease(row.row, row.samples, row.hinted)
        if lease.done:
            return _left_over(policy.tokenizer, designer=False)
        recorder = TrajectoryRecorder(policy)
        hint = lease.environment.spec.hint if row.hinted else None
        if lease.hint_play is not None:  # window scoring: an untrained hinted play beside the trained one
            episode, _ = await asyncio.gather(self._episode(run, lease, recorder, hint),
                                              self._hint_play(run, lease.hint_play, policy))
        else:
            episode = await self._episode(run, lease, recorder, hint)
        retry_then_drop = run.config.semantics.resolved().failed_plays == "retry_then_drop"
        timed_out = episode.timed_out
        if retry_then_drop and harness_failed(episode):
            # The release plays a failed play once more and drops it if that fails too; the retry's
            # trajectory is the one trained.
            recorder = TrajectoryRecorder(policy)
            episode = await self._episode(run, lease, recorder, hint)
            timed_out = timed_out or episode.timed_out
        env_error = episode.error is not None and episode.error.startswith("environment")
        await run.client.report_episode(lease.environment.id, episode.episode_return, episode.won, env_error,
                                        step=lease.step, hinted=hint is not None, timed_out=timed_out,
                                        dropped=retry_then_drop and harness_failed(episode))
        logs = {"spade/agent": 1.0, "spade/episode_return": episode.episode_return,
                "spade/episode_won": float(episode.won), "spade/episode_turns": float(len(episode.turns)),
                "spade/episode_hinted": float(hint is not None), "spade/episode_env_error": float(env_error),
                "spade/environments": float(lease.environments)}
        # An environment error is masked out of the loss, unless the run scores it as the release does
        # (semantics.environment_errors = "minus_one": a lost, terminated episode, trained as such).
        if (env_error and not episode.terminated) or not recorder.action_ranges:
            note = "environment error" if env_error else "no turn played"
            return SampleOutcome(placeholder_sample(policy.tokenizer, note, reward=episode.episode_return,
                                                    logs={**logs, "spade/masked": 1.0}), masked=True)
        if not run.config.grpo.train_unfinished and not episode.terminated:
            # The release's compact filter: the return keeps its say in the group's advantages (not
            # masked), but no token of a play that ran out of turns is trained.
            return SampleOutcome(placeholder_sample(policy.tokenizer, "unfinished play, not trained",
                                                    reward=episode.episode_return,
                                                    logs={**logs, "spade/unfinished_untrained": 1.0}))
        return SampleOutcome(TrainedSample(tokens=recorder.tokens, action_ranges=recorder.action_ranges,
                                           logprobs=recorder.logprobs, reward=episode.episode_return,
                                           truncated=recorder.truncated, logs=logs))

    async def _hint_play(self, run: _Run, play: HintPlay, policy: EnginePolicy) -> None:
        """One untrained hinted episode of a design in its window, its return sent to the state. Like the
        release's hint plays, a failed one still counts (with the return the episode ended on, 0 if none)."""
        try:
            lease = Lease(environment=play.environment, seed=play.seed, step=0, environments=0)
            episode = await self._episode(run, lease, policy, play.environment.spec.hint)
            await run.client.report_hint_play(play.environment.id, episode.episode_return, episode.timed_out)
        except Exception as error:  # noqa: BLE001 - a lost hint play must not fail the trained episode beside it
            with self._lock:
                self.faults[type(error).__name__] += 1
            logger.warning("spade: a hinted play of %s failed: %s", play.environment.id, describe_fault(error))

    @staticmethod
    async def _episode(run: _Run, lease: Lease, recorder: Policy, hint: str | None) -> Episode:
        environment = lease.environment
        try:
            async with run.sessions.session(environment.code, class_name=environment.spec.class_name,
                                            max_turns=run.rollout.max_turns) as session:
                return await play_episode(recorder, session, run.sessions, seed=lease.seed, hint=hint,
                                          config=run.rollout)
        except EnvRuntimeError as error:  # opening the session failed (play_episode keeps its own errors)
            return Episode(seed=lease.seed, hinted=hint is not None, messages=[], error=f"environment: {error}")


def _design_plan(config: RunConfig, row: RowLabel, plan: RowPlan) -> DesignPlan:
    """The attempt a row plan asks for."""
    assert row.skill is not None and row.kind is not None
    prompt = DesignerPrompt(kind=row.kind, skill=row.skill, max_turns=config.loop.max_turns,
                            document=plan.document, examples=plan.examples,
                            negative_examples=config.semantics.resolved().negative_examples)
    return DesignPlan(kind=row.kind, skill=row.skill, prompt=prompt, step=plan.step, seed=plan.seed)


async def _within(work: Awaitable[T], seconds: float) -> T:
    """``work``'s result, or ``TimeoutError`` after ``seconds`` with ``work`` left to finish on its own.

    The work is never cancelled: a design attempt runs sandbox calls on worker threads, and cancelling it
    would run its clean-up (``session.close``) on another thread while a call is still in the session,
    which wasmtime does not survive (a use-after-free crash). Left running, each of its calls still ends
    within the sandbox's own limits; its result is dropped.
    """
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.wait_for(asyncio.shield(task), timeout=seconds)
    except TimeoutError:
        task.add_done_callback(_drop_late_result)
        raise


def _drop_late_result(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.warning("spade: a design attempt past its budget later failed: %s", describe_fault(task.exception()))


def chat_options(config: RunConfig, role: str = "agent") -> dict[str, Any]:
    """Chat-template options for a role's prompts (Qwen3's ``enable_thinking``): the designer's may differ
    (``openrlhf.designer_thinking``); the agent's and the hint writer's follow ``openrlhf.enable_thinking``."""
    section = config.openrlhf
    thinking = section.designer_thinking if role == "designer" and section.designer_thinking is not None \
        else section.enable_thinking
    return {} if thinking is None else {"enable_thinking": thinking}


def _left_over(tokenizer: Any, *, designer: bool) -> SampleOutcome:
    """A row that came after the run's steps had their data: skipped at once, its group dropped."""
    logs = {"spade/designer" if designer else "spade/agent": 1.0, "spade/left_over": 1.0}
    return SampleOutcome(placeholder_sample(tokenizer, "left over", logs=logs), trainable=False)


# ---------------------------------------------------------------------------------- designer results
def designer_outcome(attempt: DesignAttempt, summary: AttemptSummary, plan: RowPlan, tokenizer: Any) -> SampleOutcome:
    """The trained sample of a designer row: the first-turn reply, rewarded with the attempt's own reward."""
    reward = summary.score.raw
    logs = {"spade/designer": 1.0, "spade/design_trained": float(plan.train),
            "spade/design_valid": float(summary.valid), "spade/design_played": float(summary.played),
            "spade/design_regret": summary.regret or 0.0,
            "spade/design_win_rate": summary.win_rate_unhinted or 0.0,
            "spade/design_win_rate_hinted": summary.win_rate_hinted or 0.0,
            "spade/design_hint_accepted": float(bool(summary.hint_accepted)),
            "spade/design_repairs": float(summary.repairs)}
    generation = attempt.generation
    prompt, reply = generation.prompt_token_ids, generation.completion_token_ids
    if not (generation.ok and prompt and reply):
        return SampleOutcome(placeholder_sample(tokenizer, "designer call failed", reward=reward,
                                                logs={**logs, "spade/masked": 1.0}),
                             masked=True, trainable=plan.train)
    logprobs = list(generation.completion_logprobs or [0.0] * len(reply))
    tokens = list(prompt) + list(reply)
    return SampleOutcome(TrainedSample(tokens=tokens, action_ranges=[(len(prompt), len(tokens))],
                                       logprobs=[0.0] * len(prompt) + logprobs, reward=reward,
                                       truncated=generation.finish_reason == "length", logs=logs),
                         trainable=plan.train)


def stored_sample(attempt: DesignAttempt, summary: AttemptSummary) -> StoredSample | None:
    """A valid design's trained sample as it waits for its window: the first-turn prompt and reply, the reply's
    rollout log-probs (the release trains a delayed sample with the log-probs it was sampled with). None
    when the designer call gave nothing to train."""
    generation = attempt.generation
    prompt, reply = generation.prompt_token_ids, generation.completion_token_ids
    if not (generation.ok and prompt and reply):
        return None
    logprobs = list(generation.completion_logprobs or [0.0] * len(reply))
    tokens = list(prompt) + list(reply)
    logs = {"spade/design_hint_accepted": float(bool(summary.hint_accepted)),
            "spade/design_repairs": float(summary.repairs)}
    return StoredSample(tokens=tuple(tokens), action_ranges=((len(prompt), len(tokens)),),
                        logprobs=tuple([0.0] * len(prompt) + logprobs),
                        truncated=generation.finish_reason == "length", logs=logs)


def ripe_designer_outcome(ripe: RipeSample | None, plan: RowPlan, tokenizer: Any) -> SampleOutcome:
    """What a designer sample returns under window scoring: the stored sample of a design whose window closed,
    rewarded with its window score; a masked placeholder for a slot with nothing to train; an untrained
    placeholder (its group dropped) when no row was ripe."""
    logs = {"spade/designer": 1.0, "spade/design_trained": float(plan.train)}
    if ripe is None:
        return SampleOutcome(placeholder_sample(tokenizer, "no design's window has closed yet", logs=logs),
                             trainable=False)
    logs.update({"spade/design_played": float(ripe.plays > 0), "spade/design_regret": ripe.regret or 0.0,
                 "spade/design_win_rate": ripe.win_rate or 0.0,
                 "spade/design_win_rate_hinted": ripe.hinted_mean or 0.0})
    if ripe.sample is None or ripe.reward is None:
        note = "a masked design" if ripe.sample is not None else "no valid design in this slot"
        return SampleOutcome(placeholder_sample(tokenizer, note, reward=0.0, logs={**logs, "spade/masked": 1.0}),
                             masked=True, trainable=plan.train)
    stored = ripe.sample
    logs.update(stored.logs)
    return SampleOutcome(TrainedSample(tokens=list(stored.tokens), action_ranges=list(stored.action_ranges),
                                       logprobs=list(stored.logprobs), reward=ripe.reward, truncated=stored.truncated,
                                       logs=logs), trainable=plan.train)
