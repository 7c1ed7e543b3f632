"""The configuration file of ``spade-train run``: one typed document, loaded from TOML or JSON.

Every knob of a training run lives here and nowhere else (no environment-variable switches), so the
resolved configuration written to the run directory is the whole truth about a run. Unknown keys
are errors: a misspelt option must not silently fall back to its default.

Sections:

    [run]      iterations, seed, sandbox, backend, checkpoint_every
    [model]    the tiny model built from scratch, or a local checkpoint path
    [design]   the designer's language: "signal" (embedded) or "python" (real models)
    [warmup]   the embedded format warm-up (steps per role)
    [loop]     designs per iteration, episodes, skills, reward variant, validation, memory, corpus
    [sampling] temperature and token limits per role
    [grpo]     the policy update
    [openrlhf] the OpenRLHF backend: cluster layout, batch shape, self-play schedule, pool, logging
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from spade_envs.checks.validate import ValidatorConfig
from spade_envs.fuzz.runner import FuzzConfig
from spade_train.embedded.model import TinyModelConfig
from spade_train.embedded.signal_language import AGENT_SYSTEM
from spade_train.loop import LoopConfig
from spade_train.policies.base import SamplingParams
from spade_train.rewards import DesignerRewardConfig
from spade_train.rollout import RolloutConfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


class _Section(BaseModel):
    # Attribute docstrings become field descriptions, so the JSON Schema in schemas/ documents every key.
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class RunSection(_Section):
    iterations: int = Field(40, ge=1)
    """Self-play iterations (embedded), or training steps of rollout_batch_size rows (openrlhf)."""
    seed: int = 0
    backend: Literal["embedded", "openrlhf"] = "embedded"
    sandbox: Literal["wasm", "process", "inprocess"] = "wasm"
    """Where designed environments run. ``inprocess`` executes model-written code in this interpreter:
    only for code you trust."""
    checkpoint_every: int = Field(1, ge=1)
    """Iterations between checkpoints (a resume restarts from the latest one)."""
    torch_threads: int | None = Field(None, ge=1)
    """Threads for torch's CPU kernels (None: torch's default, one per core). A tiny model gains nothing
    from more than one, and extra threads fight the sandbox and validation workers for the cores: on
    the 2-core VM under load the warm-up ran at 7 steps/s with 1 thread and 0.5 steps/s with 2."""


class ModelSection(_Section):
    path: str | None = None
    """A local transformers checkpoint to start from; None builds the tiny model below."""
    tiny: TinyModelConfig = Field(default_factory=TinyModelConfig)


class DesignSection(_Section):
    language: Literal["signal", "python"] = "signal"
    """"signal": the embedded design language, rendered into code; "python": the designer writes code."""
    hinter: Literal["design", "model"] = "design"
    """"design": the embedded hint writer that names a signal design's code; "model": the policy writes hints."""


class WarmupSection(_Section):
    agent_steps: int = Field(150, ge=0)
    designer_steps: int = Field(100, ge=0)
    batch_size: int = Field(32, ge=1)
    learning_rate: float = Field(3e-3, gt=0)
    follow_hints: bool = True
    """Teach the agent to read a hint (hinted contexts answered with the hinted code's move); never which
    code an unhinted game uses. False: hinted contexts get random moves too (format only)."""


class LoopSection(_Section):
    envs_per_iteration: int = Field(12, ge=1)
    episodes_per_condition: int = Field(6, ge=1)
    skills: list[str] = Field(default_factory=lambda: ["Logical Deduction", "Pattern Recognition"])
    kinds: list[Literal["single_answer", "multi_turn_game", "corpus_grounded", "tool_use"]] = Field(
        default_factory=lambda: ["multi_turn_game"])
    max_turns: int = Field(25, ge=1)
    reward: Literal["regret_based", "blend", "learning_potential", "solve_rate"] = "blend"
    malformed_reward: float = Field(-0.2, le=0)
    """Designer reward for a reply with no environment in it (the reference: 0, like any invalid one).
    Below zero it keeps the designer from drifting out of its reply format, from which there is no
    way back."""
    repair_turns: int = Field(0, ge=0)
    fuzz_examples: int = Field(0, ge=0)
    """Fuzz examples per design (0 leaves the fuzz tier out)."""
    validation_workers: int = Field(1, ge=0)
    duplicate_threshold: float | None = Field(None, ge=0, le=1)
    """Reject designs this similar (0-1) to one in memory; None disables it. Rendered designs of one
    language all look alike, so the embedded default leaves it off."""
    reject_repeats: bool = True
    """Reject a design an earlier attempt of the same iteration already wrote (see LoopConfig)."""
    repeat_reward: float = Field(-0.2, le=0)
    """Designer reward for such a repeat (the reference has no repeat rule: 0 would treat it as any
    invalid design). Below zero, a designer collapsing onto one design pays for every copy."""
    use_memory: bool = True
    use_corpus: bool = False
    corpus: str = "demo"
    concurrent_designs: int = Field(4, ge=1)
    return_mode: Literal["terminal_clipped", "sum_clipped"] = "sum_clipped"
    """Episode return: "terminal_clipped" is the reference (the last reward, if terminated); the embedded
    default sums the rewards (clipped to [-1, 1]) so that partial progress counts: a tiny model needs
    the denser signal."""
    agent_train_conditions: list[Literal["hinted", "unhinted"]] = Field(
        default_factory=lambda: ["hinted", "unhinted"])
    """Whose episodes the agent is trained on. Both by default: a tiny model must learn to read a hint,
    which an instruct model already can."""
    train_designer: bool = True
    """False is the paper's no-designer-training ablation."""


