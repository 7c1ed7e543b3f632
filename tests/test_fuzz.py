"""The fuzz machinery: counterexamples, reproducibility, strategies, hint and difficulty checks, and the CLI.

The environments under test are the fuzz cases of the defect zoo (tests/zoo/fuzz_*.py): each has one
defect that only the fuzz tier finds, so the fuzzer's report on it can be checked against the defect.
"""

from __future__ import annotations

import io
import json
import math
from collections import Counter
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from spade_envs.checks import validate_source
from spade_envs.checks.dynamic import CheckConfig
from spade_envs.checks.hints import find_hint_leak
from spade_envs.checks.validate import ValidatorConfig, combine_reports
from spade_envs.cli import main
from spade_envs.contract.tool_use import ToolUseBaseEnv
from spade_envs.fuzz import FUZZ_PROPERTIES, FuzzConfig, fuzz_environment
from spade_envs.fuzz.strategies import observation_tokens, tool_calls
from spade_envs.registry import bundled_registry
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.runtime.errors import EnvCodeError
from spade_envs.spec.models import CheckFailure

ZOO = Path(__file__).resolve().parent / "zoo"
FUZZ_CHECKS = sorted(FUZZ_PROPERTIES)


def _zoo(name: str) -> str:
    return (ZOO / f"{name}.py").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def inprocess():
    return create_backend("inprocess", ExecutionLimits(call_timeout_s=1.0))


@pytest.fixture(scope="module")
def wasm():
    return create_backend("wasm", ExecutionLimits(call_timeout_s=2.0))


def _failure(report: Any, check: str) -> CheckFailure:
    found = [f for f in report.failures if f.check == check]
    assert found, f"expected a {check} failure, got {[(f.check, f.message) for f in report.failures]}"
    return found[0]


# ---------------------------------------------------------------------- (a) shrunk counterexamples replay
def _replay(session: Any, seed: int, actions: list[str]) -> list[Any]:
    """reset(seed), then every action, even after the episode ended; a raising step is recorded as the error."""
    session.reset(seed)
    steps: list[Any] = []
    for action in actions:
        try:
            steps.append(session.step(action))
        except EnvCodeError as error:
            steps.append(error)
            break
    return steps


# zoo case -> (the check it trips, the most actions its shrunk counterexample may need)
COUNTEREXAMPLE_CASES = {
    "fuzz_skipped_dial_crash": ("fuzz_no_exceptions", 2),
    "fuzz_jump_penalty_out_of_range": ("fuzz_reward_range", 2),
    "fuzz_post_win_reward": ("fuzz_post_episode", 3),
    "fuzz_alarm_unseeded_random": ("fuzz_determinism", 2),
    "fuzz_words_do_not_count": ("fuzz_terminates", 8),  # max_turns is 8: the sequence cannot be shorter
}


@pytest.mark.parametrize("case", sorted(COUNTEREXAMPLE_CASES))
def test_counterexample_is_shrunk_and_replays(case: str, inprocess) -> None:
    check, most_actions = COUNTEREXAMPLE_CASES[case]
    source = _zoo(case)
    failure = _failure(validate_source(source, inprocess, path=case), check)

    assert failure.seed in CheckConfig().seed_plan()[: FuzzConfig().env_seeds]  # the fuzz tier's seed pool
    assert isinstance(failure.actions, list) and all(isinstance(a, str) for a in failure.actions)
    assert 1 <= len(failure.actions) <= most_actions, failure.actions
    assert isinstance(failure.step, int) and 1 <= failure.step <= len(failure.actions)
    assert failure.detail and "Minimal reproduction" in failure.detail
    assert f"reset(seed={failure.seed})" in failure.detail
    assert all(repr(action) in failure.detail for action in failure.actions)
    assert "fails here" in failure.detail.splitlines()[2 + failure.step]  # the marked line is the failing step

    seed, actions, index = failure.seed, failure.actions, failure.step - 1
    with inprocess.open_session(source) as fresh:
        steps = _replay(fresh, seed, actions)
        if check == "fuzz_no_exceptions":
            assert len(steps) == failure.step and isinstance(steps[index], EnvCodeError)
            assert steps[index].exc_type in failure.message
        elif check == "fuzz_reward_range":
            reward = steps[index].reward
            assert not (math.isfinite(reward) and -1.0 <= reward <= 1.0), reward
        elif check == "fuzz_post_episode":
            assert steps[index - 1].done, "the step before the failing one must end the episode"
            assert steps[index].reward != 0.0 or not steps[index].done
        elif check == "fuzz_terminates":
            assert len(steps) == len(actions) == fresh.loaded.max_turns
            assert not any(step.done for step in steps)
        elif check == "fuzz_determinism":
            with inprocess.open_session(source) as other:
                again = _replay(other, seed, actions)
            assert steps[index].observation != again[index].observation


