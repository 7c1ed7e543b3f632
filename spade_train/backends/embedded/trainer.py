"""The embedded backend's trainer: one process, one model in both roles, a GRPO update after each iteration.

``EmbeddedTrainer.build`` loads the model from the run's latest checkpoint, or builds it: the tiny model
of ``[model.tiny]`` with a tokenizer trained on the signal language's words, then its format warm-up
(``warmup``), or the checkpoint ``model.path`` names. The trainer's ``policy`` plays every role. As the
run driver's ``Trainer`` (``spade_train.run.driver``) it then

- ``begin_iteration``: nothing (every request carries its own sampling seed);
- ``update``: turns the iteration into samples (``training_samples``: every designer reply and every agent
  turn, with a group-relative advantage per role, ``spade_train.advantages``) and applies one clipped
  policy-gradient update per role (``GRPOTrainer.step``);
- ``save``: writes the model, tokenizer and optimizer into the run's checkpoint.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from spade_envs.fileio import write_atomically
from spade_envs.runtime.backend import ExecutionBackend
from spade_train.advantages import Sample, ZeroVariance, agent_group, role_advantages
from spade_train.backends.embedded import warmup
from spade_train.backends.embedded.grpo import GRPOTrainer, TrainingSample
from spade_train.backends.embedded.model import build_causal_lm, save_checkpoint_files, train_word_tokenizer
from spade_train.config.sections import RunConfig, WarmupSection
from spade_train.designer.signal_language import vocabulary_text
from spade_train.designer.skills import DEFAULT_GAME_SKILLS
from spade_train.loop.design import Outcome
from spade_train.loop.iteration import IterationResult
from spade_train.policies.base import Generation
from spade_train.policies.roles import Policies
from spade_train.policies.transformers_local import TransformersPolicy, load_tokenizer
from spade_train.run.directory import Checkpoints
from spade_train.run.driver import RunFailed
from spade_train.run.progress import progress_bar, quiet_transformers
from spade_train.run.resume import loading_checkpoint

OPTIMIZER_FILE = "optimizer.pt"
WARMUP_OPTIMIZER_FILE = "warmup_optimizer.pt"
"""The optimizer of the warm-up round in progress, in a checkpoint saved during the warm-up."""
VALID_REPLIES_FILE = "designer_valid_replies.json"
"""The designer's last valid replies (token ids), kept for ``grpo.designer_format_recovery``."""


# ---------------------------------------------------------------------------------- samples
@dataclass(frozen=True)
class SampleBatch:
    samples: list[TrainingSample]
    agent: int
    designer: int
    zero_variance_groups: int


def _training_sample(generation: Generation, advantage: float, role: str,
                     temperature: float | None) -> TrainingSample | None:
    if not (generation.ok and generation.prompt_token_ids and generation.completion_token_ids
            and generation.completion_logprobs is not None):
        return None
    return TrainingSample(list(generation.prompt_token_ids), list(generation.completion_token_ids),
                          list(generation.completion_logprobs), advantage, role, temperature)


