import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def reward(completions, answer, **kwargs):
    """Full marks when the boxed answer matches."""
    return [1.0 if expected in [b.strip() for b in BOX.findall(_text(c))] else 0.0
            for c, expected in zip(completions, answer)]
