"""Math and science data and scoring: the plain functions behind the lm-eval task files.

The lm-eval tasks in ``lm_eval_tasks/`` call these (through that folder's ``utils.py``), so the same
loading and checking serve ``spade-eval run`` and a plain ``lm_eval --include_path ...`` run.

Every source is normalised to ``{"id", "problem", "answer"}`` (GPQA adds ``choices`` and the gold letter).
The reply's final answer is read by ``answers`` (the last ``\\boxed{}``, else the last answer
statement; never a number only mentioned in the reasoning); math answers are then compared by
math-verify (the gold answer parsed from ``\\boxed{gold}``; ``verify`` decides equivalence: fractions vs
decimals, intervals, sets, equations, ...), multiple-choice letters directly.

math-verify bounds its work with ``signal.alarm``, which only works on the main thread; elsewhere the
timeouts are switched off (as its documentation asks) and a pathological expression can take long.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import random
import threading
from pathlib import Path
from typing import Any

from spade_eval.benchmark import BenchmarkDataError
from spade_eval.suites.answers import extract_choice, extract_math_span
from spade_eval.suites.common import data_file, last_boxed, read_jsonl

MATH_PROMPT = "{problem}\n\nPlease reason step by step, and put your final answer within \\boxed{{}}."
GPQA_PROMPT = (
    "Answer the following multiple choice question. Think step by step, then give your final answer as "
    "the letter of the correct option within \\boxed{{}} (for example \\boxed{{A}}).\n\n{question}\n\n"
    "A) {A}\nB) {B}\nC) {C}\nD) {D}"
)
LETTERS = ("A", "B", "C", "D")

MATH_SOURCES: dict[str, tuple[str, str]] = {
    # name: (path under --data-dir, how to get it)
    "aime24": ("math/aime24/test.jsonl", "use the AIME 2024 JSONL (problem, answer) of a math eval harness"),
    "aime25": ("math/aime25/test.jsonl", "use the AIME 2025 JSONL (problem, answer) of a math eval harness"),
    "aime26": (
        "math/aime26/test.jsonl",
        "AIME 2026 is user-supplied: write one JSON object per line with 'problem' and 'answer'",
    ),
    "amc23": ("math/amc23/test.jsonl", "use the AMC 2023 JSONL (problem, answer)"),
    "math500": ("math/math500/test.jsonl", "use the MATH-500 JSONL (problem, answer; PRM800K test split)"),
    "minerva_math": ("math/minerva_math/test.jsonl", "use the Minerva / OCW JSONL (problem, solution)"),
    "olympiadbench": (
        "math/olympiadbench/test.jsonl",
        "use the OlympiadBench English text-only JSONL (question, final_answer)",
    ),
}
GPQA_FILES = ("science/gpqa_diamond.csv", "science/gpqa_diamond.jsonl")
GPQA_HOW = (
    "GPQA-Diamond is user-supplied (its authors ask that it not be posted in plain text): put "
    "gpqa_diamond.csv from the official release at DATA_DIR/science/gpqa_diamond.csv"
)


# ---------------------------------------------------------------------- loading
def load_math(name: str, data_dir: str | Path | None) -> list[dict[str, str]]:
    """The normalised rows of math source ``name`` under ``data_dir``."""
    relative, how = MATH_SOURCES[name]
    path = data_file(Path(data_dir) if data_dir else None, relative, name, how)
    rows = []
    for index, row in enumerate(read_jsonl(path, name)):
        problem = row.get("problem") or row.get("question")
        answer = _answer(row)
        if not isinstance(problem, str) or answer is None:
            raise BenchmarkDataError(f"{name}: {path} row {index + 1} needs a problem and an answer")
        rows.append(
            {
                "id": str(row.get("id", row.get("unique_id", row.get("idx", index)))),
                "problem": problem,
                "answer": answer,
            }
        )
    _check_unique_ids(rows, name, path)
    return rows


def _answer(row: dict[str, Any]) -> str | None:
    if "final_answer" in row:  # OlympiadBench: a list of answers, several when is_multiple_answer
        answers = row["final_answer"]
        if isinstance(answers, str):
            try:
                answers = ast.literal_eval(answers)
            except (ValueError, SyntaxError):
                answers = [answers]
        return ", ".join(_strip_dollars(str(a)) for a in answers)
    if row.get("answer") is not None:
        value = row["answer"]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return _strip_dollars(str(value))
    if isinstance(row.get("solution"), str):  # Minerva: the answer is the solution's last \boxed{}
        return last_boxed(row["solution"])
    return None


def _strip_dollars(text: str) -> str:
    text = text.strip()
    return text[1:-1].strip() if len(text) > 1 and text.startswith("$") and text.endswith("$") else text


def _check_unique_ids(rows: list[dict[str, Any]], name: str, path: Path) -> None:
    seen: set[str] = set()
    for row in rows:
        if row["id"] in seen:  # ids key the cache and the comparison report
            row["id"] = f"{row['id']}#{len(seen)}"
        seen.add(row["id"])


def load_gpqa(data_dir: str | Path | None, data_path: str | Path | None = None) -> list[dict[str, Any]]:
    """GPQA-Diamond rows from the official CSV (or JSONL with the same columns), choices shuffled.

    Columns used: ``Question``, ``Correct Answer``, ``Incorrect Answer 1..3`` and ``Record ID`` (the
    shuffle is seeded by the record, so every run and every model sees the same order).
    """
    path = Path(data_path) if data_path else _first_existing(data_dir)
    if path.suffix == ".csv":
        try:
            with path.open(encoding="utf-8", newline="") as handle:
                raw = list(csv.DictReader(handle))
        except (OSError, UnicodeDecodeError, csv.Error) as error:
            raise BenchmarkDataError(f"gpqa_diamond: cannot read {path}: {error}") from None
    else:
        raw = read_jsonl(path, "gpqa_diamond")
    rows = []
    for index, row in enumerate(raw):
        try:
            question = row["Question"].strip()
            correct = row["Correct Answer"].strip()
            wrong = [row[f"Incorrect Answer {k}"].strip() for k in (1, 2, 3)]
        except (KeyError, AttributeError):
            raise BenchmarkDataError(
                f"gpqa_diamond: {path} row {index + 1} lacks Question / Correct Answer / Incorrect Answer 1-3"
            ) from None
        record = str(row.get("Record ID") or index)
        options = [correct, *wrong]
        random.Random(int(hashlib.sha256(record.encode()).hexdigest()[:8], 16)).shuffle(options)
        gold = LETTERS[options.index(correct)]
        rows.append({"id": record, "problem": question, "choices": options, "answer": gold})
    _check_unique_ids(rows, "gpqa_diamond", path)
    return rows


def _first_existing(data_dir: str | Path | None) -> Path:
    for relative in GPQA_FILES:
        if data_dir and (Path(data_dir) / relative).is_file():
            return Path(data_dir) / relative
    return data_file(Path(data_dir) if data_dir else None, GPQA_FILES[0], "gpqa_diamond", GPQA_HOW)


# ---------------------------------------------------------------------- prompts
def math_prompt(doc: dict[str, Any]) -> str:
    return MATH_PROMPT.format(problem=doc["problem"])


def gpqa_prompt(doc: dict[str, Any]) -> str:
    return GPQA_PROMPT.format(question=doc["problem"], **dict(zip(LETTERS, doc["choices"])))


# ---------------------------------------------------------------------- scoring
def _timeout() -> int | None:
    return 5 if threading.current_thread() is threading.main_thread() else None


def score_math(gold: str, response: str) -> tuple[float, str | None]:
    """1.0 when the reply's final answer (``answers.extract_math_span``) is equivalent to ``gold`` by
    math-verify; and the answer read (None when the reply gives no final answer)."""
    from math_verify import parse, verify

    span = extract_math_span(response)
    if span is None:
        return 0.0, None
    timeout = _timeout()
    gold_parsed = parse(f"\\boxed{{{gold}}}", parsing_timeout=timeout)
    predicted = parse(span, parsing_timeout=timeout)
    if not gold_parsed or not predicted:
        return 0.0, _shown(predicted) if predicted else span
    return (1.0 if verify(gold_parsed, predicted, timeout_seconds=timeout) else 0.0), _shown(predicted)


def score_choice(
    gold_letter: str, response: str, options: list[str] | None = None
) -> tuple[float, str | None]:
    """Multiple choice: 1.0 when the letter the reply gives as its final answer (``answers.extract_choice``:
    boxed, "Answer: (C)", bold, with or without the option's text) is ``gold_letter``."""
    letter = extract_choice(response, LETTERS, options)
    return (1.0 if letter == gold_letter else 0.0), letter


def _shown(parsed: list[Any]) -> str | None:
    return str(parsed[-1]) if parsed else None
