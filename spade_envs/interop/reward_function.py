"""A plain reward function and its dataset (TRL style) as a SPADE environment, so the gate can audit it.

Most people who train with GRPO write a reward function, not an environment: ``def accuracy(completions,
**kwargs) -> list[float]``, called by TRL's trainers with the completions, the prompts and every other
column of the dataset as lists. ``reward_function_environment`` wraps one such function and the first rows
of its JSONL dataset into one environment file of our contract, which then goes through the same tiers as
any other: the episode shows a row's prompt, the agent's one reply is scored by the function, and the
row's answer column is the solution, so the known-answer probes can send right
answers written other ways and wrong answers of every kind, which is where a reward function goes wrong.
A reward that needs no answer (a format or length reward) comes with no answer column: it is held to the
contract and fuzzed, without the tiers that need a right answer.

The host only reads the two files as text and data: the function's code runs in the sandbox, inside the
generated file (its lines first, so that a finding's line number is the line in the user's file). What
the adapter leaves out is said in ``RewardInput.notes``: the rows past the ones embedded, and the tiers not
run where there is no answer column. A dataset with fewer than ``MIN_PROMPTS`` distinct prompts is refused:
the gate asks as many tasks of it as of any environment.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path

from spade_envs.errors import SpadeError
from spade_envs.syntax import parse

PROMPT_COLUMNS = ("prompt", "question", "problem", "input", "query")
"""Where a row's prompt is looked for, in this order (``--prompt-column`` names another)."""
ANSWER_COLUMNS = ("answer", "solution", "ground_truth", "target", "reference", "label")
"""Where a row's reference answer is looked for, in this order (``--answer-column`` names another)."""
MAX_SOURCE_BYTES = 195_000
"""The generated file's size at most: the static tier refuses files over 200 kB."""
ADAPTER_BYTES = 4_000
"""Room kept for the generated class."""
DEFAULT_RANGE = (-1.0, 1.0)
MIN_PROMPTS = 8
"""Distinct prompts a dataset needs: the gate's ``distinct_tasks`` check asks as many of any environment."""
CLASS_NAME = "RewardFunctionEnv"


class RewardInputError(SpadeError):
    """A reward function or dataset that cannot be turned into an environment (one line: what and how)."""


@dataclass
class RewardInput:
    """The generated environment and what it could not cover."""

    label: str
    source: str
    class_name: str = CLASS_NAME
    rows: int = 0
    reference_solution: bool = True
    """False when the rows have no answer column (``ValidationJob.reference_solution``)."""
    notes: list[str] = field(default_factory=list)


