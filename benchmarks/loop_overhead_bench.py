"""How much of a self-play iteration is *not* the model: checking, sandboxed steps, regret, memory.

Scripted policies stand in for the model: the designer returns bundled environments (a different one
each call, so none is rejected as a near-duplicate), the hinter a fixed hint, the agent a fixed move.
With zero latency an iteration's time is all non-model work; with a latency per generation (50 ms, a
fast server) the same iteration shows what share of the wall clock that work takes. The second
iteration of a loop is timed: the first pays the once-per-run start-up of workers and sandboxes.

    python benchmarks/loop_overhead_bench.py          # JSON in benchmarks/results/loop_overhead.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from spade_envs.checks.validate import TIERS, ValidatorConfig
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.registry import bundled_registry
from spade_envs.runtime import create_backend
from spade_train.corpus import Corpus
from spade_train.loop import LoopConfig, SelfPlayLoop
from spade_train.memory import EnvironmentMemory
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.rollout import RolloutConfig

RESULTS = Path(__file__).resolve().parent / "results" / "loop_overhead.json"


def run_iteration(latency_s: float, envs: int, episodes: int, fuzz_examples: int, workers: int) -> dict[str, float]:
    sources = [f"```python\n{entry.source()}```" for entry in bundled_registry() if entry.kind != "tool_use"]
    calls = {"designer": 0}

    def designer_reply(request):
        calls["designer"] += 1
        return sources[(calls["designer"] - 1) % len(sources)]

    config = LoopConfig(envs_per_iteration=envs, max_turns=25, concurrent_designs=4,
                        validation=ValidatorConfig(fuzz=FuzzConfig(examples=max(1, fuzz_examples)),
                                                   tiers=TIERS if fuzz_examples else TIERS[:-1]),
                        rollout=RolloutConfig(episodes_per_condition=episodes), duplicate_threshold=None,
                        validation_workers=workers, reuse_verdicts=False)
    with tempfile.TemporaryDirectory() as tmp, EnvironmentMemory(Path(tmp) / "memory.sqlite3") as memory:
        loop = SelfPlayLoop(
            designer=ScriptedPolicy(designer_reply, latency_s=latency_s, name="designer"),
            agent=ScriptedPolicy(["I am not sure. \\boxed{0}"], latency_s=latency_s, name="agent"),
            hinter=ScriptedPolicy(["Work it out step by step."], latency_s=latency_s, name="hinter"),
            backend=create_backend("wasm"), memory=memory, corpus=Corpus.demo(), config=config)
        # The first iteration pays once-per-run costs (worker processes, sandbox start, compiled-module
        # load); a run pays them once, so the second iteration is the one measured. Verdict reuse is
        # off: every design is validated in full, as if it were new.
        asyncio.run(loop.run_iteration(step=1))
        started = time.perf_counter()
        result = asyncio.run(loop.run_iteration(step=2))
        seconds = time.perf_counter() - started
        loop.close()
    generations = sum(len(e.turns) for a in result.attempts if a.evaluation
                      for e in a.evaluation.hinted + a.evaluation.unhinted) + envs * 2
    return {"latency_s": latency_s, "seconds": round(seconds, 3), "generations": generations,
            "valid_rate": result.metrics["valid_rate"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--episodes", type=int, default=4, help="K per condition")
    parser.add_argument("--fuzz-examples", type=int, default=50, help="0 leaves the fuzz tier out")
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--validation-workers", type=int, default=2, help="0: validate in-process")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    print("iteration with zero-latency policies ...", file=sys.stderr, flush=True)
    zero = run_iteration(0.0, args.envs, args.episodes, args.fuzz_examples, args.validation_workers)
    print(f"iteration with {args.latency * 1000:.0f} ms per generation ...", file=sys.stderr, flush=True)
    slow = run_iteration(args.latency, args.envs, args.episodes, args.fuzz_examples, args.validation_workers)
    share = zero["seconds"] / slow["seconds"]
    print(f"\nnon-model work per iteration: {zero['seconds']} s ({args.envs} environments, "
          f"{zero['generations']} generations)")
    print(f"iteration with {args.latency * 1000:.0f} ms generations: {slow['seconds']} s")
    print(f"non-model share of the iteration: {share:.1%} (target < 5%)")
    document = {"zero_latency": zero, "with_latency": slow, "non_model_share": round(share, 4),
                "settings": vars(args) | {"out": str(args.out)}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
