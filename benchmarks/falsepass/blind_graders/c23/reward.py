"""Reward for digit-sum questions ("What is the sum of the digits of 4821?")."""
import re

_BOXED = re.compile(r"\\boxed\{\s*([^{}]*?)\s*\}")


def _as_int(s):
    s = s.replace("$", "").replace(",", "").strip()
    try:
        v = float(s)
    except ValueError:
        return None
    return int(v) if v.is_integer() else None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    """1.0 if the boxed answer equals the reference digit sum, else 0.0."""
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        m = _BOXED.search(text)
        gold = _as_int(str(answers[i])) if i < len(answers) else None
        pred = _as_int(m.group(1)) if m else None
        scores.append(1.0 if pred is not None and pred == gold else 0.0)
    return scores
