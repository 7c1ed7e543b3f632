"""Hints: the privileged advice whose effect on the agent measures an environment's teaching value.

SPADE pays the designer by regret, the hinted agent's return minus the unhinted one. The hint is
written in a separate call to the same model under a different system prompt ("hint writer") at a
low temperature (0.3), so that it is a stable statement of the key insight rather than a sample of
many. It reaches the agent through the contract's ``inject_hint`` (``spade_envs.contract.episode``),
appended to the first observation as the reference does.

A hint that states the answer maximises regret without teaching anything, and a designer rewarded
for it learns to write leaky hints. The reference only asks the model not to; here a hint is also
checked against the environment's solutions for several seeds (``spade_envs.checks.hints``) and
rejected when it gives one away. A rejected hint is reported, never silently used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spade_envs.checks.hints import find_hint_leak
from spade_train.designer.parser import strip_reasoning
from spade_train.policies.base import Generation, GenerationRequest, Message, Policy, SamplingParams
from spade_train.semantics import BlankHints, HintCleaning

HINT_TEMPERATURE = 0.3
HINT_MAX_TOKENS = 1_024
"""Room for a reasoning model's thinking before its 1-3 sentences; the hint itself is capped below."""


@dataclass(frozen=True)
class HintSettings:
    """How the hint call samples and how its reply becomes a hint (``[sampling] hint_*`` in a run file).

    The defaults are this toolkit's; the release samples at temperature 0.3, top-p 0.9, top-k -1 (off)
    with 4,096 tokens for games and 2,048 for tool use, and tries 3 times
    (``spade/core/hint_generator.py:250-287``, ``spade/slime/model_adapter.py:155-179``).
    """

    temperature: float = HINT_TEMPERATURE
    top_p: float = 1.0
    top_k: int | None = None
    max_tokens: int = HINT_MAX_TOKENS
    attempts: int = 1
    """Calls made until one returns a non-empty reply (the release: 3)."""
    cleaning: HintCleaning = "clean"
    blank: BlankHints = "rejected"
    """A reply with no hint text: "rejected" (a hint failure) or "played" as the empty hint (the release)."""

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


def build_hint_messages(env_source: str, first_observation: str) -> list[Message]:
    """System and user messages for the hint writer."""
    source = env_source if len(env_source) <= MAX_SOURCE_CHARS else env_source[:MAX_SOURCE_CHARS] + "\n# ..."
    user = (
        f"<ENVIRONMENT_SOURCE>\n{source.strip()}\n</ENVIRONMENT_SOURCE>\n\n"
        f"<FIRST_OBSERVATION>\n{first_observation.strip()}\n</FIRST_OBSERVATION>\n\n"
        "Write the hint (1 to 3 sentences, the key insight, never the answer)."
    )
    return [{"role": "system", "content": HINT_SYSTEM_PROMPT}, {"role": "user", "content": user}]


_JSON_FENCE = re.compile(r"```json\s*\n?(.*?)\n?```", re.DOTALL)
"""The release's pattern: the first ```json fence anywhere in the reply (case-sensitive)."""
_ANY_FENCE = re.compile(r"```(?:json)?[ \t]*\n?(.*?)\n?```", re.DOTALL | re.IGNORECASE)
"""The toolkit's: a fence tagged json in any case, or untagged."""


_NO_HINT_KEY = object()


def _json_hint(text: str, fence: re.Pattern[str] = _JSON_FENCE) -> Any:
    """``data["hint"]`` of the first fence (or, with the toolkit's pattern, a bare object) holding an object
    with a "hint" key (whatever its value), else ``_NO_HINT_KEY``."""
    match = fence.search(text)
    body = (match.group(1) if match is not None else (text if fence is _ANY_FENCE else "")).strip()
    try:
        data = json.loads(body) if body.startswith("{") else None
    except (ValueError, RecursionError):
        return _NO_HINT_KEY
    return data["hint"] if isinstance(data, dict) and "hint" in data else _NO_HINT_KEY


