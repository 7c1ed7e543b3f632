"""Foundation Patience: uncover numbered cards and build them up in order (skill: Planning).

Cards 1 to 9 are dealt face up into three columns of three. Only the top card of a column can be
moved: onto the foundation, which must be built up strictly in order 1, 2, 3, ..., 9, or onto any
other column. Digging a card out buries others, so the order of the moves matters: a careless player
runs out of the 24-move budget, a planner finishes with moves to spare.
"""

from __future__ import annotations

import random
import re
from typing import Any

_CARDS = 9
_COLUMNS = 3
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


def _greedy(columns: list[list[int]], first: int = 1) -> list[str]:
    """Play the cards out in order; a card blocking the next one goes to the column whose lowest card
    is highest (an empty column counts as highest), so it buries as little as possible."""
    cols = [list(col) for col in columns]
    moves: list[str] = []
    for card in range(first, _CARDS + 1):
        home = next(i for i, col in enumerate(cols) if card in col)
        while cols[home][-1] != card:
            others = [i for i in range(_COLUMNS) if i != home]
            dest = max(others, key=lambda i: (min(cols[i]) if cols[i] else _CARDS + 1, -i))
            cols[dest].append(cols[home].pop())
            moves.append(f"{home + 1} {dest + 1}")
        cols[home].pop()
        moves.append(f"{home + 1} F")
    return moves


class FoundationPatienceEnv:
    """Move column tops to the foundation in order 1..9, or onto other columns."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 24, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._cols: list[list[int]] = []
        self._found = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Deal a shuffled 1..9 into three columns, keeping deals a planner can clear in 20 moves."""
        rng = random.Random(seed)
        while True:
            deck = list(range(1, _CARDS + 1))
            rng.shuffle(deck)
            cols = [deck[i::_COLUMNS] for i in range(_COLUMNS)]
            if 13 <= len(_greedy(cols)) <= 20:
                break
        self._cols, self._found = cols, 0
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Foundation Patience. Cards 1 to {_CARDS} lie in {_COLUMNS} columns, listed bottom to top; only the "
            "top (rightmost) card of a column can move.\n"
            "Move a top card to the foundation with \\boxed{2 F} (column 2 to the foundation) or onto another "
            "column with \\boxed{2 3} (column 2 onto column 3; any card may go on any column).\n"
            f"The foundation is built strictly in order: 1 first, then 2, then 3, and so on up to {_CARDS}.\n"
            f"Put all {_CARDS} cards on the foundation within {self.max_turns} moves to win.\n"
        )
        return intro + self._render(), self._info()

    def _render(self) -> str:
        lines = [f"Foundation: {self._found if self._found else 'empty'} (next card: {self._found + 1})"]
        for i, col in enumerate(self._cols):
            lines.append(f"Column {i + 1}: {' '.join(map(str, col)) if col else '(empty)'}")
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "foundation": self._found}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Carry out one move; completing the foundation wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        parts = re.fullmatch(r"(\d{1,3})\s*(?:-|>|->|to|on|,)?\s*([A-Za-z]+|\d{1,3})", _move_text(action))
        src = int(parts.group(1)) - 1 if parts else -1
        dst_text = parts.group(2).upper() if parts else ""
        if parts is None or not 0 <= src < _COLUMNS or (dst_text not in ("F", "FOUNDATION") and not dst_text.isdigit()):
            obs = "Invalid move. Write a column and a destination, e.g. \\boxed{2 F} or \\boxed{2 3}."
        elif not self._cols[src]:
            obs = f"Column {src + 1} is empty."
        elif dst_text in ("F", "FOUNDATION"):
            card = self._cols[src][-1]
            if card > self._found:
                self._found = self._cols[src].pop()
                obs = f"Card {card} goes to the foundation."
            else:
                obs = f"Card {card} cannot go to the foundation: the next card it needs is {self._found + 1}."
        else:
            dst = int(dst_text) - 1
            if not 0 <= dst < _COLUMNS or dst == src:
                obs = f"Pick a different column between 1 and {_COLUMNS} as the destination."
            else:
                card = self._cols[src].pop()
                self._cols[dst].append(card)
                obs = f"Card {card} moves from column {src + 1} to column {dst + 1}."
        if self._found == _CARDS:
            self._terminated, reward = True, 1.0
            return obs + " The foundation is complete. You win!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of moves."
        else:
            obs += f" Moves left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """The greedy plan from the current layout and foundation."""
        return [f"\\boxed{{{m}}}" for m in _greedy(self._cols, self._found + 1)]

    def close(self) -> None:
        """Nothing to release."""
