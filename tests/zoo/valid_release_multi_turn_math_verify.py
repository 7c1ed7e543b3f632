# expect: valid
"""Market Days: trade one commodity over twelve days of known prices, written as the SPADE release's
multi-turn prompt shows.

The release's multi-turn template: ``from math_verify import parse, verify`` and the ``verify_answer``
helper, ``random.seed(seed)`` in reset (global seeding) with ``random`` used ONLY inside reset,
``self.turn_count``, \\boxed{action} commands, the status line every turn, reward 1.0 for the win
and 0.0 otherwise.

Looks suspicious: it seeds the GLOBAL random module (so two interleaved instances share one
generator) and imports math_verify (outside the standard-library allowlist).
Why it is correct: random is used only inside reset, right after random.seed(seed), so every reset is
deterministic and nothing random happens in step(); interleaving instances cannot change a task. The
prices of all twelve days are shown, the target is the gold the best trading plan reaches, and
solution() is that plan (buy everything before each rise, sell before each fall); random play
stays far from the target.
"""

import random
import re
from typing import Tuple
from math_verify import parse, verify


def verify_answer(player_answer, solution):
    """Check if answer is correct: string match first, then math equivalence."""
    if str(player_answer).strip() == str(solution).strip():
        return True
    try:
        return verify(parse(player_answer), parse(solution))
    except:
        return False


class MarketDaysEnv:
    def __init__(self, max_turns=12, **kwargs):
        self.max_turns = max_turns
        self.turn_count = 0
        self.prices = []
        self.gold = 100
        self.stock = 0
        self.target_gold = 200
        self.done = False
        self.ended = (False, False)
        self.reset()

    def reset(self, seed=None) -> Tuple[str, dict]:
        if seed is not None:
            random.seed(seed)
        self.turn_count = 0
        while True:
            self.prices = [random.randint(5, 30) for _ in range(self.max_turns)]
            self.gold, self.stock = 100, 0
            plan = self._plan()
            if plan and self.target_gold >= 160:
                break
        self.done = False
        self.ended = (False, False)
        return (f"Welcome to Market Days! Prices for every day: {self.prices}. Reach {self.target_gold} gold to win.\n"
                + self._status() + "\nActions: \\boxed{buy N}, \\boxed{sell N}, \\boxed{wait}"), {}

    def _plan(self):
        gold, stock, moves = 100, 0, []
        for day, price in enumerate(self.prices):
            following = self.prices[day + 1] if day + 1 < len(self.prices) else 0
            if stock and following < price:
                gold, moves = gold + stock * price, moves + [f"sell {stock}"]
                stock = 0
            elif not stock and following > price and gold // price:
                stock, moves = gold // price, moves + [f"buy {gold // price}"]
                gold -= stock * price
            else:
                moves.append("wait")
        self.target_gold = gold
        while moves and moves[-1] == "wait":
            moves.pop()
        return moves

    def _status(self):
        day = min(self.turn_count, len(self.prices) - 1)
        return (f"Day {self.turn_count + 1} price: {self.prices[day]} | Gold: {self.gold} | Stock: {self.stock} | "
                f"Turn {self.turn_count}/{self.max_turns}")

    def step(self, action: str) -> Tuple[str, float, bool, bool, dict]:
        if self.done:
            return ("The market is closed.", 0.0, self.ended[0], self.ended[1], {})
        price = self.prices[min(self.turn_count, len(self.prices) - 1)]
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r'\\boxed\{([^}]*)\}', action)
        if not match:
            msg = "Use \\boxed{action} format."
        else:
            cmd = match.group(1).strip().lower()
            amount = re.fullmatch(r"(buy|sell)\s+(\d{1,9})", cmd)
            if amount and amount.group(1) == "buy":
                n = int(amount.group(2))
                if 0 < n and n * price <= self.gold:
                    self.gold -= n * price
                    self.stock += n
                    msg = f"Bought {n} at {price}."
                else:
                    msg = f"Cannot buy {n} (need {n * price} gold, have {self.gold})."
            elif amount:
                n = int(amount.group(2))
                if 0 < n <= self.stock:
                    self.gold += n * price
                    self.stock -= n
                    msg = f"Sold {n} at {price}."
                else:
                    msg = f"Cannot sell {n} (have {self.stock})."
            elif cmd == "wait":
                msg = "You wait."
            else:
                msg = "Unknown action."
        if self.gold >= self.target_gold:
            self.done, self.ended = True, (True, False)
            return (f"{msg} Gold: {self.gold}. You win!", 1.0, True, False, {})
        if truncated:
            self.done, self.ended = True, (False, True)
            return (f"{msg} Time up. Gold: {self.gold}, Stock: {self.stock}. Needed {self.target_gold}.", 0.0, False, True, {})
        return (f"{msg}\n{self._status()}\nActions: \\boxed{{buy N}}, \\boxed{{sell N}}, \\boxed{{wait}}", 0.0, False, False, {})

    def solution(self):
        return [f"\\boxed{{{move}}}" for move in self._plan()]

    def close(self): pass
