"""Present any SPADE environment as a ``gymnasium.Env`` with text observation and action spaces.

The adapter wraps an ``EnvSession``, so the environment keeps running wherever its backend runs it
(sandboxed or not) while RL libraries see the standard Gymnasium API.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium import spaces

from spade_envs.runtime.backend import ExecutionBackend, create_backend
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

    metadata = {"render_modes": ["ansi"]}

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
        **init_kwargs: Any,
    ) -> SpadeGymEnv:
        backend = backend or create_backend("inprocess")
        session = backend.open_session(source, max_turns=max_turns, init_kwargs=init_kwargs)
        return cls(session, render_mode=render_mode)

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
