"""falsepass 0.11.0 and spade-envs, side by side on the same graders (issue 49, item 4).

Both tools audit TRL-style reward functions with a JSONL dataset and verifiers environments, the inputs they
share. Each case is a reward function (``reward``) with its rows, or an environment, and a label: defective
or honest, with a kind (``pays_wrong``: a wrong reply is paid, ``refuses_right``: a right one is not,
``crash``, ``bad_value``: NaN or a reward out of range, ``nondeterministic``, ``leak``: the task gives the
answer away, or ``honest``). The sets:

* ``defects``: graders written from falsepass's published defect list (its probe families), one defect
  each, with honest twins and two leaks (``graders/``, labels in ``graders/labels.json``);
* ``rewardlint``: rewardlint 0.1.0's five reference graders, assembled at run time from the installed
  package (never copied into this repository) and labelled by rewardlint's own 87-case corpus;
* ``blind``: a corpus written by an author who read neither tool's checks (``blind_graders/``);
* ``reasoning_gym``: Reasoning Gym tasks scored by their own ``score_answer`` (third-party, unlabelled);
* ``verifiers``: verifiers environments as Environments Hub folders, single- and multi-turn
  (``verifiers_envs/``): falsepass audits the folder, spade-envs validates ``verifiers:FOLDER``;
* ``exports``: this project's own export, environments of its defect zoo in pools loaded through its
  verifiers export: falsepass audits the export, spade-envs the environment's file.

TextArena games are not in the set: falsepass has no input for them.

Each tool runs as a user would run it in CI, with the same thresholds: falsepass through its runner
module in its own virtual environment (``python -m falsepass.runner AUDIT --fail-on ...``; its ``audit``
command needs ``uv`` and Python 3.12), spade-envs through its command line (``spade-envs validate --reward
... --fail-on ...``, the WebAssembly sandbox). A case is *flagged* when the tool's exit code says the gate
failed. A defective case flagged is caught, one not flagged is missed; an honest case flagged is a false
rejection.

    python benchmarks/falsepass/side_by_side.py                  # every set, ~20 min on 2 cores
    python benchmarks/falsepass/side_by_side.py --sets defects   # one set

The first run creates ``benchmarks/falsepass/.venv`` (git-ignored) with falsepass and rewardlint pinned,
verifiers at this project's version, and this project installed (for its exports).
Results: ``benchmarks/results/falsepass_side_by_side.json`` and a Markdown table beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
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
LIMITS = {"ceiling": 0.1, "answer_free": 0.1, "refused": 0.3}
"""One CI gate for both tools (``--fail-on NAME>LIMIT`` in each): the highest reward a known-bad reply earned,
the best answer-free strategy's mean return, the share of right replies refused. falsepass also fails on
scoring errors (``errors>0``); spade-envs rejects a grader that crashes, and its verdict fails the gate."""
THEIRS = {"ceiling": "ceiling", "answer_free": "lazy", "refused": "false_fail", "errors": "errors"}
"""Our name of each figure -> falsepass's."""
TOOLS = ("falsepass", "spade")
REFUSED_SWEEP = (0.1, 0.2, 0.3, 0.4, 0.5)
KINDS = ("pays_wrong", "refuses_right", "crash", "bad_value", "nondeterministic", "leak", "honest", "third_party")
REWARDLINT_GRADERS = ("exact_match", "substring_match", "last_number", "boxed_exact", "robust_match")
REFUSED_LIMIT = 0.3
"""rewardlint's labels: a grader that refuses more than this share of its corpus's right answers
"refuses right answers"."""


@dataclass
class Case:
    id: str
    set: str
    defective: bool
    kinds: list[str]
    reward: Path
    """A reward function's file; for an environment case, the file spade-envs validates."""
    data: Path | None
    """A reward function's rows (None for an environment case)."""
    description: str
    ours: list[str] = field(default_factory=list)
    """Further options for spade-envs (a grader that imports its library runs in the process sandbox)."""
    environment: Path | None = None
    """An environment case: the verifiers environment folder falsepass audits (its module on the path)."""
    target: str | None = None
    """An environment case: what spade-envs validates (a file of ours, or ``verifiers:FOLDER``)."""
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


def verifiers_cases() -> list[Case]:
    """verifiers environments written as Environments Hub folders (``verifiers_envs/``): falsepass audits the
    folder (its own input), spade-envs validates ``verifiers:FOLDER`` in the process sandbox."""
    folder = HERE / "verifiers_envs"
    cases = []
    for label in json.loads((folder / "labels.json").read_text()):
        env = folder / label["id"]
        cases.append(Case(label["id"], "verifiers", label["defective"], [label["kind"]], env / f"{label['id']}.py",
                          None, label["description"], ours=["--sandbox", "process"], environment=env,
                          target=f"verifiers:{env}"))
    return cases


