"""Reference mode's prompts from a local release checkout (issue 33): the designer, hint and agent prompts
built from the release's own templates, as its code assembles them. A stand-in tree of the release's layout
plays the checkout (CI has no copy of the release); its game_generator.py and hint_generator.py import
modules that do not exist, as the real ones import heavy ones, so only their literals may be read."""

from __future__ import annotations

import asyncio
from pathlib import Path
from textwrap import dedent

import pytest

from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.runtime.threads import SessionThreads
from spade_train.corpus import Document
from spade_train.designer.prompts import DesignerPrompt, ReferenceExample
from spade_train.hints import HintSettings, write_hint
from spade_train.policies.base import SamplingParams
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.release_prompts import ReleasePrompts, ReleasePromptsError
from spade_train.rollout import RolloutConfig, evaluate_environment
from tests.conftest import COUNTER_ENV

STAND_IN = {
    "spade/core/prompts/template.py": '''
        from typing import Optional
        MULTITURN_GAME_GENERATION_SYSTEM_PROMPT = "SYSTEM: design games"
        def generate_multiturn_game_generation_prompt(skill_name, skill_info, difficulty="medium", max_turns=20):
            return f"GAME {skill_name} ({skill_info['description']}) {difficulty} {max_turns}"
    ''',
    "spade/core/prompts/corpus_template.py": '''
        import random, re
        def generate_corpus_grounded_prompt(skill_name, skill_info, difficulty, document_text):
            return "<REFERENCE_DOCUMENT>\\n" + document_text + "\\n</REFERENCE_DOCUMENT>\\n" + skill_name
    ''',
    "spade/core/prompts/tool_use_template.py": '''
        TOOL_USE_SKILLS = {"Tool Selection": {"description": "pick tools", "category": "Tools"}}
        def generate_tool_use_prompt(skill_name, skill_info, difficulty="medium", document_text=""):
            return f"TOOLS {skill_name} [{document_text}]"
        def generate_tool_use_prompt_multiturn(skill_name, skill_info, difficulty="medium", document_text=""):
            return f"TOOLS MULTI {skill_name}"
    ''',
    "spade/core/game_generator.py": '''
        from .prompts import GAME_GENERATION_SYSTEM_PROMPT
        class SyntheticGameGenerator:
            COGNITIVE_SKILLS = {"Logical Deduction": {"description": "Drawing conclusions", "example_games": []}}
    ''',
    "spade/core/hint_generator.py": '''
        from spade.core.openrouter_adapter import OpenAIModelAdapter
        HINT_SYSTEM_PROMPT = """Write a hint."""
        TOOL_USE_HINT_SYSTEM_PROMPT = """Write a tool-use hint."""
    ''',
    "spade/core/env_validator.py": '''
        import logging, re
        ENV_VALIDATION_SYSTEM_PROMPT = "Check games."
        ENV_VALIDATION_PROMPT_TEMPLATE = """GAME CHECK {game_code}"""
        TOOL_USE_ENV_VALIDATION_SYSTEM_PROMPT = "Audit tool-use games."
        TOOL_USE_ENV_VALIDATION_PROMPT_TEMPLATE = """TOOL AUDIT {game_code} {{yes}}"""
    ''',
    "spade/core/types.py": '''
        from dataclasses import dataclass
        @dataclass
        class SpadeConfig:
            hint_injection_template: str = "{observation}\\n\\nHINT: {hint}"
    ''',
}


def stand_in(root: Path) -> Path:
    for name, text in STAND_IN.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(dedent(text), encoding="utf-8")
    return root


def test_the_designer_prompt_is_assembled_as_the_release_assembles_it(tmp_path) -> None:
    release = ReleasePrompts.load(stand_in(tmp_path))
    examples = (ReferenceExample("class GoodEnv:\n    pass", "Logical Deduction", 0.5, 0.25),
                ReferenceExample("class EasyEnv:\n    pass", "Logical Deduction", 0.95, 0.0, "too_easy"))
    grounded = DesignerPrompt(kind="multi_turn_game", skill="Logical Deduction", max_turns=25,
                              document=Document(doc_id="d1", text="Kepler's laws."), examples=examples)
    assert release.designer_messages(grounded) == [
        {"role": "system", "content": "SYSTEM: design games"},
        {"role": "user", "content": (
            "<REFERENCE_DOCUMENT>\nKepler's laws.\n</REFERENCE_DOCUMENT>\nLogical Deduction"
            "\n\n<REFERENCE_ENVIRONMENTS>\nHere are examples of effective training environments with good "
            "difficulty calibration. Use them as inspiration for structure and complexity, but create a "
            "DIFFERENT game:\n\n### Example 1 (skill: Logical Deduction, win_rate: 0.50, regret: 0.25)\n"
            "```python\nclass GoodEnv:\n    pass\n```\n</REFERENCE_ENVIRONMENTS>\n"
            "\nAvoid generating environments like:\n- too easy (win_rate=0.95): class EasyEnv\n")}]
    plain = DesignerPrompt(kind="multi_turn_game", skill="Logical Deduction", max_turns=25)
    assert release.designer_messages(plain)[1]["content"] == "GAME Logical Deduction (Drawing conclusions) medium 25"
    tools = DesignerPrompt(kind="tool_use", skill="Tool Selection", document=Document(doc_id="d2", text="A manual."))
    assert release.designer_messages(tools) == [{"role": "user", "content": "TOOLS Tool Selection [A manual.]"}]
    assert release.supports("multi_turn_game") and not release.supports("single_answer")


