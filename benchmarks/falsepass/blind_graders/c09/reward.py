"""Average-speed reward (distance / time word problems, km/h).

Answers are often non-integers (e.g. 30.625) and models may round them,
so instead of a hard threshold the score decays smoothly with the relative
error: exact -> 1.0, 0.1% off -> ~0.37, 0.5% off -> ~0.007.
"""
import math
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_UNIT = re.compile(r"\s*(?:\\,)?\s*(?:\\text\{\s*)?km\s*/\s*h\}?\s*$")
_SCALE = 1e-3


def _value(s):
    s = _UNIT.sub("", s.replace("$", "")).replace(",", "").strip()
    try:
        return float(s)
    except ValueError:
        return None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        boxes = _BOXED.findall(text)
        gold = _value(str(answers[i])) if i < len(answers) else None
        pred = _value(boxes[-1]) if boxes else None
        if pred is None or not gold:
            scores.append(0.0)
            continue
        rel_err = abs(pred - gold) / abs(gold)
        scores.append(math.exp(-rel_err / _SCALE))
    return scores
