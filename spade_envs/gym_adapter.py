"""Present any SPADE environment as a ``gymnasium.Env`` with text observation and action spaces.

The adapter wraps an ``EnvSession``, so the environment keeps running wherever its backend runs it
while RL libraries see the standard Gymnasium API. The two entry points run it in the WebAssembly
sandbox unless given another backend: ``SpadeGymEnv.from_source(code)`` for an environment's source
text (a file's contents), ``SpadeGymEnv.from_pool("DIR#ID")`` for one environment of a pool.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
from gymnasium import spaces

from spade_envs.pool import PoolError, read_pool_ref
from spade_envs.runtime.backend import DEFAULT_BACKEND, ExecutionBackend, create_backend
from spade_envs.runtime.session import EnvSession

MAX_TEXT_LENGTH = 1 << 20
SAMPLE_CHARSET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 {}\\"


class TextSpace(spaces.Text):
    """A Gymnasium ``Text`` space that accepts any string up to ``max_length``.

    Gymnasium's ``Text`` only admits characters from a fixed charset, but observations written by
    environment code use arbitrary unicode (board glyphs, arrows). Sampling still draws from a small
    readable charset, which is what random-policy baselines need.
    """

    def __init__(self, max_length: int = MAX_TEXT_LENGTH, seed: int | None = None) -> None:
        super().__init__(max_length=max_length, min_length=0, charset=SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        # Keep random samples short: a megabyte of noise is no use as an action.
        length = int(self.np_random.integers(1, 33))
        chars = self.np_random.choice(list(SAMPLE_CHARSET), size=length)
        return "".join(chars)


class SpadeGymEnv(gym.Env[str, str]):
    """A ``gymnasium.Env`` backed by an environment session."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(self, session: EnvSession, render_mode: str | None = None) -> None:
        self.session = session
        self.render_mode = render_mode
        self.observation_space = TextSpace()
        self.action_space = TextSpace()
        self._last_observation = ""

    @classmethod
    def from_source(
        cls,
        source: str,
        backend: ExecutionBackend | None = None,
        *,
        max_turns: int | None = None,
        render_mode: str | None = None,
        class_name: str | None = None,
        **init_kwargs: Any,
    ) -> SpadeGymEnv:
        """The environment in ``source`` (its module's text), in ``backend`` (default: the wasm sandbox)."""
        backend = backend or create_backend(DEFAULT_BACKEND)
        session = backend.open_session(source, class_name=class_name, max_turns=max_turns, init_kwargs=init_kwargs)
        return cls(session, render_mode=render_mode)

    @classmethod
    def from_pool(
        cls,
        reference: str,
        backend: ExecutionBackend | None = None,
        *,
        max_turns: int | None = None,
        render_mode: str | None = None,
    ) -> SpadeGymEnv:
        """One environment of a pool, named ``DIR#ID`` (a pool of one environment may be named ``DIR``);
        verified against the pool's manifest first (a ``PoolError`` says what is wrong)."""
        entries = read_pool_ref(reference)
        if len(entries) != 1:
            raise PoolError(f"{reference} holds {len(entries)} environments; name one as DIR#ID")
        (entry, source), = entries
        return cls.from_source(source, backend, max_turns=max_turns, render_mode=render_mode,
                               class_name=entry.spec.class_name)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        # Without an explicit seed, draw one from the seeded generator so episodes stay reproducible.
        env_seed = seed if seed is not None else int(self.np_random.integers(0, 2**31 - 1))
        result = self.session.reset(env_seed)
        self._last_observation = result.observation
        return result.observation, dict(result.info)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        result = self.session.step(action)
        self._last_observation = result.observation
        return result.observation, result.reward, result.terminated, result.truncated, dict(result.info)

    def render(self) -> str | None:
        return self._last_observation if self.render_mode == "ansi" else None

    def close(self) -> None:
        self.session.close()