def clean_hint(text: str, cleaning: HintCleaning = "clean") -> str:
    """The hint as it will be shown (an empty string when the reply holds none).

    ``strip_json_fence`` is the release: the reply stripped, or the value of ``"hint"`` in its first
    ```json fence, and nothing else. A value that is not a string counts as no hint (the release's own
    statistics break on it, which drops the hint). ``clean`` (the toolkit) unwraps the fence the same
    way and then drops reasoning, a 'Hint:' label and quotes and keeps at most 3 sentences (a reply with no
    letter or digit left is no hint): models often
    prefix 'Hint:' (which would read 'HINT: Hint: ...') or quote the hint, and a longer reply is cut to
    its first sentences rather than rejected, because the first sentences are the hint.
    """
    stripped = text.strip()
    if cleaning == "strip_json_fence":
        fenced = _json_hint(stripped)
        if fenced is _NO_HINT_KEY:
            return stripped
        return fenced if isinstance(fenced, str) else ""
    text = strip_reasoning(stripped).strip()
    fenced = _json_hint(text, _ANY_FENCE)
    if fenced is not _NO_HINT_KEY:
        if not isinstance(fenced, str):
            return ""
        text = fenced
    text = " ".join(text.split())
    text = _LABEL.sub("", text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`" and not text.startswith("``"):
        text = text[1:-1].strip()
    sentences = _SENTENCE_END.split(text)
    text = " ".join(sentences[:MAX_HINT_SENTENCES]).strip()
    if len(text) > MAX_HINT_CHARS:
        text = text[:MAX_HINT_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + "..."
    if not any(character.isalnum() for character in text):
        return ""  # marks and fences with no word in them ("``` ```") say nothing
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
        """The hint to inject, or None when it was rejected ("" is a hint: the empty one, played)."""
        return self.hint if self.accepted else None


def _fenced_non_string(text: str, cleaning: HintCleaning) -> bool:
    """Whether the reply's JSON fence holds a ``"hint"`` that is not a string (no hint in either mode)."""
    stripped = text.strip()
    value = (_json_hint(stripped) if cleaning == "strip_json_fence"
             else _json_hint(strip_reasoning(stripped).strip(), _ANY_FENCE))
    return value is not _NO_HINT_KEY and not isinstance(value, str)


def vet_hint(hint: str, solutions: Sequence[Any] | None = None, *, tool_use: bool = False,
             raw: str = "", generation: Generation | None = None, cleaning: HintCleaning = "clean",
             blank: BlankHints = "rejected") -> HintResult:
    """Accept or reject an already-written hint: empty hints and hints leaking a solution are rejected.

    ``solutions`` are the environment's ``solution()`` values for a few seeds; without them only
    emptiness is checked, and the reason says so. With ``blank = "played"`` (the release) a reply with
    no hint text is accepted as the empty hint, which leaks nothing; a fence whose hint is not a string
    is still no hint.
    """
    cleaned = clean_hint(hint, cleaning)
    if not cleaned:
        if blank == "played" and not _fenced_non_string(hint, cleaning):
            return HintResult("", True, "an empty hint, played as the release plays it", raw=raw or hint,
                              generation=generation)
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
    settings: HintSettings = HintSettings(),
    seed: int | None = None,
    messages: list[Message] | None = None,
) -> HintResult:
    """Ask ``policy`` (role ``"hinter"``) for a hint and vet it against ``solutions``.

    ``tool_use`` defaults to whether the source subclasses ToolUseBaseEnv: tool-use solutions end in
    the final answer, which changes what counts as a leak. A call that fails or returns nothing is made
    again, ``settings.attempts`` times in all; when every one fails the hint is rejected. ``messages``
    replace the toolkit's hint prompt (the release's, ``ReleasePrompts.hint_messages``).
    """
    request = GenerationRequest(
        messages=messages if messages is not None else build_hint_messages(env_source, first_observation),
        sampling=SamplingParams(temperature=settings.temperature, top_p=settings.top_p, top_k=settings.top_k,
                                max_tokens=settings.max_tokens, seed=seed),
        role=HINTER_ROLE,
    )
    for _ in range(max(1, settings.attempts)):
        generation = await policy.generate(request)
        # The release asks again only for an empty reply; a blank one is then its (empty) hint.
        replied = generation.text if settings.blank == "played" else generation.text.strip()
        if generation.error is None and replied:
            break
    if generation.error is not None:
        return HintResult(None, False, f"hint generation failed: {generation.error}", generation=generation)
    if not generation.text:  # the release raises on an empty reply after its retries: no hint
        return HintResult(None, False, "the hint writer replied nothing", generation=generation)
    is_tool_use = ("ToolUseBaseEnv" in env_source) if tool_use is None else tool_use
    return vet_hint(generation.text, solutions, tool_use=is_tool_use, raw=generation.text, generation=generation,
                    cleaning=settings.cleaning, blank=settings.blank)
