"""Reward for percentage questions ("What is 15% of 80?")."""
import math
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


def _to_float(s):
    s = s.replace("\\%", "").replace("%", "").replace("$", "").replace(",", "").strip()
    try:
        v = float(s)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    """1.0 when the boxed value equals the reference (relative 1e-6), else 0.0."""
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        ref = _to_float(str(answers[i])) if i < len(answers) else None
        if ref is None:
            scores.append(0.0)
            continue
        # Models often box an intermediate quantity on the way (e.g. "10% of
        # 80 is \boxed{8}") before the final result, so look at every box.
        values = [_to_float(b) for b in _BOXED.findall(text)]
        tol = 1e-6 * max(1.0, abs(ref))
        hit = any(v is not None and abs(v - ref) <= tol for v in values)
        scores.append(1.0 if hit else 0.0)
    return scores
