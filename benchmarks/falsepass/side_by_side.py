"""falsepass 0.11.0 and spade-envs, side by side on the same graders (issue 49, item 4).

Both tools audit TRL-style reward functions with a JSONL dataset, the input they share. Each case is a
reward function (``reward``), its rows, and a label: defective or honest, with a kind (``pays_wrong``: a
wrong reply is paid, ``refuses_right``: a right one is not, ``crash``, ``bad_value``: NaN or a reward out of
range, ``nondeterministic``, ``leak``: the prompt gives the answer away, or ``honest``). Three sets:

* ``defects``: graders written from falsepass's published defect list (its probe families), one defect
  each, with honest twins and two leaks (``graders/``, labels in ``graders/labels.json``);
* ``rewardlint``: rewardlint 0.1.0's five reference graders, assembled at run time from the installed
  package (never copied into this repository) and labelled by rewardlint's own 87-case corpus;
* ``blind``: a corpus written by an author who read neither tool's checks (``blind_graders/``).

Each tool runs as a user would run it in CI, with the same thresholds: falsepass through its runner
module in its own virtual environment (``python -m falsepass.runner AUDIT --fail-on ...``; its ``audit``
command needs ``uv`` and Python 3.12), spade-envs through its command line (``spade-envs validate --reward
... --fail-on ...``, the WebAssembly sandbox). A case is *flagged* when the tool's exit code says the gate
failed. A defective case flagged is caught, one not flagged is missed; an honest case flagged is a false
rejection.

    python benchmarks/falsepass/side_by_side.py                  # every set, ~10 min on 2 cores
    python benchmarks/falsepass/side_by_side.py --sets defects   # one set

The first run creates ``benchmarks/falsepass/.venv`` (git-ignored) with falsepass and rewardlint pinned.
Results: ``benchmarks/results/falsepass_side_by_side.json`` and a Markdown table beside it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
VENV = HERE / ".venv"
FALSEPASS = "falsepass[rewardlint]==0.11.0"
OUR_GATE = "ceiling>0.1,answer_free>0.1,refused>0.3"
THEIR_GATE = ("ceiling>0.1", "lazy>0.1", "false_fail>0.3", "errors>0")
"""The same thresholds in each tool's words: the highest reward a known-bad reply earned, the best
answer-free strategy's mean, the share of right replies refused; falsepass also fails on scoring errors
(ours rejects a grader that crashes)."""
KINDS = ("pays_wrong", "refuses_right", "crash", "bad_value", "nondeterministic", "leak", "honest")
REWARDLINT_GRADERS = ("exact_match", "substring_match", "last_number", "boxed_exact", "robust_match")
REFUSED_LIMIT = 0.3
"""The share of right replies refused above which a grader "refuses right answers" (both gates; falsepass
refuses 20-29% of its own right replies on the honest graders here, forms they do not ask for)."""


@dataclass
class Case:
    id: str
    set: str
    defective: bool
    kinds: list[str]
    reward: Path
    data: Path
    description: str
    results: dict[str, dict] = field(default_factory=dict)


# ---------------------------------------------------------------------- datasets
def dataset(name: str) -> list[dict]:
    """The rows of a named dataset (deterministic): integer sums, mixed exact values, and two leaks."""
    rows = []
    for i in range(32):
        a, b = 17 * i + 3, 29 * i + 11
        if name == "sums":
            rows.append({"prompt": f"What is {a} + {b}? Put the final answer in \\boxed{{}}.", "answer": str(a + b)})
        elif name == "mixed":
            if i % 3 == 0:
                rows.append({"prompt": f"What is {a} + {b}? Put the final answer in \\boxed{{}}.", "answer": str(a + b)})
            elif i % 3 == 1:  # not "41 divided by 2": a grader that compares values would pay 41/2 copied
                rows.append({"prompt": f"What is {a}.5 + {b}.25? Put the final answer in \\boxed{{}}.",
                             "answer": str(a + b + 0.75)})
            else:  # a sum, not a fraction to simplify: a task that shows its own value leaks it (to ours)
                p, q, r = i + 1, 2 * i + 3, i + 2
                value = Fraction(p, q) + Fraction(1, r)
                rows.append({"prompt": f"What is {p}/{q} + 1/{r}, as a fraction in lowest terms? Put the final "
                                       "answer in \\boxed{}.", "answer": f"{value.numerator}/{value.denominator}"})
        elif name == "leak_hex":
            rows.append({"prompt": f"[ref 0x{a + b:x}] What is {a} + {b}? Put the final answer in \\boxed{{}}.",
                         "answer": str(a + b)})
        elif name == "leak_reversed":
            rows.append({"prompt": f"What is {a} + {b}? Put the final answer in \\boxed{{}}. (checksum "
                                   f"{str(a + b)[::-1]})", "answer": str(a + b)})
        else:
            raise ValueError(f"unknown dataset {name!r}")
    return rows


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


# ---------------------------------------------------------------------- the sets
def defect_cases(work: Path) -> list[Case]:
    cases = []
    for label in json.loads((HERE / "graders" / "labels.json").read_text()):
        data = write_rows(work / f"{label['id']}.jsonl", dataset(label["dataset"]))
        cases.append(Case(label["id"], "defects", label["defective"], [label["kind"]],
                          HERE / "graders" / label["id"] / "reward.py", data, label["description"]))
    return cases


def blind_cases() -> list[Case]:
    folder = HERE / "blind_graders"
    if not (folder / "labels.json").is_file():
        return []
    cases = []
    for label in json.loads((folder / "labels.json").read_text()):
        kind = label.get("kind") or ("honest" if not label["defective"] else _kind_of(label["class"]))
        cases.append(Case(label["id"], "blind", label["defective"], [kind], folder / label["id"] / "reward.py",
                          folder / label["id"] / "data.jsonl", label["description"]))
    return cases


def _kind_of(defect_class: str) -> str:
    """The blind corpus names its own classes; they are grouped into the table's kinds by their words."""
    words = defect_class.lower()
    for kind, markers in (("leak", ("leak",)), ("crash", ("crash", "raise", "exception")),
                          ("bad_value", ("out_of_range", "nan", "inf")),
                          ("nondeterministic", ("random", "nondetermin", "clock", "time", "state", "counter")),
                          ("refuses_right", ("refus", "false_negative", "equivalen", "strict"))):
        if any(marker in words for marker in markers):
            return kind
    return "pays_wrong"


