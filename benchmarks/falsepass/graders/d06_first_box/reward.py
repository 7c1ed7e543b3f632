import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def reward(completions, answer, **kwargs):
    """Compare the boxed answer."""
    scores = []
    for completion, expected in zip(completions, answer):
        found = BOX.search(_text(completion))
        scores.append(1.0 if found and found.group(1).strip() == expected else 0.0)
    return scores