class SamplingSection(_Section):
    temperature: float = Field(0.6, gt=0)
    """The agent's sampling temperature (and the hint writer's when it is the model)."""
    designer_temperature: float = Field(1.0, gt=0)
    """Higher than the agent's: the designer must keep exploring designs the agent has not mastered."""
    designer_max_tokens: int = Field(8, ge=1)
    agent_max_tokens: int = Field(4, ge=1)


class GRPOSection(_Section):
    learning_rate: float = Field(1e-3, gt=0)
    clip_low: float = Field(0.2, ge=0)
    clip_high: float = Field(0.28, ge=0)
    epochs: int = Field(1, ge=1)
    mini_batch: int | None = Field(32, ge=1)
    """Samples per optimizer step (None: one step per iteration)."""
    micro_batch: int = Field(32, ge=1)
    max_grad_norm: float = Field(1.0, gt=0)
    drop_zero_variance: bool = True
    entropy_bonus: dict[Literal["designer", "agent"], float] = Field(default_factory=dict)
    """Per role, the weight of an entropy bonus in the update (e.g. {designer = 0.01}): it keeps the
    designer exploring after its batch collapses onto one design, when GRPO has no advantage left."""
    kl_to_reference: dict[Literal["designer", "agent"], float] = Field(default_factory=dict)
    """Per role, the weight of a KL penalty towards the model as it was when training began (after the
    warm-up), e.g. {designer = 0.05}: it keeps the designer spread over designs *and* in its reply
    format, where an entropy bonus spreads it over every token (see spade_train/backends/embedded/grpo.py)."""


