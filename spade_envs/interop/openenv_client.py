"""A typed OpenEnv client for a SPADE pool server: ``SpadeEnv``, with ``SpadeAction`` and ``SpadeObservation``.

OpenEnv's example environments each ship a client, an ``EnvClient`` subclass that turns typed actions
into the step message and the server's replies back into typed observations and state; this is that
client for ``spade-envs serve-openenv``. ``GenericEnvClient`` still works (it speaks plain dicts), but
with ``SpadeEnv`` a typo in a field name is an error where it is made, not a ``KeyError`` later::

    with SpadeEnv(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(seed=0, env_id="env-8eb2", hinted=True)
        result = env.step(SpadeAction(text="\\\\boxed{A C}"))
        print(result.observation.text, result.reward, env.state().episode_return)

``reset`` takes ``seed``, ``episode_id`` (the server makes a fresh one when it is left out), ``env_id``
(a pool id, or a start of one that only one environment has) and ``hinted``. Importing this module
needs OpenEnv but none of the server's packages beyond it.
"""

from __future__ import annotations

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from spade_envs.interop.openenv_models import SpadeAction, SpadeObservation, SpadeState

__all__ = ["SpadeAction", "SpadeEnv", "SpadeObservation", "SpadeState"]


class SpadeEnv(EnvClient[SpadeAction, SpadeObservation, SpadeState]):
    """A client session with a SPADE pool served by OpenEnv: one sandbox session on the server.

    Async by default, as every ``EnvClient``; ``.sync()`` gives the blocking wrapper. Each instance is one
    server-side session: episodes played through it reuse its sandbox while they play the same environment.
    """

    def _step_payload(self, action: SpadeAction) -> dict[str, Any]:
        """The step message's data; anything but a ``SpadeAction`` is refused before it is sent."""
        if not isinstance(action, SpadeAction):
            raise TypeError(f"SpadeEnv.step takes a SpadeAction, e.g. SpadeAction(text=reply); "
                            f"got {type(action).__name__}")
        payload: dict[str, Any] = {"text": action.text}
        if action.metadata:
            payload["metadata"] = action.metadata
        return payload

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[SpadeObservation]:
        """A reply to reset or step as a typed observation.

        Fields this client does not know are dropped rather than refused (OpenEnv's observations forbid
        unknown fields), so a newer server that reports more still works with an older client.
        """
        fields = payload.get("observation", {})
        known = {name: value for name, value in fields.items() if name in SpadeObservation.model_fields}
        observation = SpadeObservation.model_validate({
            **known,
            "done": payload.get("done", False),
            "reward": payload.get("reward"),
            "metadata": payload.get("metadata") or known.get("metadata") or {},
        })
        return StepResult(observation=observation, reward=payload.get("reward"), done=payload.get("done", False),
                          metadata=payload.get("metadata"))

    def _parse_state(self, payload: dict[str, Any]) -> SpadeState:
        """The server's state of the episode (OpenEnv's ``State`` keeps fields it does not declare)."""
        return SpadeState.model_validate(payload)
