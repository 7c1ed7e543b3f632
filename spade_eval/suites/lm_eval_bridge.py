"""How spade-eval uses lm-eval: real lm-eval task definitions over local files, in both directions.

The math and science benchmarks are lm-eval tasks (``lm_eval_tasks/*.yaml``: data loader, prompt,
``process_results`` with math-verify, the paper's generation settings and repeats). There are two ways
to run them, and they share every line of task code:

1. ``spade-eval run`` (``LmEvalBenchmark``): lm-eval's ``TaskManager`` builds the task, and spade-eval
   takes the documents, the prompt (``task.doc_to_text``) and the scorer (``task.process_results``) from
   it, while its own runner does the generation. Why not ``lm_eval.simple_evaluate`` here: the runner
   gives every suite the same on-disk generation cache (an interrupted 64-sample AIME run resumes),
   per-sample records in the results document, bootstrap intervals, concurrency and progress, which the
   evaluator's batch interface does not expose per item;
2. ``lm_eval.simple_evaluate(model=PolicyLM(policy), tasks=[...], task_manager=task_manager(data_dir))``
   (or ``--model spade-policy`` once this module is imported): any ``spade_train.policies`` model as an
   lm-eval ``LM``, for people who want lm-eval's own evaluator and output files.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lm_eval.api.model import LM
from lm_eval.api.registry import register_model

from spade_eval.benchmark import BenchmarkDataError, EvalItem, Generate, ItemRecord, SampleRecord
from spade_eval.suites.common import first_line, require_data_dir, sample
from spade_train.policies.base import GenerationRequest, Policy, SamplingParams

TASK_DIR = Path(__file__).resolve().parent / "lm_eval_tasks"


def task_manager(data_dir: Path | None, **metadata: Any) -> Any:
    """A ``TaskManager`` that sees only our task files, with ``data_dir`` in every task's metadata."""
    from lm_eval.tasks import TaskManager

    meta = {"data_dir": str(data_dir) if data_dir is not None else None, **metadata}
    return TaskManager(include_path=str(TASK_DIR), include_defaults=False, metadata=meta)


def load_task(task_name: str, data_dir: Path | None, **metadata: Any) -> Any:
    """The lm-eval ``Task`` object; data problems surface as ``BenchmarkDataError``."""
    # lm-eval logs a generic warning for every task with a custom loader; it tells our users nothing.
    logging.getLogger("lm_eval").setLevel(logging.ERROR)
    try:
        return task_manager(data_dir, **metadata).load([task_name])["tasks"][task_name]
    except BenchmarkDataError:
        raise
    except Exception as error:  # noqa: BLE001 - lm-eval wraps loader errors in several types
        cause: BaseException | None = error
        for _ in range(16):  # our loader's own error, wherever lm-eval wrapped it
            cause = cause.__cause__ or cause.__context__ if cause is not None else None
            if isinstance(cause, BenchmarkDataError):
                raise cause from None
        raise BenchmarkDataError(
            f"lm-eval could not build task {task_name}: {first_line(str(error))}"
        ) from None


@dataclass
class LmEvalBenchmark:
    """A spade-eval benchmark backed by one lm-eval task (see the module docstring)."""

    name: str
    task_name: str
    sampling: SamplingParams
    samples: int
    score_key: str = "math_verify"
    suite: str = "reasoning"
    needs_data_dir: bool = True
    user_supplied_data: bool = False
    """True where no public copy may be bundled (GPQA, AIME 2026): a whole-suite run skips it when absent."""
    metadata: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self._task: Any = None

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        if self.needs_data_dir:
            require_data_dir(data_dir, self.name)
        self._task = load_task(self.task_name, data_dir, **(self.metadata or {}))
        docs = self._task.test_docs()
        count = len(docs) if limit is None else min(limit, len(docs))
        return [EvalItem(id=str(docs[i]["id"]), payload=dict(docs[i])) for i in range(count)]

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        if self._task is None:
            raise RuntimeError(f"{self.name}: load() must run before run_item()")
        doc = item.payload
        messages = [{"role": "user", "content": self._task.doc_to_text(doc)}]
        records = []
        for generation in await sample(generate, messages, sampling, samples):
            if not generation.ok:
                records.append(SampleRecord(score=0.0, details={"error": generation.error}))
                continue
            score = float(self._task.process_results(doc, [generation.text])[self.score_key])
            records.append(
                SampleRecord(
                    score=score,
                    response=generation.text,
                    extracted=self._extract(doc, generation.text),
                    details={"finish_reason": generation.finish_reason},
                )
            )
        return ItemRecord(id=item.id, samples=records, gold=doc.get("answer"))

    def _extract(self, doc: dict[str, Any], text: str) -> str | None:
        from spade_eval.suites.math_data import score_choice, score_math

        if "choices" in doc:
            return score_choice(doc["answer"], text, doc["choices"])[1]
        return score_math(doc["answer"], text)[1]


