"""Pool environments in GEM's registry: ``gem.make("spade/ENV_ID")`` returns one, sandboxed.

GEM (``gem-llm`` on PyPI) builds environments by id from its registry (``gem.register``/``gem.make``,
and ``gem.make_vec`` for vectors of them). ``register_pool`` adds each environment of a pool under
``PREFIX/ID`` and, with ``pool_id``, the whole pool under one id (an episode's environment then follows
from its seed, as in ``SandboxedPoolEnv``). The environment GEM gets is a ``gem.Env`` whose every call
goes to a sandbox session of its own; the code never runs in the trainer's interpreter.

GEM's registry is its own module-level table; registering an id twice is GEM's error, so
``register_pool`` skips ids that are already registered for the same code (the id is the code's hash).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gem
from gem.envs.registration import ENV_REGISTRY

from spade_envs.contract.actions import observation_tokens
from spade_envs.interop.pool_env import PoolEnvironment, SandboxedPoolEnv, load_pool, sandbox_backend
from spade_envs.runtime.backend import DEFAULT_BACKEND, ExecutionBackend

DEFAULT_PREFIX = "spade"


class SpadeGemEnv(gem.Env):
    """A GEM environment over pool environments, each episode in a sandbox session.

    ``seed`` is the default seed of ``reset()`` (``gem.make_vec`` passes one per copy); ``hinted`` appends
    the accepted hint to the first observation. ``backend`` is shared when given (``register_pool`` gives
    every environment it registers one backend: a sandbox runtime per ``gem.make`` would start and stop
    an engine and its epoch timer each time); without it one is made from ``sandbox``.
    """

    def __init__(self, environments: Sequence[PoolEnvironment], sandbox: str = DEFAULT_BACKEND,
                 call_timeout_s: float = 10.0, hinted: bool = False, seed: int | None = None,
                 backend: ExecutionBackend | None = None, **kwargs: Any) -> None:
        super().__init__()
        self.env = SandboxedPoolEnv(environments, backend or sandbox_backend(sandbox, call_timeout_s))
        self.hinted = hinted
        self.default_seed = seed
        self._last_observation = ""
        self._rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        chosen = seed if seed is not None else self.default_seed
        observation, info = self.env.reset(chosen, hinted=self.hinted)
        self._last_observation = observation
        return observation, info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        transition = self.env.step(action)
        self._last_observation = transition.observation
        # A failed environment ends the episode: reported as terminated, the error in info.
        terminated = transition.terminated or self.env.error is not None
        return transition.observation, transition.reward, terminated, transition.truncated, transition.info

    def sample_random_action(self) -> str:
        """A random well-formed move: a word of the last observation, boxed (an answer tag for tool use)."""
        words = observation_tokens(self._last_observation) or ["1"]
        word = self._rng.choice(words)
        tool_use = self.env.current is not None and self.env.current.spec.kind == "tool_use"
        return f"<answer>{word}</answer>" if tool_use else f"\\boxed{{{word}}}"

    def close(self) -> None:
        self.env.close()


def register_pool(pool: str | Path, *, prefix: str = DEFAULT_PREFIX, pool_id: str | None = None,
                  sandbox: str = DEFAULT_BACKEND, hinted: bool = False, allow_unvalidated: bool = False) -> list[str]:
    """Register every environment of ``pool`` (a directory, ``DIR#ID`` or ``bundled``) with GEM.

    Returns the ids registered (``PREFIX/ENV_ID`` each, and ``pool_id`` for the whole pool when given). A pool
    with unvalidated environments is refused unless ``allow_unvalidated``.
    """
    environments = load_pool(pool, allow_unvalidated=allow_unvalidated)
    options = {"backend": sandbox_backend(sandbox), "hinted": hinted}
    registered = []
    for environment in environments:
        gem_id = f"{prefix}/{environment.id}"
        if gem_id not in ENV_REGISTRY:
            gem.register(gem_id, entry_point=SpadeGemEnv, environments=[environment], **options)
        registered.append(gem_id)
    if pool_id is not None:
        if pool_id in ENV_REGISTRY:
            raise ValueError(f"GEM already has an environment {pool_id!r}; choose another pool_id")
        gem.register(pool_id, entry_point=SpadeGemEnv, environments=environments, **options)
        registered.append(pool_id)
    return registered