EXPORTS = (
    ("valid_single_answer", False, "honest"), ("valid_multiple_choice_letter", False, "honest"),
    ("valid_equivalent_fraction_forms", False, "honest"),
    ("valid_balanced_yes_no", False, "honest"), ("valid_guess_number_higher_lower", False, "honest"),
    ("answer_variants_substring_match", True, "pays_wrong"), ("answer_variants_multiple_candidates", True, "pays_wrong"),
    ("answer_variants_tolerance", True, "pays_wrong"), ("trivially_solvable_constant_one", True, "pays_wrong"),
    ("answer_leak_fixed_position", True, "leak"), ("answer_leak_debug_suffix", True, "leak"),
    ("reward_out_of_range", True, "bad_value"), ("garbage_int_parse", True, "crash"),
    ("reset_unseeded_random", True, "nondeterministic"), ("good_answer_refused_box_must_end", True, "refuses_right"),
    ("valid_release_single_answer_plain", True, "pays_wrong"),
)
"""Files of the project's defect zoo (``tests/zoo/``): (name, defective, kind). The zoo's
``valid_release_single_answer_plain`` is the SPADE release's template, which reads the first box: a right
answer taken back for a wrong final one is paid. The zoo accepts it (with a warning), as the release's own
environments are; here, where a defect is a wrong reply paid, it counts as one."""
EXPORT_SEEDS = 25
_EXPORT_MODULE = '''from pathlib import Path

from spade_envs.interop.verifiers_env import load_environment as _load


def load_environment(**kwargs):
    """The pool beside this file, as spade-envs exports it to verifiers."""
    kwargs.setdefault("seeds_per_env", {seeds})
    kwargs.setdefault("allow_unvalidated", True)  # the defective environments are in the pool on purpose
    return _load(pool=str(Path(__file__).resolve().parent / "pool"), **kwargs)
'''


def export_cases(work: Path) -> list[Case]:
    """The project's own export: one zoo environment per pool, written as the self-play loop writes pools
    (``write_pool``; ``spade-envs export`` refuses a defective file), loaded through the verifiers export
    (``spade_envs.interop.verifiers_env``). falsepass audits the export, which carries each seed's answer;
    spade-envs validates the environment's file. falsepass's virtual environment has spade-envs installed."""
    from spade_envs.packing import spec_of_code
    from spade_envs.pool import write_pool
    from spade_envs.runtime import ExecutionLimits, create_backend

    backend = create_backend("wasm", ExecutionLimits())
    cases = []
    for name, defective, kind in EXPORTS:
        path = ROOT / "tests" / "zoo" / f"{name}.py"
        source = path.read_text(encoding="utf-8")
        module = f"x_{name}"
        folder = work / "exports" / module
        write_pool(folder / "pool", f"zoo-{name}", [(spec_of_code(backend, source), source)])
        (folder / f"{module}.py").write_text(_EXPORT_MODULE.format(seeds=EXPORT_SEEDS), encoding="utf-8")
        (folder / "pyproject.toml").write_text(f'[project]\nname = "{module}"\nversion = "0.1.0"\n',
                                               encoding="utf-8")
        described = next((line.strip() for line in source.split('"""')[1].splitlines() if line.strip()), name)
        cases.append(Case(f"export.{name}", "exports", defective, [kind], path, None, described, environment=folder,
                          target=str(path)))
    return cases


RG_TASKS = ("leg_counting", "basic_arithmetic", "chain_sum")
_RG_REWARD = '''import json
import re

import reasoning_gym

TASK = {task!r}
SCORE = reasoning_gym.get_score_answer_fn(TASK)
BOX = re.compile(r"\\\\boxed\\{{([^{{}}]*)\\}}")


def reward(completions, answer, entry, **kwargs):
    """The task's own scorer on the last boxed answer (the row's whole item rides in its entry column)."""
    scores = []
    for completion, item in zip(completions, entry):
        text = completion if isinstance(completion, str) else completion[-1]["content"]
        boxes = BOX.findall(text)
        scores.append(float(SCORE(answer=boxes[-1], entry=json.loads(item))) if boxes else 0.0)
    return scores
'''


def reasoning_gym_cases(work: Path) -> list[Case]:
    """Reasoning Gym 0.1.23 tasks, each scored by its own ``score_answer`` as a reward function: third-party
    graders with no label of ours (``kind`` third_party), reported for what each tool says of them."""
    import reasoning_gym

    cases = []
    for task in RG_TASKS:
        rows = [{"prompt": entry["question"] + "\n\nPut the final answer in \\boxed{}.", "answer": str(entry["answer"]),
                 "entry": json.dumps(entry, default=str)} for entry in reasoning_gym.create_dataset(task, size=32, seed=0)]
        reward = work / f"rg_{task}.py"
        reward.write_text(_RG_REWARD.format(task=task), encoding="utf-8")
        cases.append(Case(f"reasoning_gym.{task}", "reasoning_gym", False, ["third_party"], reward,
                          write_rows(work / f"rg_{task}.jsonl", rows), f"Reasoning Gym's {task}, its own scorer",
                          ours=["--sandbox", "process", "--allow-import", "reasoning_gym"]))
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
    # its verifiers pin, as this project's; the project itself, for the audits of its own exports
    subprocess.run([str(VENV / "bin" / "pip"), "install", "--quiet", "verifiers==0.3.1", "-e", str(ROOT)], check=True)


