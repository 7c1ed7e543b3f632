"""Ask a model the judge's questions about one environment and turn its answers into findings.

Everything the model returns is hostile data: its reply is bounded, parsed leniently (the first JSON
object in it), and a reply that cannot be read is no finding at all (a judge that fails must never
reject an environment, and never raises out of the checker). The reason quoted in a finding is cut to
one line and escaped like any other guest text.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from spade_envs.checks.judge.prompts import FAILING_ANSWER, QUESTIONS, SYSTEM, USER, render_questions
from spade_envs.spec.models import CheckFailure

JUDGE_CHECKS: tuple[str, ...] = tuple(f"judge_{key}" for key in QUESTIONS)
MAX_CODE_CHARS = 24_000
MAX_TEXT_CHARS = 3_000
MAX_REPLY_CHARS = 20_000
MAX_REASON_CHARS = 300

Message = dict[str, str]


class JudgeModel(Protocol):
    """Anything that answers a chat: an endpoint, the run's own policy, a script in tests."""

    async def ask(self, messages: list[Message]) -> str | None: ...


@dataclass(frozen=True)
class JudgeSettings:
    """Which model judges, and what its findings weigh (picklable: validation workers build the client)."""

    url: str
    """An OpenAI-compatible server (``http://host:8000/v1``), optionally ``#model``."""
    severity: Literal["error", "warning"] = "error"
    timeout_s: float = 120.0
    max_tokens: int = 800

    def model(self) -> JudgeModel:
        url, _, name = self.url.partition("#")
        return EndpointJudge(url, name or None, timeout_s=self.timeout_s, max_tokens=self.max_tokens)


@dataclass
class ScriptedJudge:
    """A judge that replies from a script: the same reply every time, or one per call in turn."""

    replies: Sequence[str | None]
    asked: list[list[Message]] = field(default_factory=list)

    async def ask(self, messages: list[Message]) -> str | None:
        self.asked.append(messages)
        return self.replies[min(len(self.asked), len(self.replies)) - 1] if self.replies else None


class EndpointJudge:
    """Chat completions on an OpenAI-compatible endpoint (temperature 0; the served model when none named)."""

    def __init__(self, url: str, model: str | None = None, *, timeout_s: float = 120.0, max_tokens: int = 800) -> None:
        self.url = url.rstrip("/")
        if not self.url.endswith("/v1"):
            self.url += "/v1"
        self.model, self.timeout_s, self.max_tokens = model, timeout_s, max_tokens

    async def ask(self, messages: list[Message]) -> str | None:
        return await asyncio.to_thread(self._ask, messages)

    def _post(self, path: str, body: dict[str, Any] | None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
            return json.loads(response.read(MAX_REPLY_CHARS * 4).decode("utf-8", "replace"))

    def _ask(self, messages: list[Message]) -> str | None:
        try:
            model = self.model or self._post("/models", None)["data"][0]["id"]
            reply = self._post("/chat/completions", {"model": model, "messages": messages, "temperature": 0.0,
                                                     "max_tokens": self.max_tokens})
            text = reply["choices"][0]["message"]["content"]
        except (urllib.error.URLError, OSError, ValueError, KeyError, IndexError, TypeError):
            return None
        return text if isinstance(text, str) else None


@dataclass(frozen=True)
class JudgeMaterial:
    """What the judge reads about one environment."""

    code: str
    observations: tuple[str, ...]
    solutions: tuple[str, ...]
    hint: str | None = None

    def messages(self) -> list[Message]:
        observations = "\n\n".join(f"Seed {i + 1}:\n{_cut(text, MAX_TEXT_CHARS)}" for i, text in enumerate(self.observations))
        solutions = "\n".join(f"Seed {i + 1}: {_cut(text, 600)}" for i, text in enumerate(self.solutions))
        user = USER.format(code=_cut(self.code, MAX_CODE_CHARS), observations=observations or "(none)",
                           solutions=solutions or "(none)", hint=_cut(self.hint, 1_000) if self.hint else "(none)",
                           questions=render_questions())
        return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + " [...]"


def material_from_session(session: Any, code: str, seeds: Sequence[int], hint: str | None = None) -> JudgeMaterial:
    """The first observation and ``solution()`` of a few seeds, asked of a session used for nothing else."""
    observations, solutions = [], []
    for seed in seeds[:2]:
        observations.append(session.reset(seed).observation)
        solutions.append(json.dumps(session.solution(), default=str)[:2_000])
    own_hint = hint
    if own_hint is None:
        session.reset(seeds[0])
        own_hint = session.hint()
    return JudgeMaterial(code, tuple(observations), tuple(solutions), own_hint)


def parse_verdict(reply: str | None) -> dict[str, tuple[str, str]]:
    """question id -> (answer, reason), for every question the reply answers readably; {} for anything else."""
    if not reply:
        return {}
    reply = reply[:MAX_REPLY_CHARS]
    start = reply.find("{")
    while start >= 0:
        try:
            value, _ = json.JSONDecoder().raw_decode(reply, start)
        except (ValueError, RecursionError):
            start = reply.find("{", start + 1)
            continue
        if isinstance(value, dict):
            break
        start = reply.find("{", start + 1)
    else:
        return {}
    answers = {}
    for key in QUESTIONS:
        item = value.get(key)
        if isinstance(item, dict):
            answer, reason = item.get("answer"), item.get("reason", "")
        else:
            answer, reason = item, ""
        if isinstance(answer, bool):
            answer = "yes" if answer else "no"
        if isinstance(answer, str) and answer.strip().lower() in ("yes", "no"):
            text = " ".join(str(reason).split()) if isinstance(reason, (str, int, float)) else ""
            answers[key] = (answer.strip().lower(), re.sub(r"[\x00-\x1f\x7f-\x9f]", " ", text)[:MAX_REASON_CHARS])
    return answers


async def judge_environment(judge: JudgeModel, material: JudgeMaterial, *,
                            severity: Literal["error", "warning"] = "error") -> list[CheckFailure]:
    """The judge's findings on one environment (none when its reply cannot be read)."""
    try:
        reply = await judge.ask(material.messages())
    except Exception:  # noqa: BLE001 -- a failing judge is no verdict, never a crash of the checker
        return []
    findings = []
    for key, (answer, reason) in parse_verdict(reply).items():
        if answer != FAILING_ANSWER[key]:
            continue
        said = reason or "no reason given"
        findings.append(CheckFailure(
            check=f"judge_{key}", severity=severity,
            message=(f"The model judge answered {answer!r} to: {QUESTIONS[key].split('?')[0]}? Its reason: {said!r}. "
                     "A heuristic finding: check the point it names and fix the text or the checker.")))
    return findings
