"""The environments bundled with the SDK: worked examples of the contract, one file each.

Each file is a complete environment exactly as a designer model would write it (standard library
only, no SDK imports; tool-use environments subclass ``ToolUseBaseEnv`` without importing it). They
cover the six game skills, single-answer puzzles, a corpus-grounded environment and tool use, and
they all pass every check: ``spade-envs validate --bundled``.
"""

from __future__ import annotations

from pathlib import Path

from spade_envs.registry import EnvEntry

LIBRARY_DIR = Path(__file__).resolve().parent


def _entry(name: str, class_name: str, kind: str, skill: str, max_turns: int, description: str,
           reward_range: tuple[float, float] = (0.0, 1.0)) -> EnvEntry:
    return EnvEntry(name=name, path=LIBRARY_DIR / f"{name}.py", class_name=class_name, kind=kind,  # type: ignore[arg-type]
                    skill=skill, max_turns=max_turns, description=description, reward_range=reward_range)


TOOL_REWARDS = (-0.1, 1.0)

BUNDLED_ENVS: tuple[EnvEntry, ...] = (
    # multi-turn games, one per skill
    _entry("number_hunt", "NumberHuntEnv", "multi_turn_game", "Mathematical Reasoning", 7,
           "find a hidden number from remainder queries (Chinese remainder theorem)"),
    _entry("mastermind", "MastermindEnv", "multi_turn_game", "Logical Deduction", 10,
           "deduce a hidden colour code from black/white peg feedback"),
    _entry("maze_walk", "MazeWalkEnv", "multi_turn_game", "Spatial Reasoning", 24,
           "walk a text maze to its exit"),
    _entry("sequence_forecast", "SequenceForecastEnv", "multi_turn_game", "Pattern Recognition", 10,
           "predict the next terms of a sequence with a hidden rule"),
    _entry("knapsack_pick", "KnapsackPickEnv", "multi_turn_game", "Optimization", 10,
           "pack items under a capacity to reach the optimal value"),
    _entry("switchboard", "SwitchboardEnv", "multi_turn_game", "Causal Inference", 14,
           "find which switches drive which lamps and light a target pattern"),
    _entry("hanoi_tower", "HanoiTowerEnv", "multi_turn_game", "Strategic Planning", 20,
           "move disks between pegs from a start arrangement to a goal arrangement"),
    # single-answer puzzles
    _entry("chain_arithmetic", "ChainArithmeticEnv", "single_answer", "Mathematical Reasoning", 3,
           "a multi-step word problem with one integer answer"),
    _entry("truth_tellers", "TruthTellersEnv", "single_answer", "Logical Deduction", 3,
           "knights and knaves with exactly one consistent assignment"),
    # corpus-grounded: give your own document with init kwarg document="..."
    _entry("archive_quest", "ArchiveQuestEnv", "corpus_grounded", "Language Understanding", 12,
           "research a hidden document with search/peek commands and answer three questions"),
    # tool use (ToolUseBaseEnv subclasses, not importing it, as in the SPADE release)
    _entry("warehouse_tools", "WarehouseLookupEnv", "tool_use", "Data Retrieval", 10,
           "list and fetch inventory records to compute a category's stock figure", TOOL_REWARDS),
    _entry("calendar_tools", "CalendarAssistantEnv", "tool_use", "Tool Selection", 8,
           "pick the 2-3 relevant tools out of seven to answer a scheduling question", TOOL_REWARDS),
    _entry("bank_workflow", "BankWorkflowEnv", "tool_use", "Multi-Step Workflows", 12,
           "multi-instruction: banking requests revealed one at a time, each checked on the state",
           TOOL_REWARDS),
)