def test_counterexamples_feed_the_report_fields(inprocess) -> None:
    """The validator copies the counterexample into the failure: one line of message, multi-line detail."""
    report = validate_source(_zoo("fuzz_post_win_reward"), inprocess)
    failure = _failure(report, "fuzz_post_episode")
    assert report.tiers[-1].tier == "fuzz" and report.tiers[-1].status == "failed"
    assert "\n" not in failure.message and str(failure.seed) in failure.message
    assert failure.detail.startswith("Property violated: fuzz_post_episode")
    statuses = {c.check: c.status for c in report.checks}
    assert statuses["fuzz_post_episode"] == "failed"
    assert all(statuses[name] == "passed" for name in FUZZ_CHECKS if name != "fuzz_post_episode")


# ---------------------------------------------------------------------- (b) reproducibility
def test_same_fuzz_seed_and_budget_give_the_same_report(inprocess) -> None:
    source = _zoo("fuzz_jump_penalty_out_of_range")
    config = FuzzConfig(seed=3, examples=60)
    first = fuzz_environment(inprocess, source, config=config)
    second = fuzz_environment(inprocess, source, config=config)
    assert not first.ok
    assert [asdict(c) for c in first.counterexamples] == [asdict(c) for c in second.counterexamples]
    assert (first.examples, first.steps) == (second.examples, second.steps)


def test_validation_report_is_reproducible(inprocess) -> None:
    source = _zoo("fuzz_words_do_not_count")

    def findings() -> list[dict[str, Any]]:
        return [f.model_dump() for f in validate_source(source, inprocess).failures]

    assert findings() == findings()


def test_a_different_fuzz_seed_explores_differently(inprocess) -> None:
    source = _zoo("valid_plain_game")
    runs = {}
    for fuzz_seed in range(4):
        report = fuzz_environment(inprocess, source, config=FuzzConfig(seed=fuzz_seed, examples=40))
        assert report.ok, [c.summary() for c in report.counterexamples]
        runs[fuzz_seed] = (report.examples, report.steps)
    again = fuzz_environment(inprocess, source, config=FuzzConfig(seed=0, examples=40))
    assert (again.examples, again.steps) == runs[0]
    assert len(set(runs.values())) > 1, runs


# ---------------------------------------------------------------------- (c) the bundled library
@pytest.mark.parametrize("name", bundled_registry().names())
def test_bundled_environment_passes_the_fuzz_tier(name: str, wasm) -> None:
    entry = bundled_registry().get(name)
    config = ValidatorConfig(fuzz=FuzzConfig(examples=30), tiers=("static", "fuzz"))
    report = validate_source(entry.source(), wasm, path=name, class_name=entry.class_name, config=config)
    assert report.ok, [(f.check, f.message) for f in report.failures]
    assert {t.tier: t.status for t in report.tiers}["fuzz"] == "passed"
    statuses = {c.check: c.status for c in report.checks}
    assert all(statuses[check] == "passed" for check in FUZZ_CHECKS), statuses


# ---------------------------------------------------------------------- (d) strategies
def _require(value: Any, kind: type) -> None:
    if type(value) is not kind:  # bool is not an int here, as in JSON Schema
        raise ValueError(f"expected {kind.__name__}, got {type(value).__name__}")


