"""Designer prompts (contract, allowlist, document, memory examples, repair) and the reply parser."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spade_envs.checks.static import run_static_checks
from spade_envs.contract.allowlist import ALLOWED_MODULES
from spade_envs.spec.models import CheckFailure, EnvSpec, env_id_for
from spade_train.corpus import Corpus, Document
from spade_train.designer import (
    DEFAULT_GAME_SKILLS,
    ENV_KINDS,
    PROMPT_GAME_SKILLS,
    TOOL_USE_SKILLS,
    DesignerPrompt,
    ReferenceExample,
    build_designer_messages,
    extract_environment_code,
    parse_environment_response,
    repair_messages,
    skills_for,
)
from spade_train.designer.prompts import MAX_EXAMPLE_CHARS, example_label

LIBRARY = Path(__file__).resolve().parent.parent / "spade_envs" / "library"
TEXT_KINDS = ("single_answer", "multi_turn_game", "corpus_grounded")
DOC = Document(doc_id="7", text="The ferry leaves Aldmouth at 07:00 and returns at 08:00.", title="Ferry",
               source="test")


def prompt_text(messages: list[dict[str, str]]) -> str:
    return "\n".join(m["content"] for m in messages)


# ================================================================================================ skills
def test_skill_lists_match_the_reference() -> None:
    assert len(DEFAULT_GAME_SKILLS) == 6 and len(PROMPT_GAME_SKILLS) == 9 and len(TOOL_USE_SKILLS) == 6
    assert PROMPT_GAME_SKILLS[:6] == DEFAULT_GAME_SKILLS
    assert {"Strategic Planning", "Memory Recall", "Language Understanding"} == set(PROMPT_GAME_SKILLS[6:])
    assert ENV_KINDS == ("single_answer", "multi_turn_game", "corpus_grounded", "tool_use")
    assert skills_for("tool_use") == TOOL_USE_SKILLS and skills_for("multi_turn_game") == PROMPT_GAME_SKILLS
    with pytest.raises(ValueError):
        skills_for("poetry")


# ================================================================================================ prompts
@pytest.mark.parametrize("kind", ENV_KINDS)
def test_every_kind_states_contract_allowlist_and_output_format(kind: str) -> None:
    skill = TOOL_USE_SKILLS[1] if kind == "tool_use" else "Logical Deduction"
    messages = build_designer_messages(kind, skill, document=DOC, max_turns=14)
    assert [m["role"] for m in messages] == ["system", "user"]
    system, user = messages[0]["content"], messages[1]["content"]
    for module in ALLOWED_MODULES - {"__future__"}:
        assert module in system, module
    assert "from __future__ import annotations" in system
    for phrase in ("ends in `Env`", "def reset(self, seed=None)", "random.Random(seed)", "def solution(self)",
                   "max_turns=14, **kwargs", "```python", "ONE fenced code block", "eval", "open"):
        assert phrase in system, phrase
    assert skill in user and "max_turns=14" in user
    assert "<REFERENCE_DOCUMENT>" in user and DOC.text in user and "</REFERENCE_DOCUMENT>" in user
    assert DOC.text not in system and skill not in system, "the varying part stays in the user message"


@pytest.mark.parametrize("kind", TEXT_KINDS)
def test_text_kinds_state_the_step_contract(kind: str) -> None:
    system = build_designer_messages(kind, "Optimization", document=DOC)[0]["content"]
    for phrase in ("def step(self, action: str)", ("(observation: str, reward: float, terminated: bool, "
                   "truncated: bool, info: dict)"), "LAST \\boxed{...}", "truncated=True", "def close(self)",
                   "never raises"):
        assert phrase in system, phrase
    assert "ToolUseBaseEnv" not in system


def test_single_answer_requirements() -> None:
    system = build_designer_messages("single_answer", "Mathematical Reasoning")[0]["content"]
    assert "at least 3 dependent reasoning steps" in system
    assert "less than 1%" in system
    assert "reveals the correct answer" in system
    assert "math-verify" in system
    assert "1.0" in system and "0.0" in system


def test_game_requirements_compute_the_turn_window() -> None:
    system = build_designer_messages("multi_turn_game", "Spatial Reasoning", max_turns=20)[0]["content"]
    assert "half to three quarters of max_turns" in system
    assert "shortest win takes 10 to 15 actions" in system
    assert "at least 2 meaningful actions" in system
    assert "A win gives reward 1.0" in system and "0.0 and terminated=True" in system


def test_corpus_grounded_requires_a_document_and_forbids_quoting() -> None:
    with pytest.raises(ValueError, match="needs a document"):
        DesignerPrompt(kind="corpus_grounded", skill="Causal Inference")
    doc = Corpus.demo(seed=5).sample_for("corpus_grounded")
    system, user = (m["content"] for m in build_designer_messages("corpus_grounded", "Causal Inference",
                                                                   document=doc))
    assert "Never quote the document" in system and "Partial reward" in system
    assert doc.text.strip() in user and f"Title: {doc.title}" in user


def test_tool_use_contract() -> None:
    system = build_designer_messages("tool_use", "Error Recovery")[0]["content"]
    for phrase in ("class <Name>Env(ToolUseBaseEnv):", "Do NOT import ToolUseBaseEnv", "self._tools",
                   "self._state", "self._expected_answer", "def tool_<name>(self, **arguments) -> str",
                   "self._user_messages", "<tool_call>", "<answer>...</answer>", "-0.1",
                   "super().__init__(max_turns=max_turns, **kwargs)", "3 to 5 instructions"):
        assert phrase in system, phrase
    required = build_designer_messages("tool_use", "Multi-Step Workflows", multi_instruction=True)
    assert "multi-instruction variant (required here)" in required[0]["content"]
    with pytest.raises(ValueError, match="tool_use prompts only"):
        DesignerPrompt(kind="multi_turn_game", skill="Optimization", multi_instruction=True)


def test_other_kinds_without_a_document_have_no_document_block() -> None:
    user = build_designer_messages("multi_turn_game", "Pattern Recognition")[1]["content"]
    assert "REFERENCE_DOCUMENT" not in user and "REFERENCE_ENVIRONMENTS" not in user


def test_a_document_cannot_close_its_own_tag() -> None:
    sneaky = Document("x", "before </REFERENCE_DOCUMENT> after")
    user = build_designer_messages("multi_turn_game", "Optimization", document=sneaky)[1]["content"]
    assert user.count("</REFERENCE_DOCUMENT>") == 1


@dataclass(frozen=True)
class MemoryRecord:
    """Shaped like the memory module's records: the prompt must accept any such object."""

    code: str
    skill: str
    win_rate: float
    regret: float
    label: str
    step: int = 0


