"""Which model plays which role of a run: the designer, the agent and the hint writer.

SPADE trains one model in both roles (``Policies.shared``), and the embedded default answers the hint
writer's call with ``DesignHinter``, which names a signal design's code. An inference-only run
(``spade-train generate-pool``) may put a different model in each role, named in ``[policies]``
(``inference_policies``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spade_train.policies.base import Policy

if TYPE_CHECKING:
    from spade_train.config.sections import RunConfig


@dataclass(frozen=True)
class Policies:
    """The model behind each role."""

    designer: Policy
    agent: Policy
    hinter: Policy

    @classmethod
    def shared(cls, model: Policy, config: RunConfig) -> Policies:
        """One model in every role, as the paper trains it; the hint writer is ``design.hinter``'s."""
        return cls(designer=model, agent=model, hinter=hint_writer(config, model))


def hint_writer(config: RunConfig, model: Policy) -> Policy:
    """``design.hinter``: the model itself, or the embedded hint writer of signal designs."""
    if config.design.hinter == "design":
        from spade_train.designer.signal_language import DesignHinter

        return DesignHinter()
    return model


def inference_policies(config: RunConfig) -> Policies:
    """The models ``[policies]`` names, loaded (a bad spec or an unreachable server is a one-line error)."""
    from spade_train.config.files import ConfigError
    from spade_train.policies.factory import load_policy

    section = config.policies
    if section.designer is None:
        raise ConfigError("an inference-only run needs policies.designer: a server URL, a checkpoint directory "
                          "or a policy spec (e.g. --set policies.designer=http://127.0.0.1:8000/v1)")
    api_key = os.environ.get(section.api_key_env) if section.api_key_env else None
    if section.api_key_env and api_key is None:
        raise ConfigError(f"policies.api_key_env names {section.api_key_env}, which is not set")

    def load(model: str) -> Policy:
        remote = model.startswith(("http://", "https://", "openai:"))
        return load_policy(model, **({"api_key": api_key} if api_key and remote else {}))

    designer = load(section.designer)
    agent = load(section.agent) if section.agent else designer
    hinter = load(section.hinter) if section.hinter else designer
    return Policies(designer=designer, agent=agent, hinter=hint_writer(config, hinter))
