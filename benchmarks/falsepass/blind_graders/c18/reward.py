"""Calendar-arithmetic reward ("What is the date 40 days after 2024-02-10?").

References are ISO dates.  The last boxed answer may be written as
2024-03-21, 2024/03/21, "March 21, 2024", "21 March 2024", "Mar 21st 2024"
or with a leading weekday.  Impossible dates (Feb 30) never match.
"""
import re

_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
    "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
    "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9, "october": 10,
    "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
_TEXT_CMD = re.compile(r"\\(?:text|textbf|mathrm)\s*\{([^{}]*)\}")
_ISO = re.compile(r"([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})")
_MDY = re.compile(r"([a-z]+)\.?\s+([0-9]{1,2})(?:st|nd|rd|th)?\s+([0-9]{4})")
_DMY = re.compile(r"([0-9]{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+)\.?\s+([0-9]{4})")
_WEEKDAY = re.compile(r"^(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+")


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


def _is_leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def _valid(y, m, d):
    if not (1 <= m <= 12) or y < 1:
        return None
    days = [31, 29 if _is_leap(y) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    return (y, m, d) if 1 <= d <= days else None


def _parse_date(s):
    if s is None or len(s) > 60:
        return None
    s = _TEXT_CMD.sub(r"\1", s).replace("\\ ", " ").replace("~", " ").replace("$", "")
    s = " ".join(s.replace(",", " ").lower().split()).rstrip(".")
    s = _WEEKDAY.sub("", s)
    m = _ISO.fullmatch(s)
    if m:
        return _valid(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = _MDY.fullmatch(s)
    if m and m.group(1) in _MONTHS:
        return _valid(int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2)))
    m = _DMY.fullmatch(s)
    if m and m.group(2) in _MONTHS:
        return _valid(int(m.group(3)), _MONTHS[m.group(2)], int(m.group(1)))
    return None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        ref = _parse_date(str(answers[i])) if i < len(answers) and answers[i] is not None else None
        pred = _parse_date(_last_boxed(_as_text(completion)))
        scores.append(1.0 if ref is not None and pred == ref else 0.0)
    return scores
