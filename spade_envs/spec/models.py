"""Typed records that travel between the SDK, the self-play loop, evaluation and other tools.

Each model has a generated JSON Schema in ``schemas/`` so tools in other languages can read pools
and reports without importing this package.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

EnvKind = Literal["single_answer", "multi_turn_game", "corpus_grounded", "tool_use"]
Severity = Literal["error", "warning"]
CheckStatus = Literal["passed", "failed", "skipped"]

ENV_ID_PATTERN = r"^env-[0-9a-f]{16}$"


def env_id_for(source: str) -> str:
    """Content-hash id of environment code: the same code always gets the same id.

    Line endings and trailing whitespace are normalised first, so copying a file between systems
    does not change its identity.
    """
    normalised = "\n".join(line.rstrip() for line in source.replace("\r\n", "\n").split("\n")).strip()
    return "env-" + hashlib.sha256(normalised.encode("utf-8")).hexdigest()[:16]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GroundingRef(_Model):
    """Which corpus document an environment was written from."""

    corpus: str = Field(description="Name or path of the corpus the document came from.")
    doc_id: str = Field(description="Identifier of the document inside the corpus (line number, key, ...).")
    title: str | None = None
    sha256: str | None = Field(default=None, description="Hash of the (truncated) text shown to the designer.")


class Provenance(_Model):
    """Who wrote an environment, when, and from what."""

    author: str = Field(description="'human' or the designer model's name.")
    created_at: datetime | None = None
    run_id: str | None = None
    step: int | None = Field(default=None, ge=0, description="Training step at which it was generated.")
    parent_id: str | None = Field(default=None, description="Id of the environment this one repairs or varies.")


class EnvSpec(_Model):
    """Everything known about one environment besides its code."""

    id: str = Field(pattern=ENV_ID_PATTERN, description="env- plus the first 16 hex digits of the code's SHA-256.")
    class_name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*Env$")
    kind: EnvKind
    skill: str = Field(min_length=1)
    max_turns: int = Field(ge=1, le=1000)
    reward_range: tuple[float, float] = (-1.0, 1.0)
    hint: str | None = Field(default=None, description="Privileged hint shown to the agent in hinted rollouts.")
    grounding: GroundingRef | None = None
    provenance: Provenance = Provenance(author="human")
    description: str = ""

    @field_validator("reward_range")
    @classmethod
    def _ordered(cls, value: tuple[float, float]) -> tuple[float, float]:
        if value[0] > value[1]:
            raise ValueError(f"reward_range low {value[0]} is above high {value[1]}; write (low, high)")
        return value


class CheckFailure(_Model):
    """One problem found in an environment, phrased so its author (often a model) can fix it."""

    check: str = Field(description="Stable check name, e.g. 'imports' or 'feasible'.")
    message: str
    line: int | None = Field(default=None, ge=1)
    severity: Severity = "error"
    detail: str | None = Field(default=None, description="Extra evidence: the environment's traceback, or a "
                               "fuzz counterexample written as a repair prompt.")
    seed: int | None = Field(default=None, description="Seed of the (shrunk) counterexample, for fuzz failures.")
    actions: list[str] | None = Field(default=None, description="Actions of the (shrunk) counterexample.")
    step: int | None = Field(default=None, ge=0, description="1-based step at which the property broke.")


class CheckOutcome(_Model):
    check: str
    status: CheckStatus
    duration_ms: float = Field(ge=0)


class TierOutcome(_Model):
    """One validation tier (static, contract, feasibility, fuzz); tiers after a failed one are skipped."""

    tier: Literal["static", "contract", "feasibility", "fuzz"]
    status: CheckStatus
    duration_ms: float = Field(ge=0)


class KnownAnswers(_Model):
    """What the known-answer probes measured: replies of known correctness, played where a reference answer
    exists (``spade_envs/checks/known_answers.py``)."""

    seeds: int = Field(ge=0, description="Seeds whose solution is one answer that the replies were played on.")
    good_replies: int = Field(ge=0, description="Right answers written another harmless way that were played.")
    good_refused_share: float = Field(ge=0, le=1, description="Share of those right answers that did not win.")
    bad_replies: int = Field(ge=0, description="Replies without the right answer that were played.")
    bad_reply_ceiling: float = Field(ge=-1, le=1, description="The highest return a known-bad reply earned.")
    answer_free_return: float = Field(ge=-1, le=1, description="The best answer-free strategy's mean return.")
    answer_free_strategy: str | None = Field(default=None, description="Which strategy that was.")


class ValidationReport(_Model):
    """The verdict on one environment file."""

    path: str | None = None
    env_id: str | None = Field(default=None, pattern=ENV_ID_PATTERN)
    class_name: str | None = None
    tool_use: bool | None = None
    backend: str
    ok: bool
    failures: list[CheckFailure] = Field(default_factory=list)
    warnings: list[CheckFailure] = Field(default_factory=list)
    checks: list[CheckOutcome] = Field(default_factory=list)
    tiers: list[TierOutcome] = Field(default_factory=list)
    seeds: list[int] = Field(default_factory=list)
    plan_seed: int | None = Field(default=None, description="The seed the plan's 32-bit seeds were drawn with: "
                                  "`spade-envs validate --plan-seed N` replays the verdict.")
    fuzz_examples: int = Field(default=0, ge=0, description="Hypothesis examples budgeted for the fuzz tier.")
    known_answers: KnownAnswers | None = Field(default=None, description="The known-answer probes' figures, where "
                                               "the feasibility tier played them.")
    duration_s: float = Field(ge=0)

    @model_validator(mode="after")
    def _ok_matches_failures(self) -> ValidationReport:
        if self.ok and self.failures:
            raise ValueError("a report with failures cannot be ok")
        return self


class EpisodeLog(_Model):
    """One played episode, enough to replay it exactly."""

    env_id: str | None = Field(default=None, pattern=ENV_ID_PATTERN)
    seed: int | None
    hint: str | None = None
    actions: list[str]
    observations: list[str] = Field(description="The reset observation, then one per action.")
    rewards: list[float]
    terminated: bool
    truncated: bool
    episode_return: float = Field(ge=-1, le=1)

    @model_validator(mode="after")
    def _aligned(self) -> EpisodeLog:
        if len(self.observations) != len(self.actions) + 1 or len(self.rewards) != len(self.actions):
            raise ValueError(
                "an episode log needs one observation more than actions and one reward per action"
            )
        return self


class PoolEntry(_Model):
    spec: EnvSpec
    code_sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 of the code line in the JSONL file.")
    validated: bool = False
    stats: dict[str, float] = Field(default_factory=dict,
                                    description="Numbers the exporter knew: win rates, regret, times played.")


class PoolManifest(_Model):
    """An exported set of environments: ``manifest.json`` next to ``environments.jsonl``.

    Each JSONL line is ``{"id": ..., "code": ...}`` in the order of ``entries``; the manifest records the
    hash of every code string and of the whole JSONL file.
    """

    format_version: Literal[1] = 1
    name: str
    created_at: datetime | None = None
    jsonl_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    entries: list[PoolEntry] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique_ids(self) -> PoolManifest:
        ids = [entry.spec.id for entry in self.entries]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"duplicate environment ids in the pool: {', '.join(duplicates)}")
        return self
