"""A pool as a verifiers environment: multi-turn, rewards from the environment, code in our sandbox.

verifiers (Prime Intellect; ``verifiers`` on PyPI) loads an environment by importing a module and calling
its ``load_environment(**args)``; ``vf.load_environment("spade-pool-env", pool=DIR)`` does that with the
hub-style package in ``environments/spade_pool_env`` of this repository, and
``vf.load_environment("spade_envs.interop.verifiers_env", pool=DIR)`` without installing anything.

Each dataset row is one episode: an environment of the pool and a seed (``seeds_per_env`` per
environment), its prompt the SPADE system message for its kind and the environment's first observation
(with the accepted hint when ``hinted``). A rollout opens its own sandbox session in ``setup_state``; every
assistant reply goes to the environment whole: the text, with native tool calls (``message.tool_calls``)
written as ``<tool_call>`` tags, which is how SPADE environments read tool calls. The environment's
observation comes back as the next user message (a tool message per call for native tool calls). The
episode ends when the environment ends it; the reward is the SPADE return (the last reward, clipped to
[-1, 1], if the episode terminated), and ``won`` and ``env_reward_sum`` are reported beside it.

Blocking sandbox calls run on worker threads (``asyncio.to_thread``), never on verifiers' event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import verifiers as vf
from datasets import Dataset

from spade_envs.contract.actions import format_tool_call
from spade_envs.contract.episode import TEXT_AGENT_PROMPT, TOOL_AGENT_PROMPT, is_win
from spade_envs.interop.pool_env import PoolEnvironment, SandboxedPoolEnv, load_pool, sandbox_backend
from spade_envs.pool import PoolError
from spade_envs.runtime.backend import DEFAULT_BACKEND, ExecutionBackend

STATE_KEY = "spade_env"
"""Where a rollout's ``SandboxedPoolEnv`` lives in verifiers' state (removed by the cleanup handler)."""
MAX_TOOL_ARGUMENT_CHARS = 16_000


def reply_as_action(message: Any) -> str:
    """An assistant message as the action SPADE environments read: its text, then its tool calls as tags.

    The message is the model's, so anything unexpected in it (arguments that are not JSON, content parts)
    is carried as text rather than raised.
    """
    content = getattr(message, "content", None) if not isinstance(message, dict) else message.get("content")
    if isinstance(content, list):
        content = "".join(part.get("text", "") if isinstance(part, dict) else str(getattr(part, "text", ""))
                          for part in content)
    text = content if isinstance(content, str) else ""
    calls = getattr(message, "tool_calls", None) if not isinstance(message, dict) else message.get("tool_calls")
    for call in calls or []:
        name = getattr(call, "name", None) if not isinstance(call, dict) else call.get("name")
        raw = getattr(call, "arguments", "") if not isinstance(call, dict) else call.get("arguments", "")
        raw = raw if isinstance(raw, str) else json.dumps(raw)
        try:
            arguments = json.loads(raw[:MAX_TOOL_ARGUMENT_CHARS]) if raw.strip() else {}
        except ValueError:
            arguments = raw[:MAX_TOOL_ARGUMENT_CHARS]
        text += format_tool_call(str(name), arguments)
    return text


def concat(*parts: vf.Messages) -> vf.Messages:
    """Message lists one after another (a reply after the prompt it answered)."""
    return [message for part in parts for message in (part if isinstance(part, list) else [part])]


def _tool_defs(tools: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """OpenAI-style tool schemas (``{"type": "function", "function": {...}}``) in verifiers' own form."""
    found = []
    for tool in tools or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            found.append({"name": function["name"], "description": str(function.get("description", "")),
                          "parameters": function.get("parameters") if isinstance(function.get("parameters"), dict)
                          else {"type": "object", "properties": {}}})
    return found


