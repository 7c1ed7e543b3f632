"""Reward for letter / vowel counting questions.

The last boxed answer must be a single count.  Digits ("4", "4.0") and
English number words up to twenty ("four") are accepted, optionally
followed by a noun such as "times" or "vowels".
"""
import re

_NUMBER_WORDS = {
    w: n for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_TEXT_CMD = re.compile(r"\\(?:text|textbf|mathrm|mathbf)\s*\{([^{}]*)\}")
_TRAILING_NOUN = re.compile(r"\s+(?:times?|letters?|vowels?|occurrences?)$")
_INTEGER = re.compile(r"\+?([0-9]{1,6})(?:\.0+)?")


def _as_text(completion):
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        return content if isinstance(content, str) else ""
    return ""


def _last_boxed(text):
    start = text.rfind("\\boxed")
    if start < 0:
        return None
    i = start + len("\\boxed")
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text) or text[i] != "{":
        return None
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1:j]
    return None


def _count(s):
    if s is None or len(s) > 60:
        return None
    s = _TEXT_CMD.sub(r"\1", s)
    s = " ".join(s.replace("\\ ", " ").replace("$", "").lower().split()).rstrip(".")
    s = _TRAILING_NOUN.sub("", s)
    if s in _NUMBER_WORDS:
        return _NUMBER_WORDS[s]
    m = _INTEGER.fullmatch(s)
    return int(m.group(1)) if m else None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        ref = _count(str(answers[i])) if i < len(answers) and answers[i] is not None else None
        pred = _count(_last_boxed(_as_text(completion)))
        scores.append(1.0 if ref is not None and pred == ref else 0.0)
    return scores
