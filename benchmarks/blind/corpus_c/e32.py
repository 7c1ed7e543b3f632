"""Cheque writer: write an amount out in English words."""

import random
import re

_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words(n):
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("-" + _ONES[n % 10] if n % 10 else "")
    if n < 1000:
        return _ONES[n // 100] + " hundred" + (" and " + _words(n % 100) if n % 100 else "")
    return _words(n // 1000) + " thousand" + ((" and " if n % 1000 < 100 else " ") + _words(n % 1000)
                                             if n % 1000 else "")


def _last_box(text):
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth = 0
    for i in range(start + 6, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 7:i]
    return None


class ChequeWriterEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._n = rng.randint(1001, 99999)
        self._text = _words(self._n)
        self._turn, self._over = 0, False
        obs = (f"Write the amount {self._n:,} in English words for a cheque, British style (with 'and' before "
               "the last part, hyphens in numbers like twenty-one), e.g. 1,205 is \\boxed{one thousand two "
               "hundred and five}. One answer only.")
        return obs, {"amount": self._n}

    def _accepts(self, guess):
        # be relaxed about hyphens versus spaces between the words
        pattern = re.sub(r"[\s-]+", "[ -]", guess.strip().lower())
        try:
            return re.fullmatch(pattern, self._text) is not None
        except re.error:
            return False

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        reward, term = 0.0, False
        if raw is None or not raw.strip() or len(raw) > 200:
            obs = "Reply with the amount in words inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if self._accepts(raw) else 0.0
            obs = "Correct." if reward else "That is not how the amount is written."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._text

    def close(self):
        pass
