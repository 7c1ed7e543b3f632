# expect: valid
"""Polygon Area: twice the area of a lattice polygon, with an honest hint (skill: Geometry).

The environment: a single-answer puzzle. A polygon's vertices (integer coordinates) are listed in
order; the agent answers with TWICE its area (always a whole number) in \\boxed{}. Three attempts.
hint() is the optional hint a rollout may show.

Looks suspicious: it defines hint(), and a hinted agent does much better than an unhinted one, which
is what a leaking hint looks like.
Why it is correct: the hint is an insight, not the answer: it names the shoelace formula and how to
apply it, with no number from the task or the answer, and the same hint text fits every seed; the
agent still has to do the arithmetic.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class PolygonAreaEnv:
    """Shoelace formula."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._vertices = []
        self._answer = 0
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            count = rng.randint(5, 7)
            angles = sorted(rng.sample(range(0, 360, 30), count))
            radius = [rng.randint(6, 15) for _ in angles]
            points = []
            for a, r in zip(angles, radius):  # points around a centre, in angular order: a simple polygon
                x = round(r * [1, 0.97, 0.87, 0.71, 0.5, 0.26, 0, -0.26, -0.5, -0.71, -0.87, -0.97, -1,
                               -0.97, -0.87, -0.71, -0.5, -0.26, 0, 0.26, 0.5, 0.71, 0.87, 0.97][a // 15])
                y = round(r * [0, 0.26, 0.5, 0.71, 0.87, 0.97, 1, 0.97, 0.87, 0.71, 0.5, 0.26, 0, -0.26,
                               -0.5, -0.71, -0.87, -0.97, -1, -0.97, -0.87, -0.71, -0.5, -0.26][a // 15])
                points.append((x, y))
            twice = abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1])))
            if len(set(points)) == count and twice >= 100:
                break
        self._vertices, self._answer = points, twice
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (f"Polygon Area. A polygon has the vertices {', '.join(map(str, self._vertices))}, in this order. What "
                f"is TWICE its area? You have {self.max_turns} attempts; answer as \\boxed{{n}}."), {}

    def hint(self):
        return ("Use the shoelace formula: for consecutive vertices (x1, y1), (x2, y2) add x1*y2 - x2*y1 around the "
                "whole polygon, wrapping from the last vertex back to the first, and take the absolute value.")

    def step(self, action):
        if self._done:
            return "The polygon is measured; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write it as \\boxed{n}." if not found else "That is not twice the area."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: twice the area is {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