def run_ours(case: Case) -> dict:
    """The verdict and the known-answer figures of ``spade-envs validate --reward ... --json``."""
    started = time.perf_counter()
    what = [case.target] if case.target else ["--reward", f"{case.reward}:reward", "--data", str(case.data)]
    done = subprocess.run(
        [sys.executable, "-m", "spade_envs.cli", "validate", *what, "--json", "--plan-seed", "0", *case.ours],
        capture_output=True, text=True, cwd=ROOT, timeout=900, check=False)
    seconds = round(time.perf_counter() - started, 1)
    try:
        report = json.loads(done.stdout)["results"][0]
    except (ValueError, KeyError, IndexError):
        return {"stopped": done.stderr.strip()[-300:], "figures": {}, "seconds": seconds}
    known = report.get("known_answers") or {}
    figures = {"ceiling": known.get("bad_reply_ceiling"), "answer_free": known.get("answer_free_return"),
               "refused": known.get("good_refused_share")}
    return {"rejected": not report["ok"], "failures": sorted({f["check"] for f in report["failures"]}),
            "warnings": sorted({w["check"] for w in report["warnings"]}), "figures": figures, "seconds": seconds}


def run_falsepass(case: Case, work: Path) -> dict:
    """falsepass's headline figures, read from its own gate: every condition is asked with a limit no figure
    is under, so that each prints its actual value."""
    started = time.perf_counter()
    audits = work / "audits"
    name = case.id.replace(".", "_")
    if case.environment is not None:  # a verifiers environment folder: its module is found on the path
        init = [str(case.environment), "--framework", "verifiers"]
        env = {**os.environ, "PYTHONPATH": str(case.environment)}
    else:
        init = [str(case.reward), "--framework", "reward", "--dataset", str(case.data), "--func", "reward"]
        env = None
    subprocess.run([str(VENV / "bin" / "falsepass"), "init", *init, "--dir", str(audits), "--name", name, "--force"],
                   capture_output=True, text=True, check=True, timeout=300, cwd=work)
    gate = [arg for theirs in THEIRS.values() for arg in ("--fail-on", f"{theirs}>-1")]
    done = subprocess.run([str(VENV / "bin" / "python"), "-m", "falsepass.runner", str(audits / name), "-n", "25",
                           "--jobs", "1", *gate], capture_output=True, text=True, timeout=900, check=False,
                          env=env, cwd=work)
    actual = dict(re.findall(r"gate failed: (\w+)>-1 \(actual ([-\d.e+]+)\)", done.stderr))
    figures = {ours: float(actual[theirs]) if theirs in actual else None for ours, theirs in THEIRS.items()}
    result = {"figures": figures, "seconds": round(time.perf_counter() - started, 1)}
    if done.returncode not in (0, 1) or not actual:
        result["stopped"] = done.stderr.strip()[-300:]
    return result


def reasons(tool: str, result: dict, limits: dict[str, float]) -> list[str]:
    """Why a tool's CI gate fails on a case at these limits (empty: it passes)."""
    why = ["stopped"] if "stopped" in result else []
    if result.get("rejected"):
        why.append("rejected: " + ", ".join(result["failures"]))
    for name, limit in limits.items():
        value = result["figures"].get(name)
        if value is not None and value > limit:
            why.append(f"{name} {value:g} > {limit:g}")
    if tool == "falsepass" and (result["figures"].get("errors") or 0) > 0:
        why.append(f"errors {result['figures']['errors']:g} > 0")
    return why


# ---------------------------------------------------------------------- the table
def counts(cases: list[Case], limits: dict[str, dict[str, float]]) -> dict[tuple[str, str], dict[str, int]]:
    """Per (kind, tool): cases, caught or missed (defective), flagged or passed (honest), at each tool's limits."""
    found: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for case in cases:
        for kind in case.kinds:
            for tool in TOOLS:
                flagged = bool(reasons(tool, case.results[tool], limits[tool]))
                key = ("caught" if flagged else "missed") if case.defective else ("false" if flagged else "passed")
                found[(kind, tool)][key] += 1
                found[(kind, tool)]["n"] += 1
    return found


