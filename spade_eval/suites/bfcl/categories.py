"""The BFCL-v4 categories this suite runs, and how the leaderboard groups them.

Memory and web-search (the leaderboard's "agentic" section) are left out: they need an embedding model
or a live search API, neither of which exists offline. Format sensitivity is not a scored category.
"""

from __future__ import annotations

MULTI_TURN = ("multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context")
NON_LIVE_AST = (
    "simple_python",
    "simple_java",
    "simple_javascript",
    "multiple",
    "parallel",
    "parallel_multiple",
)
NON_LIVE = (*NON_LIVE_AST, "irrelevance")
LIVE_AST = ("live_simple", "live_multiple", "live_parallel", "live_parallel_multiple")
LIVE = (*LIVE_AST, "live_irrelevance", "live_relevance")
SINGLE_TURN = (*NON_LIVE, *LIVE)
RELEVANCE = frozenset({"irrelevance", "live_irrelevance", "live_relevance"})
"""Scored on whether the reply holds a call at all (it must not for irrelevance, must for relevance)."""

PREFIX = "bfcl_"


def benchmark_name(category: str) -> str:
    return PREFIX + category


def category_of(benchmark: str) -> str:
    return benchmark.removeprefix(PREFIX)


def language_of(category: str) -> str:
    """``java``, ``javascript`` or ``python``: the AST checker's type rules differ per language."""
    if category.endswith("_java"):
        return "java"
    if category.endswith("_javascript"):
        return "javascript"
    return "python"
