"""ACEBench's categories (English data) and the benchmark names they get here."""

from __future__ import annotations

NORMAL = (
    "normal_atom_bool",
    "normal_atom_enum",
    "normal_atom_number",
    "normal_atom_list",
    "normal_atom_object_deep",
    "normal_atom_object_short",
    "normal_single_turn_single_function",
    "normal_single_turn_parallel_function",
    "normal_multi_turn_user_switch",
    "normal_multi_turn_user_adjust",
    "normal_similar_api",
    "normal_preference",
)
SPECIAL = ("special_incomplete", "special_error_param", "special_irrelevant")
AGENT = ("agent_multi_turn", "agent_multi_step")
PREFIX = "acebench_"


def benchmark_name(category: str) -> str:
    return PREFIX + category


def category_of(benchmark: str) -> str:
    return benchmark.removeprefix(PREFIX)
