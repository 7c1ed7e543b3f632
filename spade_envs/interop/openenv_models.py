"""The messages of a SPADE pool served by OpenEnv: its action, observation and state, as OpenEnv types.

OpenEnv environments come as a models module, a client and a server (``openenv init`` lays them out so):
the server and the typed client (``openenv_client.SpadeEnv``) both build on these classes, so what the
server validates is what the client sends, and what the client reads is what the server sent. They
subclass OpenEnv's own ``Action``, ``Observation`` and ``State``: ``done``, ``reward``, ``metadata``,
``episode_id`` and ``step_count`` mean what they mean for every OpenEnv environment.
"""

from __future__ import annotations

from typing import Any

from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field

from spade_envs.interop.pool_env import MAX_ACTION_CHARS

MAX_EPISODE_ID_CHARS = 255
"""The longest episode id a client may choose (OpenEnv's HTTP ``/reset`` allows as many)."""


class SpadeAction(Action):
    """An agent's reply, sent to the environment whole (it reads the last ``\\boxed{}`` or the tool calls)."""

    text: str = Field(..., max_length=MAX_ACTION_CHARS, description="The agent's reply")


class SpadeObservation(Observation):
    """What the environment showed, with the pool's id of the environment and the episode's ids.

    ``episode_id`` is the one the client gave ``reset`` or, without one, a fresh id the server made: a
    trainer logging many sessions can tell episodes apart, and match them with the server's state.
    """

    text: str = Field(default="", description="The environment's observation")
    env_id: str | None = Field(default=None, description="Which environment of the pool this episode plays")
    episode_id: str | None = Field(default=None, description="The episode this observation belongs to")
    info: dict[str, Any] = Field(default_factory=dict, description="The environment's info dict (JSON values)")
    error: str | None = Field(default=None, description="Why the environment failed, ending the episode")


class SpadeState(State):
    """The episode as the server keeps it (host side: reading it never calls into the sandbox)."""

    env_id: str | None = None
    seed: int | None = None
    episode_return: float = 0.0
    terminated: bool = False
    truncated: bool = False
    error: str | None = None