def training_samples(
    result: IterationResult,
    *,
    agent_conditions: Sequence[str] = ("hinted", "unhinted"),
    train_designer: bool = True,
    drop_zero_variance: bool = True,
    train_unfinished: bool = True,
    temperatures: dict[str, float] | None = None,
    regularised_roles: Collection[str] = (),
) -> SampleBatch:
    """Samples of one iteration with role-conditioned, group-normalised advantages.

    Agent: every turn of an episode shares the episode's advantage, z-scored among the plays of the
    same environment and condition. Designer: the first-turn reply of every attempt (valid or not;
    an invalid design is the designer's worst outcome), centred among the attempts of its skill.
    A dropped zero-variance group of a role in ``regularised_roles`` is kept with advantage 0: its
    regulariser (KL to the reference, entropy bonus) is what acts on a collapsed batch. Without
    ``train_unfinished`` an episode that did not terminate counts in its group's advantages but gives no
    sample (``grpo.train_unfinished``).
    """
    rewards: list[Sample] = []
    generations: list[tuple[list[Generation], str]] = []
    for attempt, score in result.scored():
        if train_designer and score.reward is not None:
            rewards.append(Sample("designer", attempt.skill, score.reward))
            generations.append(([attempt.generation], "designer"))
        if attempt.evaluation is None or attempt.environment is None:
            continue
        for condition in agent_conditions:
            episodes = attempt.evaluation.hinted if condition == "hinted" else attempt.evaluation.unhinted
            for episode in episodes:
                rewards.append(Sample("agent", agent_group(attempt.environment.id, condition), episode.episode_return))
                trained = train_unfinished or episode.terminated
                generations.append(([turn.generation for turn in episode.turns] if trained else [], "agent"))
    policy = ZeroVariance.DROP if drop_zero_variance else ZeroVariance.FLAG
    advantages = role_advantages(rewards, zero_variance=policy)
    samples: list[TrainingSample] = []
    counts = {"agent": 0, "designer": 0}
    for (turns, role), advantage in zip(generations, advantages.advantages):
        if advantage is None and role not in regularised_roles:
            continue
        for generation in turns:
            sample = _training_sample(generation, advantage or 0.0, role, (temperatures or {}).get(role))
            if sample is not None:
                samples.append(sample)
                counts[role] += 1
    return SampleBatch(samples, counts["agent"], counts["designer"], len(advantages.zero_variance_groups))


def designer_replies(result: IterationResult,
                     temperature: float | None) -> tuple[list[TrainingSample], list[TrainingSample]]:
    """The iteration's designer replies as samples (advantage 0): the valid ones, and all of them when
    every reply was malformed (the designer out of its reply format; else none)."""
    def samples(attempts: Sequence[Any]) -> list[TrainingSample]:
        found = [_training_sample(attempt.generation, 0.0, "designer", temperature) for attempt in attempts]
        return [sample for sample in found if sample is not None]

    all_malformed = bool(result.attempts) and all(a.outcome is Outcome.MALFORMED for a in result.attempts)
    return (samples([a for a in result.attempts if a.outcome is Outcome.PLAYED]),
            samples(result.attempts) if all_malformed else [])


def recovery_samples(valid: Sequence[TrainingSample], malformed: Sequence[TrainingSample],
                     current_logprobs: Sequence[Sequence[float]]) -> list[TrainingSample]:
    """The designer's batch in an iteration whose replies were all malformed (``grpo.designer_format_recovery``):
    its last valid replies pushed up (advantage +1, their log-probabilities under the current model as the
    old ones, so the clipped ratio starts at 1) and this iteration's malformed replies pushed down (-1)."""
    return ([replace(sample, advantage=1.0, old_logprobs=list(logprobs))
             for sample, logprobs in zip(valid, current_logprobs)]
            + [replace(sample, advantage=-1.0) for sample in malformed])


# ---------------------------------------------------------------------------------- the trainer
def _to_device(model: Any, *, tiny: bool) -> Any:
    """The tiny model stays on the CPU it was built for; a real checkpoint goes to the GPU if there is one
    (one device: this trainer is not sharded; use the OpenRLHF backend for more)."""
    import torch

    return model if tiny else model.to("cuda" if torch.cuda.is_available() else "cpu")


