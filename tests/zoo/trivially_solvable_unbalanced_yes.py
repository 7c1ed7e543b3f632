# expect: trivially_solvable
"""Budget Check: is a shopping list within budget? (a defect-zoo environment).

The environment: a yes/no question with one attempt. Ten purchases and a budget are listed; the agent
answers \\boxed{yes} if the purchases fit the budget and \\boxed{no} otherwise.

The defect: the question is unbalanced. The budget is drawn as the real total times a factor between
0.97 and 1.6, so the purchases fit on about 95% of seeds, and answering "yes" without adding anything
up wins almost every episode.
Exploit: the constant action "\\boxed{yes}" wins about 95% of seeds.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
ITEMS = ["bread", "cheese", "apples", "coffee", "rice", "olive oil", "soap", "batteries", "tea", "pasta",
         "eggs", "butter", "tomatoes", "honey", "flour", "lentils"]


class BudgetCheckEnv:
    """Do ten prices add up to at most the budget?"""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._prices = []
        self._budget = 0
        self._answer = "yes"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._prices = [(item, rng.randint(120, 2400)) for item in rng.sample(ITEMS, 10)]
        total = sum(price for _, price in self._prices)
        self._budget = int(total * rng.uniform(0.97, 1.6))  # defect: fits the budget ~95% of the time
        self._answer = "yes" if total <= self._budget else "no"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        listed = ", ".join(f"{item} {price // 100}.{price % 100:02d}" for item, price in self._prices)
        return (
            f"Budget Check. Purchases: {listed}. Budget: {self._budget // 100}.{self._budget % 100:02d}. "
            "Do the purchases fit within the budget? Answer \\boxed{yes} or \\boxed{no}; one attempt."
        ), {}

    def step(self, action):
        if self._done:
            return "The check is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip().lower() if found else ""
        if guess == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "Wrong." if guess in ("yes", "no") else "Answer \\boxed{yes} or \\boxed{no}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" The answer was {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
