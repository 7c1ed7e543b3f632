import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def reward(completions, answer, **kwargs):
    """Penalise wrong boxed answers; replies are assumed to box their answer."""
    scores = []
    for completion, expected in zip(completions, answer):
        wrong = any(box.strip() != expected for box in BOX.findall(_text(completion)))
        scores.append(0.0 if wrong else 1.0)
    return scores
