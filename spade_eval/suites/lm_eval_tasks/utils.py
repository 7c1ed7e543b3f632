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


def all_samples(resps: Any, docs: Any) -> Any:
    """The filter every task uses: keep all of a document's responses (lm-eval's default filter,
    ``take_first``, would score only the first of the ``repeats`` samples)."""
    return resps


def _texts(results: list[Any]) -> list[str]:
    """The responses to score: one (spade-eval's runner scores sample by sample), or all of a
    document's repeats as the ``all_samples`` filter hands them over."""
    if len(results) == 1 and isinstance(results[0], (list, tuple)):
        return [str(text) for text in results[0]]
    return [str(text) for text in results]


def _metrics(scores: list[float]) -> dict[str, float]:
    """``math_verify``: the mean over the document's samples (avg@k, pass@1 over k); ``pass@k``: 1.0 when
    any sample is correct (pass@k with k = the number of samples)."""
    if not scores:
        return {"math_verify": 0.0, "pass@k": 0.0}
    return {"math_verify": sum(scores) / len(scores), "pass@k": float(max(scores) > 0)}


def math_process_results(doc: dict[str, Any], results: list[Any]) -> dict[str, float]:
    return _metrics([math_data.score_math(doc["answer"], text)[0] for text in _texts(results)])


def gpqa_process_results(doc: dict[str, Any], results: list[Any]) -> dict[str, float]:
    return _metrics(
        [math_data.score_choice(doc["answer"], text, doc.get("choices"))[0] for text in _texts(results)]
    )
