"""The run's own model as the judge of its designs (``loop.judge = "self"``).

The SPADE release asks the training model whether each generated game can be solved, after its
programmatic checks and before the hint (``--spade-use-env-validator``, on in its tool-use scripts,
``spade/core/env_validator.py``). A boxed "no" rejects the design, which is then written again; an empty,
unreadable or failed reply accepts it. This module is that step on either backend:

- with the release's prompts (``semantics.release_dir``), the release's own validator prompts for the
  design's kind and its boxed verdict (``release_verdict``);
- without them, the gate's model judge (``spade_envs.checks.judge``): its fixed questions, asked of the
  run's model about the code, the first observation and ``solution()`` the checker already saw.

Either way the judge is a heuristic with a model call per valid design; the checker remains the proof.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Literal

from spade_envs.checks.judge import JudgeMaterial, JudgeModel, judge_environment
from spade_envs.spec.models import CheckFailure
from spade_train.policies.base import GenerationRequest, Message, Policy, SamplingParams
from spade_train.release_prompts import ReleasePrompts

SELF = "self"
"""The ``loop.judge`` value that asks the run's own model."""
JUDGE_ROLE = "judge"
JUDGE_TEMPERATURE = 0.3
"""The release's ``env_validator_temperature``."""
JUDGE_MAX_TOKENS = 16_384
"""The release's ``env_validator_max_tokens`` (``loop.judge_max_tokens``; an engine caps it at its context)."""
RELEASE_CHECK = "judge_release_validator"
_BOXED = re.compile(r"\\boxed\{(.+?)\}")


class PolicyJudge:
    """A ``JudgeModel`` over a policy of the run: the judge's question as one more request to the model."""

    def __init__(self, policy: Policy, *, temperature: float = JUDGE_TEMPERATURE,
                 max_tokens: int = JUDGE_MAX_TOKENS) -> None:
        self.policy, self.temperature, self.max_tokens = policy, temperature, max_tokens

    async def ask(self, messages: list[Message]) -> str | None:
        generation = await self.policy.generate(GenerationRequest(
            messages=messages, sampling=SamplingParams(temperature=self.temperature, max_tokens=self.max_tokens),
            role=JUDGE_ROLE))
        return generation.text if generation.error is None else None


def release_verdict(reply: str | None) -> tuple[bool, str]:
    """The release's reading of its validator's reply: (accepted, why). The first ``\\boxed{}`` decides
    (yes, y or true accept); no reply or no boxed verdict accepts."""
    if not reply:
        return True, "the judge gave no reply"
    match = _BOXED.search(reply)
    if match is None:
        return True, "the judge's reply has no boxed verdict"
    verdict = match.group(1).strip().lower()
    return verdict in ("yes", "y", "true"), f"the judge answered {verdict[:40]!r}"


async def judge_design(judge: JudgeModel, code: str, *, first_observation: str, solutions: Sequence[Any],
                       tool_use: bool, release: ReleasePrompts | None = None,
                       severity: Literal["error", "warning"] = "error") -> list[CheckFailure]:
    """The judge's findings on a design the checker accepted (none: accepted)."""
    if release is None:
        material = JudgeMaterial(code, (first_observation,),
                                 tuple(json.dumps(s, default=str)[:2_000] for s in list(solutions)[:2]))
        return await judge_environment(judge, material, severity=severity)
    try:
        reply = await judge.ask(release.validator_messages(code, tool_use=tool_use))
    except Exception:  # noqa: BLE001 - the release accepts a design whose validation failed
        reply = None
    accepted, why = release_verdict(reply)
    if accepted:
        return []
    said = " ".join((reply or "").split())[:300]
    return [CheckFailure(check=RELEASE_CHECK, severity=severity,
                         message=(f"The run's model, asked the release's environment-validator question, rejected it "
                                  f"({why}): {said!r}. A heuristic finding: check that every success condition "
                                  "can be reached."))]
