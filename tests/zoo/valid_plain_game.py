# expect: valid
"""Coin Sprint: reach an exact total by adding coins one at a time (skill: Mathematical Reasoning).

Written the way SPADE designer models write games: a plain class, standard library only, no SDK
imports, actions read from the last \\boxed{...} in the agent's message.
"""

import random
import re


class CoinSprintEnv:
    """Add one coin per turn; land exactly on the target to win, overshoot it and you lose."""

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.coins = []
        self.target = 0
        self.total = 0
        self.turn = 0
        self.done = False
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.coins = sorted(rng.sample(range(3, 20), 3))
        self.target = sum(rng.choice(self.coins) for _ in range(5)) + rng.choice(self.coins)
        self.total = 0
        self.turn = 0
        self.done = False
        observation = (
            f"Coin Sprint. Coins available (unlimited supply): {', '.join(map(str, self.coins))}.\n"
            f"Starting from 0, add one coin per turn to reach exactly {self.target}. Going over the "
            f"target loses. You have {self.max_turns} turns. Answer with the coin value, e.g. "
            f"\\boxed{{{self.coins[0]}}}."
        )
        return observation, {"target": self.target, "coins": list(self.coins)}

    def step(self, action):
        if self.done:
            return "The game is over.", 0.0, True, False, {}
        self.turn += 1
        matches = re.findall(r"\\boxed\{\s*(\d{1,6})\s*\}", action)
        reward, terminated = 0.0, False
        if not matches or int(matches[-1]) not in self.coins:
            observation = f"Invalid move. Answer with one of the coins: {', '.join(map(str, self.coins))}."
        else:
            self.total += int(matches[-1])
            if self.total == self.target:
                observation, reward, terminated = f"Exactly {self.target}. You win!", 1.0, True
            elif self.total > self.target:
                observation, terminated = f"The total is {self.total}, over {self.target}. You lose.", True
            else:
                observation = f"The total is now {self.total}; {self.target - self.total} to go."
        truncated = not terminated and self.turn >= self.max_turns
        if truncated:
            observation += " Out of turns."
        self.done = terminated or truncated
        return observation, reward, terminated, truncated, {"total": self.total}

    def solution(self):
        """Fewest coins summing to the target (breadth-first search over totals)."""
        previous = {0: None}
        frontier = [0]
        while self.target not in previous:
            following = []
            for total in frontier:
                for coin in self.coins:
                    if total + coin <= self.target and total + coin not in previous:
                        previous[total + coin] = (total, coin)
                        following.append(total + coin)
            frontier = following
        moves, total = [], self.target
        while previous[total] is not None:
            total, coin = previous[total]
            moves.append(f"\\boxed{{{coin}}}")
        return moves[::-1]

    def close(self):
        pass
