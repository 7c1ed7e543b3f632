"""Play an episode from a script of actions and record it as an ``EpisodeLog``.

Used to replay solutions and counterexamples, by ``spade-envs play --actions``, and by benchmarks:
one definition of "play these actions from this seed" for every caller.
"""

from __future__ import annotations

from collections.abc import Sequence

from spade_envs.contract.episode import episode_return, inject_hint
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
    observations = [inject_hint(first, hint)]
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


def compare_episodes(recorded: EpisodeLog, replayed: EpisodeLog) -> list[str]:
    """Every difference between a recorded episode and its replay, one line each (empty: identical)."""
    differences = []
    if replayed.observations[:1] != recorded.observations[:1]:
        differences.append(f"reset: observation differs: recorded {recorded.observations[0][:80]!r}, "
                           f"replayed {replayed.observations[0][:80]!r}")
    for index, action in enumerate(recorded.actions, start=1):
        if index > len(replayed.actions):
            differences.append(f"step {index}: the replay ended before {action[:40]!r} (it terminated earlier)")
            break
        old_obs, new_obs = recorded.observations[index], replayed.observations[index]
        if old_obs != new_obs:
            differences.append(f"step {index} ({action[:40]!r}): observation differs: recorded "
                               f"{old_obs[:80]!r}, replayed {new_obs[:80]!r}")
        old_reward, new_reward = recorded.rewards[index - 1], replayed.rewards[index - 1]
        if repr(old_reward) != repr(new_reward):
            differences.append(f"step {index} ({action[:40]!r}): reward differs: recorded {old_reward!r}, "
                               f"replayed {new_reward!r}")
    if not differences and (recorded.terminated, recorded.truncated) != (replayed.terminated, replayed.truncated):
        differences.append(f"end: recorded terminated={recorded.terminated} truncated={recorded.truncated}, "
                           f"replayed terminated={replayed.terminated} truncated={replayed.truncated}")
    return differences
