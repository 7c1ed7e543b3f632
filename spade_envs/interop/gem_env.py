"""Pool environments in GEM's registry: ``gem.make("spade:POOL/HanoiTower-v0")`` returns one, sandboxed.

GEM (``gem-llm`` on PyPI) builds environments by id from its registry (``gem.register``/``gem.make``,
and ``gem.make_vec`` for vectors of them). ``register_pool`` adds each environment of a pool under a
readable id made of the pool's name and the environment's class name (``gem_ids`` says how, and how two
environments of one class are told apart), keeps the hash ids of earlier releases (``spade/ENV_ID``) as
aliases, and with ``pool_id`` adds the whole pool under one id (an episode's environment then follows
from its seed, as in ``SandboxedPoolEnv``). The environment GEM gets is a ``gem.Env`` whose every call
goes to a sandbox session of its own; the code never runs in the trainer's interpreter.

GEM's registry is its own module-level table; registering an id twice is GEM's error, so
``register_pool`` skips ids already registered for the same code, and refuses (one line) a readable id
that another pool of the same name registered for other code.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gem
from gem.envs.registration import ENV_REGISTRY

from spade_envs.contract.actions import observation_tokens
from spade_envs.errors import SpadeError
from spade_envs.interop.gem_ids import legacy_id, readable_ids
from spade_envs.interop.pool_env import (
    PoolEnvironment,
    SandboxedPoolEnv,
    load_pool,
    pool_card,
    sandbox_backend,
)
from spade_envs.runtime.backend import DEFAULT_BACKEND, ExecutionBackend

DEFAULT_PREFIX = "spade"
SPAWN_SETTINGS = frozenset({"seed", "hinted"})
"""What ``spawn`` may change; the copy shares the rest (the pool's environments and the sandbox backend)."""


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
        self._actions: list[str] = []
        self._rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        chosen = seed if seed is not None else self.default_seed
        observation, info = self.env.reset(chosen, hinted=self.hinted)
        self._last_observation, self._actions = observation, []
        return observation, info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        transition = self.env.step(action)
        self._last_observation = transition.observation
        self._actions.append(action)
        # A failed environment ends the episode: reported as terminated, the error in info.
        terminated = transition.terminated or self.env.error is not None
        return transition.observation, transition.reward, terminated, transition.truncated, transition.info

    def sample_random_action(self) -> str:
        """A random well-formed move: a word of the last observation, boxed (an answer tag for tool use)."""
        words = observation_tokens(self._last_observation) or ["1"]
        word = self._rng.choice(words)
        tool_use = self.env.current is not None and self.env.current.spec.kind == "tool_use"
        return f"<answer>{word}</answer>" if tool_use else f"\\boxed{{{word}}}"

    def spawn(self, same_state: bool = False, **kwargs: Any) -> SpadeGemEnv:
        """A fresh instance of this environment, as GEM's ``Env.spawn`` defines it.

        The copy plays the same pool environments on the same sandbox backend, in a sandbox session of
        its own, with this one's settings unless ``kwargs`` override them (``seed``, the default seed of
        its resets, and ``hinted``). With ``same_state`` it also continues this episode where it stands:
        it resets with the episode's seed and replays its actions, which reaches the same state because a
        validated environment is deterministic (the validator checks that a seed and the actions fix the
        trajectory). The replay is checked: a copy that ends elsewhere is a ``SpadeError``, never returned.
        """
        unknown = sorted(set(kwargs) - SPAWN_SETTINGS)
        if unknown:
            raise TypeError(f"spawn() got {', '.join(unknown)}; it takes same_state and "
                            f"{', '.join(sorted(SPAWN_SETTINGS))}")
        settings = {"seed": self.default_seed, "hinted": self.hinted, **kwargs}
        child = SpadeGemEnv(self.env.environments, backend=self.env.backend, **settings)
        for name in ("env_id", "entry_point"):  # what gem.make set on this instance
            if hasattr(self, name):
                setattr(child, name, getattr(self, name))
        if same_state and self.env.current is not None:
            child._replay(self)
        return child

    def _replay(self, parent: SpadeGemEnv) -> None:
        """Play ``parent``'s episode so far in this instance's own sandbox session (see ``spawn``)."""
        if parent.env.seed is None:
            raise SpadeError("spawn(same_state=True) needs an episode reset with a seed; without one the "
                             "environment picks its own and a replay would not reach the same state")
        observation, _ = self.env.reset(parent.env.seed, env_id=parent.env.current.id, hinted=parent.hinted)
        for action in parent._actions:
            observation = self.env.step(action).observation
        self._last_observation, self._actions = observation, list(parent._actions)
        if observation != parent._last_observation:
            self.close()
            raise SpadeError(f"spawn(same_state=True) replayed {len(parent._actions)} actions of "
                             f"{parent.env.current.id} and reached another state; is the environment deterministic?")

    def close(self) -> None:
        self.env.close()


def register_pool(pool: str | Path, *, prefix: str = DEFAULT_PREFIX, name: str | None = None,
                  pool_id: str | None = None, sandbox: str = DEFAULT_BACKEND, hinted: bool = False,
                  allow_unvalidated: bool = False) -> list[str]:
    """Register every environment of ``pool`` (a directory, ``DIR#ID`` or ``bundled``) with GEM.

    Returns the readable ids registered, in the pool's order (``PREFIX:POOL/ClassName-v0`` each, see
    ``gem_ids``; POOL is the manifest's name unless ``name`` gives another), and ``pool_id`` last when
    given. Each environment's hash id ``PREFIX/ENV_ID`` is registered too, as an alias. A pool with
    unvalidated environments is refused unless ``allow_unvalidated``.
    """
    environments = load_pool(pool, allow_unvalidated=allow_unvalidated)
    readable = readable_ids(environments, name or pool_card(pool).name, prefix)
    wanted = [*readable.items(), *((legacy_id(environment, prefix), environment) for environment in environments)]
    for gem_id, environment in wanted:  # every conflict is found before anything is registered
        _check_free(gem_id, environment)
    if pool_id is not None and pool_id in ENV_REGISTRY:
        raise ValueError(f"GEM already has an environment {pool_id!r}; choose another pool_id")
    options = {"backend": sandbox_backend(sandbox), "hinted": hinted}
    for gem_id, environment in wanted:
        if gem_id not in ENV_REGISTRY:
            gem.register(gem_id, entry_point=SpadeGemEnv, environments=[environment], **options)
    if pool_id is None:
        return list(readable)
    gem.register(pool_id, entry_point=SpadeGemEnv, environments=environments, **options)
    return [*readable, pool_id]


def _check_free(gem_id: str, environment: PoolEnvironment) -> None:
    """Refuse ``gem_id`` when GEM has it for anything but this environment's code (same code: harmless)."""
    existing = ENV_REGISTRY.get(gem_id)
    if existing is None:
        return
    held = [e.id for e in existing.kwargs.get("environments", [])] if existing.entry_point is SpadeGemEnv else []
    if held != [environment.id]:
        raise ValueError(f"GEM already has {gem_id!r} for other code ({', '.join(held) or existing.entry_point}); "
                         "register this pool under another name (register_pool(..., name=...))")
