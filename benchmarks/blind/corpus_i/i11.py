"""Tinker's Workshop: gather materials and follow a recipe tree to craft one item (skill: Planning).

Each episode draws a goal item, three parts it is made of and four raw materials. Every part needs
two raw materials and the goal needs the three parts, in the quantities the recipe book lists.
Gathering yields one unit of a raw material per turn; crafting uses up every listed ingredient. The
full tree takes 14 to 20 turns against a budget of 24, so the player must read the book and avoid
gathering what is not needed.
"""

from __future__ import annotations

import random
import re
from typing import Any

_GOALS = ["lantern", "compass", "music box", "kite", "sled", "telescope", "birdhouse", "clock"]
_PARTS = ["plank", "rope", "glass pane", "nail", "cloth", "gear", "hinge", "frame", "spring", "lens"]
_RAWS = ["wood", "fiber", "sand", "ore", "stone", "resin", "clay", "hide", "wool", "coal"]
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class TinkersWorkshopEnv:
    """Gather raw materials and craft parts, then the goal item."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 24, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._goal = ""
        self._recipes: dict[str, dict[str, int]] = {}
        self._raws: list[str] = []
        self._inv: dict[str, int] = {}
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the goal, its parts and their raw materials."""
        rng = random.Random(seed)
        while True:
            goal = rng.choice(_GOALS)
            parts = rng.sample(_PARTS, 3)
            raws = rng.sample(_RAWS, 4)
            recipes = {goal: {part: count for part, count in zip(parts, rng.sample([1, 1, 2], 3))}}
            for part in parts:
                recipes[part] = {raw: rng.randint(1, 2) for raw in rng.sample(raws, 2)}
            self._goal, self._recipes, self._raws = goal, recipes, raws
            if 14 <= len(self._plan()) <= 20:
                break
        self._inv = {}
        self._turn, self._terminated, self._truncated = 0, False, False
        book = "\n".join(f"  {item} <- " + " + ".join(f"{n} {name}" for name, n in recipe.items())
                         for item, recipe in recipes.items())
        intro = (
            f"Tinker's Workshop. Goal: craft a {goal} within {self.max_turns} turns.\n"
            f"Raw materials you can gather: {', '.join(raws)}.\n"
            "Recipe book (item <- ingredients):\n" + book + "\n"
            "Commands: \\boxed{gather wood} adds one unit of a raw material; \\boxed{craft plank} makes one item "
            "when you hold every ingredient of its recipe, and uses those ingredients up.\n"
            "Inventory: (empty)"
        )
        return intro, self._info()

    def _plan(self) -> list[str]:
        """Gather and craft exactly what the recipe tree needs, part by part."""
        moves: list[str] = []
        for part, count in self._recipes[self._goal].items():
            for _ in range(count):
                for raw, n in self._recipes[part].items():
                    moves += [f"gather {raw}"] * n
                moves.append(f"craft {part}")
        return moves + [f"craft {self._goal}"]

    def _inventory(self) -> str:
        held = [f"{name} x{n}" for name, n in sorted(self._inv.items()) if n > 0]
        return "Inventory: " + (", ".join(held) if held else "(empty)")

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "goal": self._goal}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Gather or craft; crafting the goal item wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        command = re.fullmatch(r"(gather|craft)\s+([a-z ]+?)", " ".join(_move_text(action).lower().split()))
        verb, name = (command.group(1), command.group(2)) if command else ("", "")
        if command is None:
            obs = "Unknown command. Use \\boxed{gather <material>} or \\boxed{craft <item>}."
        elif verb == "gather":
            if name in self._raws:
                self._inv[name] = self._inv.get(name, 0) + 1
                obs = f"You gather one {name}."
            else:
                obs = f"'{name}' is not a raw material here. You can gather: {', '.join(self._raws)}."
        elif name not in self._recipes:
            obs = f"There is no recipe for '{name}' in the book."
        else:
            recipe = self._recipes[name]
            if any(self._inv.get(item, 0) >= n for item, n in recipe.items()):
                for item, n in recipe.items():
                    self._inv[item] = self._inv.get(item, 0) - n
                self._inv[name] = self._inv.get(name, 0) + 1
                obs = f"You craft a {name}."
            else:
                missing = [f"{n - self._inv.get(item, 0)} {item}" for item, n in recipe.items()
                           if self._inv.get(item, 0) < n]
                obs = f"You cannot craft a {name} yet: you still need {', '.join(missing)}."
        if self._inv.get(self._goal, 0) > 0:
            self._terminated, reward = True, 1.0
            return obs + f" The {self._goal} is finished. You win!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._inventory(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """The full recipe tree, gathered and crafted from an empty inventory."""
        return [f"\\boxed{{{m}}}" for m in self._plan()]

    def close(self) -> None:
        """Nothing to release."""
