"""How well a tiny designer writes environment programs after pretraining on the generated corpus.

    python benchmarks/python_designer_pretrain.py [--steps 200 400 600] [--samples 12]

Pretrains with ``PretrainingSection``'s defaults (issue 32's embedded Python designer), and after each of
``--steps`` samples programs (half single-answer, half multi-turn) and puts them through the real checker
in the WebAssembly sandbox (``pretrain.check_samples``, as ``spade-train pretrain`` does): how many parse,
how many pass, why the others fail, and how many repeat a corpus program verbatim or nearly (the memory's
similarity >= 0.9). Writes ``benchmarks/results/python_designer_pretrain.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from spade_envs.checks.validate import validate_source
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_train.config import parse_run_config
from spade_train.config.sections import PretrainingSection
from spade_train.pretraining.pretrain import check_samples, pretrain

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[200, 400, 600])
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    backend = create_backend("wasm", ExecutionLimits())
    validator = parse_run_config({"design": {"language": "python", "hinter": "model"},
                                  "loop": {"kinds": ["single_answer", "multi_turn_game"]}}).loop.validator(
        plan_salt=args.seed)
    rows = []
    for steps in args.steps:
        settings = PretrainingSection(steps=steps)
        started = time.perf_counter()
        result = pretrain(settings, seed=args.seed, backend=backend)
        seconds = time.perf_counter() - started
        checked = check_samples(result, settings, lambda code: validate_source(code, backend, config=validator),
                                count=args.samples, seed=args.seed)
        row = {"steps": steps, "train_seconds": round(seconds, 1), "final_loss": round(result.losses[-1], 4),
               **checked.to_json()}
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = ROOT / "benchmarks" / "results" / "python_designer_pretrain.json"
    out.write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
