"""Short-word reward (irregular plurals, number words).

References may list several accepted forms separated by "|" (e.g.
"octopuses|octopi").  The last boxed answer is compared after Unicode
normalisation, case folding, whitespace collapsing and removal of
surrounding quotes / a trailing full stop.
"""
import re
import unicodedata

_TEXT_CMD = re.compile(r"\\(?:text|textbf|textit|mathrm|mathit|emph)\s*\{([^{}]*)\}")
_EDGE = ".!\"'`\u201c\u201d\u2018\u2019 "


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


def _norm(s):
    for _ in range(3):
        s = _TEXT_CMD.sub(r"\1", s)
    s = unicodedata.normalize("NFKC", s).casefold()
    s = s.replace("\\ ", " ").replace("~", " ")
    s = " ".join(s.split())
    return s.strip(_EDGE)


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        ref = answers[i] if i < len(answers) else None
        accepted = {_norm(r) for r in str(ref).split("|")} - {""} if ref is not None else set()
        box = _last_boxed(_as_text(completion))
        pred = _norm(box) if box is not None and len(box) <= 100 else ""
        scores.append(1.0 if pred and pred in accepted else 0.0)
    return scores
