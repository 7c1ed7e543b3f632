"""Dynamic checks: run the environment through an execution backend and hold it to the contract.

The checker only talks to ``ExecutionBackend``/``EnvSession``; which backend runs the code (in this
process, a child process, the WebAssembly sandbox) is the caller's choice. The tiers go from cheap to
expensive and stop after the first one that records a failure:

* ``contract`` (``contract.py``): it runs, returns the contract's types, is deterministic, ends, keeps
  its turn budget, does not read the clock, keeps instances apart, and no step is slow on big inputs;
* ``feasibility`` (``feasibility.py``): its own solution wins on every seed of a plan that mixes small
  seeds with the 32-bit seeds rollouts use, and no cheap exploit policy, copy of what the agent sees or
  hint reader wins more often than chance (``probes.py``);
* ``fuzz``: Hypothesis-generated episodes (``spade_envs.fuzz``).

The environment is the designer's, and the designer is trained against this checker, so the checker
takes care that validation looks like play (see ``context.py``: which session is asked what).
"""

from __future__ import annotations

import time

from spade_envs.checks.context import CheckConfig, CheckRun, DynamicResult, Stop
from spade_envs.checks.contract import check_declarations, contract_tier
from spade_envs.checks.feasibility import feasibility_tier
from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.episode import DEFAULT_MAX_TURNS, DEFAULT_REWARD_RANGE
from spade_envs.fuzz.counterexample import FUZZ_PROPERTIES
from spade_envs.fuzz.runner import FuzzConfig, Fuzzer
from spade_envs.runtime.backend import ExecutionBackend

__all__ = ["CheckConfig", "DynamicChecker", "DynamicResult"]


class DynamicChecker:
    """Runs the dynamic checks for one source file against one backend."""

    def __init__(self, backend: ExecutionBackend, config: CheckConfig | None = None) -> None:
        self.backend = backend
        self.config = config or CheckConfig()

    def run(
        self,
        source: str,
        class_name: str | None = None,
        *,
        tiers: tuple[str, ...] = ("contract", "feasibility"),
        fuzz: FuzzConfig | None = None,
    ) -> DynamicResult:
        """Run the given tiers in order, stopping after the first one that records a failure."""
        run = CheckRun(self.backend, self.config, source, class_name)
        result = run.result
        current = tiers[0] if tiers else "contract"
        started = time.perf_counter()
        try:
            opened = []
            with run.check("loads"):
                opened.append(run.open())
            if not opened:  # the finding is recorded (loads, or reward_range for an unusable declaration)
                result.failed_tier = "contract"
                return result
            run.oracle = opened[0]
            loaded = run.oracle.loaded
            result.class_name, result.tool_use = loaded.class_name, loaded.tool_use
            check_declarations(run)
            if result.failures:
                result.failed_tier = "contract"
                return result
            run.turn_limit = loaded.max_turns or self.config.max_turns or DEFAULT_MAX_TURNS
            run.reward_range = self.config.reward_range or loaded.reward_range or DEFAULT_REWARD_RANGE
            with run.check("loads"):
                opened += [run.open(), run.open()]
            if len(opened) < 3:
                result.failed_tier = "contract"
                return result
            run.player, run.twin = opened[1], opened[2]
            for tier in tiers:
                current = tier
                failures_before = len(result.failures)
                try:
                    if tier == "contract":
                        contract_tier(run)
                    elif tier == "feasibility":
                        feasibility_tier(run)
                    elif tier == "fuzz":
                        self._fuzz(run, fuzz or FuzzConfig())
                finally:
                    result.tier_ms[tier] = (time.perf_counter() - started) * 1000
                    started = time.perf_counter()
                if len(result.failures) > failures_before:
                    result.failed_tier = tier
                    break
            result.ran.setdefault("timeout", 0.0)
            result.ran.setdefault("runtime_limit", 0.0)
        except Stop:
            result.failed_tier = result.failed_tier or current  # the tier that was running
        finally:
            run.close()
        return result

    def _fuzz(self, run: CheckRun, config: FuzzConfig) -> None:
        moves: dict[int, list[str]] = {seed: list(actions) for seed, actions in run.verified.items()}
        for seed, solution in run.solutions.items():
            if seed not in moves:
                moves[seed] = solution_to_actions(solution, tool_use=run.tool_use)
        with run.check("fuzz_no_hang"):
            report = Fuzzer(run.player, run.open, turn_limit=run.turn_limit, reward_range=run.reward_range,
                            config=config, known_solutions=moves, verified=set(run.verified),
                            seed_pool=run.plan, batch_budget_s=run.batch_budget_s).run()
            for example in report.counterexamples:
                run.result.fail(example.property, example.summary(), detail=example.feedback(class_name=run.result.class_name),
                                seed=example.seed, actions=example.actions, step=example.step)
            run.result.episodes += report.examples
        for name in FUZZ_PROPERTIES:  # the properties share one run: its time is the fuzz tier's
            run.result.ran.setdefault(name, 0.0)

