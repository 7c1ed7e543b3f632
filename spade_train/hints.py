"""Hints: the privileged advice whose effect on the agent measures an environment's teaching value.

SPADE pays the designer by regret, the hinted agent's return minus the unhinted one. The hint is
written in a separate call to the same model under a different system prompt ("hint writer") at a
low temperature (0.3), so that it is a stable statement of the key insight rather than a sample of
many. It is appended to the first observation as ``"{obs}\\n\\nHINT: {hint}"``.

A hint that states the answer maximises regret without teaching anything, and a designer rewarded
for it learns to write leaky hints. The reference only asks the model not to; here a hint is also
checked against the environment's solutions for several seeds (``spade_envs.checks.hints``) and
rejected when it gives one away. A rejected hint is reported, never silently used.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spade_envs.checks.hints import find_hint_leak
from spade_train.designer.parser import strip_reasoning
from spade_train.policies.base import Generation, GenerationRequest, Message, Policy, SamplingParams

HINT_TEMPERATURE = 0.3
HINT_MAX_TOKENS = 1_024
"""Room for a reasoning model's thinking before its 1-3 sentences; the hint itself is capped below."""

MAX_HINT_SENTENCES = 3
MAX_HINT_CHARS = 600
MAX_SOURCE_CHARS = 12_000
"""Environment code beyond this is cut from the hint prompt; the rules are near the top of a module."""

HINTER_ROLE = "hinter"

HINT_SYSTEM_PROMPT = (
    "You write hints for an agent that is about to play a text environment. You see the environment's "
    "Python source and the agent's first observation. Write a hint of 1 to 3 sentences that states the "
    "key insight or strategy that makes the task solvable: what to pay attention to, which reasoning step "
    "is easy to miss, how to use the turns well.\n"
    "Rules:\n"
    "- Never reveal the answer, the hidden values, or the exact winning sequence of actions.\n"
    "- The same hint may be shown in episodes with other random seeds, so state an insight that holds "
    "for every instance, not facts about this one.\n"
    "- Do not restate the rules the agent can already read, and do not mention the source code.\n"
    "- Reply with the hint text only: no preamble, no label, no quotes."
)

_LABEL = re.compile(r"^\s*(?:\*\*)?\s*hint\s*(?:\*\*)?\s*[:\-]\s*(?:\*\*)?\s*", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def inject_hint(observation: str, hint: str | None) -> str:
    """The first observation of a hinted episode, in the reference's format; unchanged without a hint."""
    return f"{observation}\n\nHINT: {hint}" if hint else observation


def build_hint_messages(env_source: str, first_observation: str) -> list[Message]:
    """System and user messages for the hint writer."""
    source = env_source if len(env_source) <= MAX_SOURCE_CHARS else env_source[:MAX_SOURCE_CHARS] + "\n# ..."
    user = (
        f"<ENVIRONMENT_SOURCE>\n{source.strip()}\n</ENVIRONMENT_SOURCE>\n\n"
        f"<FIRST_OBSERVATION>\n{first_observation.strip()}\n</FIRST_OBSERVATION>\n\n"
        "Write the hint (1 to 3 sentences, the key insight, never the answer)."
    )
    return [{"role": "system", "content": HINT_SYSTEM_PROMPT}, {"role": "user", "content": user}]


def clean_hint(text: str) -> str:
    """The hint as it will be shown: reasoning, a 'Hint:' label and quotes dropped, at most 3 sentences.

    Models often prefix 'Hint:' (which would read 'HINT: Hint: ...') or quote the hint; a longer reply
    is cut to its first sentences rather than rejected, because the first sentences are the hint.
    """
    text = strip_reasoning(text)
    text = " ".join(text.split())
    text = _LABEL.sub("", text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        text = text[1:-1].strip()
    sentences = _SENTENCE_END.split(text)
    text = " ".join(sentences[:MAX_HINT_SENTENCES]).strip()
    if len(text) > MAX_HINT_CHARS:
        text = text[:MAX_HINT_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + "..."
    return text


@dataclass(frozen=True)
class HintResult:
    """A hint and whether it may be used; ``reason`` says why not (or how it was checked)."""

    hint: str | None
    """The cleaned hint; kept even when rejected, for logs."""
    accepted: bool
    reason: str
    raw: str = ""
    generation: Generation | None = None

    @property
    def rejected(self) -> bool:
        return not self.accepted

    @property
    def usable_hint(self) -> str | None:
        """The hint to inject, or None when it was rejected."""
        return self.hint if self.accepted else None


def vet_hint(hint: str, solutions: Sequence[Any] | None = None, *, tool_use: bool = False,
             raw: str = "", generation: Generation | None = None) -> HintResult:
    """Accept or reject an already-written hint: empty hints and hints leaking a solution are rejected.

    ``solutions`` are the environment's ``solution()`` values for a few seeds; without them only
    emptiness is checked, and the reason says so.
    """
    cleaned = clean_hint(hint)
    if not cleaned:
        return HintResult(None, False, "the hint is empty", raw=raw or hint, generation=generation)
    if not solutions:
        return HintResult(cleaned, True, "accepted without a leak check (no solutions given)",
                          raw=raw or hint, generation=generation)
    leak = find_hint_leak(cleaned, list(solutions), tool_use=tool_use)
    if leak is not None:
        return HintResult(cleaned, False, f"the hint leaks the solution: it {leak}", raw=raw or hint,
                          generation=generation)
    return HintResult(cleaned, True, f"accepted (no leak against {len(solutions)} solution(s))",
                      raw=raw or hint, generation=generation)


async def write_hint(
    policy: Policy,
    env_source: str,
    first_observation: str,
    *,
    solutions: Sequence[Any] | None = None,
    tool_use: bool | None = None,
    temperature: float = HINT_TEMPERATURE,
    max_tokens: int = HINT_MAX_TOKENS,
    seed: int | None = None,
) -> HintResult:
    """Ask ``policy`` (role ``"hinter"``) for a hint and vet it against ``solutions``.

    ``tool_use`` defaults to whether the source subclasses ToolUseBaseEnv: tool-use solutions end in
    the final answer, which changes what counts as a leak. A failed generation is a rejected hint.
    """
    request = GenerationRequest(
        messages=build_hint_messages(env_source, first_observation),
        sampling=SamplingParams(temperature=temperature, max_tokens=max_tokens, seed=seed),
        role=HINTER_ROLE,
    )
    generation = await policy.generate(request)
    if generation.error is not None:
        return HintResult(None, False, f"hint generation failed: {generation.error}", generation=generation)
    is_tool_use = ("ToolUseBaseEnv" in env_source) if tool_use is None else tool_use
    return vet_hint(generation.text, solutions, tool_use=is_tool_use, raw=generation.text, generation=generation)
