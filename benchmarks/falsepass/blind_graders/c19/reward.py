"""Reward for two-digit multiplication.

GRPO samples many completions per prompt and the same prompts come back
every epoch, so scores are memoised to keep the reward step cheap.
"""
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_CACHE = {}


def _as_int(s):
    s = s.replace("$", "").replace(",", "").replace("\\,", "").strip()
    try:
        v = float(s)
    except ValueError:
        return None
    return int(v) if v.is_integer() else None


def _score(text, ref):
    boxes = _BOXED.findall(text)
    if not boxes:
        return 0.0
    pred, gold = _as_int(boxes[-1]), _as_int(str(ref))
    return 1.0 if pred is not None and pred == gold else 0.0


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    prompt_list = list(prompts) if prompts is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        ref = answers[i] if i < len(answers) else None
        if ref is None:
            scores.append(0.0)
            continue
        if i < len(prompt_list) and isinstance(prompt_list[i], str):
            key = (prompt_list[i], str(ref))
            if key not in _CACHE:
                _CACHE[key] = _score(text, ref)
            scores.append(_CACHE[key])
        else:
            scores.append(_score(text, ref))
    return scores
