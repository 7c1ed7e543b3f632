"""The embedded CPU backend of ``spade-train run``: self-play iterations with a GRPO update after each.

One process, one model, both roles. Each iteration:

1. ``SelfPlayLoop.run_iteration``: the designer proposes, the checker judges in the sandbox, the
   hint writer writes, the agent plays K hinted and K unhinted episodes, regret and designer rewards
   are computed and the memory records everything;
2. ``training_samples``: every designer reply and every agent turn becomes a sample, with a
   group-relative advantage per role (``spade_train.advantages``);
3. ``GRPOTrainer.step``: one clipped policy-gradient update of the shared model;
4. the run directory gets the iteration's metrics, and a checkpoint (model, tokenizer, optimizer,
   loop state) replaces the previous one, so ``--resume`` continues after the last finished
   iteration.

The same loop, memory and rewards run against real models through ``spade-train generate-pool`` and
the OpenRLHF backend; only the model and the design language differ.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from spade_envs.fileio import write_atomically
from spade_envs.runtime.backend import create_backend
from spade_envs.runtime.limits import ExecutionLimits
from spade_train.advantages import Sample, ZeroVariance, agent_group, role_advantages
from spade_train.backends.embedded.grpo import GRPOConfig, GRPOTrainer, TrainingSample
from spade_train.corpus import Corpus
from spade_train.designer.language import DesignLanguage, PythonDesignLanguage
from spade_train.designer.skills import DEFAULT_GAME_SKILLS
from spade_train.embedded import warmup
from spade_train.embedded.model import build_causal_lm, save_checkpoint_files, train_word_tokenizer
from spade_train.embedded.signal_language import (
    DesignHinter,
    SignalDesignLanguage,
    vocabulary_text,
)
from spade_train.loop import IterationResult, SelfPlayLoop
from spade_train.memory import EnvironmentMemory
from spade_train.plots import plot_metrics
from spade_train.policies.base import Generation, Policy
from spade_train.policies.transformers_local import TransformersPolicy, load_tokenizer
from spade_train.progress import progress_bar, quiet_transformers
from spade_train.run_config import RunConfig, loop_config
from spade_train.run_dir import RunDirectory

STATE_FILE = "trainer_state.json"
OPTIMIZER_FILE = "optimizer.pt"


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
    temperatures: dict[str, float] | None = None,
    regularised_roles: Collection[str] = (),
) -> SampleBatch:
    """Samples of one iteration with role-conditioned, group-normalised advantages.

    Agent: every turn of an episode shares the episode's advantage, z-scored among the plays of the
    same environment and condition. Designer: the first-turn reply of every attempt (valid or not;
    an invalid design is the designer's worst outcome), centred among the attempts of its skill.
    A dropped zero-variance group of a role in ``regularised_roles`` is kept with advantage 0: its
    regulariser (KL to the reference, entropy bonus) is what acts on a collapsed batch.
    """
    rewards: list[Sample] = []
    generations: list[tuple[list[Generation], str]] = []
    for attempt in result.attempts:
        if train_designer and attempt.reward is not None:
            rewards.append(Sample("designer", attempt.skill, attempt.reward))
            generations.append(([attempt.generation], "designer"))
        if attempt.evaluation is None or attempt.spec is None:
            continue
        for condition in agent_conditions:
            episodes = attempt.evaluation.hinted if condition == "hinted" else attempt.evaluation.unhinted
            for episode in episodes:
                rewards.append(Sample("agent", agent_group(attempt.spec.id, condition), episode.episode_return))
                generations.append(([turn.generation for turn in episode.turns], "agent"))
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


# ---------------------------------------------------------------------------------- checkpoints
class Checkpoints:
    """``checkpoints/latest`` in a run directory, replaced whole after every saved iteration.

    The new checkpoint is written beside the old one and swapped in by renames, so a run killed at
    any moment leaves one complete checkpoint (``latest``, or ``previous`` while swapping).
    """

    def __init__(self, run: RunDirectory) -> None:
        self.root = run.path / "checkpoints"
        self.latest = self.root / "latest"
        self.previous = self.root / "previous"
        self.reference = self.root / "reference"
        """The model as training began (after the warm-up): the KL regulariser's anchor, kept for --resume."""

    def find(self) -> Path | None:
        for path in (self.latest, self.previous):
            if (path / STATE_FILE).is_file():
                return path
        return None

    def save(self, model: Any, tokenizer: Any, optimizer: Any | None, state: dict[str, Any]) -> Path:
        import torch

        staging = self.root / f".staging-{state['step']}"
        shutil.rmtree(staging, ignore_errors=True)
        save_checkpoint_files(model, tokenizer, staging)
        if optimizer is not None:
            torch.save(optimizer.state_dict(), staging / OPTIMIZER_FILE)
        write_atomically(staging / STATE_FILE, json.dumps(state, indent=1) + "\n")
        shutil.rmtree(self.previous, ignore_errors=True)
        if self.latest.exists():
            self.latest.rename(self.previous)
        staging.rename(self.latest)
        shutil.rmtree(self.previous, ignore_errors=True)
        return self.latest


def _to_device(model: Any, *, tiny: bool) -> Any:
    """The tiny model stays on the CPU it was built for; a real checkpoint goes to the GPU if there is one
    (one device: this trainer is not sharded; use the OpenRLHF backend for more)."""
    import torch

    return model if tiny else model.to("cuda" if torch.cuda.is_available() else "cpu")


# ---------------------------------------------------------------------------------- the run
class EmbeddedRun:
    """A whole ``spade-train run`` on the embedded backend."""

    def __init__(self, config: RunConfig, run: RunDirectory, out: TextIO) -> None:
        self.config, self.run, self.out = config, run, out
        self.checkpoints = Checkpoints(run)
        self.backend = create_backend(config.run.sandbox, ExecutionLimits())

    # -------------------------------------------------------------- model
    def _load_or_build(self, resume: bool) -> tuple[Any, Any, dict[str, Any] | None, Path | None]:
        from transformers import AutoModelForCausalLM

        found = self.checkpoints.find() if resume else None
        if found is not None:
            model = _to_device(AutoModelForCausalLM.from_pretrained(found), tiny=self.config.model.path is None)
            tokenizer = load_tokenizer(found)
            state = json.loads((found / STATE_FILE).read_text(encoding="utf-8"))
            return model.eval(), tokenizer, state, found
        if self.config.model.path is not None:
            model = _to_device(AutoModelForCausalLM.from_pretrained(self.config.model.path), tiny=False)
            return model.eval(), load_tokenizer(self.config.model.path), None, None
        tokenizer = train_word_tokenizer(vocabulary_text((*self.config.loop.skills, *DEFAULT_GAME_SKILLS)))
        return build_causal_lm(tokenizer, self.config.model.tiny), tokenizer, None, None

    def _reference(self, model: Any) -> Any | None:
        """The frozen reference of ``grpo.kl_to_reference``, read from the run's checkpoints (None without
        the regulariser); a run resumed from before the reference was kept starts from the current model."""
        if not self.config.grpo.kl_to_reference:
            return None
        from transformers import AutoModelForCausalLM

        if (self.checkpoints.reference / "config.json").is_file():
            reference = AutoModelForCausalLM.from_pretrained(self.checkpoints.reference)
            reference = _to_device(reference, tiny=self.config.model.path is None)
        else:
            reference = copy.deepcopy(model)
        for parameter in reference.parameters():
            parameter.requires_grad_(False)
        return reference.eval()

    def _warm_up(self, model: Any, tokenizer: Any) -> dict[str, float]:
        settings = self.config.warmup
        if self.config.design.language != "signal" or settings.agent_steps + settings.designer_steps == 0:
            return {}
        rng = random.Random(self.config.run.seed)
        # Example counts in proportion to the steps, so batches mix the roles in that proportion.
        examples = (warmup.agent_examples(self.backend, rng, 8 * settings.agent_steps,
                                          follow_hints=settings.follow_hints)
                    + warmup.designer_examples(self.config.loop.skills, rng, 8 * settings.designer_steps))
        steps = settings.agent_steps + settings.designer_steps
        progress = progress_bar(self.out, total=steps, desc="format warm-up", unit="step")
        losses = warmup.supervised_steps(
            model, tokenizer, examples, steps=steps, batch_size=settings.batch_size,
            learning_rate=settings.learning_rate, rng=rng,
            on_step=lambda _, loss: (progress.set_postfix(loss=f"{loss:.3f}", refresh=False), progress.update(1)))
        progress.close()
        return {"warmup_loss_first": losses[0], "warmup_loss_last": losses[-1]} if losses else {}

    # -------------------------------------------------------------- one update
    def _update(self, trainer: GRPOTrainer, policy: TransformersPolicy, result: IterationResult) -> dict[str, float]:
        """Train both roles on one iteration's samples; returns the training metrics for its row."""
        config = self.config
        started = time.perf_counter()
        batch = training_samples(result, agent_conditions=config.loop.agent_train_conditions,
                                 train_designer=config.loop.train_designer,
                                 drop_zero_variance=config.grpo.drop_zero_variance,
                                 regularised_roles=(*config.grpo.entropy_bonus, *config.grpo.kl_to_reference),
                                 temperatures={"designer": config.sampling.designer_temperature,
                                               "agent": config.sampling.temperature})
        metrics: dict[str, float] = {}
        for role in ("designer", "agent"):
            # One update per role: a role's group-centred advantages then cancel exactly when its
            # samples are identical (a designer repeating one design), instead of a mini-batch holding
            # only part of the group and pushing it at random.
            with policy.lock:
                stats = trainer.step([sample for sample in batch.samples if sample.role == role])
            metrics.update({f"train_{role}_{key}": value for key, value in stats.items()})
        metrics.update(train_agent_samples=float(batch.agent), train_designer_samples=float(batch.designer),
                       zero_variance_groups=float(batch.zero_variance_groups),
                       train_seconds=time.perf_counter() - started)
        return metrics

    # -------------------------------------------------------------- main
    async def train(self, *, resume: bool = False) -> Path | None:
        import torch

        config = self.config
        quiet_transformers()
        if config.run.torch_threads is not None:
            torch.set_num_threads(config.run.torch_threads)
        model, tokenizer, state, found = self._load_or_build(resume)
        if state is None:
            self.run.truncate_records(after_step=0)
            warm = self._warm_up(model, tokenizer)
            if warm:
                self.out.write(f"format warm-up: loss {warm['warmup_loss_first']:.2f} -> "
                               f"{warm['warmup_loss_last']:.2f}\n")
            state = {"step": 0, "loop": None, "warmup": warm}
            self.checkpoints.save(model, tokenizer, None, state)
            if config.grpo.kl_to_reference:
                save_checkpoint_files(model, tokenizer, self.checkpoints.reference)
        else:
            self.run.truncate_records(after_step=state["step"])
            self.out.write(f"resuming after iteration {state['step']} from {found}\n")

        policy = TransformersPolicy(model, tokenizer, name="embedded-tiny" if config.model.path is None
                                    else config.model.path)
        trainer = GRPOTrainer(model, GRPOConfig(
            learning_rate=config.grpo.learning_rate, clip_low=config.grpo.clip_low, clip_high=config.grpo.clip_high,
            temperature=config.sampling.temperature, epochs=config.grpo.epochs, mini_batch=config.grpo.mini_batch,
            micro_batch=config.grpo.micro_batch,
            max_grad_norm=config.grpo.max_grad_norm, entropy_bonus=tuple(config.grpo.entropy_bonus.items()),
            kl_to_reference=tuple(config.grpo.kl_to_reference.items())),
            pad_token_id=tokenizer.pad_token_id, reference=self._reference(model))
        if found is not None and (found / OPTIMIZER_FILE).is_file():
            trainer.optimizer.load_state_dict(torch.load(found / OPTIMIZER_FILE))
        language: DesignLanguage = (SignalDesignLanguage() if config.design.language == "signal"
                                    else PythonDesignLanguage())
        hinter: Policy = DesignHinter() if config.design.hinter == "design" else policy
        corpus = Corpus.load(config.loop.corpus, seed=config.run.seed) if config.loop.use_corpus else None

        with EnvironmentMemory(self.run.memory_path) as memory:
            loop = SelfPlayLoop(designer=policy, agent=policy, hinter=hinter, backend=self.backend, memory=memory,
                                corpus=corpus, config=loop_config(config), language=language)
            if state.get("loop"):
                loop.load_state_dict(state["loop"])
            try:
                first = state["step"] + 1
                progress = progress_bar(self.out, iterable=range(first, config.run.iterations + 1), desc="self-play",
                                        unit="iter", initial=first - 1, total=config.run.iterations)
                for step in progress:
                    torch.manual_seed(config.run.seed * 1_000_003 + step)  # sampling draws from the global RNG
                    result = await loop.run_iteration(step)
                    extra = self._update(trainer, policy, result)
                    row = self.run.record(result, extra)
                    if step % config.run.checkpoint_every == 0 or step == config.run.iterations:
                        self.checkpoints.save(model, tokenizer, trainer.optimizer,
                                              {"step": step, "loop": loop.state_dict(),
                                               "warmup": state.get("warmup", {})})
                    progress.set_postfix(valid=f"{row['valid_rate']:.2f}", regret=f"{row['regret_mean']:+.2f}",
                                         ret=f"{row['return_unhinted']:.2f}", refresh=False)
                progress.close()
            finally:
                loop.close()
            manifest = memory.export_pool(self.run.pool_path, f"spade-{self.run.path.name}")
        plot = plot_metrics(self.run.metrics(), self.run.plot_path, title=f"spade-train run: {self.run.path.name}")
        self.out.write(f"\n{len(manifest.entries)} valid environments exported to {self.run.pool_path}\n")
        if plot is not None:
            self.out.write(f"learning curves: {plot}\n")
        return plot
