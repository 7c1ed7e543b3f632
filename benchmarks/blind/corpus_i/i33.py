"""Caravan Trader: buy low, haul, sell high and reach a gold target (skill: Planning, Arithmetic).

Three towns trade three goods at fixed prices that differ from town to town. The trader starts with
20 gold and a cart that holds 10 units, in the first town. Two goods have a profitable route in
opposite directions; the gold target is what a trader who works both routes reaches in nine turns,
rounded down to a multiple of five, against a budget of 12 turns.
"""

from __future__ import annotations

import random
import re
from typing import Any

_TOWNS = ["Ashford", "Brightwater", "Coldharbour", "Dunmere", "Eastwick", "Fairhaven", "Glenrock"]
_GOODS = ["salt", "wool", "spice", "copper", "silk", "grain", "tea"]
_CART = 10
_START_GOLD = 20
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class CaravanTraderEnv:
    """Trade goods between three towns until your purse reaches the target."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._towns: list[str] = []
        self._goods: list[str] = []
        self._prices: dict[tuple[str, str], int] = {}
        self._town = ""
        self._gold = _START_GOLD
        self._cart: dict[str, int] = {}
        self._target = 0
        self._plan: list[str] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw towns, goods and prices; the target comes from simulating the two-route plan."""
        rng = random.Random(seed)
        towns = rng.sample(_TOWNS, 3)
        goods = rng.sample(_GOODS, 3)
        a, b, c = towns
        x, y, z = goods
        prices: dict[tuple[str, str], int] = {}
        prices[(a, x)] = rng.randint(3, 5)
        prices[(b, x)] = prices[(a, x)] + rng.randint(4, 7)
        prices[(c, x)] = prices[(a, x)] + rng.randint(0, 2)
        prices[(b, y)] = rng.randint(3, 5)
        prices[(a, y)] = prices[(b, y)] + rng.randint(3, 6)
        prices[(c, y)] = prices[(b, y)] + rng.randint(0, 2)
        for town in towns:
            prices[(town, z)] = rng.randint(6, 9)
        self._towns, self._goods, self._prices = towns, goods, prices
        self._town, self._gold, self._cart = a, _START_GOLD, {}
        gold, plan = _START_GOLD, []
        for town_from, town_to, good in ((a, b, x), (b, a, y), (a, b, x)):
            units = min(_CART, gold // prices[(town_from, good)])
            gold += units * (prices[(town_to, good)] - prices[(town_from, good)])
            plan += [f"buy {good} {units}", f"travel {town_to}", f"sell {good} {units}"]
        self._target, self._plan = gold // 5 * 5, plan
        self._turn, self._terminated, self._truncated = 0, False, False
        table = "\n".join(f"  {town:<12}" + "  ".join(f"{good} {prices[(town, good)]:>2}" for good in goods)
                          for town in towns)
        intro = (
            f"Caravan Trader. You are in {a} with {_START_GOLD} gold and an empty cart that holds {_CART} units.\n"
            f"Reach {self._target} gold within {self.max_turns} turns to win.\n"
            "Prices per unit (the same for buying and selling):\n" + table + "\n"
            "Commands, one per turn: \\boxed{buy salt 4}, \\boxed{sell salt 4} (a quantity of at least 1) and "
            "\\boxed{travel Ashford}. Buying costs price x quantity; selling pays it."
        )
        return intro, self._info()

    def _status(self) -> str:
        cart = ", ".join(f"{good} x{n}" for good, n in sorted(self._cart.items()) if n) or "empty"
        return f"In {self._town}: {self._gold} gold, cart: {cart}. Target: {self._target} gold."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "gold": self._gold, "town": self._town}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Carry out one trade or journey; reaching the target gold wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        text = " ".join(_move_text(action).split())
        trade = re.fullmatch(r"(buy|sell)\s+([A-Za-z]+)\s+(-?\d{1,6})", text, re.IGNORECASE)
        trip = re.fullmatch(r"(?:travel|go)(?:\s+to)?\s+([A-Za-z]+)", text, re.IGNORECASE)
        if trip:
            town = trip.group(1).capitalize()
            if town not in self._towns:
                obs = f"No road leads to '{trip.group(1)}'. Towns: {', '.join(self._towns)}."
            elif town == self._town:
                obs = f"You are already in {town}."
            else:
                self._town = town
                obs = f"You travel to {town}."
        elif trade:
            verb, good, qty = trade.group(1).lower(), trade.group(2).lower(), int(trade.group(3))
            price = self._prices.get((self._town, good))
            held = self._cart.get(good, 0)
            if price is None:
                obs = f"Nobody trades '{good}' here. Goods: {', '.join(self._goods)}."
            elif qty == 0:
                obs = "The quantity must be a whole number of at least 1."
            elif verb == "buy" and price * qty > self._gold:
                obs = f"{qty} {good} cost {price * qty} gold; you have {self._gold}."
            elif verb == "buy" and sum(self._cart.values()) + qty > _CART:
                obs = f"Your cart holds only {_CART} units."
            elif verb == "sell" and qty > held:
                obs = f"You carry only {held} {good}."
            else:
                sign = -1 if verb == "buy" else 1
                self._gold += sign * price * qty
                self._cart[good] = held - sign * qty
                obs = f"You {verb} {qty} {good} at {price} gold each."
        else:
            obs = "Unknown command. Use \\boxed{buy <good> <qty>}, \\boxed{sell <good> <qty>} or \\boxed{travel <town>}."
        if self._gold >= self._target:
            self._terminated, reward = True, 1.0
            return obs + f" Your purse holds {self._gold} gold: target reached. You win!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._status(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Work the two routes: good 1 out, good 2 back, good 1 out again."""
        return [f"\\boxed{{{m}}}" for m in self._plan]

    def close(self) -> None:
        """Nothing to release."""