def rewardlint_cases(work: Path) -> list[Case]:
    """rewardlint's reference graders as reward functions: its module's text (read from the installed
    package at run time) with a TRL wrapper after it; labelled by rewardlint's own audit of each (its 87
    cases), and as crashing where one of six malformed replies makes it raise (``robust_match`` raises
    OverflowError on \\boxed{1e309}, a fact rewardlint's corpus does not test)."""
    python = str(VENV / "bin" / "python")
    module = subprocess.run([python, "-c", "import rewardlint.reference as r; print(r.__file__)"],
                            capture_output=True, text=True, check=True).stdout.strip()
    truth = json.loads(subprocess.run([python, "-c", _TRUTH], capture_output=True, text=True, check=True).stdout)
    code = Path(module).read_text(encoding="utf-8")
    data = write_rows(work / "rewardlint.jsonl", dataset("mixed"))
    cases = []
    for name in REWARDLINT_GRADERS:
        found = truth[name]
        kinds = [kind for kind, bad in (("pays_wrong", found["false_positives"] > 0),
                                        ("refuses_right", found["false_negative_rate"] > REFUSED_LIMIT),
                                        ("crash", found["errors"] > 0)) if bad] or ["honest"]
        reward = work / f"rewardlint_{name}.py"
        reward.write_text(code + _WRAPPER.format(name=name), encoding="utf-8")
        described = (f"rewardlint's {name}: on its corpus {found['false_positives']} bad replies accepted, "
                     f"{found['false_negative_rate']:.0%} of right ones refused, {found['errors']} errors")
        cases.append(Case(f"rewardlint.{name}", "rewardlint", kinds != ["honest"], kinds, reward, data, described))
    return cases


_TRUTH = """
import json
from rewardlint import reference
from rewardlint.audit import audit
BOX = chr(92) + "boxed{"
MALFORMED = ["", BOX + "1e309}", BOX * 50, chr(0), "9" * 5000, BOX + chr(92) + "frac{1}{0}}"]
out = {}
for name in %r:
    grader = getattr(reference, name)
    result = audit(grader)
    accept = [o for o in result.outcomes if o.case.expect]
    raised = 0
    for reply in MALFORMED:
        try:
            grader(reply, "42")
        except Exception:
            raised += 1
    out[name] = {"false_positives": sum(1 for o in result.outcomes if not o.case.expect and o.accepted),
                 "false_negative_rate": sum(1 for o in accept if o.accepted is False) / max(1, len(accept)),
                 "errors": sum(1 for o in result.outcomes if o.error is not None) + raised}
print(json.dumps(out))
""".replace("%r", repr(REWARDLINT_GRADERS))

_WRAPPER = '''

# ---- added by benchmarks/falsepass/side_by_side.py: the grader as a TRL reward function
def reward(completions, answer, **kwargs):
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [float({name}(text, str(expected))) for text, expected in zip(texts, answer)]
'''