class EmbeddedTrainer:
    """The run driver's ``Trainer`` for the embedded backend (see the module docstring)."""

    def __init__(self, config: RunConfig, model: Any, tokenizer: Any, *, post_warmup: Any | None = None) -> None:
        """``post_warmup``: the frozen model as it was after the warm-up, which the KL term anchors to and
        a frozen designer (``loop.frozen_designer``) samples from."""
        if post_warmup is None and (config.grpo.kl_to_reference or config.loop.frozen_designer):
            raise ValueError("grpo.kl_to_reference and loop.frozen_designer need the post-warm-up model")
        self.config, self.model, self.tokenizer = config, model, tokenizer
        name = "embedded-tiny" if config.model.path is None else config.model.path
        self.policy = TransformersPolicy(model, tokenizer, name=name)
        self.designer = (TransformersPolicy(post_warmup, tokenizer, name=f"{name} (frozen after warm-up)")
                         if config.loop.frozen_designer else self.policy)
        self.grpo = GRPOTrainer(model, config.grpo, temperature=config.sampling.temperature,
                                pad_token_id=tokenizer.pad_token_id,
                                reference=post_warmup if config.grpo.kl_to_reference else None)
        self.valid_replies: list[TrainingSample] = []
        """The designer's replies of the last iteration that had valid designs (format recovery)."""

    @property
    def policies(self) -> Policies:
        """The trained model in every role (the hint writer as ``design.hinter`` says), but the designer's
        with ``loop.frozen_designer``: there the frozen post-warm-up copy writes the designs."""
        shared = Policies.shared(self.policy, self.config)
        return replace(shared, designer=self.designer)

    # -------------------------------------------------------------- building
    @classmethod
    def build(cls, config: RunConfig, checkpoints: Checkpoints, backend: ExecutionBackend,
              out: TextIO) -> EmbeddedTrainer:
        """The trainer of a run: resumed from its latest checkpoint, or built and warmed up (then saved
        as the run's first checkpoint, step 0, and the post-warm-up model as ``checkpoints/reference``).
        ``RunFailed`` when the warm-up did not teach the agent to follow hints."""
        import torch
        from transformers import AutoModelForCausalLM

        quiet_transformers()
        if config.run.torch_threads is not None:
            torch.set_num_threads(config.run.torch_threads)
        tiny = config.model.path is None
        found, state = checkpoints.find(), checkpoints.state()
        resumed_warmup: tuple[WarmupProgress, dict[str, Any]] | None = None
        if found is not None and state is not None and "warmup_progress" not in state:
            return cls._resumed(config, checkpoints, found)
        if found is not None and state is not None:  # killed in its warm-up: go on from there
            with loading_checkpoint(found):
                model = AutoModelForCausalLM.from_pretrained(found)
                tokenizer = load_tokenizer(found)
                resumed_warmup = (WarmupProgress.from_json(state["warmup_progress"]),
                                  torch.load(found / WARMUP_OPTIMIZER_FILE, weights_only=True))
            model = _to_device(model, tiny=tiny).eval()
        elif tiny and config.design.language == "python":
            model, tokenizer = _pretrained(config, backend, out)
        elif tiny:
            tokenizer = train_word_tokenizer(vocabulary_text((*config.loop.skills, *DEFAULT_GAME_SKILLS)))
            model = build_causal_lm(tokenizer, config.model.tiny, seed=config.run.seed)
        else:
            model = _to_device(AutoModelForCausalLM.from_pretrained(config.model.path), tiny=False).eval()
            tokenizer = load_tokenizer(config.model.path)
        warm = _warm_up(config, model, tokenizer, backend, out, checkpoints=checkpoints, resumed=resumed_warmup)
        if warm:
            out.write(f"format warm-up: loss {warm['warmup_loss_first']:.2f} -> {warm['warmup_loss_last']:.2f}"
                      + (f", hinted win rate {warm['warmup_hinted_win_rate']:.2f}"
                         if "warmup_hinted_win_rate" in warm else "") + "\n")
        if keeps_post_warmup(config):
            checkpoints.save_reference(lambda path: save_checkpoint_files(model, tokenizer, path))
        trainer = cls(config, model, tokenizer, post_warmup=cls._post_warmup(config, checkpoints, model))
        checkpoints.save({"step": 0, "loop": None, "warmup": warm}, lambda path: save_checkpoint_files(
            model, tokenizer, path))
        return trainer

    @classmethod
    def _resumed(cls, config: RunConfig, checkpoints: Checkpoints, found: Path) -> EmbeddedTrainer:
        """The trainer as checkpoint ``found`` saved it (its files were checked when the run was opened)."""
        import torch
        from transformers import AutoModelForCausalLM

        with loading_checkpoint(found):
            model = AutoModelForCausalLM.from_pretrained(found)
            tokenizer = load_tokenizer(found)
            optimizer = (torch.load(found / OPTIMIZER_FILE, weights_only=True)
                         if (found / OPTIMIZER_FILE).is_file() else None)
            valid_replies = ([TrainingSample(**row) for row in
                              json.loads((found / VALID_REPLIES_FILE).read_text(encoding="utf-8"))]
                             if (found / VALID_REPLIES_FILE).is_file() else [])
        model = _to_device(model, tiny=config.model.path is None).eval()
        trainer = cls(config, model, tokenizer, post_warmup=cls._post_warmup(config, checkpoints, model))
        if optimizer is not None:
            trainer.grpo.optimizer.load_state_dict(optimizer)
        trainer.valid_replies = valid_replies
        return trainer

    @staticmethod
    def _post_warmup(config: RunConfig, checkpoints: Checkpoints, model: Any) -> Any | None:
        """The frozen post-warm-up model, read from the run's checkpoints (None when neither the KL term
        nor a frozen designer needs it); a run resumed from before it was kept starts from the current
        model."""
        if not (config.grpo.kl_to_reference or config.loop.frozen_designer):
            return None
        from transformers import AutoModelForCausalLM

        if (checkpoints.reference / "config.json").is_file():
            with loading_checkpoint(checkpoints.reference):
                reference = AutoModelForCausalLM.from_pretrained(checkpoints.reference)
            reference = _to_device(reference, tiny=config.model.path is None)
        else:
            reference = copy.deepcopy(model)
        for parameter in reference.parameters():
            parameter.requires_grad_(False)
        return reference.eval()

    # -------------------------------------------------------------- the driver's Trainer
    def begin_iteration(self, step: int) -> None:
        """Nothing to prepare: every request carries its own sampling seed (the loop derives it from the
        plan, the episode and the turn), so no global random state is involved."""

    def update(self, result: IterationResult) -> dict[str, float | None]:
        """Train both roles on one iteration's samples; returns the training metrics for its row."""
        config = self.config
        started = time.perf_counter()
        batch = training_samples(result, agent_conditions=config.loop.agent_train_conditions,
                                 train_designer=config.loop.train_designer,
                                 drop_zero_variance=config.grpo.drop_zero_variance,
                                 train_unfinished=config.grpo.train_unfinished,
                                 regularised_roles=(*config.grpo.entropy_bonus, *config.grpo.kl_to_reference),
                                 temperatures={"designer": config.sampling.designer_temperature,
                                               "agent": config.sampling.temperature})
        metrics: dict[str, float | None] = {}
        by_role = {role: [sample for sample in batch.samples if sample.role == role] for role in ("designer", "agent")}
        if config.grpo.designer_format_recovery and config.loop.train_designer:
            by_role["designer"], recovering = self._recover_format(result, by_role["designer"])
            metrics["designer_format_recovery"] = float(recovering)
        for role in ("designer", "agent"):
            # One update per role: a role's group-centred advantages then cancel exactly when its
            # samples are identical (a designer repeating one design), instead of a mini-batch holding
            # only part of the group and pushing it at random.
            with self.policy.lock:
                stats = self.grpo.step(by_role[role])
            metrics.update({f"train_{role}_{key}": value for key, value in stats.items()})
        metrics.update(train_agent_samples=float(batch.agent), train_designer_samples=float(batch.designer),
                       zero_variance_groups=float(batch.zero_variance_groups),
                       train_seconds=time.perf_counter() - started)
        return metrics

    def _recover_format(self, result: IterationResult,
                        samples: list[TrainingSample]) -> tuple[list[TrainingSample], bool]:
        """The designer's batch with ``grpo.designer_format_recovery``: unchanged, unless every reply of the
        iteration was malformed and valid replies are known (then ``recovery_samples``); remembers the
        iteration's valid replies. Returns the batch and whether it is a recovery batch."""
        import torch

        valid, malformed = designer_replies(result, self.config.sampling.designer_temperature)
        if valid:
            self.valid_replies = valid
        if not (malformed and self.valid_replies):
            return samples, False
        with self.policy.lock, torch.no_grad():
            current = [logprobs.tolist() for logprobs in self.grpo.token_logprobs(self.valid_replies)]
        return recovery_samples(self.valid_replies, malformed, current), True

    def save(self, directory: Path) -> None:
        import torch

        save_checkpoint_files(self.model, self.tokenizer, directory)
        torch.save(self.grpo.optimizer.state_dict(), directory / OPTIMIZER_FILE)
        if self.valid_replies:
            rows = [asdict(sample) for sample in self.valid_replies]
            write_atomically(directory / VALID_REPLIES_FILE, json.dumps(rows) + "\n")


