import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def reward(completions, answer, **kwargs):
    """Numeric comparison with a small relative tolerance."""
    scores = []
    for completion, expected in zip(completions, answer):
        boxes = BOX.findall(_text(completion))
        try:
            value = float(boxes[-1]) if boxes else None
        except ValueError:
            value = None
        if value is None:
            scores.append(0.0)
        elif abs(value - float(expected)) > 1e-6 * max(1.0, abs(float(expected))):
            scores.append(0.0)
        else:
            scores.append(1.0)
    return scores
