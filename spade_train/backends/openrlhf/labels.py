"""The prompt rows OpenRLHF reads: placeholders whose label says which role the row's samples play.

OpenRLHF sends every row of its prompt dataset to one rollout engine, which runs the agent executor
``n_samples_per_prompt`` times on it, and ``group_norm`` compares those samples with each other. SPADE
has no fixed prompts (a designer prompt depends on the memory at that moment, an agent prompt on the
environment it is given), so a row carries only its role and the executor builds the real prompt when
the row is played. The label also names the run's shared-state actor, so one executor file serves any run.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spade_envs.spec.models import EnvKind

Role = Literal["designer", "agent"]
LABEL_FORMAT = 2


class LabelError(ValueError):
    """A row label the executor cannot use; the message names the problem."""


class RowLabel(BaseModel):
    """What one prompt row asks for. Serialised as compact JSON into the row's ``label`` column."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    spade: Literal[2] = LABEL_FORMAT
    """Marks the label as ours and versions its format."""
    role: Role
    row: int = Field(ge=0)
    """Index of the row in the data file: the samples of one row share a plan (designer) or a lease (agent)."""
    samples: int = Field(ge=1)
    """How many samples OpenRLHF draws from this row (n_samples_per_prompt)."""
    actor: str = Field(min_length=1)
    """Name of the run's shared-state actor (``ray_actor.state_actor_name``)."""
    namespace: str = Field(min_length=1)
    skill: str | None = None
    """Designer rows: the skill the environment must exercise."""
    kind: EnvKind | None = None
    """Designer rows: the kind of environment to write."""
    hinted: bool = False
    """Agent rows: play with the environment's hint (the hinted training condition)."""

    def to_json(self) -> str:
        return self.model_dump_json(exclude_defaults=False)

    def prompt_text(self) -> str:
        """The row's placeholder prompt: readable in OpenRLHF's logs, unique per row."""
        if self.role == "designer":
            return f"[spade designer row {self.row}] write a {self.kind} environment for {self.skill}"
        condition = "with its hint" if self.hinted else "without a hint"
        return f"[spade agent row {self.row}] play one of the run's environments {condition}"

    @classmethod
    def parse(cls, text: str) -> RowLabel:
        """The label in ``text``; ``LabelError`` if it is not a SPADE row label."""
        try:
            raw = json.loads(text)
        except (TypeError, ValueError):
            raise LabelError(f"the row label is not JSON ({str(text)[:60]!r}); the prompt data must come from "
                             "spade-train run with run.backend = \"openrlhf\"") from None
        try:
            label = cls.model_validate(raw)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise LabelError(f"row label field {where or '(root)'}: {first['msg']}") from None
        if label.role == "designer" and (label.skill is None or label.kind is None):
            raise LabelError("a designer row label needs a skill and a kind")
        return label
