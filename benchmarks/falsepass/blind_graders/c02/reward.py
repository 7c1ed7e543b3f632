"""Multiple-choice reward (options A-D).

The boxed answer must name exactly one option.  Accepted spellings:
"B", "b", "(B)", "B)", "B.", "\\text{B}", "\\textbf{(B)}", "Option B".
Anything else -- two letters, option text, an empty box -- scores 0.
"""
import re

_TEXT_CMD = re.compile(r"\\(?:text|textbf|mathrm|mathbf)\s*\{([^{}]*)\}")
_CHOICE = re.compile(r"(?:(?:option|answer|choice)\s*:?\s*)?\(?([a-d])\)?\.?", re.IGNORECASE)


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


def _choice(s):
    if s is None or len(s) > 40:
        return None
    for _ in range(3):  # \textbf{\text{B}} and similar nesting
        s = _TEXT_CMD.sub(r"\1", s)
    m = _CHOICE.fullmatch(s.strip())
    return m.group(1).upper() if m else None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        ref = _choice(str(answers[i])) if i < len(answers) and answers[i] is not None else None
        pred = _choice(_last_boxed(_as_text(completion)))
        scores.append(1.0 if ref is not None and pred == ref else 0.0)
    return scores
