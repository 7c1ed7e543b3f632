"""Hint writing: the prompt, the request sent to the model, cleaning, injection and leak rejection."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from spade_envs.contract.episode import inject_hint
from spade_envs.library.number_hunt import NumberHuntEnv
from spade_train.hints import (
    HINT_SYSTEM_PROMPT,
    HintResult,
    HintSettings,
    build_hint_messages,
    clean_hint,
    vet_hint,
    write_hint,
)
from spade_train.policies.base import Generation, GenerationRequest
from spade_train.policies.scripted import ScriptedPolicy as ReplyListPolicy

LIBRARY = Path(__file__).resolve().parent.parent / "spade_envs" / "library"
NUMBER_HUNT = (LIBRARY / "number_hunt.py").read_text(encoding="utf-8")
WAREHOUSE = (LIBRARY / "warehouse_tools.py").read_text(encoding="utf-8")


class ScriptedPolicy:
    """Returns a fixed text (or error) and records every request it was sent."""

    name = "scripted-hinter"

    def __init__(self, text: str = "", error: str | None = None) -> None:
        self.text, self.error = text, error
        self.requests: list[GenerationRequest] = []

    async def generate(self, request: GenerationRequest) -> Generation:
        self.requests.append(request)
        if self.error is not None:
            return Generation(text="", error=self.error, finish_reason="error")
        return Generation(text=self.text)


def hint_for(policy: ScriptedPolicy, source: str = NUMBER_HUNT, observation: str = "Find x.", **kwargs) -> HintResult:
    return asyncio.run(write_hint(policy, source, observation, **kwargs))


def number_hunt_solutions(seeds: range) -> list[list[str]]:
    env = NumberHuntEnv()
    solutions = []
    for seed in seeds:
        env.reset(seed)
        solutions.append(env.solution())
    return solutions


def test_inject_hint_uses_the_reference_format() -> None:
    assert inject_hint("You see a door.", "Try the key first.") == "You see a door.\n\nHINT: Try the key first."
    assert inject_hint("You see a door.", None) == "You see a door."
    assert inject_hint("You see a door.", "") == "You see a door.\n\nHINT: "  # the empty hint, played


def test_the_request_is_a_separate_low_temperature_hinter_call() -> None:
    policy = ScriptedPolicy("Pick moduli that share no factor.")
    result = hint_for(policy, observation="Number Hunt. A secret integer x ...", settings=HintSettings(max_tokens=300),
                      seed=5)
    (request,) = policy.requests
    assert request.role == "hinter"
    assert request.sampling.temperature == 0.3
    assert request.sampling.max_tokens == 300 and request.sampling.seed == 5
    system, user = request.messages
    assert system == {"role": "system", "content": HINT_SYSTEM_PROMPT}
    assert "1 to 3 sentences" in system["content"] and "Never reveal the answer" in system["content"]
    assert "class NumberHuntEnv" in user["content"] and "Number Hunt. A secret integer x" in user["content"]
    assert result.accepted and result.hint == "Pick moduli that share no factor."
    assert result.generation is not None and result.raw == "Pick moduli that share no factor."


def test_the_call_samples_as_its_settings_say() -> None:
    policy = ScriptedPolicy("Think in remainders.")
    hint_for(policy, settings=HintSettings(temperature=0.7, top_p=0.9, top_k=None, max_tokens=4096))
    sampling = policy.requests[0].sampling
    assert (sampling.temperature, sampling.top_p, sampling.top_k, sampling.max_tokens) == (0.7, 0.9, None, 4096)


def test_a_failed_or_empty_call_is_made_again_until_attempts_run_out() -> None:
    """The release tries the hint call 3 times: an error or an empty reply is retried."""
    failed = Generation(text="", error="server error")
    policy = ReplyListPolicy([failed, "   ", "Think in remainders."])
    result = hint_for(policy, settings=HintSettings(attempts=3))
    assert len(policy.requests) == 3 and result.accepted and result.hint == "Think in remainders."
    once = ReplyListPolicy([failed, "Think in remainders."])
    assert hint_for(once).rejected and len(once.requests) == 1  # the toolkit's default: one try
    exhausted = ReplyListPolicy([failed, failed, failed, "late"])
    result = hint_for(exhausted, settings=HintSettings(attempts=3))
    assert result.rejected and "hint generation failed" in result.reason and len(exhausted.requests) == 3


@pytest.mark.parametrize("reply", ["   ", "\n\t\n", '```json\n{"hint": ""}\n```'])
def test_a_blank_hint_is_played_empty_in_reference_mode_and_rejected_in_the_toolkits(reply: str) -> None:
    """The release strips the reply and plays what is left, even nothing; only an empty reply is retried."""
    release = HintSettings(attempts=3, cleaning="strip_json_fence", blank="played")
    played = ReplyListPolicy([reply, "Think in remainders."])
    result = hint_for(played, settings=release, solutions=[1234])
    assert result.accepted and result.hint == "" and result.usable_hint == "" and len(played.requests) == 1
    retried = ReplyListPolicy([reply, "Think in remainders."])
    result = hint_for(retried, settings=HintSettings(attempts=3, cleaning="strip_json_fence"))
    if reply.strip():  # a fenced empty hint is a reply: not asked again, and no hint
        assert result.rejected and result.usable_hint is None and len(retried.requests) == 1
    else:
        assert result.hint == "Think in remainders." and len(retried.requests) == 2


def test_an_empty_reply_or_a_non_string_hint_is_no_hint_even_where_blank_hints_are_played() -> None:
    release = HintSettings(attempts=3, cleaning="strip_json_fence", blank="played")
    failed = Generation(text="", error="server error")
    policy = ReplyListPolicy([Generation(text=""), failed, "   "])
    assert hint_for(policy, settings=release).hint == "" and len(policy.requests) == 3
    nothing = ReplyListPolicy([Generation(text="")])
    result = hint_for(nothing, settings=release)  # the release raises after its retries: no hint
    assert result.rejected and result.usable_hint is None and len(nothing.requests) == 3
    for cleaning in ("strip_json_fence", "clean"):
        result = vet_hint('```json\n{"hint": 7}\n```', cleaning=cleaning, blank="played")
        assert result.rejected and result.usable_hint is None


def test_the_run_configuration_chooses_blank_hints_by_mode() -> None:
    from spade_train.config import parse_run_config

    assert parse_run_config({"semantics": {"mode": "reference"}}).hint_settings().blank == "played"
    assert parse_run_config({}).hint_settings().blank == "rejected"
    overridden = parse_run_config({"semantics": {"mode": "reference", "blank_hints": "rejected"}})
    assert overridden.hint_settings().blank == "rejected"


def test_a_hint_stating_the_answer_is_rejected() -> None:
    solutions = [1234, "877", "3/4"]  # single-answer puzzles: solution() is the answer
    result = hint_for(ScriptedPolicy("Careful: the total is 877, not 878."), solutions=solutions)
    assert result.rejected and not result.accepted and result.usable_hint is None
    assert "leaks the solution" in result.reason and "877" in result.reason
    assert result.hint == "Careful: the total is 877, not 878."
    assert hint_for(ScriptedPolicy("It is 0.75 of the whole."), solutions=solutions).rejected


def test_a_hint_spelling_out_the_winning_moves_is_rejected() -> None:
    solutions = number_hunt_solutions(range(3))
    moves = ", ".join(move.removeprefix("\\boxed{").removesuffix("}") for move in solutions[2])
    result = hint_for(ScriptedPolicy(f"Play {moves}."), solutions=solutions)
    assert result.rejected and "move sequence" in result.reason


def test_a_hint_giving_the_strategy_is_accepted() -> None:
    solutions = number_hunt_solutions(range(3))
    text = ("Bisection is too slow here. Choose three moduli whose least common multiple covers the range, "
            "then combine the remainders with the Chinese remainder theorem.")
    result = hint_for(ScriptedPolicy(text), solutions=solutions)
    assert result.accepted and result.usable_hint == text and "3 solution(s)" in result.reason


def test_number_words_and_move_sequences_count_as_leaks() -> None:
    assert vet_hint("The answer is forty-two.", [42]).rejected
    moves = ["\\boxed{up}", "\\boxed{left}", "\\boxed{up}", "\\boxed{right}"]
    leaked = vet_hint("Go up, left, up, right.", [moves])
    assert leaked.rejected and "move sequence" in leaked.reason
    assert vet_hint("Go up first.", [moves]).accepted


def test_tool_use_is_inferred_from_the_source() -> None:
    calls_then_answer = [{"name": "list_items", "arguments": {"category": "garden"}}, 1234.5]
    leaky = hint_for(ScriptedPolicy("It comes to 1234.5 in the end."), source=WAREHOUSE,
                     solutions=[calls_then_answer])
    assert leaky.rejected and "contains the answer" in leaky.reason  # inferred: a tool-use answer
    # as a text environment the same list is a move sequence, and 1234.5 is what its winning move states
    text_env = hint_for(ScriptedPolicy("It comes to 1234.5 in the end."), source=WAREHOUSE,
                        solutions=[calls_then_answer], tool_use=False)
    assert text_env.rejected and "winning move" in text_env.reason


def test_failed_generation_and_empty_hints_are_rejected() -> None:
    failed = hint_for(ScriptedPolicy(error="HTTP 503"))
    assert failed.rejected and failed.hint is None and "HTTP 503" in failed.reason
    empty = hint_for(ScriptedPolicy("<think>hmm, what to say</think>\n  "))
    assert empty.rejected and "empty" in empty.reason


def test_without_solutions_only_emptiness_is_checked() -> None:
    result = hint_for(ScriptedPolicy("Work backwards from the goal."))
    assert result.accepted and "no solutions given" in result.reason


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Hint: Count the walls first.", "Count the walls first."),
        ("**Hint:** Count the walls first.", "Count the walls first."),
        ('"Count the walls first."', "Count the walls first."),
        ("<think>The answer is 17, but I must not say so.</think>\nCount the walls\n first.",
         "Count the walls first."),
        ("One. Two. Three. Four. Five.", "One. Two. Three."),
        ("``` ```", ""),  # what a tiny model's hint writer wrote: marks, no word
        ("... ?! --", ""),
        ("```\n7\n```", "``` 7 ```"),  # a digit is something to read
    ],
)
def test_clean_hint(raw: str, clean: str) -> None:
    assert clean_hint(raw) == clean


FENCED = '```json {"hint": "Count the red cells."}```'


@pytest.mark.parametrize(
    ("raw", "release", "toolkit"),
    [
        # The release's own parse (spade/core/hint_generator.py:109-133), worked by hand: strip, then the
        # value of "hint" in the first ```json fence anywhere, else the stripped text unchanged.
        (FENCED, "Count the red cells.", "Count the red cells."),
        ('```json\n{"hint": "Count the red cells."}\n```', "Count the red cells.", "Count the red cells."),
        ('```json\n{"hint": "Count the red cells."}\n```<|im_end|>', "Count the red cells.",
         "Count the red cells."),
        ("Count the red cells.<|im_end|>", "Count the red cells.<|im_end|>", "Count the red cells.<|im_end|>"),
        ('```JSON {"hint": "Count the red cells."}```', '```JSON {"hint": "Count the red cells."}```',
         "Count the red cells."),
        ('{"hint": "Count the red cells."}', '{"hint": "Count the red cells."}', "Count the red cells."),
        ('```\n{"hint": "Count the red cells."}\n```', '```\n{"hint": "Count the red cells."}\n```',
         "Count the red cells."),
        ('```json {"hint": "  padded  "}```', "  padded  ", "padded"),
        ('```json {"hint": 5}```', "", ""),  # not a string: no hint (the release's statistics break on it)
        ('Prefix ```json {"hint": "A"}``` suffix', "A", "A"),
        ('  ```json {"answer": "A"}```  ', '```json {"answer": "A"}```', '```json {"answer": "A"}```'),
        ("Hint: Count the red cells. Then the blue. Then the rest. Then stop.",
         "Hint: Count the red cells. Then the blue. Then the rest. Then stop.",
         "Count the red cells. Then the blue. Then the rest."),
        ('<think>plan</think>```json\n{"hint": "After thinking."}\n```', "After thinking.", "After thinking."),
    ],
)
def test_hint_cleaning_in_both_modes(raw: str, release: str, toolkit: str) -> None:
    assert clean_hint(raw, "strip_json_fence") == release
    assert clean_hint(raw, "clean") == toolkit


def test_a_json_fenced_reply_is_unwrapped_before_it_is_vetted() -> None:
    """The fence bug: the JSON and its fence used to reach the agent as the hint."""
    result = hint_for(ScriptedPolicy(FENCED), solutions=[1234])
    assert result.accepted and result.hint == "Count the red cells."
    release = hint_for(ScriptedPolicy(FENCED), solutions=[1234], settings=HintSettings(cleaning="strip_json_fence"))
    assert release.accepted and release.hint == "Count the red cells."


def test_reasoning_is_not_checked_as_part_of_the_hint() -> None:
    result = hint_for(ScriptedPolicy("<think>the secret is 1234</think>Use the remainders."), solutions=[1234])
    assert result.accepted and result.hint == "Use the remainders."


def test_long_sources_are_cut_in_the_prompt() -> None:
    messages = build_hint_messages("x = 1\n" * 10_000, "obs")
    assert len(messages[1]["content"]) < 13_000 and "<FIRST_OBSERVATION>\nobs\n</FIRST_OBSERVATION>" in \
        messages[1]["content"]