def reward_function_environment(reference: str, data: Path, *, rows: int = 64, prompt_column: str | None = None,
                                answer_column: str | None = None,
                                reward_range: tuple[float, float] = DEFAULT_RANGE) -> RewardInput:
    """The environment for ``FILE.py:FUNCTION`` scored on the first ``rows`` rows of ``data`` (JSONL). The
    function's scores lie in ``reward_range``: a reward function has no fixed scale (the GRPO examples pay 2.0
    for a right answer), while an environment's rewards lie in [-1, 1], so a wider range is divided down."""
    module_path, function = _split_reference(reference)
    code = _read_text(module_path, "--reward")
    _check_function(code, module_path, function)
    table = _read_rows(data, rows)
    prompt = prompt_column or next((c for c in PROMPT_COLUMNS if c in table[0]), None)
    if prompt is None or prompt not in table[0]:
        raise RewardInputError(f"{data}: no prompt column ({', '.join(PROMPT_COLUMNS)}) in its first row; name it "
                               "with --prompt-column")
    answer = answer_column or next((c for c in ANSWER_COLUMNS if c in table[0]), None)
    if answer_column is not None and answer_column not in table[0]:
        raise RewardInputError(f"{data}: its first row has no column {answer_column!r}; its columns are "
                               f"{', '.join(map(repr, list(table[0])[:12]))}")
    budget = MAX_SOURCE_BYTES - len(code.encode("utf-8")) - ADAPTER_BYTES
    kept, size = [], 0
    for row in table:
        if prompt not in row:
            raise RewardInputError(f"{data}: row {len(kept) + 1} has no {prompt!r} column; every row needs its prompt")
        size += len(repr(json.dumps(row, separators=(",", ":"))).encode("utf-8"))  # as the file will hold it
        if size > budget:
            break
        kept.append(row)
    cut_by_size = len(kept) < len(table)
    distinct = len({json.dumps(row[prompt], sort_keys=True) for row in kept})
    if distinct < MIN_PROMPTS:
        why = (f"only {len(kept)} row(s) fit in the {MAX_SOURCE_BYTES // 1000} kB an environment file may have, "
               "beside the function's code; shorten the rows or the code" if cut_by_size else "give more rows")
        raise RewardInputError(f"{data}: {distinct} distinct prompt(s) in the rows read; the gate needs at least "
                               f"{MIN_PROMPTS} (one task per episode, and an agent memorises a handful): {why}")
    result = RewardInput(f"{module_path}:{function}", "", rows=len(kept), reference_solution=answer is not None)
    if answer is None:  # a format or length reward: no right answer to play, so no tier that needs one
        result.notes.append(f"{data} has no answer column ({', '.join(ANSWER_COLUMNS)}; --answer-column names "
                            "another): the rows have no right answer, so the feasibility tier and the known-answer "
                            "probes are not run; the function is held to the contract and fuzzed")
    if cut_by_size:
        result.notes.append(f"validated on the first {len(kept)} rows of {data}: no more fit in the "
                            f"{MAX_SOURCE_BYTES // 1000} kB an environment file may have")
    elif _more_rows(data, len(table)):
        result.notes.append(f"validated on the first {len(kept)} rows of {data}; the others were not read")
    result.notes.append("the right answer written without a box (bare, in brackets, after 'Answer:') is not "
                        "played as a wrong answer: a reward function may take answers in any wrapping")
    result.source = _render(code, function, kept, prompt, answer, reward_range)
    return result


def _split_reference(reference: str) -> tuple[Path, str]:
    path, _, function = reference.rpartition(":")
    if not path or not function.isidentifier():
        raise RewardInputError(f"--reward {reference!r}: write FILE.py:FUNCTION, e.g. rewards.py:accuracy_reward")
    return Path(path), function


def _read_text(path: Path, option: str) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RewardInputError(f"{option}: no such file: {path}") from None
    except (OSError, ValueError) as error:
        raise RewardInputError(f"{option}: cannot read {path}: {getattr(error, 'strerror', None) or error}") from None


