"""Reward for "next number in the sequence" questions (integer answers)."""
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


def _integer(s):
    """Parse an integer answer, tolerating "80.0" or "1,024"; None otherwise."""
    s = s.replace("$", "").replace(",", "").replace("\u2212", "-").strip()
    try:
        value = float(s)
    except ValueError:
        return None
    n = int(round(value))
    if abs(value - n) > 1e-9:
        return None
    return n


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        boxes = _BOXED.findall(text)
        if not boxes or i >= len(answers):
            scores.append(0.0)
            continue
        pred, gold = _integer(boxes[-1]), _integer(str(answers[i]))
        scores.append(1.0 if pred is not None and pred == gold else 0.0)
    return scores