def test_the_hint_and_the_agent_see_the_release_s_messages(tmp_path) -> None:
    release = ReleasePrompts.load(stand_in(tmp_path))
    writer = ScriptedPolicy(["Count the steps."])
    hint = asyncio.run(write_hint(writer, COUNTER_ENV, "It is 2 plus 3.", settings=HintSettings(),
                                  messages=release.hint_messages(COUNTER_ENV, tool_use=False)))
    assert hint.accepted and writer.requests[0].messages == [
        {"role": "system", "content": "Write a hint."},
        {"role": "user", "content": f"Environment code:\n```python\n{COUNTER_ENV}\n```"}]

    agent = ScriptedPolicy(["\\boxed{0}"])
    backend = create_backend("inprocess", ExecutionLimits(call_timeout_s=2.0))
    config = RolloutConfig(episodes_per_condition=1, sampling=SamplingParams(), return_mode="terminal_clipped",
                           seed=0, max_turns=2, first_message=release.agent_message)

    async def play():
        with SessionThreads(backend, workers=1) as threads:
            return await evaluate_environment(agent, backend, threads, COUNTER_ENV, hint="look", config=config)

    evaluation = asyncio.run(play())
    hinted, unhinted = evaluation.hinted[0], evaluation.unhinted[0]
    first = hinted.messages[0]
    assert first["role"] == "user" and first["content"].startswith(
        "You are playing a language game. Make valid actions to win.\nObservation: ")
    assert first["content"].endswith("\n\nHINT: look\nPlease reason step by step, and put your final answer "
                                     "within \\boxed{}.")
    assert unhinted.messages[0]["role"] == "user" and "HINT" not in unhinted.messages[0]["content"]
    assert hinted.messages[2]["role"] == "user" and not hinted.messages[2]["content"].startswith("You are playing")


def test_a_checkout_that_is_not_the_release_is_a_one_line_error(tmp_path) -> None:
    with pytest.raises(ReleasePromptsError) as missing:
        ReleasePrompts.load(tmp_path / "nowhere")
    assert "\n" not in str(missing.value) and "spade/core/prompts/template.py" in str(missing.value)
    root = stand_in(tmp_path / "broken")
    (root / "spade/core/prompts/template.py").write_text("raise ImportError('no such thing')\n")
    with pytest.raises(ReleasePromptsError, match="template.py does not load"):
        ReleasePrompts.load(root)
    root = stand_in(tmp_path / "no-hints")
    (root / "spade/core/hint_generator.py").write_text("X = 1\n")
    with pytest.raises(ReleasePromptsError, match="defines no HINT_SYSTEM_PROMPT"):
        ReleasePrompts.load(root)


def test_a_run_with_a_release_checkout_uses_its_prompts_where_the_release_has_them(tmp_path) -> None:
    """Through the loop: the hint writer and the agent get the release's messages; the designer too for the
    kinds the release writes (games, tool use), and this toolkit's prompt for a kind it has none for."""
    from spade_train.memory import EnvironmentMemory
    from tests.test_loop import GOOD, make_loop

    root = stand_in(tmp_path / "release")
    loop, memory = make_loop(tmp_path, [GOOD], envs=1)
    config = loop.config.model_copy(update={"semantics": loop.config.semantics.model_copy(
        update={"release_dir": str(root)})})
    loop.close()
    memory.close()
    from spade_train.corpus import Corpus
    from spade_train.loop.iteration import SelfPlayLoop

    memory = EnvironmentMemory(tmp_path / "memory-2.sqlite3")
    release_loop = SelfPlayLoop(config, loop.policies, backend=loop.backend, memory=memory, corpus=Corpus.demo())
    attempt = asyncio.run(release_loop.run_iteration(step=1)).attempts[0]
    assert attempt.valid and attempt.hint.accepted
    assert release_loop.policies.hinter.requests[-1].messages[0] == {"role": "system", "content": "Write a hint."}
    agent_first = release_loop.policies.agent.requests[-1].messages[0]
    assert agent_first["role"] == "user" and agent_first["content"].startswith("You are playing a language game.")
    assert attempt.prompt[0]["role"] == "system" and "environment designer" in attempt.prompt[0]["content"]
    release_loop.close()
    memory.close()
