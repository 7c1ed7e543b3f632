"""The run configuration: one typed, validated document, and the only place a training setting lives.

The self-play loop, the design attempt, the embedded trainer, the OpenRLHF backend and both commands
read these sections as they are; no second dataclass repeats their fields and no command line flag
repeats their defaults. A setting is added by adding a field (with its docstring, which becomes its
description in ``schemas/run_config.schema.json`` and the configuration reference) to its section, and
reading it where it is used. The few runtime values of other libraries that a run needs (the checker's
``ValidatorConfig``, the rewards' ``DesignerRewardConfig``, ``SamplingParams``, the rollouts'
``RolloutConfig``) are derived by the methods below, each in one place.

Each setting's default is here and nowhere else. They are the embedded default's, except three that the
embedded default sets for its tiny model only (``run.torch_threads = 1``, ``warmup.agent_steps = 400``,
``grpo.kl_to_reference = {designer = 0.1}``; ``configs/embedded.toml`` spells out every key it relies on).
Unknown keys are errors, so a misspelt option never falls back to its default silently.

Sections:

    [run]      iterations, seed, sandbox, backend, checkpoints
    [model]    the trained model: the tiny one built from scratch, or a local checkpoint
    [policies] who plays each role in an inference-only run (``spade-train generate-pool``)
    [design]   the designer's language: "signal" (embedded) or "python" (real models)
    [warmup]   the embedded format warm-up (steps per role) and its hint-following check
    [loop]     designs per iteration, episodes, skills, rewards, validation, memory, corpus
    [sampling] temperature and token limits per role
    [grpo]     the policy update
    [probe]    the designer probe at a fixed agent (end of run, ``spade-train probe``)
    [openrlhf] the OpenRLHF backend: cluster layout, batch shape, self-play schedule, environments, logging
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from spade_envs.contract.episode import ReturnMode
from spade_train.backends.embedded.model import TinyModelConfig

if TYPE_CHECKING:
    from spade_envs.checks.validate import ValidatorConfig
    from spade_train.hints import HintSettings
    from spade_train.policies.base import SamplingParams
    from spade_train.release_prompts import ReleasePrompts
    from spade_train.rewards import DesignerRewardConfig
    from spade_train.rollout import RolloutConfig
    from spade_train.semantics import Semantics

EnvKindName = Literal["single_answer", "multi_turn_game", "corpus_grounded", "tool_use"]


class _Section(BaseModel):
    # Attribute docstrings become field descriptions, so the JSON Schema in schemas/ documents every key.
    # Frozen: a run's configuration never changes once validated (overrides make a new one).
    # No inf or nan: TOML spells both, and either would pass a bound like ``gt=0`` or poison a run.
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, frozen=True, allow_inf_nan=False)


class RunSection(_Section):
    iterations: int = Field(40, ge=1)
    """Self-play iterations (embedded), or training steps of rollout_batch_size rows (openrlhf)."""
    seed: int = Field(0, ge=0, le=2**32 - 1)
    """The run's one seed (warm-up, model, designs, plays); a 32-bit unsigned number, as torch, numpy and
    the sandbox all take."""
    backend: Literal["embedded", "openrlhf"] = "embedded"
    """Who trains the model in ``spade-train run``; ``spade-train generate-pool`` trains nothing."""
    sandbox: Literal["wasm", "process", "inprocess"] = "wasm"
    """Where designed environments run. ``inprocess`` executes model-written code in this interpreter:
    only for code you trust."""
    stop_after_malformed: int | None = Field(5, ge=1)
    """Stop the run (exit 1, naming the cause) once every design of this many consecutive iterations was
    malformed (no design in the reply): such a designer has left its reply format, nothing is played or
    trained, and there is no way back. None: never stop for it."""
    checkpoint_every: int = Field(1, ge=1)
    """Iterations between checkpoints (a resume restarts from the latest one)."""
    torch_threads: int | None = Field(None, ge=1)
    """Threads for torch's CPU kernels (None: torch's default, one per core). A tiny model gains nothing
    from more than one, and extra threads fight the sandbox and validation workers for the cores: on
    the 2-core VM under load the warm-up ran at 7 steps/s with 1 thread and 0.5 steps/s with 2."""
    logger: Literal["none", "tensorboard"] = "none"
    """Where the embedded run (and generate-pool) also writes each iteration's metrics: "tensorboard" writes
    TensorBoard event files to the run directory's tensorboard/ (needs the tensorboard extra:
    tensorboardX). metrics.jsonl is written either way. The openrlhf backend has openrlhf.logger."""


class ModelSection(_Section):
    """The model ``spade-train run`` trains (both roles)."""

    path: str | None = None
    """A local transformers checkpoint to start from; None builds the tiny model below."""
    tiny: TinyModelConfig = Field(default_factory=TinyModelConfig)


class PoliciesSection(_Section):
    """The models of an inference-only run (``spade-train generate-pool``), which trains nothing.

    Each is a model spec: a server URL (``http://host:8000/v1``, asking the server for its model when
    no ``#name`` follows), ``openai:URL#name``, a checkpoint directory, ``hf:PATH`` or ``vllm:PATH``.
    ``spade-train run`` trains ``[model]`` in every role and refuses these.
    """

    designer: str | None = None
    """The designer's model; ``generate-pool`` needs it."""
    agent: str | None = None
    """The agent's model; None: the designer's."""
    hinter: str | None = None
    """The hint writer's model (with design.hinter = "model"); None: the designer's."""
    api_key_env: str | None = None
    """Environment variable holding the servers' API key (the key itself never appears in a file)."""


class DesignSection(_Section):
    language: Literal["signal", "python"] = "signal"
    """"signal": the embedded design language, rendered into code; "python": the designer writes code."""
    hinter: Literal["design", "model"] = "design"
    """"design": the embedded hint writer that names a signal design's code; "model": the policy writes hints."""
    prompt: Literal["full", "compact"] = "full"
    """How a Python designer is asked: the full designer prompt, or ("compact") one line naming the kind, for
    a tiny model pretrained to answer it (``[pretraining]``; its context holds no full prompt)."""

    @model_validator(mode="after")
    def _compact_is_python(self) -> DesignSection:
        if self.prompt == "compact" and self.language != "python":
            raise ValueError('design.prompt = "compact" asks for a Python module; set design.language = "python" '
                             'or remove design.prompt')
        return self


class PretrainingSection(_Section):
    """Pretraining a tiny designer on generated environment programs (``spade_train/pretraining``): what
    gives it Python before it writes whole modules in self-play."""

    programs: int = Field(3000, ge=1)
    """Programs drawn for the corpus (``generate_corpus``)."""
    defect_share: float = Field(0.25, ge=0, le=1)
    """Share of them carrying one deliberate defect, so invalid programs are in the model's distribution."""
    vocab_size: int = Field(1024, ge=300)
    """The byte-level BPE tokenizer's vocabulary, trained on the corpus."""
    hidden_size: int = Field(128, ge=8)
    num_layers: int = Field(3, ge=1)
    num_heads: int = Field(4, ge=1)
    max_positions: int = Field(768, ge=64)
    """Tokens per program and request: the corpus's programs take 290-640 with the default vocabulary."""
    steps: int = Field(600, ge=0)
    batch_size: int = Field(8, ge=1)
    learning_rate: float = Field(3e-3, gt=0)
    sample_temperature: float = Field(0.3, gt=0)
    """The temperature programs are sampled at when pretraining is measured."""
    hint_share: float = Field(0.1, ge=0, le=0.5)
    """Share of the training examples that teach writing a hint (``pretraining/lessons.py``)."""
    agent_share: float = Field(0.3, ge=0, le=0.5)
    """Share that teach playing, with and without a hint (episodes played in the run's sandbox)."""

    @model_validator(mode="after")
    def _programs_remain(self) -> PretrainingSection:
        if self.hint_share + self.agent_share >= 1:
            raise ValueError("pretraining.hint_share + pretraining.agent_share must leave a share for the "
                             "programs themselves: lower one of them")
        return self


class WarmupSection(_Section):
    agent_steps: int = Field(150, ge=0)
    designer_steps: int = Field(100, ge=0)
    batch_size: int = Field(32, ge=1)
    learning_rate: float = Field(3e-3, gt=0)
    schedule: Literal["cosine", "constant"] = "cosine"
    """The learning rate over a round of warm-up: "cosine" ramps it up over the first tenth of the steps and
    decays it to a tenth by the end (each round starts a fresh optimizer, whose first full-size steps can
    undo what the last round taught: seed 3 of the default lost hint-following round by round, 0.54, 0.50,
    0.42, at a constant rate); "constant" keeps ``learning_rate`` throughout."""
    follow_hints: bool = True
    """Teach the agent to read a hint (hinted contexts answered with the hinted code's move); never which
    code an unhinted game uses. False: hinted contexts get random moves too (format only)."""
    min_hinted_win_rate: float = Field(0.0, ge=0, le=1)
    """After the warm-up, the agent plays ``check_episodes`` hinted games of random designs; below this
    win rate it gets up to ``extra_rounds`` more rounds of warm-up, and if it is still below, the run
    stops naming the rate (exit 1): self-play without hint-following has no regret to pay the designer
    with. 0: no check."""
    check_episodes: int = Field(48, ge=1)
    extra_rounds: int = Field(2, ge=0)
    """Further warm-up rounds (each half the warm-up's steps) while the check fails."""
    checkpoint_every: int = Field(100, ge=1)
    """Warm-up steps between checkpoints (and one at the end of each round): a run killed in its warm-up
    resumes there with ``--resume``, on the same course as if it had not stopped."""


class LoopSection(_Section):
    envs_per_iteration: int = Field(12, ge=1)
    episodes_per_condition: int = Field(6, ge=1)
    """K: each valid environment is played K times with the hint and K times without (16 in the paper)."""
    unhinted_episodes: int | None = Field(None, ge=1)
    """Unhinted plays per environment when they differ from K (None: K). The release plays
    ceil(global batch / environments) of them: ceil(192 / 24) = 8 in its games scripts."""
    skills: list[str] = Field(default_factory=lambda: ["Logical Deduction", "Pattern Recognition"],
                              min_length=1)
    kinds: list[EnvKindName] = Field(default_factory=lambda: ["multi_turn_game"], min_length=1)
    max_turns: int = Field(25, ge=1, le=1000)
    """The turn budget the designer is asked to give its environments."""
    reward: Literal["regret_based", "blend", "learning_potential", "solve_rate"] = "blend"
    malformed_reward: float = Field(-0.2, le=0)
    """Designer reward for a reply with no environment in it, when invalid designs are scored
    (``semantics.invalid_designs = "scored"``; the release re-samples them instead and never trains them).
    Below zero it keeps the designer from drifting out of its reply format, from which there is no
    way back."""
    design_attempts: int = Field(5, ge=1)
    """Attempts per design slot when invalid designs are re-sampled (``semantics.invalid_designs =
    "resampled"`` and no repair turns): each a fresh call for the same skill; the release makes 5."""
    repair_turns: int = Field(0, ge=0)
    """Extra designer turns fed with the checker's findings after a failed design; only the first reply
    is trained on."""
    fuzz_examples: int = Field(0, ge=0)
    """Fuzz examples per design (0 leaves the fuzz tier out)."""
    fuzz_beside_play: bool = True
    """Run the fuzz tier while the environment is hinted and played, not before: the tier is most of the
    checker's time, and beside play it hides behind the model's generations instead of holding them up.
    An environment that then fails it is discarded after play (no rollouts kept, the designer's reward
    is an invalid one's) and gets no repair turn; the verdict is the same as with the tier run first."""
    validation_workers: int = Field(1, ge=0)
    """Worker processes for validation (0: validate in a thread of this process). Validation is most of
    an iteration's non-model work and runs under the GIL, so processes are what let it use more cores."""
    reuse_verdicts: bool = True
    """Reuse the checker's report for code it has already judged in this run. The checker is
    deterministic (fixed seeds), so a repeated design needs no second validation."""
    duplicate_threshold: float | None = Field(None, ge=0, le=1)
    """Reject designs this similar (0-1) to one in memory; None disables it. Rendered designs of one
    language all look alike, so the embedded default leaves it off."""
    reject_repeats: bool = True
    """Reject a design whose code an earlier attempt of the same iteration already wrote: only the first
    copy is validated and played. A designer collapsing onto one environment then pays for every repeat,
    which keeps its batch diverse."""
    repeat_reward: float = Field(-0.2, le=0)
    """Designer reward for such a repeat (the reference has no repeat rule: 0 would treat it as any
    invalid design). Below zero, a designer collapsing onto one design pays for every copy."""
    warnings: Literal["reported", "penalised", "rejected"] = "reported"
    """What the checker's warnings (findings an honest environment can also trigger, which do not reject)
    do to a design: "reported" only (the default), "penalised" (``warning_penalty`` off the designer's
    reward per warning, at most 3) or "rejected" (the design is invalid, and repair turns see them)."""
    warning_penalty: float = Field(0.1, ge=0, le=1)
    """Designer reward per checker warning under ``warnings = "penalised"``."""
    judge: str | None = None
    """A model judge for designs every other check accepted: ``"self"``, the run's own model (the release's
    environment validator, ``--spade-use-env-validator``, on in its tool-use scripts; with
    ``semantics.release_dir`` its own prompts and boxed verdict, else the gate's questions:
    ``spade_train/loop/self_judge.py``); or an OpenAI-compatible endpoint, ``http://host:8000/v1`` or
    ``...#model``, asked by the checker (``spade_envs.checks.judge``). None, the default, asks no judge:
    it is a heuristic, and a model call per design."""
    judge_max_tokens: int = Field(16_384, ge=1)
    """The reply budget of the run's own model as judge (``judge = "self"``): the release's
    ``env_validator_max_tokens``; lower it for a small model that may never end its reply."""
    judge_severity: Literal["error", "warning"] = "error"
    """Whether the judge's findings reject the design or only warn (and then count as ``warnings`` says)."""
    hint_seeds: int = Field(3, ge=1)
    """Seeds whose solutions a hint is checked against for leaks (besides seed 0's)."""
    use_memory: bool = True
    """False is the paper's no-memory ablation (no memory examples in designer prompts)."""
    use_corpus: bool = False
    """Ground every design on a corpus document (corpus_grounded designs always are); False is the paper's
    no-corpus ablation."""
    corpus: str = "demo"
    """The corpus: a JSONL or Parquet path, hf:DATASET, or demo."""
    concurrent_designs: int = Field(4, ge=1)
    """Design attempts of one iteration in flight at once."""
    return_mode: ReturnMode = "sum_clipped"
    """Episode return: "terminal_clipped" is the reference (the last reward, if terminated); the embedded
    default sums the rewards (clipped to [-1, 1]) so that partial progress counts: a tiny model needs
    the denser signal. Either way an episode is won only when it terminates on a win."""
    agent_train_conditions: list[Literal["hinted", "unhinted"]] = Field(
        default_factory=lambda: ["hinted", "unhinted"])
    """Whose episodes the agent is trained on. Both by default: a tiny model must learn to read a hint,
    which an instruct model already can."""
    train_designer: bool = True
    """False is the paper's no-designer-training ablation: the designer's replies are not trained on. One
    model plays both roles, so the agent's updates still move the designer (and with no designer
    samples a designer KL term never acts): this ablation does not hold the designer fixed. For that,
    add ``frozen_designer``."""
    frozen_designer: bool = False
    """Sample designs from a frozen copy of the model as it was after the warm-up, while the agent trains
    (embedded backend; needs ``train_designer = false``): the designer is then fixed, the ablation that
    shows what training the designer adds."""

    def validator(self, plan_salt: int | None = None) -> ValidatorConfig:
        """The checker's configuration for this loop: the fuzz tier only with fuzz examples, and the
        sum_clipped return protected only where the run uses it. ``plan_salt`` (the run's seed): each
        environment is checked on seeds drawn from its code and the salt, the same on every run of that
        seed, but no two designs on one fixed set a designer could learn to behave on; None: every
        environment on the seeds of plan seed 0."""
        from spade_envs.checks.dynamic import CheckConfig
        from spade_envs.checks.judge import JudgeSettings
        from spade_envs.checks.validate import ValidatorConfig
        from spade_envs.fuzz.runner import FuzzConfig

        tiers = ("static", "contract", "feasibility") + (("fuzz",) if self.fuzz_examples else ())
        from spade_train.loop.self_judge import SELF

        # "self" is asked by the design step, on the run's own model; an endpoint by the checker.
        judge = JudgeSettings(self.judge, severity=self.judge_severity) if self.judge not in (None, SELF) else None
        return ValidatorConfig(fuzz=FuzzConfig(examples=max(1, self.fuzz_examples)), tiers=tiers,
                               dynamic=CheckConfig(sum_clipped=self.return_mode == "sum_clipped",
                                                   seed=0 if plan_salt is None else None, plan_salt=plan_salt),
                               judge=judge)


class SemanticsSection(_Section):
    """Where the reward pipeline follows the SPADE release or this toolkit (``spade_train.semantics``).

    ``mode`` fixes every option; an option set beside it overrides the mode's value. The paper recipes
    use ``reference``; the embedded default uses ``toolkit``. docs/reference/deviations.md lists them all.
    """

    mode: Literal["reference", "toolkit"] = "toolkit"
    win_rate_from: Literal["mean_return", "wins"] | None = None
    timeout_penalty: Literal["regret_based", "every_variant"] | None = None
    unfloored_regret: Literal["unclipped", "clipped"] | None = None
    invalid_designs: Literal["resampled", "scored"] | None = None
    environment_errors: Literal["minus_one", "zero"] | None = None
    failed_plays: Literal["retry_then_drop", "zero"] | None = None
    hint_failure: Literal["zero_hinted_return", "no_regret"] | None = None
    memory_ties: Literal["oldest", "newest"] | None = None
    negative_examples: Literal["class_name", "code"] | None = None
    hint_cleaning: Literal["strip_json_fence", "clean"] | None = None
    play_seeds: Literal["independent", "paired"] | None = None
    memory_win_rate: Literal["positive_return", "wins"] | None = None
    design_scoring: Literal["window", "attempt"] | None = None
    """OpenRLHF only: score a design over its delay window ("window", the release) or by its own attempt's
    nested plays ("attempt"); see ``spade_train.backends.openrlhf.executor``."""
    memory_plays: Literal["regeneration_step", "window"] | None = None
    """OpenRLHF, window scoring: the memory's win rate of a design over the plays of the step it was written
    in ("regeneration_step", the release) or over its whole window ("window")."""
    timeout_plays: Literal["regeneration_step", "window"] | None = None
    """OpenRLHF, window scoring: which plays flag a design as timed out: its hinted plays and those of the
    step it was written in ("regeneration_step", the release), or any play of its window ("window")."""
    blank_hints: Literal["played", "rejected"] | None = None
    """A whitespace-only hint reply: played as the empty hint ("played", the release) or a hint failure
    ("rejected")."""
    trained_sampling: Literal["truncated", "full"] | None = None
    """"full": the agent and the designer sample at their temperature only (``[sampling]`` top_p 1, top_k
    unset), so trained log-probs are the distribution the trainer recomputes; "truncated" (the release):
    top-k/top-p as configured, and OpenRLHF's importance ratios are then biased (docs: deviations)."""

    release_dir: str | None = None
    """A local checkout of the SPADE release (``spade-rl/spade``): the designer, hint and agent prompts are
    then built from its templates as the release builds them (``spade_train/release_prompts.py``); None:
    this toolkit's prompts, which carry the same inputs in another text."""

    def release_prompts(self) -> ReleasePrompts | None:
        """The release's prompts from ``release_dir`` (loaded anew: call it once per run), or None."""
        if self.release_dir is None:
            return None
        from spade_train.release_prompts import ReleasePrompts

        return ReleasePrompts.load(self.release_dir)

    def resolved(self) -> Semantics:
        """The mode's options with the overrides set here."""
        from spade_train.semantics import semantics_for

        overrides = self.model_dump(exclude={"mode", "release_dir"})
        return semantics_for(self.mode).with_overrides(**overrides)


class SamplingSection(_Section):
    temperature: float = Field(0.6, gt=0)
    """The agent's sampling temperature."""
    top_p: float = Field(1.0, gt=0, le=1)
    """The agent's nucleus (the release: 0.95, ``--spade-actor-top-p``)."""
    top_k: int | None = Field(None, ge=1)
    """The agent's top-k; None: off (the release: 20, ``--spade-actor-top-k``)."""
    designer_temperature: float = Field(1.0, gt=0)
    """Higher than the agent's: the designer must keep exploring designs the agent has not mastered."""
    designer_top_p: float = Field(1.0, gt=0, le=1)
    """The designer's nucleus (the release: 0.95, ``--spade-env-top-p``)."""
    designer_top_k: int | None = Field(None, ge=1)
    """The designer's top-k; None: off (the release: 20, ``--spade-env-top-k``)."""
    designer_max_tokens: int = Field(8, ge=1)
    agent_max_tokens: int = Field(4, ge=1)
    """Per agent turn."""
    hint_temperature: float = Field(0.3, gt=0)
    """The hint writer's temperature (when the model writes hints): low, for a stable statement of the
    insight rather than one sample of many (the release: 0.3)."""
    hint_top_p: float = Field(1.0, gt=0, le=1)
    """The hint call's nucleus (the release: 0.9, its model adapter's default)."""
    hint_top_k: int | None = Field(None, ge=1)
    """The hint call's top-k; None: off (the release: -1, off)."""
    hint_max_tokens: int = Field(1024, ge=1)
    """The hint call's token budget (the release: 4,096 for games, 2,048 for tool use)."""
    hint_attempts: int = Field(1, ge=1)
    """Hint calls made until one returns a reply (the release: 3)."""

    def truncation(self) -> list[str]:
        """The settings that truncate the agent's or the designer's distribution (top-p below 1, a top-k)."""
        return [name for name, on in (("top_p", self.top_p < 1), ("top_k", self.top_k is not None),
                                      ("designer_top_p", self.designer_top_p < 1),
                                      ("designer_top_k", self.designer_top_k is not None)) if on]

    def designer(self) -> SamplingParams:
        from spade_train.policies.base import SamplingParams

        return SamplingParams(temperature=self.designer_temperature, top_p=self.designer_top_p,
                              top_k=self.designer_top_k, max_tokens=self.designer_max_tokens)

    def agent(self) -> SamplingParams:
        from spade_train.policies.base import SamplingParams

        return SamplingParams(temperature=self.temperature, top_p=self.top_p, top_k=self.top_k,
                              max_tokens=self.agent_max_tokens)


class GRPOSection(_Section):
    """The embedded backend's policy update (``spade_train/backends/embedded/grpo.py`` reads it as is); the
    OpenRLHF backend maps the shared keys to its own flags."""

    learning_rate: float = Field(1e-3, gt=0)
    clip_low: float = Field(0.2, ge=0)
    clip_high: float = Field(0.28, ge=0)
    epochs: int = Field(1, ge=1)
    role_epochs: dict[Literal["designer", "agent"], int] = Field(default_factory=dict)
    """Per role, the passes over its batch where they differ from ``epochs`` (e.g. {designer = 3}). The
    designer gets one sample per design, a dozen an iteration, so one pass is one optimizer step, while
    the agent's episodes make several: more designer passes let it keep up with an agent that learns the
    designs it favours (embedded backend only)."""
    mini_batch: int | None = Field(32, ge=1)
    """Samples per optimizer step (None: one step per iteration). Smaller mini-batches give several
    clipped steps per batch (as PPO does), which a small model trained briefly needs."""
    micro_batch: int = Field(32, ge=1)
    """Samples per forward/backward pass (memory only; does not change the update)."""
    max_grad_norm: float = Field(1.0, gt=0)
    drop_zero_variance: bool = True
    """Leave out groups whose samples all scored alike (no advantage to learn from). False keeps them with
    advantage 0, as the release does: they still count in the loss's token mean."""
    train_unfinished: bool = True
    """Train the agent on its plays that did not terminate (the turn budget ran out, the environment
    truncated the episode, or the play failed). False is the release's compact filter
    (``--spade-compact-filter``, on in its tool-use scripts, ``spade/slime/spade_rollout.py:809-818``): such
    a play's return still counts in its group's advantages, but none of its tokens are trained, since
    running out of turns is the environment's budget, not a wrong move, and training it as a loss teaches
    submitting early."""
    designer_format_recovery: bool = False
    """When every designer reply of an iteration is malformed, train the designer toward its last valid
    replies (advantage +1, this iteration's replies -1). A batch whose rewards are all equal gives GRPO
    nothing to learn from and the KL term pulls back too weakly, so a designer knocked out of its reply
    format (by its own update or by the agent's, through the shared weights) stays out until
    ``run.stop_after_malformed`` stops the run. Acts only in such iterations: a run that never has one
    is unchanged (embedded backend only)."""
    entropy_bonus: dict[Literal["designer", "agent"], float] = Field(default_factory=dict)
    """Per role, the weight of an entropy bonus in the update (e.g. {designer = 0.01}): it keeps the
    designer exploring after its batch collapses onto one design, when GRPO has no advantage left."""
    kl_to_reference: dict[Literal["designer", "agent"], float] = Field(default_factory=dict)
    """Per role, the weight of a KL penalty towards the model as it was when training began (after the
    warm-up), e.g. {designer = 0.05}: it keeps the designer spread over designs *and* in its reply
    format, where an entropy bonus spreads it over every token (see spade_train/backends/embedded/grpo.py)."""


class ProbeSection(_Section):
    """The designer probe (``spade_train/run/probe.py``): the run's final agent held fixed, the designs of
    the final and the post-warm-up designer and uniformly chosen valid ones played by it."""

    at_end: bool = True
    """Probe at the end of ``spade-train run`` (embedded backend); ``spade-train probe RUN_DIR`` any time."""
    designer_samples: int = Field(24, ge=1)
    """Designs asked of each designer (the same prompts and seeds for both)."""
    uniform_designs: int = Field(24, ge=1)
    """The run's valid designs drawn uniformly (without replacement) for the uniform-valid baseline."""
    episodes_per_condition: int = Field(4, ge=1)
    """Hinted and unhinted plays of each distinct design. The defaults keep the probe to about 20 s of the
    embedded default's budget; ``spade-train probe RUN_DIR --set ...`` runs a larger one afterwards."""
    resamples: int = Field(2000, ge=100)
    """Bootstrap resamples of each interval."""


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
    gpu_memory_gib: float = Field(80.0, gt=0)
    """Memory of each GPU (GiB): only for the KV-cache sizing the dry run prints
    (``backends/openrlhf/sizing.py``); 80 for H100 and A100-80GB."""
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
    row_headroom: float | None = Field(None, ge=1.0)
    """Rows written = run.iterations * rollout_batch_size * row_headroom. Dynamic filtering replaces a
    dropped group by a fresh row and OpenRLHF stops when the rows run out, so a run that filters needs
    more rows than steps. None: 1 / expected_pass_rate with dynamic filtering, 1.0 without. Rows left
    over once run.iterations steps are trained cost milliseconds each (the executor skips them)."""
    expected_pass_rate: float = Field(0.25, gt=0.0, le=1.0)
    """The share of groups dynamic filtering keeps, for sizing the rows (row_headroom = None). Each
    step's measured rate is in step_metrics.jsonl (``pass_rate``), with the step the rows last to."""

    # ---- long sequences
    ring_attn_size: int = Field(1, ge=1)
    """GPUs that split one sequence (--ds.ring_attn_size; needs packing_samples). Designer samples run to
    20-26k tokens: on a 30B model their fp32 logits alone are about 20 GB without it."""
    dynamic_batch: bool = False
    """Micro-batches by token count (--train.dynamic_batch_enable) instead of by sample count."""
    max_tokens_per_gpu: int | None = Field(None, ge=1024)
    """Token budget of a dynamic micro-batch (--train.max_tokens_per_gpu); needs dynamic_batch."""
    enable_thinking: bool | None = None
    """Qwen3's chat-template switch, applied to every prompt the executor renders (designer, hint,
    agent, nested and trained episodes alike). False keeps 25-turn episodes inside max_len and makes
    the nested plays that score a design see the same prompts as trained play; None: the template's own
    default."""
    designer_thinking: bool | None = None
    """The same switch for the designer's calls alone (its first reply and repairs; the release's
    ``--spade-env-enable-thinking``): a design is one reply, so thinking costs no turns. None: as
    ``enable_thinking``."""

    # ---- rollout engines
    prefix_caching: bool = True
    """vLLM prefix caching (--vllm.enable_prefix_caching): every turn of an episode re-reads its whole
    history, which the cache serves instead of recomputing."""
    design_budget_s: float = Field(1800.0, gt=0)
    """Wall-clock budget of one designer sample: its attempts (generation, checks, hint, and with
    ``semantics.design_scoring = "attempt"`` the nested plays), re-samples included. A sample over it is
    abandoned and masked, so one slow environment cannot hold a step."""

    # ---- the shared state
    state_timeout_s: float = Field(300.0, gt=0)
    """Timeout of every call to the shared-state actor; a call over it fails that one sample."""
    state_restarts: int = Field(3, ge=0)
    """Times Ray restarts a dead shared-state actor (from its latest checkpoint); once they are used up, the
    next sample that needs the state stops the run (``backends/openrlhf/stops.py``)."""
    max_fault_share: float = Field(0.5, gt=0, le=1)
    """The run stops when this share of a step's worth of samples (the last rollout_batch_size *
    n_samples_per_prompt) has faulted: a failure that every sample shares trains on nothing."""
    state_local_dir: str | None = None
    """Local disk for the memory's SQLite database on the actor's node (it needs WAL, which network file
    systems refuse), a directory per run under it; None: the node's temporary directory. Checkpoints
    are copied to the run directory."""
    keep_hf_snapshots: int = Field(2, ge=1)
    """Hugging Face snapshots (--ckpt.save_hf) kept in the checkpoint directory; OpenRLHF keeps all."""

    # ---- self-play schedule
    designer_every: int = Field(4, ge=1)
    """loop.envs_per_iteration new environments per this many steps, on average (rows are shuffled)."""
    designer_delay_steps: int = Field(4, ge=0)
    """Steps before the designer's own samples are trained (its environments are used from the start)."""

    # ---- algorithm
    advantage: Literal["group_norm", "dr_grpo", "release"] = "group_norm"
    """How advantages are formed; every choice keeps each row's group apart, so the two roles never share a
    baseline. "group_norm" (--algo.advantage.estimator group_norm) z-scores every group with the unbiased
    std; "dr_grpo" only centers. "release": the release's advantages, which no OpenRLHF estimator gives,
    computed by the executor (``executor.release_advantages``): an agent row's plays z-scored with the
    population std plus 1e-8, a designer row's rewards centered and multiplied by the release's designer
    scale (min(50, samples per step / loop.envs_per_iteration x designer_every): 32 for the games recipes,
    50 for tool use); OpenRLHF then runs dr_grpo, whose centering finds them centered already."""
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

    # ---- environments
    environments: Literal["self_play", "fixed"] = "self_play"
    """Which environments agent rows play. "self_play": the designer writes them as training goes;
    "fixed": agent rows only, on the pool in fixed_pool (the fixed-pool baselines)."""
    fixed_pool: str | None = None
    """Directory of an exported pool (spade_envs.pool format) as the driver's node sees it."""
    seed_pool: str = "bundled"
    """What agent rows play before the designer's environments arrive: "bundled" (the SDK's library,
    filtered to loop.kinds) or a pool directory."""
    lease_window: int = Field(200, ge=1)
    """Agent rows draw from this many most recently added environments (fixed environments: from all),
    weighted towards those the agent wins about half the time."""
    env_workers: int = Field(8, ge=1)
    """Sandbox worker threads per rollout engine."""
    sandbox_memory_gib: float = Field(16.0, gt=0)
    """Host memory the sandboxes of one rollout engine may hold together (episodes, hint checks and
    validations; each counted at its cap, 256 MB): a session waits until it fits. It sits beside vLLM and,
    when colocated, the trainer's sleeping weights in the node's RAM; the dry run prints the node's total."""
    engine_cpus: float = Field(2.0, ge=0)
    """CPUs reserved on each GPU node per rollout engine for its checks and sandbox threads (OpenRLHF
    schedules the engine with 0.2 CPU, or 1): the driver holds them before the trainer starts, so nothing
    else Ray places takes them; 0 reserves none."""

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
    """A whole run: every section, and the rules that tie sections together."""

    run: RunSection = Field(default_factory=RunSection)
    model: ModelSection = Field(default_factory=ModelSection)
    policies: PoliciesSection = Field(default_factory=PoliciesSection)
    design: DesignSection = Field(default_factory=DesignSection)
    warmup: WarmupSection = Field(default_factory=WarmupSection)
    pretraining: PretrainingSection = Field(default_factory=PretrainingSection)
    loop: LoopSection = Field(default_factory=LoopSection)
    sampling: SamplingSection = Field(default_factory=SamplingSection)
    grpo: GRPOSection = Field(default_factory=GRPOSection)
    probe: ProbeSection = Field(default_factory=ProbeSection)
    openrlhf: OpenRLHFSection = Field(default_factory=OpenRLHFSection)
    semantics: SemanticsSection = Field(default_factory=SemanticsSection)

    @model_validator(mode="after")
    def _consistent(self) -> RunConfig:
        if self.design.language == "signal" and self.loop.kinds != ["multi_turn_game"]:
            raise ValueError("the signal design language writes multi_turn_game environments only; "
                             "set loop.kinds = [\"multi_turn_game\"] or design.language = \"python\"")
        if self.design.hinter == "design" and self.design.language != "signal":
            raise ValueError("design.hinter = \"design\" needs design.language = \"signal\"; use hinter = \"model\"")
        if self.loop.frozen_designer and self.loop.train_designer:
            raise ValueError("loop.frozen_designer samples designs from a frozen copy, which is never trained; "
                             "set loop.train_designer = false as well")
        if self.semantics.resolved().trained_sampling == "full" and self.sampling.truncation():
            raise ValueError(f"sampling.{self.sampling.truncation()[0]} truncates the distribution the trained rows "
                             "are sampled from, while semantics.trained_sampling = \"full\" (toolkit mode) keeps "
                             "their log-probs the trainer's: drop it, or set semantics.trained_sampling = "
                             "\"truncated\"")
        if self.run.backend == "openrlhf":
            if self.loop.frozen_designer:
                raise ValueError("loop.frozen_designer is an embedded-backend option; use loop.train_designer = "
                                 "false with the openrlhf backend")
            _check_openrlhf(self)
        return self

    def designer_rewards(self) -> DesignerRewardConfig:
        """The designer reward's configuration: the loop's variant and penalties, the run's semantics, the
        reference's values for every other knob."""
        from spade_train.rewards import DesignerRewardConfig

        penalty = self.loop.warning_penalty if self.loop.warnings == "penalised" else 0.0
        return DesignerRewardConfig(variant=self.loop.reward, malformed_reward=self.loop.malformed_reward,
                                    repeat_reward=self.loop.repeat_reward, semantics=self.semantics.resolved(),
                                    warning_penalty=penalty)

    def hint_settings(self) -> HintSettings:
        """How the hint call samples (``[sampling] hint_*``) and how its reply is cleaned (the semantics)."""
        from spade_train.hints import HintSettings

        sampling, semantics = self.sampling, self.semantics.resolved()
        return HintSettings(temperature=sampling.hint_temperature, top_p=sampling.hint_top_p,
                            top_k=sampling.hint_top_k, max_tokens=sampling.hint_max_tokens,
                            attempts=sampling.hint_attempts, cleaning=semantics.hint_cleaning,
                            blank=semantics.blank_hints)

    def rollout(self, release: ReleasePrompts | None = None) -> RolloutConfig:
        """How the agent plays an episode in this run: its sampling, the return mode and, for the signal
        language's games, its own system prompt; with the release's prompts (``semantics.release_prompts``),
        its first message as the release writes it."""
        from spade_train.designer.language import design_language
        from spade_train.rollout import RolloutConfig

        semantics = self.semantics.resolved()
        return RolloutConfig(episodes_per_condition=self.loop.episodes_per_condition,
                             unhinted_episodes=self.loop.unhinted_episodes, sampling=self.sampling.agent(),
                             return_mode=self.loop.return_mode, seed=self.run.seed,
                             environment_errors=semantics.environment_errors, failed_plays=semantics.failed_plays,
                             play_seeds=semantics.play_seeds,
                             system_prompt=design_language(self.design.language, self.design.prompt).agent_system_prompt,
                             first_message=release.agent_message if release is not None else None)


def _check_openrlhf(config: RunConfig) -> None:
    """What the OpenRLHF backend needs beyond the embedded one; each message names the fix."""
    section, loop = config.openrlhf, config.loop
    if config.run.logger != "none":
        raise ValueError("run.logger is the embedded run's; the openrlhf backend logs through openrlhf.logger "
                         "(tensorboard or wandb): remove run.logger")
    if config.design.language != "python" or config.design.hinter != "model":
        raise ValueError("the openrlhf backend trains real models: set design.language = \"python\" and "
                         "design.hinter = \"model\"")
    if config.model.path is None:
        raise ValueError("the openrlhf backend needs model.path: a hub id or a checkpoint path on the cluster")
    embedded_only = [name for name in ("entropy_bonus", "kl_to_reference", "role_epochs", "designer_format_recovery")
                if getattr(config.grpo, name)]
    if embedded_only:
        raise ValueError(f"grpo.{embedded_only[0]} is an embedded-backend option (OpenRLHF trains both roles in one "
                         "update): remove it; the openrlhf backend's KL term is openrlhf.kl_coef")
    if config.sampling.designer_temperature != config.sampling.temperature:
        raise ValueError("the openrlhf backend trains both roles at one rollout temperature: set "
                         "sampling.designer_temperature equal to sampling.temperature")
    if section.environments == "fixed" and not section.fixed_pool:
        raise ValueError("openrlhf.environments = \"fixed\" needs openrlhf.fixed_pool, a pool directory")
    if section.environments == "self_play" and loop.envs_per_iteration % section.n_samples_per_prompt:
        raise ValueError(f"loop.envs_per_iteration ({loop.envs_per_iteration}) must be a multiple of "
                         f"openrlhf.n_samples_per_prompt ({section.n_samples_per_prompt}): each designer row "
                         "writes that many environments")
    if section.importance_correction == "seq":
        raise ValueError("openrlhf.importance_correction = \"seq\" averages over each sample's trained tokens, "
                         "and masked samples (environment errors, faults) have none, which makes the loss NaN: "
                         "use \"token\"")
    if section.max_tokens_per_gpu is not None and not section.dynamic_batch:
        raise ValueError("openrlhf.max_tokens_per_gpu is the budget of dynamic micro-batches: set "
                         "openrlhf.dynamic_batch = true or drop it")
    if (section.ring_attn_size > 1 or section.dynamic_batch) and not section.packing_samples:
        raise ValueError("openrlhf.ring_attn_size > 1 and openrlhf.dynamic_batch need packed samples: set "
                         "openrlhf.packing_samples = true")
    if section.async_rollouts and section.colocate:
        raise ValueError("openrlhf.async_rollouts needs GPUs of its own for rollouts: set openrlhf.colocate = false")
    if section.colocate and not section.async_rollouts and (
            section.nodes * section.gpus_per_node != section.vllm_engines * section.vllm_tensor_parallel):
        raise ValueError("with openrlhf.colocate, vllm_engines * vllm_tensor_parallel must equal "
                         "nodes * gpus_per_node (every GPU holds both)")
