"""Reward for Celsius -> Fahrenheit conversion questions.

Models sometimes carry decimals (77.0) or round intermediate steps, so the
comparison is numeric with a rounding allowance instead of string equality.
"""
import math
import re

_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")
_DEGREES = re.compile(r"\s*(?:\^\s*\{?\\circ\}?|\u00b0|\\degree)?\s*(?:\\text\{\s*)?(?:F|\u00b0F|degrees?\s*F(?:ahrenheit)?)?\}?\s*$")
TOLERANCE = 0.5


def _value(s):
    s = s.replace("$", "").replace("\u2212", "-").strip()
    s = _DEGREES.sub("", s)
    try:
        v = float(s)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        boxes = _BOXED.findall(text)
        pred = _value(boxes[-1]) if boxes else None
        gold = _value(str(answers[i])) if i < len(answers) else None
        if pred is None or gold is None:
            scores.append(0.0)
            continue
        ok = abs(pred - gold) <= TOLERANCE * max(abs(gold), 1.0)
        scores.append(1.0 if ok else 0.0)
    return scores