class _CalculatorEnv(ToolUseBaseEnv):
    """A two-tool environment whose tools check their argument types."""

    def reset(self, seed=None):
        self._tools = {
            "add": {
                "description": "Add two integers.",
                "parameters": {
                    "type": "object",
                    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                    "required": ["a", "b"],
                },
            },
            "measure": {
                "description": "Length of a text, optionally repeated.",
                "parameters": {
                    "type": "object",
                    "properties": {"text": {"type": "string"}, "times": {"type": "integer"}},
                    "required": ["text"],
                },
            },
        }
        self._state = {}
        self._expected_answer = "7"
        return "What is 3 + 4? Use the tools, then answer with <answer>...</answer>.", {}

    def tool_add(self, a, b):
        _require(a, int)
        _require(b, int)
        return str(a + b)

    def tool_measure(self, text, times=1):
        _require(text, str)
        _require(times, int)
        return f"{len(text) * times} characters"


_JSON_TYPES = {"integer": int, "string": str}


def _classify(action: str, tools: list[dict[str, Any]]) -> str:
    """'answer', 'valid' (a call that fits its schema), 'format' (no parseable call of a known tool) or 'arguments'."""
    if action.startswith("<answer>"):
        return "answer"
    body = action.removeprefix("<tool_call>").removesuffix("</tool_call>")
    try:
        call = json.loads(body)
    except ValueError:
        return "format"
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in tools}
    if not isinstance(call, dict) or call.get("name") not in schemas or not isinstance(call.get("arguments"), dict):
        return "format"
    schema, arguments = schemas[call["name"]], call["arguments"]
    properties = schema["properties"]
    if not set(schema["required"]) <= set(arguments) <= set(properties):
        return "arguments"
    fits = all(type(value) is _JSON_TYPES[properties[key]["type"]] for key, value in arguments.items())
    return "valid" if fits else "arguments"


