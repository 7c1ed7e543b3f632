import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def reward(completions, answer, **kwargs):
    """Format reward (a box) and correctness, summed as in the GRPO recipes."""
    scores = []
    for completion, expected in zip(completions, answer):
        boxes = BOX.findall(_text(completion))
        fmt = 0.6 if boxes else 0.0
        scores.append(fmt + (0.4 if boxes and boxes[-1].strip() == expected else 0.0))
    return scores