def keeps_post_warmup(config: RunConfig) -> bool:
    """Whether a run keeps its post-warm-up model in ``checkpoints/reference``: the KL term and a frozen
    designer need it, and the designer probe compares against it (a tiny model's copy is under 1 MB;
    a real checkpoint's is only kept when training needs it)."""
    return bool(config.grpo.kl_to_reference or config.loop.frozen_designer or config.model.path is None)


@dataclass(frozen=True)
class WarmupProgress:
    """Where a warm-up stands, saved in its checkpoints: with the model and the round's optimizer, what
    continues it on the course it would have taken had it not stopped."""

    round: int
    """0: the warm-up proper; r >= 1: extra round r (after r failed hint-following checks)."""
    steps_done: int
    """Steps of this round already taken."""
    rng: Any
    """The state of the random numbers that draw the examples and batches (``random.Random.getstate``)."""
    check_rng: Any
    """The state of those that draw the hint-following check's games."""
    figures: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WarmupProgress:
        def as_state(value: Any) -> Any:  # getstate() is nested tuples; JSON gives lists back
            return tuple(as_state(item) for item in value) if isinstance(value, list) else value

        return cls(round=int(data["round"]), steps_done=int(data["steps_done"]), rng=as_state(data["rng"]),
                   check_rng=as_state(data["check_rng"]), figures=dict(data["figures"]))


