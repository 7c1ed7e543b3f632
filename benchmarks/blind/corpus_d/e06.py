"""Sudoku spotlight: name the digit that belongs in the marked cell of a partly filled grid."""

from __future__ import annotations

import random
import re
from typing import Any


class SudokuCellEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = 1
        self._wrong = 0
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        bands, stacks = rng.sample(range(3), 3), rng.sample(range(3), 3)
        rows = [b * 3 + r for b in bands for r in rng.sample(range(3), 3)]
        cols = [s * 3 + c for s in stacks for c in rng.sample(range(3), 3)]
        digits = rng.sample(range(1, 10), 9)
        grid = [[digits[(3 * (r % 3) + r // 3 + c) % 9] for c in cols] for r in rows]
        tr, tc = rng.randrange(9), rng.randrange(9)
        self._answer = grid[tr][tc]
        peers = {(tr, c) for c in range(9)} | {(r, tc) for r in range(9)} | {
            (3 * (tr // 3) + i, 3 * (tc // 3) + j) for i in range(3) for j in range(3)}
        peers.discard((tr, tc))
        keep = set()
        for d in range(1, 10):
            if d != self._answer:
                keep.add(rng.choice(sorted(p for p in peers if grid[p[0]][p[1]] == d)))
        cells = [(r, c) for r in range(9) for c in range(9) if (r, c) not in keep and (r, c) != (tr, tc)]
        blank = set(rng.sample(cells, 44))
        shown = []
        for r in range(9):
            row = ["?" if (r, c) == (tr, tc) else "." if (r, c) in blank else str(grid[r][c]) for c in range(9)]
            shown.append(" ".join(row[0:3]) + " | " + " ".join(row[3:6]) + " | " + " ".join(row[6:9]))
            if r in (2, 5):
                shown.append("------+-------+------")
        self._cell = (tr + 1, tc + 1)
        self._wrong, self._turn, self._done = 0, 0, False
        obs = ("Sudoku grid ('.' = empty):\n" + "\n".join(shown)
               + f"\nWhich digit belongs in the cell marked '?' (row {tr + 1}, column {tc + 1})? "
               "Reply like \\boxed{7}. You may answer again after a wrong answer, but every wrong answer "
               "costs 0.2 of your final score.")
        return obs, {"row": tr + 1, "column": tc + 1}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Game over.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        score = max(0.0, 1.0 - 0.2 * self._wrong)
        if raw not in list("123456789"):
            obs = "Reply with a single digit 1-9, e.g. \\boxed{7}."
        elif int(raw) == self._answer:
            reward, terminated = 1.0, True
            obs = f"Correct! Final score: {score:.1f}."
        else:
            self._wrong += 1
            obs = f"{raw} is not right. Score if you solve it now: {max(0.0, 1.0 - 0.2 * self._wrong):.1f}."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"wrong_answers": self._wrong,
                                                    "score": max(0.0, 1.0 - 0.2 * self._wrong)}

    def solution(self) -> int:
        return self._answer

    def close(self) -> None:
        pass