def sampling_from_task(task_name: str) -> tuple[SamplingParams, int]:
    """The paper's settings as written in the task file: (sampling, repeats), without loading data."""
    import yaml

    merged: dict[str, Any] = {}
    path = TASK_DIR / f"{task_name}.yaml"
    for source in (TASK_DIR / "_math_base.yaml", path):
        text = "\n".join(
            line for line in source.read_text(encoding="utf-8").splitlines() if "!function" not in line
        )
        merged.update(yaml.safe_load(text) or {})
    kwargs = merged.get("generation_kwargs", {})
    sampling = SamplingParams(
        temperature=float(kwargs.get("temperature", 0.6)),
        top_p=float(kwargs.get("top_p", 1.0)),
        top_k=kwargs.get("top_k"),
        max_tokens=int(kwargs.get("max_gen_toks", 32768)),
    )
    return sampling, int(merged.get("repeats", 1))


# ---------------------------------------------------------------------- a policy as an lm-eval LM
@register_model("spade-policy")
class PolicyLM(LM):
    """Any ``spade_train.policies`` model as an lm-eval ``LM`` (generation tasks only).

    ``policy`` is a ``Policy`` object or a ``create_policy`` spec string (``--model_args
    policy=hf:/path`` on lm-eval's command line). Requests are generated concurrently, at most
    ``concurrency`` at a time. lm-eval asks a task's ``repeats`` as identical requests; the k-th copy of
    a request is sampled with ``seed + k`` (unless the task sets its own seed), exactly as spade-eval's
    runner seeds sample k of an item, so both routes see the same generations. With ``apply_chat_template=True`` lm-eval hands over the chat as JSON
    (``apply_chat_template`` below) and the policy applies its own template; otherwise the context is
    sent as one user message.
    """

    def __init__(self, policy: Policy | str, concurrency: int = 16, seed: int = 0, **_: Any) -> None:
        super().__init__()
        if isinstance(policy, str):
            from spade_train.policies.factory import create_policy

            policy = create_policy(policy)
        self.policy = policy
        self.concurrency = int(concurrency)
        self.seed = int(seed)

    @property
    def tokenizer_name(self) -> str:
        return f"spade-policy:{self.policy.name}"

    def chat_template(self, chat_template: bool | str = False) -> str:
        return "policy"

    def apply_chat_template(
        self, chat_history: list[dict[str, str]], add_generation_prompt: bool = True
    ) -> str:
        return json.dumps(chat_history)

    def loglikelihood(self, requests: list[Any]) -> list[tuple[float, bool]]:
        raise NotImplementedError("spade-policy generates text only; use generate_until tasks")

    def loglikelihood_rolling(self, requests: list[Any]) -> list[float]:
        raise NotImplementedError("spade-policy generates text only; use generate_until tasks")

    def generate_until(self, requests: list[Any], disable_tqdm: bool = False) -> list[str]:
        return asyncio.run(self._generate_all([request.args for request in requests]))

    async def _generate_all(self, arguments: list[tuple[str, dict[str, Any]]]) -> list[str]:
        slots = asyncio.Semaphore(max(1, self.concurrency))
        copies: Counter[str] = Counter()

        async def one(context: str, gen_kwargs: dict[str, Any]) -> str:
            key = json.dumps([context, gen_kwargs], sort_keys=True, default=str)
            copy = copies[key]
            copies[key] += 1
            sampling = _sampling(gen_kwargs)
            if sampling.seed is None:
                sampling = replace(sampling, seed=self.seed + copy)
            async with slots:
                generation = await self.policy.generate(
                    GenerationRequest(messages=_messages(context), sampling=sampling)
                )
            return generation.text if generation.ok else ""

        return list(await asyncio.gather(*(one(context, kwargs) for context, kwargs in arguments)))


def _messages(context: str) -> list[dict[str, str]]:
    try:
        parsed = json.loads(context)
    except (json.JSONDecodeError, TypeError):
        parsed = None
    if isinstance(parsed, list) and parsed and all(isinstance(m, dict) and "role" in m for m in parsed):
        return [{"role": str(m["role"]), "content": str(m.get("content", ""))} for m in parsed]
    return [{"role": "user", "content": context}]


def _sampling(gen_kwargs: dict[str, Any]) -> SamplingParams:
    until = gen_kwargs.get("until") or ()
    greedy = gen_kwargs.get("do_sample") is False
    return SamplingParams(
        temperature=0.0 if greedy else float(gen_kwargs.get("temperature", 1.0)),
        top_p=float(gen_kwargs.get("top_p", 1.0)),
        top_k=gen_kwargs.get("top_k"),
        max_tokens=int(gen_kwargs.get("max_gen_toks", 1024)),
        stop=tuple([until] if isinstance(until, str) else until),
        seed=gen_kwargs.get("seed"),
    )
