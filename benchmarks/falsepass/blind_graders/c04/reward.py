"""Reward for time-unit conversion questions (hours -> minutes, minutes -> seconds)."""
import re

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _last_boxed(text):
    """Contents of the last \\boxed{...}, allowing nested braces."""
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth = 0
    for j in range(start + len("\\boxed"), len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[start + len("\\boxed{"):j]
    return None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    """1.0 if the final boxed value equals the reference number of units."""
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        box = _last_boxed(text)
        try:
            ref = float(str(answers[i]).replace(",", "")) if i < len(answers) else None
        except ValueError:
            ref = None
        if box is None or ref is None:
            scores.append(0.0)
            continue
        # The box often carries a unit or a label ("210 minutes",
        # "t = 210\,\text{min}"), so read the number(s) out of it.
        values = [float(x) for x in _NUMBER.findall(box.replace(",", ""))]
        scores.append(1.0 if any(abs(v - ref) < 1e-6 for v in values) else 0.0)
    return scores