def episode_rows(environments: Sequence[PoolEnvironment], backend: ExecutionBackend, *, seeds_per_env: int,
                 first_seed: int, hinted: bool, native_tools: bool,
                 skipped: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """One dataset row per (environment, seed); the first observation is read in the sandbox.

    An environment that fails to start on one of the seeds (or whose tools or solution cannot be read there)
    gets no rows; its id and the one-line reason go into ``skipped``.
    """
    rows = []
    for environment in environments:
        tool_use = environment.spec.kind == "tool_use"
        found = []
        with SandboxedPoolEnv([environment], backend) as env:
            for seed in range(first_seed, first_seed + seeds_per_env):
                observation, _ = env.reset(seed, hinted=hinted)
                tools = _tool_defs(env.tools()) if tool_use and native_tools else []
                answer = env.reference_answer()  # single-answer environments; "" for games and tools
                if env.error is not None:  # reset(), tools() or solution() failed in the sandbox: no rows, and why
                    if skipped is not None:
                        skipped[environment.id] = f"seed {seed}: {env.error}"
                    found = []
                    break
                found.append({
                    "prompt": [{"role": "system", "content": TOOL_AGENT_PROMPT if tool_use else TEXT_AGENT_PROMPT},
                               {"role": "user", "content": observation}],
                    "answer": answer,
                    # JSON text: Arrow cannot unify tool schemas of different shapes across rows.
                    "info": json.dumps({"spade_env_id": environment.id, "skill": environment.spec.skill, "seed": seed,
                                        "hinted": hinted,
                                        **({"tool_defs": tools} if tools else {})}),
                })
        rows += found
    return rows


async def spade_return(state: vf.State) -> float:
    """The SPADE return of the episode: the last reward, clipped to [-1, 1], if it terminated; else 0."""
    return float(state.get("spade_return", 0.0))


async def won(state: vf.State) -> float:
    return 1.0 if is_win(state.get("spade_rewards", []), bool(state.get("spade_terminated"))) else 0.0


async def env_reward_sum(state: vf.State) -> float:
    return float(sum(state.get("spade_rewards", [])))


class SpadePoolEnv(vf.MultiTurnEnv):
    """A SPADE pool as a verifiers multi-turn environment (see the module docstring)."""

    def __init__(self, environments: Sequence[PoolEnvironment], backend: ExecutionBackend, *,
                 seeds_per_env: int = 4, first_seed: int = 0, hinted: bool = False, native_tools: bool = True,
                 **kwargs: Any) -> None:
        if seeds_per_env < 1:
            raise ValueError("seeds_per_env must be at least 1")
        self.environments = list(environments)
        self.backend = backend
        self.skipped: dict[str, str] = {}
        """Environments left out because they failed to start: id -> why (one line)."""
        rows = episode_rows(self.environments, backend, seeds_per_env=seeds_per_env, first_seed=first_seed,
                            hinted=hinted, native_tools=native_tools, skipped=self.skipped)
        if not rows:
            raise PoolError(f"no environment of the pool could start: {next(iter(self.skipped.values()), '')}")
        rubric = vf.Rubric(funcs=[spade_return], weights=[1.0])
        rubric.add_metric(won)
        rubric.add_metric(env_reward_sum)
        max_turns = max(environment.spec.max_turns for environment in self.environments)
        super().__init__(eval_dataset=Dataset.from_list(rows), rubric=rubric, max_turns=max_turns, **kwargs)

    async def setup_state(self, state: vf.State) -> vf.State:
        info = state["info"] if isinstance(state["info"], dict) else json.loads(state["info"])
        env = SandboxedPoolEnv(self.environments, self.backend)
        state[STATE_KEY] = env
        state["spade_rewards"], state["spade_return"], state["spade_terminated"] = [], 0.0, False
        await asyncio.to_thread(env.reset, int(info["seed"]), info["spade_env_id"], bool(info.get("hinted")))
        return state

    @vf.stop
    async def max_turns_reached(self, state: vf.State) -> bool:
        """verifiers stops at ``max_turns`` replies without sending the last one to the environment (it steps
        the environment only to build the next prompt): the environment plays that reply here first, so an
        episode won on its last allowed move is won (issue 35)."""
        if self.max_turns <= 0 or len(state["trajectory"]) < self.max_turns:
            return False
        env = state.get(STATE_KEY)
        if env is not None and not env.done and state.get("spade_steps", 0) < len(state["trajectory"]):
            last = state["trajectory"][-1]
            await self.env_response(concat(last["prompt"], last["completion"]), state)
        return True

    async def env_response(self, messages: vf.Messages, state: vf.State, **kwargs: Any) -> vf.Messages:
        env: SandboxedPoolEnv = state[STATE_KEY]
        reply = messages[-1]
        state["spade_steps"] = state.get("spade_steps", 0) + 1
        transition = await asyncio.to_thread(env.step, reply_as_action(reply))
        state["trajectory"][-1]["reward"] = transition.reward
        state["spade_rewards"] = list(env.rewards)
        state["spade_return"] = env.episode_return
        state["spade_terminated"] = env.terminated
        calls = getattr(reply, "tool_calls", None) or []
        if calls:
            response: vf.Messages = [vf.ToolMessage(tool_call_id=call.id, content=transition.observation if i == 0
                                                    else "(the results of every call are in the first reply)")
                                     for i, call in enumerate(calls)]
        else:
            response = [vf.UserMessage(content=transition.observation)]
        if env.done:
            state["final_env_response"] = response
        return response

    @vf.cleanup
    async def close_sandbox(self, state: vf.State) -> None:
        env = state.pop(STATE_KEY, None)
        if env is not None:
            await asyncio.to_thread(env.close)


def load_environment(pool: str = "bundled", sandbox: str = DEFAULT_BACKEND, seeds_per_env: int = 4,
                     first_seed: int = 0, hinted: bool = False, kinds: Sequence[str] | None = None,
                     native_tools: bool = True, call_timeout_s: float = 10.0, allow_unvalidated: bool = False,
                     **kwargs: Any) -> SpadePoolEnv:
    """verifiers' entry point: the pool at ``pool`` (a directory, ``DIR#ID`` or ``bundled``) as a
    ``SpadePoolEnv`` running in the ``sandbox`` backend; ``kinds`` keeps only environments of those kinds.
    A pool with unvalidated environments is refused unless ``allow_unvalidated``."""
    environments = [e for e in load_pool(pool, allow_unvalidated=allow_unvalidated)
                    if kinds is None or e.spec.kind in kinds]
    if not environments:
        raise PoolError(f"{pool} holds no environments of the kinds {', '.join(kinds or [])}")
    return SpadePoolEnv(environments, sandbox_backend(sandbox, call_timeout_s), seeds_per_env=seeds_per_env,
                        first_seed=first_seed, hinted=hinted, native_tools=native_tools, **kwargs)