def test_tool_calls_are_valid_or_rejected_by_the_base_class() -> None:
    env = _CalculatorEnv()
    tools = env.get_tools()
    seen: Counter[str] = Counter()

    @settings(max_examples=300, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(tool_calls(tools))
    def check(action: str) -> None:
        kind = _classify(action, tools)
        seen[kind] += 1
        env.reset(0)
        observation, reward, _terminated, _truncated, info = env.step(action)
        if kind == "valid":
            assert "Format error" not in observation and "Error" not in observation, (action, observation)
            assert reward == 0.0 and info["format_error"] is False
        elif kind == "format":
            assert "Format error" in observation, (action, observation)
            assert reward == env.FORMAT_PENALTY
        elif kind == "arguments":
            assert "Format error" not in observation and "Error" in observation, (action, observation)

    check()
    assert seen["valid"] >= 20 and seen["format"] >= 20 and seen["arguments"] >= 20, seen


def test_observation_tokens_extracts_numbers_words_and_symbols() -> None:
    tokens = observation_tokens("Dial 3 reads 42.5, not -7; try again! Dial 3 again.")
    assert tokens == ["Dial", "3", "reads", "42.5", ",", "not", "-7", ";", "try", "again", "!", "."]
    assert observation_tokens("") == []
    words = [str(i) for i in range(5000)]
    many = observation_tokens(" ".join(words))
    assert 0 < len(many) < len(words) and many == words[: len(many)]  # capped, in order of appearance


# ---------------------------------------------------------------------- (e) hint leaks
@pytest.mark.parametrize(
    ("hint", "answer", "form"),
    [
        ("The answer is 42.", 42, "42"),
        ("Roughly 42.0, give or take.", 42, "42.0"),
        ("Think of forty-two.", 42, "forty-two"),
        ("Think of forty-two.", "\\boxed{42}", "forty-two"),
        ("It is 1/2 of the total.", "0.5", "1/2"),
        ("It is 0.5 of the total.", "1/2", "0.5"),
        ("Subtract seven: minus seven.", -7, "minus seven"),
        ("The password is swordfish.", "Swordfish", "swordfish"),
    ],
)
def test_hint_leak_finds_the_answer_in_any_form(hint: str, answer: Any, form: str) -> None:
    assert find_hint_leak(hint, [answer]) == f"contains the answer ({form!r})"


@pytest.mark.parametrize(
    ("hint", "answer"),
    [
        ("Start at step 120.", 12),  # whole tokens only: 12 is not in 120
        ("The version is 4.12.", 12),
        ("Multiply 312 by two.", 12),
        ("It takes 3 moves.", 3),  # one-character answers are never matched
        ("Binary search halves the range each time.", 865123),
    ],
)
def test_hint_leak_ignores_partial_tokens_and_short_answers(hint: str, answer: Any) -> None:
    assert find_hint_leak(hint, [answer]) is None


def test_hint_leak_checks_every_seed_and_move_sequences() -> None:
    assert find_hint_leak("Try 77 first.", [12, 77, 31]) == "contains the answer ('77')"
    moves = ["\\boxed{up}", "\\boxed{left}", "\\boxed{down}", "\\boxed{right}"]
    assert find_hint_leak("Go up, left, down, right.", [moves]) == "spells out most of the winning move sequence"
    assert find_hint_leak("Go UP-LEFT-DOWN-RIGHT", [moves]) == "spells out most of the winning move sequence"
    # Three of four moves in order is most of the path: a leak (it was allowed before the probes).
    assert find_hint_leak("Go up, then left, then down.", [moves]) == "spells out most of the winning move sequence"
    assert find_hint_leak("Go up, then right.", [moves]) is None  # two moves may be named
    assert find_hint_leak("Go right, down, left, up.", [moves]) is None  # not in order
    tool_solution = [{"name": "lookup", "arguments": {}}, "1234"]
    assert find_hint_leak("The total is 1234.", [tool_solution], tool_use=True) == "contains the answer ('1234')"


@pytest.mark.parametrize(
    ("hint", "answer", "how"),
    [
        ("The numerator is 3 and the denominator is 7.", "3/7", "as a number pair ('3/7')"),
        ("It is the same as 6/14.", "3/7", "('6/14')"),
        ("Roughly 0.429.", "3/7", "as a rounded decimal ('3/7')"),
        ("The digits reversed read 124.", 421, "as a reversed number ('421')"),
        ("It is four hundred twenty-one.", 421, "('four hundred twenty-one')"),
    ],
)
def test_hint_leak_finds_derived_forms(hint: str, answer: Any, how: str) -> None:
    assert find_hint_leak(hint, [answer]) == f"contains the answer {how}"


def test_hint_leak_finds_most_of_the_tool_calls() -> None:
    calls = [{"name": "get", "arguments": {"id": 4}}, {"name": "pay", "arguments": {"amount": 120}}, "done"]
    hint = 'First get(id=4), then pay(amount=120).'
    assert find_hint_leak(hint, [calls], tool_use=True, tool_names=["get", "pay"]) == "names the exact tool calls to make"
    assert find_hint_leak("Look the account up first.", [calls], tool_use=True, tool_names=["get", "pay"]) is None


# ---------------------------------------------------------------------- (f) trivial policies
def test_trivial_policies_win_a_trivially_solvable_env(inprocess) -> None:
    report = validate_source(_zoo("trivially_solvable_prime_quiz"), inprocess,
                             config=ValidatorConfig(tiers=("static", "contract", "feasibility")))
    finding = _failure(report, "trivially_solvable")
    assert "\\\\boxed{no}" in finding.message and "2 distinct answers" in finding.message, finding.message


@pytest.mark.parametrize("name", ["number_hunt", "mastermind"])
def test_trivial_policies_do_not_win_a_bundled_env(name: str, inprocess) -> None:
    entry = bundled_registry().get(name)
    report = validate_source(entry.source(), inprocess, class_name=entry.class_name,
                             config=ValidatorConfig(tiers=("static", "contract", "feasibility")))
    assert report.ok, report.failures
    assert any(c.check == "trivially_solvable" and c.status == "passed" for c in report.checks)


# ---------------------------------------------------------------------- (g) the command line
def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, stdin=io.StringIO(""))
    return code, out.getvalue()


def test_cli_fuzz_json_reports_the_counterexample() -> None:
    code, out = _cli("fuzz", str(ZOO / "fuzz_jump_penalty_out_of_range.py"), "--json", "--examples", "50")
    assert code == 1
    document = json.loads(out)
    assert document["summary"]["invalid"] == 1
    (result,) = document["results"]
    assert result["fuzz_examples"] == 50
    failure = result["failures"][0]
    assert failure["check"] == "fuzz_reward_range"
    assert isinstance(failure["seed"], int) and failure["actions"] and failure["step"] >= 1
    assert "Minimal reproduction" in failure["detail"]


