"""Score the validator on a blind corpus (``benchmarks/blind/<corpus>/``): defects caught, correct accepted.

A blind corpus is written by an author who never read the checks, the fuzzer or the tests
(``benchmarks/blind/*/README.md`` says what each author read), with a ``prove.py`` that shows in-process
that every file is what ``manifest.json`` claims. It is a benchmark, not a test: nothing is tuned on it.

A defect counts as **caught for the planted reason** when the report rejects it with a finding of a check
that reads that class of defect (``PLANTED`` below, fixed before the first score was looked at); caught for
another reason it counts as caught, not as planted. A correct file counts as accepted when the report is ok.

    python benchmarks/blind_score.py corpus_a                      # this checkout
    python benchmarks/blind_score.py corpus_a --root /tmp/before    # another checkout of the project (before)
    python benchmarks/blind_score.py corpus_a --out benchmarks/results/blind_corpus_a.json --label after

The validator runs with its defaults (the WebAssembly sandbox, every tier, one worker per core) and a fixed
plan seed, so that a score replays.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLANTED: dict[str, set[str]] = {
    "unnatural_answer": {"answer_variants", "answer_leak", "trivially_solvable", "fuzz_post_episode",
                         "judge_checker_matches_text", "wrong_answer_paid"},
    "disguised_leak": {"answer_leak", "hint_leak", "judge_hint_or_reply_gives_answer"},
    "cheap_strategy": {"trivially_solvable", "answer_oracle_tool", "tool_calls_skipped", "answer_variants",
                       "answer_leak", "partial_credit", "wrong_answer_paid"},
    "unsolvable_or_seed_dependent": {"feasible", "fuzz_feasible", "observable_task", "distinct_tasks", "solution_defined",
                                     "judge_solvable_from_view"},
    "text_checker_mismatch": {"answer_format", "judge_checker_matches_text"},
    # move-level classes (issue 48, corpus H onwards)
    "illegal_move": {"out_of_range_moves", "trivially_solvable", "late_win", "judge_checker_matches_text"},
    "out_of_range_value": {"out_of_range_moves", "trivially_solvable", "answer_variants"},
    "repeat_leak": {"answer_leak", "hint_leak"},
    "malformed_completion": {"answer_leak", "answer_variants"},
    "advertised_command": {"answer_leak", "answer_oracle_tool"},
    "termination": {"late_win", "terminates", "fuzz_terminates", "fuzz_post_episode", "trivially_solvable",
                    "wrong_answer_paid", "partial_credit"},
    "validation_aware": {"validation_aware", "oracle_consistent", "fuzz_reset_isolation", "fuzz_determinism",
                         "reset_deterministic", "trajectory_deterministic", "instance_isolation",
                         "answer_leak", "answer_variants", "trivially_solvable", "hint_leak", "feasible", "wall_clock"},
}
"""Defect class -> the checks whose finding names that class of defect (``wrong_answer_paid``, added with
the check in issue 47, names a grader that pays wrong answers: both an unnatural answer and a cheap strategy). A validation-aware environment is
caught for its planted reason either by a check that sees it behave differently under validation or by the
check that names the defect it shows in play."""


def validate(root: Path, corpus: Path, plan_seed: int) -> dict:
    """The validator's JSON report of the corpus, run from the checkout at ``root``."""
    files = sorted(p for p in corpus.glob("*.py") if p.name != "prove.py")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); sys.argv = ['spade-envs', *sys.argv[2:]]; "
            "from spade_envs.cli import main; raise SystemExit(main())")
    command = [sys.executable, "-c", code, str(root), "validate", *map(str, files), "--json"]
    if (root / "spade_envs" / "cli.py").read_text(encoding="utf-8").count("--plan-seed"):
        command += ["--plan-seed", str(plan_seed)]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=root, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"the validator failed (exit {done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def score(manifest: list[dict], report: dict) -> dict:
    by_file = {Path(r["path"]).name: r for r in report["results"]}
    rows, totals = [], {"defects": 0, "caught": 0, "planted": 0, "correct": 0, "accepted": 0}
    per_class: dict[str, dict[str, int]] = {}
    for item in manifest:
        result = by_file.get(item["file"])
        failures = [f["check"] for f in (result or {}).get("failures", [])]
        warnings = [w["check"] for w in (result or {}).get("warnings", [])]
        ok = bool(result and result.get("ok"))
        row = {"file": item["file"], "class": item["class"], "ok": ok, "failures": failures, "warnings": warnings}
        if item["kind"] == "defect":
            planted = bool(set(failures) & PLANTED.get(item["class"], set()))
            row["verdict"] = "planted" if planted else ("other reason" if not ok else "missed")
            totals["defects"] += 1
            totals["caught"] += not ok
            totals["planted"] += planted
            cls = per_class.setdefault(item["class"], {"files": 0, "planted": 0, "caught": 0})
            cls["files"] += 1
            cls["planted"] += planted
            cls["caught"] += not ok
        else:
            row["verdict"] = "accepted" if ok else "rejected"
            totals["correct"] += 1
            totals["accepted"] += ok
        rows.append(row)
    return {"totals": totals, "per_class": per_class, "files": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", help="a folder under benchmarks/blind/")
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout whose validator is scored")
    parser.add_argument("--plan-seed", type=int, default=20261204)
    parser.add_argument("--label", default="this checkout")
    parser.add_argument("--out", type=Path, help="add the score to this JSON file under --label")
    args = parser.parse_args()
    corpus = HERE / "blind" / args.corpus
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
    started = time.perf_counter()
    result = score(manifest, validate(args.root.resolve(), corpus, args.plan_seed))
    result["seconds"] = round(time.perf_counter() - started, 1)
    t = result["totals"]
    print(f"{args.corpus} [{args.label}]: defects caught for the planted reason {t['planted']}/{t['defects']} "
          f"(caught at all {t['caught']}), correct accepted {t['accepted']}/{t['correct']}, {result['seconds']} s")
    for name, cls in result["per_class"].items():
        print(f"  {name:30s} planted {cls['planted']}/{cls['files']}  caught {cls['caught']}/{cls['files']}")
    for row in result["files"]:
        if row["verdict"] not in ("planted", "accepted"):
            print(f"  {row['file']}: {row['class']}: {row['verdict']} {row['failures']}")
    if args.out:
        stored = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
        stored[args.label] = result
        args.out.write_text(json.dumps(stored, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
