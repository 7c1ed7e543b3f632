"""Proofreader: count how often a letter occurs in a sentence."""

import random
import re

_SENTENCES = [
    "the harbour master rarely trusts a barometer that reads fair weather during a storm",
    "every morning the baker arranges rye bread and currant buns in the narrow front window",
    "a careful reader will notice that the second paragraph repeats several earlier errors",
    "our river ferry carries farmers, merchants and their restless terriers across the water",
    "the referee reviewed the recording three times before reversing her earlier decision",
    "after the thunder the gardeners returned to repair the greenhouse roof and the barrier",
    "travellers prefer the northern route over the river because the road there is shorter",
]


def _boxes(text):
    return re.findall(r"\\boxed\{([^{}]*)\}", text)


class LetterCountEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        words = rng.choice(_SENTENCES).split()
        rng.shuffle(words)
        self._sentence = " ".join(words[:rng.randint(9, len(words))])
        self._letter = rng.choice("aerst")
        self._count = self._sentence.count(self._letter)
        self._turn, self._over = 0, False
        obs = (f"Sentence: \"{self._sentence}\"\n\nHow many times does the letter '{self._letter}' occur in it? "
               "Reply with the count as \\boxed{N}. One answer only.")
        return obs, {"letter": self._letter}

    def _numbers(self, text):
        boxes = _boxes(text)
        if not boxes:
            return None
        if text.strip() == "\\boxed{" + boxes[-1] + "}":
            return [boxes[-1].strip()]
        # worked answers: models often restate the count in their reasoning, so read every number given
        return re.findall(r"\d+", text)[:500]

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        text = action if isinstance(action, str) else str(action)
        numbers = self._numbers(text[:20000])
        reward, term = 0.0, False
        if not numbers or not all(n.isdigit() and len(n) <= 6 for n in numbers):
            obs = "Reply with a whole number inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if any(int(n) == self._count for n in numbers) else 0.0
            obs = "Correct." if reward else "That is not the count."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._count

    def close(self):
        pass
