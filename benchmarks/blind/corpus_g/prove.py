#!/usr/bin/env python3
"""Prove every label of corpus_g: run from the repository root with
``/work/main/.venv/bin/python benchmarks/blind/corpus_g/prove.py``.

Standard library only. Each environment file is exec'd in-process with ToolUseBaseEnv injected (loaded by
file path from spade_envs/contract/tool_use.py); action helpers come by path from spade_envs/contract/actions.py
and the fixed garbage probes from spade_envs/contract/probes.py. No validator code is imported or run.
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
import random
import re
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CONTRACT = os.path.join(ROOT, "spade_envs", "contract")


def _load(name: str, filename: str):
    spec = importlib.util.spec_from_file_location(name, os.path.join(CONTRACT, filename))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


TOOL_USE = _load("corpus_g_tool_use", "tool_use.py")
ACTIONS = _load("corpus_g_actions", "actions.py")
PROBES = _load("corpus_g_probes", "probes.py")
TUB = TOOL_USE.ToolUseBaseEnv

def _draw(seed: int, count: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.getrandbits(32) for _ in range(count)]


FIXED_SEEDS = list(range(10)) + _draw(20240601, 10)
SOLUTION_SEEDS = FIXED_SEEDS + _draw(99, 20)
RANDOM_SEEDS = _draw(777, 100)


class Failure(Exception):
    pass


def require(condition: bool, message: str) -> None:
    if not condition:
        raise Failure(message)


# ---------------------------------------------------------------------- loading and playing
def load_env_class(path: str):
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    namespace = {"__name__": "corpus_g_" + os.path.basename(path)[:-3], "ToolUseBaseEnv": TUB}
    exec(compile(source, path, "exec"), namespace)
    classes = [v for k, v in namespace.items() if isinstance(v, type) and k.endswith("Env")
               and not k.startswith("_") and v is not TUB]
    require(len(classes) == 1, f"expected one public *Env class, found {len(classes)}")
    return classes[0]


def is_tool(env) -> bool:
    return isinstance(env, TUB)


def wrap(env, inner) -> str:
    return f"<answer>{inner}</answer>" if is_tool(env) else f"\\boxed{{{inner}}}"


def sol_actions(env) -> list[str]:
    names = list(env._tools) if is_tool(env) else None
    return ACTIONS.solution_to_actions(env.solution(), tool_use=is_tool(env), tool_names=names)


def inner_of(action: str) -> str:
    match = re.search(r"<answer>(.*?)</answer>", action, re.S)
    if match:
        return match.group(1)
    found = ACTIONS.extract_boxed(action)
    return found if found is not None else action


def check_step_result(result) -> None:
    require(isinstance(result, tuple) and len(result) == 5, "step must return a 5-tuple")
    obs, reward, terminated, truncated, info = result
    require(isinstance(obs, str), "observation is not a str")
    require(isinstance(reward, (int, float)) and not isinstance(reward, bool) and math.isfinite(reward),
            f"reward {reward!r} is not a finite number")
    require(isinstance(terminated, bool) and isinstance(truncated, bool), "terminated/truncated must be bools")
    require(isinstance(info, dict), "info is not a dict")


def play(env, seed, policy, hint: bool = False) -> dict:
    """Play one episode; ``policy(obs) -> action`` is built per episode. Returns the outcome."""
    obs, info = env.reset(seed)
    if hint:
        obs = obs + "\n\nHINT: " + env.hint()
    rewards, terminated, truncated, steps = [], False, False, 0
    limit = env.max_turns
    while steps < limit + 3:
        result = env.step(policy(obs))
        check_step_result(result)
        obs, reward, terminated, truncated, info = result
        rewards.append(float(reward))
        steps += 1
        if terminated or truncated:
            break
    require(terminated or truncated, f"seed {seed}: episode did not end within max_turns={limit}")
    require(steps <= limit, f"seed {seed}: episode lasted {steps} > max_turns={limit}")
    ret = max(-1.0, min(1.0, rewards[-1])) if terminated else 0.0
    return {"won": terminated and rewards[-1] >= 0.999, "ret": ret, "steps": steps, "env": env}


def script(actions: list[str]):
    """A policy that sends the given actions, then repeats the last one."""
    queue = list(actions)

    def policy(obs):
        return queue.pop(0) if len(queue) > 1 else queue[0]
    return policy


def rate(cls, seeds, make_policy, hint=False, key="won") -> float:
    env = cls()
    total = 0.0
    for seed in seeds:
        env.reset(seed)
        outcome = play(env, seed, make_policy(env, seed), hint=hint)
        total += max(0.0, outcome["ret"]) if key == "pay" else float(outcome["won"])
    return total / len(seeds)


# ---------------------------------------------------------------------- generic contract checks
def garbage_actions(env) -> list:
    items = list(PROBES.GARBAGE_ACTIONS) + [
        None, 42, 3.5, float("nan"), ["\\boxed{1}"], {"a": 1}, b"\\boxed{1}", "", "x" * 200_000,
        "\\boxed{" + "9" * 5000 + "}", "42", "\\boxed{nan}", "\\boxed{NaN}", "\\boxed{inf}", "\\boxed{-0}",
        "<tool_call>{broken</tool_call>", '<tool_call>{"name": "x"</tool_call>', "<answer>nan</answer>",
        "<tool_call>[]</tool_call>", '<tool_call>{"name": "x", "arguments": "{bad"}</tool_call>',
    ]
    if is_tool(env):
        for name in env._tools:
            items += [ACTIONS.format_tool_call(name, {"zz": 1}), ACTIONS.format_tool_call(name, {}),
                      ACTIONS.format_tool_call(name, {k: None for k in env._tools[name]["parameters"].get(
                          "properties", {})}),
                      ACTIONS.format_tool_call(name, {k: [1, {"x": 2}] for k in env._tools[name]["parameters"].get(
                          "properties", {})}),
                      ACTIONS.format_tool_call(name, {k: "nan" for k in env._tools[name]["parameters"].get(
                          "properties", {})}),
                      "<tool_call>" + json.dumps({"name": name, "arguments": {}})[:-3] + "</tool_call>"]
    return items


def check_post_end(env, seed) -> None:
    for _ in range(3):
        result = env.step("\\boxed{1}" if not is_tool(env) else "<answer>1</answer>")
        check_step_result(result)
        _, reward, terminated, truncated, _ = result
        require(reward == 0.0, f"seed {seed}: reward {reward} after the episode ended")
        require(terminated or truncated, f"seed {seed}: the episode re-opened after it ended")


def generic_checks(cls, label) -> list[str]:
    notes = []
    env, twin = cls(), cls()
    require(isinstance(env.max_turns, int) and env.max_turns >= 1, "max_turns missing")
    for seed in FIXED_SEEDS:
        a, b = env.reset(seed), twin.reset(seed)
        require(isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], str) and a[0].strip()
                and isinstance(a[1], dict), "reset must return (non-empty str, dict)")
        require(a[0] == b[0] and repr(a[1]) == repr(b[1]), f"seed {seed}: reset is not deterministic")
        require(repr(env.solution()) == repr(twin.solution()), f"seed {seed}: solution differs between resets")
        again = env.reset(seed)
        require(again[0] == a[0], f"seed {seed}: reset(seed) twice on one instance differs")
        # garbage never raises
        env.reset(seed)
        for action in garbage_actions(env):
            try:
                result = env.step(action)
            except Exception as error:  # noqa: BLE001
                raise Failure(f"seed {seed}: step({str(action)[:40]!r}) raised {type(error).__name__}: {error}")
            check_step_result(result)
            if result[2] or result[3]:
                check_post_end(env, seed)
                env.reset(seed)
        # a garbage-only episode ends within max_turns and stays ended
        for action in ("I am not sure what to do.", "", "\\boxed{}", None, "<tool_call>{not json</tool_call>"):
            env.reset(seed)
            outcome = play(env, seed, lambda obs, a=action: a)
            require(not outcome["won"], f"seed {seed}: garbage {action!r} won")
            check_post_end(env, seed)
    if label["class"] != "unsolvable_or_seed_dependent":
        for seed in SOLUTION_SEEDS:
            env.reset(seed)
            outcome = play(env, seed, script(sol_actions(env)))
            require(outcome["won"], f"seed {seed}: solution() did not win")
            check_post_end(env, seed)
        notes.append(f"solution wins {len(SOLUTION_SEEDS)}/{len(SOLUTION_SEEDS)}")
    return notes


# ---------------------------------------------------------------------- correct files: cheap policies
def mutate(inner: str, delta: int) -> str | None:
    text = inner.strip()
    if re.fullmatch(r"[A-Za-z]", text):
        return chr(ord(text) + delta)
    if not re.search(r"\d", text):
        return None
    return re.sub(r"\d+", lambda m: str(int(m.group()) + delta), text)


WRONG = {  # a wrong but legal final answer, given the env after reset and the right inner answer
    "letter4": lambda env, r: "ABCD"[("ABCD".index(r) + 1) % 4],
    "letter5": lambda env, r: "ABCDE"[("ABCDE".index(r) + 1) % 5],
    "index5": lambda env, r: str(int(r) % 5 + 1),
    "parts": lambda env, r: "; ".join(str(int(p) + 7) for p in r.split(";")),
    "primes": lambda env, r: ", ".join(str(n) for n in [n for n in env._numbers if n not in env._primes][:3]),
    "yesno": lambda env, r: "no" if r == "yes" else "yes",
    "cmp": lambda env, r: "equal" if r != "equal" else "less",
    "dir": lambda env, r: "NESW"[("NESW".index(r) + 1) % 4],
    "guess": lambda env, r: str(int(r) + 1 if int(r) < 100 else int(r) - 1),
    "code": lambda env, r: r[::-1] if r[::-1] != r else ("1" if r[0] != "1" else "2") + r[1:],
    "swap": lambda env, r: "swap 1 6" if r.strip() != "swap 1 6" else "swap 2 5",
    "number": lambda env, r: str(int(r) + 1),
    "coin": lambda env, r: "ABCDEFGHI"[("ABCDEFGHI".index(r) + 1) % 9],
}
OPTIONS = {
    "letter4": ["A", "B", "C", "D"], "letter5": ["A", "B", "C", "D", "E"], "index5": ["1", "2", "3", "4", "5"],
    "yesno": ["yes", "no"], "cmp": ["less", "equal", "greater"], "dir": ["N", "E", "S", "W"],
    "coin": list("ABCDEFGHI"),
}


def cheap_policies(cls, kind):
    """(name, make_policy) pairs; make_policy(env, seed) -> policy(obs) -> action, built after reset."""
    pols = []
    for c in ["0", "1", "-1", "nan", "A", "B", "C", "D", "E", "yes", "no", ""]:
        pols.append((f"const {c!r}", lambda env, seed, c=c: script([wrap(env, c)])))
    pols.append(("echo observation", lambda env, seed: (lambda obs: obs)))

    def tokens(env, seed):
        rng = random.Random(seed)
        return lambda obs: wrap(env, rng.choice(ACTIONS.observation_tokens(obs) or ["x"]))
    pols.append(("random observation tokens", tokens))

    def every_option(sep):
        def make(env, seed):
            obs = env.reset(seed)[0]
            opts = OPTIONS.get(kind) or list(dict.fromkeys(re.findall(r"\d+", obs)))
            return script([wrap(env, sep.join(opts))])
        return make
    for sep in (", ", " ", "/"):
        pols.append((f"every option {sep!r}", every_option(sep)))

    def other_seed(env, seed):
        other = cls()
        other.reset((seed * 7919 + 13) % 2**32)
        return script(sol_actions(other))
    pols.append(("another seed's answer", other_seed))

    def near(delta):
        def make(env, seed):
            acts = sol_actions(env)
            changed = mutate(inner_of(acts[-1]), delta)
            return script(acts[:-1] + [wrap(env, changed if changed is not None else "?")])
        return make
    pols += [("right +1", near(1)), ("right -1", near(-1))]

    def combo(fmt):
        def make(env, seed):
            acts = sol_actions(env)
            right = inner_of(acts[-1]).strip()
            wrong = WRONG[kind](env, right)
            return script(acts[:-1] + [fmt(env, right, wrong)])
        return make
    pols += [
        ("right then wrong box", combo(lambda e, r, w: wrap(e, r) + " " + wrap(e, w))),
        ("wrong then right box", combo(lambda e, r, w: wrap(e, w) + " " + wrap(e, r))),
        ("hedge 'not X'", combo(lambda e, r, w: wrap(e, "not " + r))),
        ("hedge 'W or X'", combo(lambda e, r, w: wrap(e, f"{w} or {r}"))),
        ("hedge 'X or W'", combo(lambda e, r, w: wrap(e, f"{r} or {w}"))),
    ]
    return pols


def harmless_variants(env_is_tool):
    if env_is_tool:
        return [
            ("spaces", lambda a: re.sub(r"<answer>(.*?)</answer>", r"<answer>  \1  </answer>", a, flags=re.S)),
            ("reasoning first", lambda a: "I looked everything up with the tools and checked it twice.\n" + a),
            ("closing sentence", lambda a: a + "\nThat is my final answer."),
        ]

    def spaced(a):
        inner = ACTIONS.extract_boxed(a)
        return "\\boxed{  " + re.sub(r"([;, ])", r" \1 ", inner) + "  }"
    return [
        ("spaces", spaced),
        ("reasoning first", lambda a: "Let me reason step by step and check the work carefully.\nSo: " + a),
        ("closing sentence", lambda a: a + " That is my final answer."),
    ]


def correct_checks(cls, label) -> list[str]:
    notes = []
    kind = label["_kind"]
    env = cls()
    for name, transform in harmless_variants(is_tool(env)):
        for seed in SOLUTION_SEEDS:
            env.reset(seed)
            acts = sol_actions(env)
            if is_tool(env):
                acts = acts[:-1] + [transform(acts[-1])]
            else:
                acts = [transform(a) for a in acts]
            outcome = play(env, seed, script(acts))
            require(outcome["won"] and outcome["ret"] == 1.0, f"harmless variant '{name}' not paid in full "
                                                                f"(seed {seed})")
    notes.append("harmless variants paid 3x40")
    p = label["honest_chance"]
    bound = p + 3 * math.sqrt(p * (1 - p) / 100) + 0.02
    worst = ("", 0.0)
    for name, make in cheap_policies(cls, kind):
        value = rate(cls, RANDOM_SEEDS, make, key="pay")
        if value > worst[1]:
            worst = (name, value)
        require(value <= bound, f"cheap policy '{name}' earns {value:.3f} > bound {bound:.3f} (p={p})")
    notes.append(f"cheap max {worst[1]:.2f} ({worst[0]}) <= {bound:.2f}")
    return notes


# ---------------------------------------------------------------------- defect proofs
def num(pattern, text, group=1):
    return int(re.search(pattern, text).group(group))


def exploit_substring(env, seed):
    return script([wrap(env, " ".join(str(i) for i in range(0, 2200)))])


def exploit_round(env, seed):
    def policy(obs):
        a, b = num(r"product (\d+) x", obs), num(r"x (\d+)\.", obs)
        return wrap(env, round(a, -1) * round(b, -1))
    return policy


def exploit_hex(env, seed):
    def policy(obs):
        word = bytes.fromhex(re.search(r"Puzzle ([0-9a-f]+):", obs).group(1)).decode()
        return wrap(env, word)
    return policy


def exploit_hint(env, seed):
    def policy(obs):
        tens, units = num(r"tens digit is (\d)", obs), num(r"units digit is (\d)", obs)
        return wrap(env, 10 * tens + units)
    return policy


def exploit_listing_ref(env, seed):
    state = {"turn": 0}

    def policy(obs):
        state["turn"] += 1
        if state["turn"] == 1:
            category = re.search(r"of the '(\w+)' category", obs).group(1)
            return ACTIONS.format_tool_call("list_items", {"category": category})
        match = re.search(r"listing ref [A-Z]+-\d+-(\d+)", obs)
        return wrap(env, int(match.group(1)) if match else 0)
    return policy


def exploit_enumerate(env, seed):
    return script([wrap(env, m) for m in range(1, 13)])


def exploit_try_tool(env, seed):
    state = {"base": 1, "found": None}

    def policy(obs):
        if state["base"] > 1 and state["found"] is None:
            results = obs.split("\n\n")
            for i, text in enumerate(results):
                if "The handle moves." in text:
                    state["found"] = state["base"] - 15 + i
        if state["found"] is not None:
            return wrap(env, state["found"])
        calls = "".join(ACTIONS.format_tool_call("try_code", {"code": c})
                        for c in range(state["base"], state["base"] + 15))
        state["base"] += 15
        return calls
    return policy


def text_units(env, seed):
    return lambda obs: wrap(env, num(r"constant (\d+) km/h", obs) * num(r"for (\d+) minutes", obs) * 1000 // 60)


def checker_units(env, seed):
    return lambda obs: wrap(env, num(r"constant (\d+) km/h", obs) * num(r"for (\d+) minutes", obs) // 60)


def _row(obs):
    return [int(v) for v in re.search(r"Row: ([\d, ]+)\.", obs).group(1).split(", ")]


def text_index(env, seed):
    return lambda obs: wrap(env, _row(obs).index(max(_row(obs))) + 1)


def checker_index(env, seed):
    return lambda obs: wrap(env, _row(obs).index(max(_row(obs))))


def const0(env, seed):
    return script([wrap(env, 0)])


def chatty0(env, seed):
    return script(["Let me think about this carefully; adding the digits one by one gives my final answer "
                   "\\boxed{0}."])


def defect_checks(cls, label) -> list[str]:
    cls_name, key = label["class"], label["_kind"]
    notes = []
    if key in EXPLOITS:
        make, hint = EXPLOITS[key]
        value = rate(cls, RANDOM_SEEDS, make, hint=hint)
        require(value >= 0.9, f"exploit wins only {value:.2f}")
        notes.append(f"exploit wins {value:.2f}")
    elif key == "effortpay":
        value = rate(cls, RANDOM_SEEDS, const0, key="pay")
        wins = rate(cls, RANDOM_SEEDS, const0)
        require(value >= 0.5 and wins <= 0.05, f"answer-free return {value:.2f}, wins {wins:.2f}")
        notes.append(f"answer-free return {value:.2f} (wins {wins:.2f})")
    elif key == "modeq":
        env, losing = cls(), []
        for seed in RANDOM_SEEDS:
            env.reset(seed)
            if play(env, seed, script(sol_actions(env)))["won"]:
                continue
            for x in range(0, 41):  # every legal answer (m <= 40) on a fresh episode
                env.reset(seed)
                require(not play(env, seed, script([wrap(env, x)]))["won"], f"seed {seed} is solvable by {x}")
            losing.append(seed)
        require(len(losing) >= 5, f"only {len(losing)} losing seeds")
        notes.append(f"{len(losing)}/100 seeds unsolvable by exhaustive search, e.g. {losing[:3]}")
    elif key == "adjsort":
        env, losing = cls(), []
        for seed in RANDOM_SEEDS:
            obs, _ = env.reset(seed)
            row = [int(v) for v in re.search(r"Row: ([\d ]+)\.", obs).group(1).split()]
            inversions = sum(row[i] > row[j] for i in range(6) for j in range(i + 1, 6))
            won = play(env, seed, script(sol_actions(env)))["won"]
            if inversions > env.max_turns:  # each adjacent swap removes at most one inversion
                require(not won, f"seed {seed}: won despite {inversions} inversions")
                losing.append(seed)
            else:
                require(won, f"seed {seed}: solvable but solution lost")
        require(len(losing) >= 5, f"only {len(losing)} losing seeds")
        notes.append(f"{len(losing)}/100 seeds need more adjacent swaps than max_turns, e.g. {losing[:3]}")
    elif key in MISMATCH:
        text_policy, checker_policy = MISMATCH[key]
        t, c = rate(cls, RANDOM_SEEDS, text_policy), rate(cls, RANDOM_SEEDS, checker_policy)
        require(t <= 0.05 and c >= 0.99, f"text-following {t:.2f}, checker-following {c:.2f}")
        notes.append(f"text-following wins {t:.2f}, checker-following {c:.2f}")
    elif key == "seedaware":
        v, r = rate(cls, list(range(100)), const0), rate(cls, RANDOM_SEEDS, const0)
        require(v <= 0.2 and r >= 0.9, f"validation-looking {v:.2f}, realistic {r:.2f}")
        notes.append(f"constant answer: small seeds {v:.2f}, random 32-bit seeds {r:.2f}")
    elif key == "proseaware":
        v, r = rate(cls, RANDOM_SEEDS, const0), rate(cls, RANDOM_SEEDS, chatty0)
        require(v <= 0.2 and r >= 0.9, f"validation-looking {v:.2f}, realistic {r:.2f}")
        notes.append(f"constant answer: bare box {v:.2f}, with prose {r:.2f}")
    else:
        raise Failure(f"no proof for {key}")
    return notes


EXPLOITS = {
    "substr": (exploit_substring, False), "tolerance": (exploit_round, False), "hexleak": (exploit_hex, False),
    "hintparts": (exploit_hint, True), "toolleak": (exploit_listing_ref, False),
    "constpos": (lambda env, seed: script([wrap(env, "B")]), False), "enumerate": (exploit_enumerate, False),
    "trytool": (exploit_try_tool, False),
}
MISMATCH = {"units": (text_units, checker_units), "index0": (text_index, checker_index)}

# proof key of each file (the manifest holds the labels)
KINDS = {
    "g01.py": "letter5", "g02.py": "letter4", "g03.py": "code", "g04.py": "number", "g05.py": "adjsort",
    "g06.py": "units", "g07.py": "number", "g08.py": "hintparts", "g09.py": "parts", "g10.py": "index5",
    "g11.py": "tolerance", "g12.py": "seedaware", "g13.py": "toolleak", "g14.py": "constpos", "g15.py": "primes",
    "g16.py": "modeq", "g17.py": "enumerate", "g18.py": "swap", "g19.py": "proseaware", "g20.py": "cmp",
    "g21.py": "effortpay", "g22.py": "dir", "g23.py": "coin", "g24.py": "index0", "g25.py": "yesno",
    "g26.py": "guess", "g27.py": "hexleak", "g28.py": "trytool", "g29.py": "parts", "g30.py": "substr",
}


def main() -> int:
    with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as handle:
        manifest = json.load(handle)
    only = set(sys.argv[1:])
    passed = 0
    for label in manifest:
        name = label["file"]
        if only and name not in only:
            continue
        label = dict(label, _kind=KINDS[name])
        try:
            cls = load_env_class(os.path.join(HERE, name))
            notes = generic_checks(cls, label)
            notes += correct_checks(cls, label) if label["kind"] == "correct" else defect_checks(cls, label)
            passed += 1
            print(f"PASS {name} [{label['class']}] " + "; ".join(notes), flush=True)
        except Failure as error:
            print(f"FAIL {name} [{label['class']}] {error}", flush=True)
        except Exception as error:  # noqa: BLE001
            print(f"FAIL {name} [{label['class']}] {type(error).__name__}: {error}", flush=True)
            traceback.print_exc(limit=3)
    total = len(only) if only else len(manifest)
    print(f"RESULT: {passed}/{total} passed")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
