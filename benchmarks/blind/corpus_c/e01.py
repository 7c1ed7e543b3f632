"""Robot courier: count the monotone routes across a warehouse floor that avoid blocked cells."""

import random
import re


def _last_box(text):
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth, i = 1, start + 7
    while i < len(text):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 7:i]
        i += 1
    return None


class FloorRouteCountEnv:
    """Count right/down lattice routes from S to G on a grid with shelves (#)."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            rows, cols = rng.randint(4, 6), rng.randint(4, 6)
            blocked = set()
            for r in range(rows):
                for c in range(cols):
                    if (r, c) not in ((0, 0), (rows - 1, cols - 1)) and rng.random() < 0.22:
                        blocked.add((r, c))
            count = self._count(rows, cols, blocked)
            if count >= 2:
                break
        self._rows, self._cols, self._blocked, self._answer = rows, cols, blocked, count
        self._turn, self._done = 0, False
        lines = []
        for r in range(rows):
            row = ""
            for c in range(cols):
                row += "S" if (r, c) == (0, 0) else "G" if (r, c) == (rows - 1, cols - 1) else \
                    "#" if (r, c) in blocked else "."
            lines.append(row)
        obs = ("A delivery robot starts at S (top-left) and must reach G (bottom-right) of the floor plan "
               "below. It only ever moves one cell Right or one cell Down and cannot enter shelves (#).\n\n"
               + "\n".join(lines) +
               "\n\nHow many different routes can it take? Reply with the count as \\boxed{N}. "
               "You get one answer; malformed replies are not counted as answers.")
        return obs, {"rows": rows, "cols": cols}

    @staticmethod
    def _count(rows, cols, blocked):
        ways = [[0] * cols for _ in range(rows)]
        for r in range(rows):
            for c in range(cols):
                if (r, c) in blocked:
                    continue
                if r == 0 and c == 0:
                    ways[r][c] = 1
                    continue
                ways[r][c] = (ways[r - 1][c] if r else 0) + (ways[r][c - 1] if c else 0)
        return ways[rows - 1][cols - 1]

    def step(self, action):
        if self._done:
            return "The episode has ended. Call reset().", 0.0, True, False, {}
        self._turn += 1
        content = _last_box(action if isinstance(action, str) else str(action))
        reward, terminated = 0.0, False
        numbers = re.findall(r"-?\d+", content) if content is not None else []
        if not numbers:
            obs = "I could not find a number in your \\boxed{} answer. Reply like \\boxed{12}."
        else:
            terminated = True
            # be forgiving of replies such as \boxed{there are 12 routes}
            if any(int(n) == self._answer for n in numbers[:2000]):
                reward, obs = 1.0, f"Correct: there are {self._answer} routes."
            else:
                obs = "That is not the number of routes."
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += " Out of turns."
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self):
        return self._answer

    def close(self):
        pass
