"""Every prompt of the model judge, in one place (the questions it answers and how it must answer).

The judge is a heuristic: a model reads the environment and answers fixed questions. What it answers
becomes a finding quoting its reason; the mechanical checks remain the proof. The questions are the ones
only something that reads the task text can answer: whether the checker accepts exactly what the text
asks, whether the task can be solved from what the agent is shown, and whether a hint or a reply gives
the answer away.
"""

from __future__ import annotations

QUESTIONS: dict[str, str] = {
    "checker_matches_text": (
        "Does the code's checker accept exactly the answers the task text asks for? Answer no if the text asks "
        "for one thing and the code checks another (the farthest against the nearest, 1-based against 0-based "
        "positions, a sum against a product, ascending against descending order, another unit), or if the "
        "checker accepts answers that are not what the text asks (any answer containing the right one, "
        "special values such as nan, answers in another format)."),
    "solvable_from_view": (
        "Can an agent that sees only the observations (and tool results) solve the task on every seed, with no "
        "access to hidden state? Answer no if information the answer depends on is never shown, or if "
        "solution() only wins on some seeds."),
    "hint_or_reply_gives_answer": (
        "Do the hint, the observations, the info dicts or the replies to moves give the answer away, in any "
        "form (plainly, encoded, spread across turns, revealed after a wrong move)? Answer yes if an agent "
        "could win by reading it off instead of solving the task."),
}
"""question id -> the question. Each becomes the check ``judge_<id>``."""

FAILING_ANSWER: dict[str, str] = {"checker_matches_text": "no", "solvable_from_view": "no",
                                  "hint_or_reply_gives_answer": "yes"}
"""The answer to each question that makes it a finding."""

SYSTEM = (
    "You review reinforcement-learning environments written as Python code for an AI agent to train on. "
    "You are careful and literal: you compare what the task text promises with what the code does. "
    "You answer in JSON only."
)

USER = """Review this environment.

## The code
```python
{code}
```

## What the agent sees first (two seeds)
{observations}

## What solution() returns for those seeds
{solutions}

## The hint the agent may be given
{hint}

## Questions
{questions}

Reply with one JSON object and nothing else, one key per question id, each mapping to an object
{{"answer": "yes" or "no", "reason": "one sentence quoting the code or text that decides it"}}.
"""


def render_questions() -> str:
    return "\n".join(f"- `{key}`: {text}" for key, text in QUESTIONS.items())