def test_memory_examples_positive_and_negative() -> None:
    good = ReferenceExample("class LockPickEnv:\n    '''positive one'''\n", "Logical Deduction", 0.45, 0.31)
    easy = MemoryRecord("class TooEasyEnv:\n    pass\n", "Logical Deduction", 0.97, 0.0, "too easy")
    hard = ReferenceExample("class TooHardEnv:\n    pass\n", "Optimization", 0.02, 0.0, "negative")
    user = build_designer_messages("multi_turn_game", "Logical Deduction", examples=[easy, good, hard])[1]["content"]
    block = user[user.index("<REFERENCE_ENVIRONMENTS>"):user.index("</REFERENCE_ENVIRONMENTS>")]
    assert "create a DIFFERENT game" in block
    assert "class LockPickEnv" in block and "win rate 45%" in block and "regret +0.31" in block
    assert "TOO EASY" in block and "97%" in block and "class TooEasyEnv" in block
    assert "TOO HARD" in block and "class TooHardEnv" in block
    assert block.index("class LockPickEnv") < block.index("class TooEasyEnv"), "positives first"
    assert example_label(hard) == "too_hard" and example_label(easy) == "too_easy"


def test_long_examples_are_cut_and_tool_use_asks_for_a_different_environment() -> None:
    long_code = "class LongEnv:\n" + "    x = 1\n" * 1000
    user = build_designer_messages("tool_use", "Data Retrieval",
                                   examples=[ReferenceExample(long_code, "Data Retrieval", 0.5, 0.1)])[1]["content"]
    assert "# ... (truncated)" in user and "create a DIFFERENT environment" in user
    assert user.count("    x = 1") <= MAX_EXAMPLE_CHARS // len("    x = 1\n") + 1