def _check_function(code: str, path: Path, function: str) -> None:
    """The function must be defined at the top level of the file (read, not run: the code is untrusted)."""
    try:
        tree = parse(code)
    except SyntaxError as error:
        raise RewardInputError(f"{path}: line {error.lineno}: {error.msg}; fix the syntax error") from None
    except (ValueError, RecursionError, MemoryError) as error:  # null bytes, nesting the parser cannot hold
        raise RewardInputError(f"{path} cannot be parsed ({type(error).__name__}); is it a Python file?") from None
    defined = [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if function not in defined:
        shown = ", ".join(defined[:8]) or "none"
        raise RewardInputError(f"{path} defines no top-level function {function!r} (its functions: {shown})")


def _read_rows(data: Path, rows: int) -> list[dict]:
    """The first ``rows`` rows of a JSONL file, each a JSON object."""
    found: list[dict] = []
    try:
        with data.open(encoding="utf-8-sig") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as error:
                    raise RewardInputError(f"{data}: line {number} is not JSON ({error.msg}); write one JSON object "
                                           "per line") from None
                except (ValueError, RecursionError) as error:  # a 5,000-digit number, nesting too deep
                    raise RewardInputError(f"{data}: line {number} cannot be read ({type(error).__name__}: "
                                           f"{str(error)[:80]})") from None
                if not isinstance(row, dict):
                    raise RewardInputError(f"{data}: line {number} is a JSON {type(row).__name__}, not an object; "
                                           "write one object per line")
                found.append(row)
                if len(found) >= rows:
                    break
    except FileNotFoundError:
        raise RewardInputError(f"--data: no such file: {data}") from None
    except (OSError, ValueError) as error:  # ValueError: UnicodeDecodeError
        raise RewardInputError(f"--data: cannot read {data}: {getattr(error, 'strerror', None) or error}") from None
    if not found:
        raise RewardInputError(f"--data {data} holds no rows; write one JSON object per line")
    return found


def _more_rows(data: Path, read: int) -> bool:
    """Whether ``data`` holds more rows than were read (what lies past them is not parsed, only counted)."""
    try:
        with data.open("rb") as handle:
            return sum(1 for line in handle if line.strip()) > read
    except OSError:
        return True


def _render(code: str, function: str, rows: list[dict], prompt: str, answer: str,
            reward_range: tuple[float, float]) -> str:
    """The user's code, unchanged and first, then the rows and the environment class."""
    return code.rstrip("\n") + "\n\n\n" + _ADAPTER.format(
        rows=repr(json.dumps(rows, separators=(",", ":"))), function=function, prompt=repr(prompt),
        answer=repr(answer), class_name=CLASS_NAME, low=float(reward_range[0]), high=float(reward_range[1]))


_ADAPTER = '''# ---- generated by spade-envs (spade_envs/interop/reward_function.py): the reward function as an environment
import json as _spade_json

_SPADE_ROWS = _spade_json.loads({rows})
_SPADE_SCALE = max(1.0, abs({low!r}), abs({high!r}))  # SPADE rewards lie in [-1, 1]: a wider scale is divided
_SPADE_NOT_PASSED = ("prompt", "completion", "completion_ids")  # the columns TRL keeps from a reward function
_SPADE_FORMS = ("\\\\boxed{{{{{{}}}}}}", "<answer>{{}}</answer>")


class {class_name}:
    """One row per episode: its prompt, one reply, the reward function's score."""

    reward_range = ({low!r} / _SPADE_SCALE, {high!r} / _SPADE_SCALE)

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns  # one reply ends the episode whatever the budget
        self._row = _SPADE_ROWS[0]
        self._done = False

    def reset(self, seed=None):
        self._row = _SPADE_ROWS[(seed or 0) % len(_SPADE_ROWS)]
        self._done = False
        prompt = self._row[{prompt}]
        if isinstance(prompt, list):  # conversational: the messages, one per line
            prompt = "\\n".join(str(m.get("content", "")) if isinstance(m, dict) else str(m) for m in prompt)
        return str(prompt), {{}}

    def _score(self, reply):
        prompt = self._row[{prompt}]
        completion = [{{"role": "assistant", "content": reply}}] if isinstance(prompt, list) else reply
        columns = {{key: [value] for key, value in self._row.items() if key not in _SPADE_NOT_PASSED}}
        scores = {function}(prompts=[prompt], completions=[completion], **columns)
        score = scores[0] if isinstance(scores, (list, tuple)) and scores else None
        # as TRL reads it: a bool is 1.0 or 0.0; None (no opinion) and anything else here count as 0.0
        return float(score) / _SPADE_SCALE if isinstance(score, (int, float)) else 0.0

    def step(self, action):
        if self._done:
            return "The episode is over; call reset().", 0.0, True, False, {{}}
        self._done = True
        reward = self._score(action if isinstance(action, str) else str(action))
        return f"Scored {{reward:g}}.", reward, True, False, {{}}

    def solution(self):
        """The row's answer as an agent sends it: in a box, or in answer tags where only those are paid. An
        answer column that lists accepted forms ("octopuses|octopi") is answered with the first one paid."""
        if {answer} not in self._row:
            return None
        value = str(self._row[{answer}])
        alternatives = [part.strip() for part in value.split("|") if part.strip()] if "|" in value else []
        for candidate in [value, *alternatives]:
            for form in _SPADE_FORMS:
                if self._score(form.format(candidate)) >= self.reward_range[1]:
                    return form.format(candidate)
        return _SPADE_FORMS[0].format(value)

    def close(self):
        pass
'''
