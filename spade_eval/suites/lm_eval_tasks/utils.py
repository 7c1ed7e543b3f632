"""Functions the task YAML files in this folder name with ``!function utils.NAME``.

lm-eval imports this file by path. The data directory comes from the task metadata, so a plain
lm-eval run works too::

    lm_eval --include_path spade_eval/suites/lm_eval_tasks --tasks spade_aime25 \
        --metadata '{"data_dir": "/path/to/data"}' --model local-chat-completions ...
"""

from __future__ import annotations

from typing import Any

from spade_eval.suites import math_data


def _dataset(rows: list[dict[str, Any]]) -> dict[str, Any]:
    import datasets

    return {"test": datasets.Dataset.from_list(rows)}


def _loader(name: str):
    def load(data_dir: str | None = None, **_: Any) -> dict[str, Any]:
        return _dataset(math_data.load_math(name, data_dir))

    load.__name__ = f"load_{name}"
    return load


load_aime24 = _loader("aime24")
load_aime25 = _loader("aime25")
load_aime26 = _loader("aime26")
load_amc23 = _loader("amc23")
load_math500 = _loader("math500")
load_minerva_math = _loader("minerva_math")
load_olympiadbench = _loader("olympiadbench")


def load_gpqa_diamond(data_dir: str | None = None, data_path: str | None = None, **_: Any) -> dict[str, Any]:
    return _dataset(math_data.load_gpqa(data_dir, data_path))


def math_doc_to_text(doc: dict[str, Any]) -> str:
    return math_data.math_prompt(doc)


def gpqa_doc_to_text(doc: dict[str, Any]) -> str:
    return math_data.gpqa_prompt(doc)


def math_process_results(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    return {"math_verify": math_data.score_math(doc["answer"], results[0])[0]}


def gpqa_process_results(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    return {"math_verify": math_data.score_choice(doc["answer"], results[0])[0]}