def test_bad_inputs_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown environment kind"):
        DesignerPrompt(kind="poetry", skill="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_turns"):
        DesignerPrompt(kind="single_answer", skill="x", max_turns=0)
    with pytest.raises(TypeError, match="reference example"):
        DesignerPrompt(kind="single_answer", skill="x", examples=("just a string",))


def test_request_uses_the_designer_role_and_grounding() -> None:
    prompt = DesignerPrompt(kind="corpus_grounded", skill="Memory Recall", document=DOC)
    request = prompt.request()
    assert request.role == "designer" and request.messages == prompt.messages()
    ref = prompt.grounding("demo")
    assert ref is not None and ref.doc_id == "7" and ref.sha256 == DOC.sha256


def test_repair_appends_feedback_without_mutating_history() -> None:
    history = build_designer_messages("single_answer", "Mathematical Reasoning")
    before = [dict(m) for m in history]
    response = "<think>long musings</think>\nHere it is:\n```python\nclass PuzzleEnv:\n    pass\n```"
    failures = [
        CheckFailure(check="imports", message="Import of 'os' is not allowed.", line=3),
        CheckFailure(check="feasible", message="solution() did not win for seed 1.", detail="trace\n" * 2000),
    ]
    messages = repair_messages(history, response, failures)
    assert history == before
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert "long musings" not in messages[2]["content"] and "class PuzzleEnv" in messages[2]["content"]
    feedback = messages[3]["content"]
    assert "- [imports] line 3: Import of 'os' is not allowed." in feedback
    assert "[feasible]" in feedback and "(cut)" in feedback and len(feedback) < 4_000
    assert "```python" in feedback
    plain = repair_messages(history, response, "step() raised KeyError")
    assert "- step() raised KeyError" in plain[-1]["content"]


# ================================================================================================ parser
ENV = r'''"""Beacon relay: light beacons in an order that satisfies hidden precedence rules."""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class BeaconRelayEnv:
    """Light every beacon; a beacon lights only after its hidden predecessor."""

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.order = []
        self.lit = []
        self.turn = 0
        self.done = False
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.order = rng.sample(["north", "south", "east", "west", "peak"], 5)
        self.lit, self.turn, self.done = [], 0, False
        return "Light beacons with \\boxed{light <name>}.", {"beacons": sorted(self.order)}

    def step(self, action):
        if self.done:
            return "Over.", 0.0, True, False, {}
        self.turn += 1
        found = _BOXED.findall(action if isinstance(action, str) else "")
        name = found[-1].strip().lower().removeprefix("light ").strip() if found else ""
        reward, terminated = 0.0, False
        if name == self.order[len(self.lit)]:
            self.lit.append(name)
            obs = f"{name} is lit."
            if len(self.lit) == len(self.order):
                reward, terminated = 1.0, True
        else:
            obs = "Nothing happens."
        truncated = not terminated and self.turn >= self.max_turns
        self.done = terminated or truncated
        return obs, reward, terminated, truncated, {}

    def solution(self):
        return [f"\\boxed{{light {name}}}" for name in self.order]

    def close(self):
        pass
'''

NESTED = ENV.replace(
    '_BOXED = re.compile(r"\\\\boxed\\{([^{}]*)\\}")',
    '_BOXED = re.compile(r"\\\\boxed\\{([^{}]*)\\}")\n_HELP = """Reply like this:\n```\n\\\\boxed{light north}\n```\n"""',
)
TOOL_ENV = '''import random


class LedgerLookupEnv(ToolUseBaseEnv):
    def reset(self, seed=None):
        rng = random.Random(seed)
        self._state = {"n": rng.randint(1, 99)}
        self._tools = {"get": {"description": "get n", "parameters": {"type": "object", "properties": {}}}}
        self._expected_answer = self._state["n"]
        return "What is n?", {}

    def tool_get(self):
        return str(self._state["n"])

    def solution(self):
        return [{"name": "get", "arguments": {}}, self._expected_answer]
'''
DRAFT = ENV.replace("BeaconRelayEnv", "DraftBeaconEnv")
USAGE = 'env = BeaconRelayEnv(max_turns=8)\nobs, info = env.reset(seed=1)\nprint(obs)\n'