class OpenRLHFSection(_Section):
    """The OpenRLHF backend (``run.backend = "openrlhf"``); the embedded backend ignores this section.

    The other sections keep their meaning: ``[model] path`` is the actor model (a hub id or a path as the
    cluster's nodes see it), ``[loop]`` drives the designer rows' nested self-play, ``[sampling]`` the
    rollouts and ``[grpo]`` the update. ``spade_train/backends/openrlhf/command.py`` maps every field to
    ``train_ppo_ray`` flags.
    """

    # ---- cluster layout
    nodes: int = Field(1, ge=1)
    """Nodes for the trained model (--actor.num_nodes, and the reference model's when kl_coef > 0)."""
    gpus_per_node: int = Field(8, ge=1)
    vllm_engines: int = Field(8, ge=1)
    """Rollout engines (--vllm.num_engines); each runs the agent executor."""
    vllm_tensor_parallel: int = Field(1, ge=1)
    vllm_gpu_memory_utilization: float = Field(0.5, gt=0, le=1)
    colocate: bool = True
    """Training and rollout share the GPUs and take turns (--train.colocate_all, --vllm.enable_sleep,
    --ds.enable_sleep); false gives the rollout engines GPUs of their own."""
    async_rollouts: bool = False
    """Overlap rollout and training (--train.async_enable); needs colocate = false."""
    zero_stage: Literal[0, 1, 2, 3] = 3
    gradient_checkpointing: bool = True
    adam_offload: bool = False
    packing_samples: bool = True
    """Pack samples without padding (--ds.packing_samples; needs flash attention)."""

    # ---- batch shape
    rollout_batch_size: int = Field(24, ge=1)
    """Prompt rows per step (--rollout.batch_size)."""
    n_samples_per_prompt: int = Field(8, ge=2)
    """Samples per row, the group that group_norm compares (designs of one designer row, episodes of one
    environment for an agent row)."""
    max_len: int = Field(32768, ge=256)
    """Tokens per sample, prompt and every turn included (--data.max_len)."""
    row_headroom: float = Field(1.0, ge=1.0)
    """Rows written = run.iterations * rollout_batch_size * row_headroom. Dynamic filtering replaces a
    dropped group by a fresh row, so without headroom a run that filters makes fewer steps."""

    # ---- self-play schedule
    designer_every: int = Field(4, ge=1)
    """loop.envs_per_iteration new environments per this many steps, on average (rows are shuffled)."""
    designer_delay_steps: int = Field(4, ge=0)
    """Steps before the designer's own samples are trained (its environments are used from the start)."""

    # ---- algorithm
    advantage: Literal["group_norm", "dr_grpo"] = "group_norm"
    """--algo.advantage.estimator. Both keep every row's group apart, so the two roles never share a
    baseline. group_norm z-scores each group (the reference's agent advantage; designer groups are then
    z-scored too, where the reference only centers them); dr_grpo only centers (the reference's designer
    advantage, applied to the agent as well)."""
    kl_coef: float = Field(0.0, ge=0)
    """KL to the reference model as a loss (--algo.kl.init_coef with --algo.kl.use_loss, k3); 0 loads no
    reference model."""
    importance_correction: Literal["off", "token", "seq"] = "token"
    """Correction for the rollout engine's log-probs differing from the trainer's
    (--algo.advantage.is_correction_level); with mode "clip" and cap below it is truncated importance
    sampling."""
    importance_mode: Literal["clip", "mask"] = "clip"
    importance_cap: float = Field(2.0, gt=1.0)
    """Upper bound of the importance weight (--algo.advantage.is_correction_threshold 0 CAP)."""

    # ---- environment pool
    pool: Literal["self_play", "fixed"] = "self_play"
    """"self_play": the designer writes environments as training goes; "fixed": agent rows only, on the
    environments of fixed_pool (the fixed-pool baselines)."""
    fixed_pool: str | None = None
    """Directory of an exported pool (spade_envs.pool format) as the driver's node sees it."""
    seed_pool: str = "bundled"
    """Where agent rows find environments before the designer's arrive: "bundled" (the SDK's library,
    filtered to loop.kinds) or a pool directory."""
    pool_window: int = Field(200, ge=1)
    """Agent rows draw from this many most recently added environments (a fixed pool: from all), weighted
    towards those the agent wins about half the time."""
    env_workers: int = Field(8, ge=1)
    """Sandbox worker threads per rollout engine."""

    # ---- logging
    logger: Literal["tensorboard", "wandb"] = "tensorboard"
    wandb_project: str = "spade"
    wandb_key_env: str = "WANDB_API_KEY"
    """Environment variable (on the driver's node) holding the W&B key; the key never appears in a
    command line or a file."""
    extra_flags: list[str] = Field(default_factory=list)
    """Further train_ppo_ray arguments, appended as given; every flag is checked against the installed
    OpenRLHF before a launch."""


class RunConfig(_Section):
    """Defaults are the embedded default (``configs/embedded.toml`` spells every one of them out)."""

    run: RunSection = Field(default_factory=RunSection)
    model: ModelSection = Field(default_factory=ModelSection)
    design: DesignSection = Field(default_factory=DesignSection)
    warmup: WarmupSection = Field(default_factory=WarmupSection)
    loop: LoopSection = Field(default_factory=LoopSection)
    sampling: SamplingSection = Field(default_factory=SamplingSection)
    grpo: GRPOSection = Field(default_factory=GRPOSection)
    openrlhf: OpenRLHFSection = Field(default_factory=OpenRLHFSection)

    @model_validator(mode="after")
    def _consistent(self) -> RunConfig:
        if self.design.language == "signal" and self.loop.kinds != ["multi_turn_game"]:
            raise ValueError("the signal design language writes multi_turn_game environments only; "
                             "set loop.kinds = [\"multi_turn_game\"] or design.language = \"python\"")
        if self.design.hinter == "design" and self.design.language != "signal":
            raise ValueError("design.hinter = \"design\" needs design.language = \"signal\"; use hinter = \"model\"")
        if self.run.backend == "openrlhf":
            _check_openrlhf(self)
        return self