def _warm_up(config: RunConfig, model: Any, tokenizer: Any, backend: ExecutionBackend, out: TextIO, *,
             checkpoints: Checkpoints | None = None,
             resumed: tuple[WarmupProgress, dict[str, Any]] | None = None) -> dict[str, float]:
    """The format warm-up of a model built for the signal language (nothing for other models), then the
    hint-following check (``warmup.min_hinted_win_rate``) with its extra rounds.

    Every ``warmup.checkpoint_every`` steps and at the end of each round the model, the round's optimizer
    and the ``WarmupProgress`` are saved to ``checkpoints``; ``resumed`` (a progress and its optimizer
    state, as saved) continues from one."""
    settings = config.warmup
    if config.design.language != "signal" or settings.agent_steps + settings.designer_steps == 0:
        return {}
    rng = random.Random(config.run.seed)
    # Example counts in proportion to the steps, so batches mix the roles in that proportion.
    examples = (warmup.agent_examples(backend, rng, 8 * settings.agent_steps, follow_hints=settings.follow_hints)
                + warmup.designer_examples(config.loop.skills, rng, 8 * settings.designer_steps))
    steps = settings.agent_steps + settings.designer_steps
    check_rng = random.Random(config.run.seed + 1)
    figures: dict[str, float] = {}
    round_, start, optimizer_state = 0, 0, None
    if resumed is not None:
        progress, optimizer_state = resumed
        rng.setstate(progress.rng)
        check_rng.setstate(progress.check_rng)
        round_, start, figures = progress.round, progress.steps_done, dict(progress.figures)
        out.write(f"resuming the warm-up at step {start} of round {round_ + 1}\n")
    while True:
        round_steps = steps if round_ == 0 else max(1, steps // 2)
        optimizer = warmup.new_optimizer(model, settings.learning_rate)
        if optimizer_state is not None:
            optimizer.load_state_dict(optimizer_state)
            optimizer_state = None

        def save(step: int, loss: float, *, round_: int = round_, round_steps: int = round_steps,
                 optimizer: Any = optimizer) -> None:
            key = "warmup_loss_first" if round_ == 0 and step == 0 else "warmup_loss_last"
            figures[key] = figures["warmup_loss_last"] = loss
            done = step + 1
            if checkpoints is not None and (done % settings.checkpoint_every == 0 or done == round_steps):
                progress = WarmupProgress(round_, done, rng.getstate(), check_rng.getstate(), dict(figures))
                checkpoints.save({"step": 0, "loop": None, "warmup_progress": progress.to_json()},
                                 lambda path: _save_warmup_files(model, tokenizer, optimizer, path))

        title = "format warm-up" if round_ == 0 else f"warm-up round {round_ + 1}"
        if start < round_steps:
            losses = _supervised(model, tokenizer, examples, round_steps, settings, rng, out, title,
                                 optimizer=optimizer, start=start, on_step=save)
            if round_ == 0 and not losses:
                return figures
        start = 0
        if not settings.min_hinted_win_rate:
            return figures
        policy = TransformersPolicy(model, tokenizer, name="warm-up check")
        rate = asyncio.run(warmup.hinted_win_rate(policy, backend, check_rng, episodes=settings.check_episodes,
                                                  rollout=config.rollout()))
        figures.update(warmup_hinted_win_rate=rate, warmup_extra_rounds=float(round_))
        if rate >= settings.min_hinted_win_rate:
            return figures
        if round_ == settings.extra_rounds:
            break
        out.write(f"hint-following check: hinted win rate {rate:.2f} < {settings.min_hinted_win_rate:.2f}; "
                  f"warm-up round {round_ + 2}\n")
        round_ += 1
    raise RunFailed(f"the warm-up did not teach the agent to follow hints: hinted win rate "
                    f"{figures['warmup_hinted_win_rate']:.2f} over {settings.check_episodes} games after "
                    f"{settings.extra_rounds} extra round(s), below warmup.min_hinted_win_rate = "
                    f"{settings.min_hinted_win_rate:.2f}; without it self-play has no regret to pay the designer "
                    f"with (raise warmup.agent_steps or warmup.extra_rounds, or try another run.seed)")


def _pretrained(config: RunConfig, backend: ExecutionBackend, out: TextIO) -> tuple[Any, Any]:
    """A tiny designer that writes Python: pretrained on the generated programs (``[pretraining]``,
    ``spade_train/pretraining``) before self-play, as a real designer comes pretrained. A run stopped in
    this stage pretrains again on ``--resume`` (it has no checkpoint before step 0)."""
    from spade_train.pretraining.pretrain import pretrain

    settings = config.pretraining
    progress = progress_bar(out, total=settings.steps, desc="pretraining on programs", unit="step")

    def step_done(step: int, loss: float) -> None:
        progress.set_postfix(loss=f"{loss:.3f}", refresh=False)
        progress.update(1)

    result = pretrain(settings, seed=config.run.seed, backend=backend, on_step=step_done)
    progress.close()
    if result.losses:
        out.write(f"pretraining on {len(result.corpus)} programs: loss {result.losses[0]:.2f} -> "
                  f"{result.losses[-1]:.2f}\n")
    return _to_device(result.model, tiny=True).eval(), result.tokenizer


def _save_warmup_files(model: Any, tokenizer: Any, optimizer: Any, directory: Path) -> None:
    import torch

    save_checkpoint_files(model, tokenizer, directory)
    torch.save(optimizer.state_dict(), directory / WARMUP_OPTIMIZER_FILE)


def _supervised(model: Any, tokenizer: Any, examples: Sequence[warmup.WarmupExample], steps: int,
                settings: WarmupSection, rng: random.Random, out: TextIO, title: str, *, optimizer: Any,
                start: int, on_step: Callable[[int, float], None]) -> list[float]:
    progress = progress_bar(out, total=steps, desc=title, unit="step", initial=start)

    def step_done(step: int, loss: float) -> None:
        on_step(step, loss)
        progress.set_postfix(loss=f"{loss:.3f}", refresh=False)
        progress.update(1)

    losses = warmup.supervised_steps(
        model, tokenizer, examples, steps=steps, batch_size=settings.batch_size,
        learning_rate=settings.learning_rate, rng=rng, schedule=settings.schedule, on_step=step_done,
        optimizer=optimizer, start=start)
    progress.close()
    return losses