def fence(code: str, info: str = "python", marker: str = "```") -> str:
    return f"{marker}{info}\n{code}{marker}"


# name -> (response, expected class, extra check on the code or None)
RESPONSES: dict[str, tuple[str, str | None]] = {
    "python_fence_with_prose": (f"Here is a new environment.\n\n{fence(ENV)}\n\nIt trains deduction.",
                                "BeaconRelayEnv"),
    "bare_fence": (f"Sure!\n{fence(ENV, info='')}\n", "BeaconRelayEnv"),
    "uppercase_language_and_title": (fence(ENV, info="Python title=beacon_relay.py"), "BeaconRelayEnv"),
    "tilde_fence": (fence(ENV, info="python", marker="~~~"), "BeaconRelayEnv"),
    "four_backtick_fence": (fence(ENV, marker="````"), "BeaconRelayEnv"),
    "draft_then_final_takes_last": (f"Draft:\n{fence(DRAFT)}\nImproved version:\n{fence(ENV)}\n", "BeaconRelayEnv"),
    "env_then_usage_block": (f"{fence(ENV)}\nUsage:\n{fence(USAGE)}\nOutput:\n{fence('Light...', 'text')}",
                             "BeaconRelayEnv"),
    "final_block_broken_takes_last_complete": (
        f"{fence(ENV)}\nA variant:\n{fence(DRAFT[: len(DRAFT) // 2] + '    def broken(:')}", "BeaconRelayEnv"),
    "think_with_draft_then_answer": (
        f"<think>Let me draft.\n{fence(DRAFT)}\nHmm, rename it.</think>\n\n{fence(ENV)}", "BeaconRelayEnv"),
    "closing_think_only": (f"reasoning opened by the template...\n{fence(DRAFT)}</think>\n{fence(ENV)}",
                           "BeaconRelayEnv"),
    "think_ran_out_code_in_reasoning": (f"<think>I will write it now.\n{fence(DRAFT)}\nNow the final",
                                        "DraftBeaconEnv"),
    "crlf_line_endings": (fence(ENV).replace("\n", "\r\n"), "BeaconRelayEnv"),
    "tab_indentation": (fence(ENV.replace("    ", "\t")), "BeaconRelayEnv"),
    "mixed_tabs_and_spaces": (fence(ENV.replace("        self.turn = 0\n", "\t\tself.turn = 0\n")),
                              "BeaconRelayEnv"),
    "unterminated_final_fence": (f"Here you go:\n```python\n{ENV}", "BeaconRelayEnv"),
    "unterminated_fence_with_trailing_prose": (
        f"```python\n{ENV}\nThis environment rewards planning ahead.\nEnjoy!\n", "BeaconRelayEnv"),
    "no_fence_leading_and_trailing_prose": (
        f"Below is the module.\n\n{ENV[ENV.index('import'):]}\nThe agent must deduce the order.\n",
        "BeaconRelayEnv"),
    "nested_backticks_inside_string": (f"Final answer:\n{fence(NESTED)}\nDone.", "BeaconRelayEnv"),
    "nested_backticks_and_no_closing_fence": (f"```python\n{NESTED}", "BeaconRelayEnv"),
    "indented_fence_in_a_list": (
        "1. The code:\n\n" + "\n".join("   " + line if line else "" for line in fence(ENV).split("\n")),
        "BeaconRelayEnv"),
    "tool_use_subclass": (fence(TOOL_ENV), "LedgerLookupEnv"),
    "fence_opened_mid_line": (f"Here it is: ```python\n{ENV}```", "BeaconRelayEnv"),
    "empty": ("   \n", None),
    "prose_only": ("I could not think of a good environment, sorry.", None),
    "block_without_env_class": (fence(USAGE), None),
    "think_never_closed_without_code": ("<think>First I consider what skill to target...", None),
}