def _check_openrlhf(config: RunConfig) -> None:
    """What the OpenRLHF backend needs beyond the embedded one; each message names the fix."""
    section, loop = config.openrlhf, config.loop
    if config.design.language != "python" or config.design.hinter != "model":
        raise ValueError("the openrlhf backend trains real models: set design.language = \"python\" and "
                         "design.hinter = \"model\"")
    if config.model.path is None:
        raise ValueError("the openrlhf backend needs model.path: a hub id or a checkpoint path on the cluster")
    if config.sampling.designer_temperature != config.sampling.temperature:
        raise ValueError("the openrlhf backend trains both roles at one rollout temperature: set "
                         "sampling.designer_temperature equal to sampling.temperature")
    if section.pool == "fixed" and not section.fixed_pool:
        raise ValueError("openrlhf.pool = \"fixed\" needs openrlhf.fixed_pool, a pool directory")
    if section.pool == "self_play" and loop.envs_per_iteration % section.n_samples_per_prompt:
        raise ValueError(f"loop.envs_per_iteration ({loop.envs_per_iteration}) must be a multiple of "
                         f"openrlhf.n_samples_per_prompt ({section.n_samples_per_prompt}): each designer row "
                         "writes that many environments")
    masks_designer = not loop.train_designer or section.designer_delay_steps > 0
    if section.pool == "self_play" and masks_designer and not config.grpo.drop_zero_variance:
        raise ValueError("untrained designer rows are left out through dynamic filtering: set "
                         "grpo.drop_zero_variance = true (or loop.train_designer = true and "
                         "openrlhf.designer_delay_steps = 0)")
    if section.async_rollouts and section.colocate:
        raise ValueError("openrlhf.async_rollouts needs GPUs of its own for rollouts: set openrlhf.colocate = false")
    if section.colocate and not section.async_rollouts and (
            section.nodes * section.gpus_per_node != section.vllm_engines * section.vllm_tensor_parallel):
        raise ValueError("with openrlhf.colocate, vllm_engines * vllm_tensor_parallel must equal "
                         "nodes * gpus_per_node (every GPU holds both)")


TRAIN_SCHEMA_MODELS: dict[str, type[BaseModel]] = {"run_config": RunConfig}
"""The models whose JSON Schemas ``spade-train schema`` writes to ``schemas/``."""


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message is one line naming the problem."""


def load_run_config(path: Path) -> RunConfig:
    """Read a TOML (``.toml``) or JSON file into a validated ``RunConfig``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"cannot read config {path}: {error.strerror or error}") from None
    try:
        raw: Any = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path} is not valid {'JSON' if path.suffix == '.json' else 'TOML'}: {error}") from None
    return parse_run_config(raw, source=str(path))


def parse_run_config(raw: Any, *, source: str = "config") -> RunConfig:
    try:
        return RunConfig.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = "".join(f"{part}: " for part in [".".join(str(p) for p in first["loc"])] if part)
        message = first["msg"].removeprefix("Value error, ")
        raise ConfigError(f"{source}: {where}{message} ({error.error_count()} problem(s) in all)") from None


def loop_config(config: RunConfig) -> LoopConfig:
    """The self-play loop's configuration from the run file: one translation for every backend (the
    embedded trainer runs it as is, the OpenRLHF executor narrows it to one design attempt)."""
    loop, sampling = config.loop, config.sampling
    tiers = ("static", "contract", "feasibility") + (("fuzz",) if loop.fuzz_examples else ())
    return LoopConfig(
        envs_per_iteration=loop.envs_per_iteration,
        kinds=tuple(loop.kinds),
        skills=tuple(loop.skills),
        max_turns=loop.max_turns,
        designer_sampling=SamplingParams(temperature=sampling.designer_temperature,
                                         max_tokens=sampling.designer_max_tokens),
        repair_turns=loop.repair_turns,
        validation=ValidatorConfig(fuzz=FuzzConfig(examples=max(1, loop.fuzz_examples)), tiers=tiers),
        rollout=RolloutConfig(
            episodes_per_condition=loop.episodes_per_condition, seed=config.run.seed,
            sampling=SamplingParams(temperature=sampling.temperature, max_tokens=sampling.agent_max_tokens),
            system_prompt=AGENT_SYSTEM if config.design.language == "signal" else None,
            return_mode=config.loop.return_mode),
        rewards=DesignerRewardConfig(variant=loop.reward, malformed_reward=loop.malformed_reward,
                                     repeat_reward=loop.repeat_reward),
        use_corpus=loop.use_corpus,
        use_memory=loop.use_memory,
        duplicate_threshold=loop.duplicate_threshold,
        reject_repeats=loop.reject_repeats,
        concurrent_designs=loop.concurrent_designs,
        validation_workers=loop.validation_workers,
        seed=config.run.seed,
    )
