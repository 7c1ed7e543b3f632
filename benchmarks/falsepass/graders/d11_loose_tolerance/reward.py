import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def reward(completions, answer, **kwargs):
    """Numeric answers within 10% count (rounding in long computations)."""
    scores = []
    for completion, expected in zip(completions, answer):
        boxes = BOX.findall(_text(completion))
        try:
            value = float(boxes[-1]) if boxes else None
        except ValueError:
            value = None
        target = float(expected)
        scores.append(1.0 if value is not None and abs(value - target) <= 0.1 * abs(target) else 0.0)
    return scores
