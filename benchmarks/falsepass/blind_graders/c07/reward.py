"""Letter-counting reward ("How many r's are in 'strawberry'?")."""
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


def _number(s):
    try:
        return float(s.replace("$", "").strip())
    except ValueError:
        return None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    """1.0 when the final boxed count equals the reference count."""
    scores = []
    for completion, ref in zip(completions, answer):
        boxes = _BOXED.findall(completion)
        pred = _number(boxes[-1])
        gold = _number(str(ref))
        scores.append(1.0 if pred is not None and pred == gold else 0.0)
    return scores
