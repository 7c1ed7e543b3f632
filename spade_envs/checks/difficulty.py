"""Is the environment trivially solvable? Play policies that know nothing and count their wins.

An environment that a constant answer, an empty reply or random words from the observation can win
teaches nothing, and it fools regret: the hint looks useless because the task needs no insight.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from spade_envs.contract.actions import observation_tokens
from spade_envs.contract.episode import is_win
from spade_envs.runtime.session import EnvSession

Policy = Callable[[str, random.Random], str]


class _Constant:
    """A policy that always sends the same action (so its episodes can be played as one script)."""

    def __init__(self, action: str) -> None:
        self.constant = action

    def __call__(self, observation: str, rng: random.Random) -> str:
        return self.constant


def trivial_policies(solution_moves: list[str], tool_use: bool) -> dict[str, Policy]:
    """Named policies: constants (including the most common solution move) and random observation tokens."""
    constants = ["", "\\boxed{0}"]
    if tool_use:
        constants += ["<answer>0</answer>", "<answer>done</answer>"]
    if solution_moves:
        constants.append(Counter(solution_moves).most_common(1)[0][0])
    policies: dict[str, Policy] = {f"constant {c!r}": _Constant(c) for c in dict.fromkeys(constants)}

    def random_token(observation: str, rng: random.Random) -> str:
        tokens = observation_tokens(observation) or ["0"]
        token = rng.choice(tokens)
        return f"<answer>{token}</answer>" if tool_use else f"\\boxed{{{token}}}"

    policies["random observation tokens"] = random_token
    return policies


def trivial_win_rates(
    env: EnvSession,
    seeds: list[int],
    turn_limit: int,
    solution_moves: list[str],
    tool_use: bool,
    *,
    stop_at: float = 1.0,
) -> dict[str, float]:
    """Win rate of every trivial policy over ``seeds``.

    A policy stops early once its wins alone reach ``stop_at`` of the seeds: the verdict is known.
    """
    rates = {}
    for name, policy in trivial_policies(solution_moves, tool_use).items():
        wins = 0
        constant = getattr(policy, "constant", None)
        for seed in seeds:
            if constant is not None:  # a scripted episode: one round trip
                _, steps = env.play(seed, [constant] * turn_limit)
                wins += bool(steps) and steps[-1].done and is_win([s.reward for s in steps], steps[-1].terminated)
                if wins >= stop_at * len(seeds):
                    break
                continue
            rng = random.Random(seed)
            observation = env.reset(seed).observation
            rewards: list[float] = []
            for _ in range(turn_limit):
                step = env.step(policy(observation, rng))
                rewards.append(step.reward)
                observation = step.observation
                if step.done:
                    wins += is_win(rewards, step.terminated)
                    break
            if wins >= stop_at * len(seeds):
                break
        rates[name] = wins / len(seeds)
    return rates