def test_cli_fuzz_valid_env_exits_zero() -> None:
    code, out = _cli("fuzz", str(ZOO / "valid_plain_game.py"), "--json", "--examples", "50")
    assert code == 0
    document = json.loads(out)
    assert document["summary"]["valid"] == 1 and document["results"][0]["failures"] == []


def test_cli_replay_of_a_play_log(tmp_path: Path) -> None:
    env = tmp_path / "coin_sprint.py"
    env.write_text(_zoo("valid_plain_game"), encoding="utf-8")
    log = tmp_path / "episode.json"
    code, out = _cli("play", str(env), "--seed", "3", "--solution", "--log", str(log))
    assert code == 0 and "You win!" in out and log.exists()

    code, out = _cli("replay", str(log), "--env", str(env))
    assert code == 0 and "identical" in out

    env.write_text(_zoo("valid_plain_game").replace("You win!", "Victory!"), encoding="utf-8")
    code, out = _cli("replay", str(log), "--env", str(env))
    assert code == 1
    assert "observation differs" in out and "difference(s)" in out


# ---------------------------------------------------------------------- regressions for gaps found while building the fuzzer
def test_hint_method_leaking_the_current_answer_is_caught(inprocess) -> None:
    source = _zoo("hint_leak_worked_example").replace("_make_task(random.Random(0))  # defect", "self._task  #")
    report = validate_source(source, inprocess, config=ValidatorConfig(tiers=("static", "contract", "feasibility")))
    assert "hint_leak" in {f.check for f in report.failures}


def test_hint_leak_checks_one_move_solutions() -> None:
    assert find_hint_leak("The number is 865123.", [["\\boxed{865123}"]]) is not None


def test_hint_leak_finds_thousands_separators() -> None:
    assert find_hint_leak("The answer is 1,000.", [1000]) is not None


SEEN_SET_LEAK = _zoo("valid_plain_game").replace(
    "        self.done = False\n        self.reset()",
    "        self.done = False\n        self._said = set()  # never cleared by reset()\n        self.reset()",
).replace(
    "        matches = re.findall(",
    "        words = re.findall(r\"\\\\boxed\\{([A-Za-z]+ [A-Za-z ]+)\\}\", action)\n"
    "        if words:\n"
    "            note = 'You said that before. ' if words[-1] in self._said else ''\n"
    "            self._said.add(words[-1])\n"
    "            truncated = self.turn >= self.max_turns\n"
    "            self.done = truncated\n"
    "            return note + 'Numbers only, please.', 0.0, False, truncated, {'total': self.total}\n"
    "        matches = re.findall(",
)


def test_a_moves_seen_set_surviving_reset_is_reported(inprocess) -> None:
    assert "self._said.add" in SEEN_SET_LEAK
    report = validate_source(SEEN_SET_LEAK, inprocess)
    assert {f.check for f in report.failures} & {"fuzz_reset_isolation", "fuzz_determinism"}


def test_cheap_tiers_then_fuzz_combine_into_the_full_verdict(inprocess) -> None:
    """The loop runs the fuzz tier after the others (beside play); the combined report must say what
    one full validation says."""
    source = _zoo("fuzz_words_do_not_count")
    config = ValidatorConfig()
    full = validate_source(source, inprocess, config=config)
    cheap = validate_source(source, inprocess, config=replace(config, tiers=("static", "contract", "feasibility")))
    fuzzed = validate_source(source, inprocess, config=replace(config, tiers=("static", "fuzz")))
    combined = combine_reports(cheap, fuzzed)
    assert cheap.ok and not combined.ok and not full.ok
    assert [f.check for f in combined.failures] == [f.check for f in full.failures]
    assert [(t.tier, t.status) for t in combined.tiers] == [(t.tier, t.status) for t in full.tiers]
    assert {c.check: c.status for c in combined.checks} == {c.check: c.status for c in full.checks}
    with pytest.raises(ValueError, match="different code"):
        combine_reports(cheap, validate_source(_zoo("fuzz_post_win_reward"), inprocess, config=config))
