"""Play an episode from a script of actions and record it as an ``EpisodeLog``.

Used to replay solutions and counterexamples, by ``spade-envs play --actions``, and by benchmarks:
one definition of "play these actions from this seed" for every caller.
"""

from __future__ import annotations

from collections.abc import Sequence

from spade_envs.contract.episode import episode_return
from spade_envs.runtime.session import EnvSession
from spade_envs.spec.models import EpisodeLog


def play_scripted(
    session: EnvSession,
    seed: int | None,
    actions: Sequence[str],
    *,
    hint: str | None = None,
    env_id: str | None = None,
) -> EpisodeLog:
    """Reset with ``seed`` and send ``actions`` until they run out or the episode ends."""
    first = session.reset(seed).observation
    observations = [f"{first}\n\nHINT: {hint}" if hint else first]
    played: list[str] = []
    rewards: list[float] = []
    terminated = truncated = False
    for action in actions:
        step = session.step(action)
        played.append(action)
        observations.append(step.observation)
        rewards.append(step.reward)
        terminated, truncated = step.terminated, step.truncated
        if step.done:
            break
    return EpisodeLog(
        env_id=env_id,
        seed=seed,
        hint=hint,
        actions=played,
        observations=observations,
        rewards=rewards,
        terminated=terminated,
        truncated=truncated,
        episode_return=episode_return(rewards, terminated),
    )