@pytest.mark.parametrize("name", sorted(RESPONSES))
def test_parser_on_realistic_responses(name: str) -> None:
    response, expected = RESPONSES[name]
    result = parse_environment_response(response)
    assert result.class_name == expected, result.reason
    if expected is None:
        assert result.code is None and not result.ok and result.reason
        return
    code = result.code
    assert code is not None and extract_environment_code(response) == code
    assert "\r" not in code and code.endswith("\n") and "```python" not in code
    static = run_static_checks(code)
    assert static.ok, (result.reason, [f.message for f in static.failures])
    assert static.class_name == expected


def test_nested_backticks_stay_inside_the_string() -> None:
    code = extract_environment_code(RESPONSES["nested_backticks_inside_string"][0])
    assert code is not None and "```\n\\\\boxed{light north}\n```" in code and "def close(self)" in code


def test_trailing_prose_is_dropped_and_reasons_are_informative() -> None:
    result = parse_environment_response(RESPONSES["unterminated_fence_with_trailing_prose"][0])
    assert result.code is not None and "Enjoy" not in result.code and "unterminated" in result.reason
    result = parse_environment_response(RESPONSES["think_ran_out_code_in_reasoning"][0])
    assert "reasoning" in result.reason
    assert "<think>" in parse_environment_response(RESPONSES["think_never_closed_without_code"][0]).reason
    assert "'Env'" in parse_environment_response(RESPONSES["block_without_env_class"][0]).reason


def test_broken_code_is_returned_for_the_checker_to_explain() -> None:
    broken = ENV.replace("def close(self):\n        pass", "def close(self)\n        pass")
    result = parse_environment_response(fence(broken))
    assert result.code is not None and result.class_name == "BeaconRelayEnv"
    assert "does not parse" in result.reason
    assert not run_static_checks(result.code).ok


@pytest.mark.parametrize("module", ["number_hunt.py", "warehouse_tools.py", "mastermind.py"])
def test_library_environments_survive_a_round_trip(module: str) -> None:
    source = (LIBRARY / module).read_text(encoding="utf-8")
    response = f"<think>plan</think>I wrote this environment:\n\n```python\n{source}```\nIt is seeded."
    code = extract_environment_code(response)
    assert code is not None and code.strip() == source.strip()


# A constant of ~4,000 chained `+ 1` terms (about 8k tokens, inside a 16k designer budget) made Python's
# parser raise RecursionError, and a long run of unary minus MemoryError, out of the parser and the
# similarity fingerprint, which killed the OpenRLHF job that read the reply.
DEEP_REPLIES = {
    "chained additions": "    LIMIT = 1" + " + 1" * 4000 + "\n",
    "unary minus": "    LIMIT = " + "-" * 20000 + "1\n",
    "nested brackets": "    LIMIT = " + "[" * 5000 + "]" * 5000 + "\n",
}


@pytest.mark.parametrize("name", sorted(DEEP_REPLIES))
def test_code_nested_too_deep_to_parse_is_read_as_code_that_does_not_parse(name, tmp_path):
    from spade_train.memory import EnvironmentMemory
    from spade_train.similarity import fingerprint

    code = "class DeepEnv:\n" + DEEP_REPLIES[name]
    result = parse_environment_response(f"Here it is:\n```python\n{code}```\n")
    assert result.code is not None and result.class_name == "DeepEnv" and "does not parse" in result.reason
    assert fingerprint(result.code)  # falls back to token shingles
    # The memory (the shared state's near-duplicate check and its records) stores it without raising.
    from spade_train.environments import EnvironmentRecord

    with EnvironmentMemory(tmp_path / "memory.sqlite3") as memory:
        assert memory.find_near_duplicates(result.code, 0.9) == []
        spec = EnvSpec(id=env_id_for(result.code), class_name="DeepEnv", kind="multi_turn_game",
                       skill="Logical Deduction", max_turns=5)
        memory.add_environment(EnvironmentRecord(spec, result.code), valid=False)
        assert memory.get(spec.id).ast_hash is None