def table(cases: list[Case], limits: dict[str, dict[str, float]]) -> str:
    found = counts(cases, limits)
    lines = [("| kind | cases | falsepass caught | spade-envs caught | falsepass false rejections | "
              "spade-envs false rejections |"), "|---|---|---|---|---|---|"]
    for kind in KINDS:
        f, s = found.get((kind, "falsepass")), found.get((kind, "spade"))
        if not f:
            continue
        if kind in ("honest", "third_party"):  # unlabelled third-party graders: how many each tool flags
            lines.append(f"| {kind} | {f['n']} | | | {f['false']} | {s['false']} |")
        else:
            lines.append(f"| {kind} | {f['n']} | {f['caught']} | {s['caught']} | | |")
    return "\n".join(lines)


def calibrated(cases: list[Case]) -> dict[str, dict[str, float]]:
    """Each tool's refused limit: the lowest of ``REFUSED_SWEEP`` at which it flags none of the honest graders
    of the ``defects`` set (written with the defective ones, not blind). A refused share is counted over
    each tool's own right replies, and falsepass's include forms no grader here asks for, so one limit
    for both would measure the reply sets, not the tools."""
    honest = [case for case in cases if case.set == "defects" and not case.defective]
    out = {}
    for tool in TOOLS:
        limit = next((value for value in REFUSED_SWEEP
                      if not any(reasons(tool, c.results[tool], {**LIMITS, "refused": value}) for c in honest)),
                     REFUSED_SWEEP[-1])
        out[tool] = {**LIMITS, "refused": limit}
    return out


def refused_sweep(cases: list[Case]) -> str:
    """The refused-share limit, swept: right answers refused caught against honest graders flagged."""
    lines = ["| refused limit | falsepass: refuses_right caught, honest flagged | spade-envs: the same |",
             "|---|---|---|"]
    for limit in REFUSED_SWEEP:
        found = counts(cases, {tool: {**LIMITS, "refused": limit} for tool in TOOLS})
        cells = [f"{found[('refuses_right', t)]['caught']}/{found[('refuses_right', t)]['n']}, "
                 f"{found[('honest', t)]['false']}/{found[('honest', t)]['n']}" for t in TOOLS]
        lines.append(f"| {limit:g} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="defects,rewardlint,blind,reasoning_gym,verifiers,exports",
                        help="comma-separated: defects, rewardlint, blind, reasoning_gym, verifiers, exports")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "falsepass_side_by_side.json")
    args = parser.parse_args(argv)
    ensure_falsepass()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    with tempfile.TemporaryDirectory(prefix="spade-falsepass-") as scratch:
        work = Path(scratch)
        cases = [*(defect_cases(work) if "defects" in sets else []),
                 *(rewardlint_cases(work) if "rewardlint" in sets else []),
                 *(blind_cases() if "blind" in sets else []),
                 *(reasoning_gym_cases(work) if "reasoning_gym" in sets else []),
                 *(verifiers_cases() if "verifiers" in sets else []),
                 *(export_cases(work) if "exports" in sets else [])]
        for index, case in enumerate(cases, start=1):
            case.results["falsepass"] = run_falsepass(case, work)
            case.results["spade"] = run_ours(case)
            marks = " ".join(f"{tool} {'/'.join(f'{k}={v:g}' for k, v in r['figures'].items() if v is not None)}"
                             for tool, r in case.results.items())
            print(f"[{index}/{len(cases)}] {case.set}/{case.id} ({'defective' if case.defective else 'honest'}, "
                  f"{'+'.join(case.kinds)}): {marks}", file=sys.stderr, flush=True)
    same = {tool: LIMITS for tool in TOOLS}
    own = calibrated(cases) if "defects" in sets else same
    for case in cases:
        for tool, result in case.results.items():
            result["gate"] = reasons(tool, result, own[tool])
    describe = "; ".join(f"{tool}: refused>{own[tool]['refused']:g}" for tool in TOOLS)
    markdown = (f"Each tool at its own refused limit ({describe}), both at ceiling>0.1 and answer_free>0.1 "
                f"(falsepass also errors>0):\n\n{table(cases, own)}\n\nBoth at the same limits "
                f"(refused>{LIMITS['refused']:g}):\n\n{table(cases, same)}\n\nThe refused limit, swept:\n\n"
                + refused_sweep(cases))
    document = {"falsepass": FALSEPASS, "limits": own, "sets": sets, "table": markdown,
                "cases": [{**asdict(case), "reward": str(case.reward.relative_to(ROOT)) if case.reward.is_relative_to(ROOT)
                           else case.reward.name, "data": case.data.name if case.data else None,
                           "environment": case.environment.name if case.environment else None,
                           "target": case.target.replace(str(ROOT) + "/", "") if case.target else None}
                          for case in cases]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown + "\n", encoding="utf-8")
    print(markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
