"""The model judge tier: a model reads the task text, the code, ``solution()`` and the hint and answers
fixed questions (``prompts.py``); its answers become findings that quote its reason.

A heuristic, off by default: ``spade-envs validate --judge URL`` (any OpenAI-compatible endpoint), the
``loop.judge`` option of self-play (an endpoint; the run's own policy where a server serves it), and
``ScriptedJudge`` in tests. The SPADE release runs an LLM environment validator for tool use; this is that tier for every
environment, with its questions fixed and its prompts in one file.
"""

from spade_envs.checks.judge.judge import (
    JUDGE_CHECKS,
    EndpointJudge,
    JudgeMaterial,
    JudgeModel,
    JudgeSettings,
    ScriptedJudge,
    judge_environment,
    material_from_session,
    parse_verdict,
)

__all__ = [
    "JUDGE_CHECKS",
    "EndpointJudge",
    "JudgeMaterial",
    "JudgeModel",
    "JudgeSettings",
    "ScriptedJudge",
    "judge_environment",
    "material_from_session",
    "parse_verdict",
]