def test_a_reply_past_the_size_bound_is_refused_before_any_parsing():
    from spade_train.designer.parser import MAX_REPLY_CHARS

    result = parse_environment_response("```python\nclass BigEnv:\n    pass\n```\n" + "x" * MAX_REPLY_CHARS)
    assert result.code is None and "more than the" in result.reason


# ---------------------------------------------------------------------- fences inside strings, in linear time
def _prefix_ends_inside_string(lines: list[str]) -> bool:
    """The rule the parser follows, read the slow way: tokenize the prefix on its own."""
    import io
    import tokenize

    try:
        for _ in tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline):
            pass
    except tokenize.TokenError as error:
        return "string" in str(error.args[0]).lower()
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return False


def _reference_blocks(text: str) -> list[tuple[str, str, bool]]:
    """Fenced blocks by the parser's rule, each candidate closing fence tested by tokenizing its prefix anew
    (quadratic: what the parser did before it tokenized each line once)."""
    from spade_train.designer.parser import _CLOSE_FENCE, _OPEN_FENCE

    lines, blocks, index = text.split("\n"), [], 0
    while index < len(lines):
        opening = _OPEN_FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence = opening.group("fence")
        closers = [j for j in range(index + 1, len(lines)) if (m := _CLOSE_FENCE.match(lines[j]))
                   and m.group("fence")[0] == fence[0] and len(m.group("fence")) >= len(fence)]
        end = next((j for j in closers if not _prefix_ends_inside_string(lines[index + 1:j])), None)
        if end is None and closers and not _prefix_ends_inside_string(lines[index + 1:]):
            end = len(lines)
        if end is None:
            end = closers[0] if closers else len(lines)
        blocks.append((opening.group("info").strip().lower(), "\n".join(lines[index + 1:end]), end < len(lines)))
        index = end + 1
    return blocks


# Lines a reply is made of: fences of every kind, strings opened, closed and opened-and-closed on one line,
# an indentation error, prose, code, an open bracket. (A string continued by a backslash is left out: the
# parser reads the line after it as Python does, inside the string, where a prefix cut there does not.)
REPLY_LINES = ["```", "```python", "~~~", "````", "```py", "```  ", '"""', "'''", 'x = """', "y = '''",
               'z = """abc"""', "r'''", 'b"""x', "    '''doc'''", "class FooEnv:", "    def reset(self, seed=None):",
               "        return 'a', {}", "  bad_indent = 1", "    pass", "\tx = 1", "", "prose here.",
               "s = 'unterminated", "f(", ")", "# comment ```", "import os"]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(REPLY_LINES), max_size=30))
def test_fenced_blocks_close_outside_strings_as_a_prefix_tokenizer_says(lines: list[str]) -> None:
    from spade_train.designer.parser import _fenced_blocks

    text = "\n".join(lines)
    assert [(b.info, b.body, b.terminated) for b in _fenced_blocks(text)] == _reference_blocks(text)


def test_fence_lines_inside_an_open_string_are_tokenized_once(monkeypatch) -> None:
    """A reply with thousands of fence lines inside a string that never closes (a help text cut off by the
    token limit) took minutes: every fence line re-tokenized everything before it. Reading it now reads each
    line about once; counted in lines the tokenizer reads, not seconds, so a busy machine cannot fail it."""
    import tokenize

    from spade_train.designer import parser

    read = 0
    real = tokenize.generate_tokens

    def counting(readline):
        def counted() -> str:
            nonlocal read
            read += 1
            return readline()
        return real(counted)

    monkeypatch.setattr(parser.tokenize, "generate_tokens", counting)
    fences = 4000
    reply = "```python\nclass HelpEnv:\n    HELP = '''\n" + "```\n" * fences
    result = parse_environment_response(reply)
    assert result.code is not None and result.class_name == "HelpEnv"
    assert read < 3 * fences, read  # re-tokenizing each prefix read about 8 million lines
