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
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from spade_train.embedded.model import TinyModelConfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RunSection(_Section):
    iterations: int = Field(40, ge=1)
    seed: int = 0
    backend: Literal["embedded", "openrlhf"] = "embedded"
    sandbox: Literal["wasm", "process", "inprocess"] = "wasm"
    """Where designed environments run. ``inprocess`` executes model-written code in this interpreter:
    only for code you trust."""
    checkpoint_every: int = Field(1, ge=1)
    """Iterations between checkpoints (a resume restarts from the latest one)."""


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


class RunConfig(_Section):
    """Defaults are the embedded default (``configs/embedded.toml`` spells every one of them out)."""

    run: RunSection = Field(default_factory=RunSection)
    model: ModelSection = Field(default_factory=ModelSection)
    design: DesignSection = Field(default_factory=DesignSection)
    warmup: WarmupSection = Field(default_factory=WarmupSection)
    loop: LoopSection = Field(default_factory=LoopSection)
    sampling: SamplingSection = Field(default_factory=SamplingSection)
    grpo: GRPOSection = Field(default_factory=GRPOSection)

    @model_validator(mode="after")
    def _consistent(self) -> RunConfig:
        if self.design.language == "signal" and self.loop.kinds != ["multi_turn_game"]:
            raise ValueError("the signal design language writes multi_turn_game environments only; "
                             "set loop.kinds = [\"multi_turn_game\"] or design.language = \"python\"")
        if self.design.hinter == "design" and self.design.language != "signal":
            raise ValueError("design.hinter = \"design\" needs design.language = \"signal\"; use hinter = \"model\"")
        return self


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
