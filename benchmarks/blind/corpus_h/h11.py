"""Village Smithy: trade at the market to afford a recipe, then craft it (skill: Resource Planning).

The smith must craft one product whose recipe needs three materials. The market buys and sells all
eight materials at posted prices (the market buys back one coin below its selling price). The smith
owns a little of the recipe's materials, a stock of two unrelated goods and not quite enough coins
to buy what is missing, so some goods must be sold first. Turns are few: buying and selling in the
right amounts, in the right order, is the whole puzzle.
"""

from __future__ import annotations

import random
import re
from typing import Any

_MATERIALS = ("iron", "coal", "leather", "wood", "glass", "wool", "copper", "flax")
_PRODUCTS = ("lantern", "saddle", "shield", "lute", "anvil", "loom", "kettle", "bellows")
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_TRADE = re.compile(r"^(buy|sell)\s+(-?[0-9]{1,4})\s+([a-z]+)$")
_CRAFT = re.compile(r"^craft(?:\s+(?:a\s+|an\s+)?([a-z]+))?$")


class VillageSmithyEnv:
    """Buy, sell and craft until the product is made."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._product = ""
        self._recipe: dict[str, int] = {}
        self._price: dict[str, int] = {}
        self._stock: dict[str, int] = {}
        self._coins = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a recipe, prices and a starting purse that falls short of the missing materials."""
        rng = random.Random(seed)
        self._product = rng.choice(_PRODUCTS)
        needs = rng.sample(_MATERIALS, 3)
        self._recipe = {m: rng.randint(1, 3) for m in needs}
        self._price = {m: rng.randint(2, 6) for m in _MATERIALS}
        self._stock = {m: 0 for m in _MATERIALS}
        for m in needs:
            self._stock[m] = rng.randint(0, self._recipe[m] - 1)
        for m in rng.sample([m for m in _MATERIALS if m not in needs], 2):
            self._stock[m] = rng.randint(2, 4)
        missing = sum((self._recipe[m] - self._stock[m]) * self._price[m] for m in needs)
        resale = sum(self._stock[m] * self._sell(m) for m in _MATERIALS if m not in needs)
        self._coins = rng.randint(max(0, missing - resale), missing - 1)
        self._turn, self._terminated, self._truncated = 0, False, False
        recipe = ", ".join(f"{q} {m}" for m, q in self._recipe.items())
        prices = ", ".join(f"{m} {self._price[m]}/{self._sell(m)}" for m in _MATERIALS)
        intro = (
            f"Village Smithy. Craft a {self._product}. Recipe for a {self._product}: {recipe}.\n"
            f"Market prices (buy/sell, coins per unit): {prices}.\n"
            "Each turn do one thing: \\boxed{buy 2 iron}, \\boxed{sell 3 wool} (quantities are whole numbers, "
            f"1 or more) or \\boxed{{craft {self._product}}} once you hold every material of the recipe.\n"
            f"Craft the {self._product} within {self.max_turns} turns to win.\n" + self._status()
        )
        return intro, self._info()

    def _sell(self, material: str) -> int:
        return max(1, self._price[material] - 1)

    def _status(self) -> str:
        held = ", ".join(f"{m} {self._stock[m]}" for m in _MATERIALS)
        return f"Coins: {self._coins}. Inventory: {held}."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "coins": self._coins}

    def _quantity_problem(self, qty: int) -> str:
        if qty == 0:
            return "Quantities must be whole numbers of at least 1."
        return ""

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Trade or craft; crafting the product wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The market is closed; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        text = " ".join(boxes[-1].lower().split()) if boxes else ""
        trade, craft = _TRADE.match(text), _CRAFT.match(text)
        if trade:
            verb, qty, item = trade.group(1), int(trade.group(2)), trade.group(3)
            item = item if item in self._stock else item.rstrip("s")
            problem = self._quantity_problem(qty)
            if item not in self._stock:
                obs = f"The market does not trade '{trade.group(3)[:20]}'. Materials: {', '.join(_MATERIALS)}."
            elif problem:
                obs = problem
            elif verb == "buy":
                cost = qty * self._price[item]
                if cost > self._coins:
                    obs = f"{qty} {item} cost {cost} coins but you have {self._coins}."
                else:
                    self._coins -= cost
                    self._stock[item] += qty
                    obs = f"You buy {qty} {item} for {cost} coins."
            elif qty > self._stock[item]:
                obs = f"You only have {self._stock[item]} {item}."
            else:
                self._stock[item] -= qty
                self._coins += qty * self._sell(item)
                obs = f"You sell {qty} {item} for {qty * self._sell(item)} coins."
        elif craft:
            if craft.group(1) not in (None, self._product):
                obs = f"You only know the recipe for a {self._product}."
            else:
                short = [f"{q - self._stock[m]} {m}" for m, q in self._recipe.items() if self._stock[m] < q]
                if short:
                    obs = "You cannot craft yet; still missing: " + ", ".join(short) + "."
                else:
                    for m, q in self._recipe.items():
                        self._stock[m] -= q
                    self._terminated = True
                    return f"You craft a fine {self._product}!", 1.0, True, False, self._info()
        else:
            obs = "Invalid move. Use \\boxed{buy N MATERIAL}, \\boxed{sell N MATERIAL} or \\boxed{craft PRODUCT}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " The market closes: out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._status(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Sell spare goods until the missing materials are affordable, buy them, craft."""
        coins = self._coins
        missing = {m: q - self._stock[m] for m, q in self._recipe.items() if self._stock[m] < q}
        need = sum(q * self._price[m] for m, q in missing.items())
        moves = []
        spare = sorted((m for m in _MATERIALS if m not in self._recipe and self._stock[m] > 0),
                       key=lambda m: -self._stock[m] * self._sell(m))
        for m in spare:
            if coins >= need:
                break
            qty = min(self._stock[m], -(-(need - coins) // self._sell(m)))
            moves.append(f"\\boxed{{sell {qty} {m}}}")
            coins += qty * self._sell(m)
        moves += [f"\\boxed{{buy {q} {m}}}" for m, q in missing.items()]
        return moves + [f"\\boxed{{craft {self._product}}}"]

    def close(self) -> None:
        """Nothing to release."""
