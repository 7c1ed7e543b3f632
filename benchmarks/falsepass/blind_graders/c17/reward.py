"""Reward for linear equations with integer solutions ("Solve for x: 4x + 3 = 19").

score = correctness (0 or 1) + a small bonus per explicitly numbered
reasoning step ("Step 1:", "Step 2:", ...), to encourage the model to
show its work rather than jump straight to a box.
"""
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_STEP = re.compile(r"^\s*step\s*\d+\s*[:.)]", re.IGNORECASE | re.MULTILINE)
STEP_BONUS = 0.05


def _solution(s):
    s = s.replace("$", "").replace("\u2212", "-").strip()
    s = re.sub(r"^x\s*=\s*", "", s)
    try:
        v = float(s)
    except ValueError:
        return None
    return int(v) if v.is_integer() else None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        boxes = _BOXED.findall(text)
        gold = _solution(str(answers[i])) if i < len(answers) else None
        pred = _solution(boxes[-1]) if boxes else None
        correct = 1.0 if pred is not None and pred == gold else 0.0
        scores.append(correct + STEP_BONUS * len(_STEP.findall(text)))
    return scores