# ---------------------------------------------------------------------- the tools
def ensure_falsepass() -> None:
    if (VENV / "bin" / "falsepass").exists():
        return
    print(f"creating {VENV} with {FALSEPASS} ...", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(VENV / "bin" / "pip"), "install", "--quiet", FALSEPASS], check=True)


def run_ours(case: Case) -> dict:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "spade_envs.cli", "validate", "--reward", f"{case.reward}:reward", "--data",
         str(case.data), "--json", "--plan-seed", "0", "--fail-on", OUR_GATE],
        capture_output=True, text=True, cwd=ROOT, timeout=900, check=False)
    seconds = time.perf_counter() - started
    try:
        document = json.loads(done.stdout)
        report = document["results"][0]
    except (ValueError, KeyError, IndexError):
        return {"flagged": done.returncode != 0, "why": ["usage: " + done.stderr.strip()[-300:]],
                "seconds": round(seconds, 1)}
    why = sorted({f["check"] for f in report["failures"]})
    why += [f"fail-on {f['condition']}" for f in document["summary"]["fail_on"]]
    return {"flagged": done.returncode == 1, "rejected": not report["ok"], "why": why,
            "warnings": sorted({w["check"] for w in report["warnings"]}), "seconds": round(seconds, 1)}


def run_falsepass(case: Case, work: Path) -> dict:
    started = time.perf_counter()
    audits = work / "audits"
    name = case.id.replace(".", "_")
    subprocess.run([str(VENV / "bin" / "falsepass"), "init", str(case.reward), "--framework", "reward", "--dataset",
                    str(case.data), "--func", "reward", "--dir", str(audits), "--name", name, "--force"],
                   capture_output=True, text=True, check=True, timeout=300)
    gate = [arg for condition in THEIR_GATE for arg in ("--fail-on", condition)]
    done = subprocess.run([str(VENV / "bin" / "python"), "-m", "falsepass.runner", str(audits / name), "-n", "25",
                           "--jobs", "1", *gate], capture_output=True, text=True, timeout=900, check=False)
    why = [line.split("gate failed: ", 1)[1] for line in done.stderr.splitlines() if "gate failed: " in line]
    if done.returncode not in (0, 1) or (done.returncode == 1 and not why):
        why.append("stopped: " + done.stderr.strip()[-300:])
    return {"flagged": done.returncode != 0, "why": why, "seconds": round(time.perf_counter() - started, 1)}


# ---------------------------------------------------------------------- the table
def table(cases: list[Case]) -> str:
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for case in cases:
        for kind in case.kinds:
            for tool in ("falsepass", "spade"):
                flagged = case.results[tool]["flagged"]
                key = ("caught" if flagged else "missed") if case.defective else ("false" if flagged else "passed")
                counts[(kind, tool)][key] += 1
                counts[(kind, tool)]["n"] += 1
    lines = [("| kind | cases | falsepass caught | spade-envs caught | falsepass false rejections | "
              "spade-envs false rejections |"), "|---|---|---|---|---|---|"]
    for kind in KINDS:
        f, s = counts.get((kind, "falsepass")), counts.get((kind, "spade"))
        if not f:
            continue
        if kind == "honest":
            lines.append(f"| {kind} | {f['n']} | | | {f['false']} | {s['false']} |")
        else:
            lines.append(f"| {kind} | {f['n']} | {f['caught']} | {s['caught']} | | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="defects,rewardlint,blind", help="comma-separated: defects, rewardlint, blind")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "falsepass_side_by_side.json")
    args = parser.parse_args(argv)
    ensure_falsepass()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    with tempfile.TemporaryDirectory(prefix="spade-falsepass-") as scratch:
        work = Path(scratch)
        cases = [*(defect_cases(work) if "defects" in sets else []),
                 *(rewardlint_cases(work) if "rewardlint" in sets else []),
                 *(blind_cases() if "blind" in sets else [])]
        for index, case in enumerate(cases, start=1):
            case.results["falsepass"] = run_falsepass(case, work)
            case.results["spade"] = run_ours(case)
            marks = " ".join(f"{tool}={'FLAG' if r['flagged'] else 'pass'}" for tool, r in case.results.items())
            print(f"[{index}/{len(cases)}] {case.set}/{case.id} ({'defective' if case.defective else 'honest'}, "
                  f"{'+'.join(case.kinds)}): {marks}", file=sys.stderr, flush=True)
    markdown = table(cases)
    document = {"falsepass": FALSEPASS, "our_gate": OUR_GATE, "their_gate": list(THEIR_GATE), "sets": sets,
                "table": markdown,
                "cases": [{**asdict(case), "reward": str(case.reward.relative_to(ROOT)) if case.reward.is_relative_to(ROOT)
                           else case.reward.name, "data": case.data.name} for case in cases]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown + "\n", encoding="utf-8")
    print(markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
