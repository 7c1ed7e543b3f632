"""How well a tiny designer writes environment programs after pretraining on the generated corpus.

    python benchmarks/python_designer_pretrain.py [--steps 200 400 600] [--samples 12]

Pretrains with ``PretrainingSection``'s defaults (issue 32's embedded Python designer), and after each of
``--steps`` samples programs (half single-answer, half multi-turn) and puts them through the real checker
in the WebAssembly sandbox: how many parse, how many pass, why the others fail, and how many repeat a
corpus program verbatim or nearly (the memory's similarity >= 0.9). Writes
``benchmarks/results/python_designer_pretrain.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spade_envs.checks.validate import validate_source
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_train.config.sections import PretrainingSection
from spade_train.designer.parser import parse_environment_response
from spade_train.pretraining.pretrain import pretrain, sample_programs
from spade_train.similarity import fingerprint, jaccard
from tests.conftest import python_run_config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[200, 400, 600])
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    backend = create_backend("wasm", ExecutionLimits())
    checker = python_run_config(kinds=["single_answer", "multi_turn_game"]).loop.validator(plan_salt=0)
    rows = []
    for steps in args.steps:
        settings = PretrainingSection(steps=steps)
        started = time.perf_counter()
        result = pretrain(settings, seed=args.seed)
        seconds = time.perf_counter() - started
        kinds = ["single_answer", "multi_turn_game"] * (args.samples // 2)
        replies = sample_programs(result.model, result.tokenizer, kinds, temperature=settings.sample_temperature,
                                  max_tokens=settings.max_positions, seed=args.seed)
        corpus_prints = [fingerprint(p.code) for p in result.corpus]
        corpus_codes = {p.code for p in result.corpus}
        reasons: Counter[str] = Counter()
        parsed = valid = verbatim = near = 0
        for reply in replies:
            code = parse_environment_response(reply).code
            if code is None:
                reasons["no code"] += 1
                continue
            parsed += 1
            verbatim += code in corpus_codes
            probe = fingerprint(code)
            near += any(jaccard(probe, known) >= 0.9 for known in corpus_prints)
            report = validate_source(code, backend, config=checker)
            valid += report.ok
            if not report.ok:
                reasons[report.failures[0].check] += 1
        row = {"steps": steps, "train_seconds": round(seconds, 1), "final_loss": round(result.losses[-1], 4),
               "samples": len(replies), "parsed": parsed, "valid": valid, "verbatim": verbatim,
               "near_duplicate": near, "rejected_by": dict(reasons)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = ROOT / "benchmarks" / "results" / "python_designer_pretrain.json"
    out.write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
