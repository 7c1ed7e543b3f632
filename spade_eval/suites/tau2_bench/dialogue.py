"""One tau2 simulation with spade-eval's models in the two speaking roles.

tau2's ``LLMAgent`` and ``UserSimulator`` ask litellm for every reply. The two subclasses here keep
everything else of theirs (the agent's system prompt with the domain policy, the user simulator's
guidelines and scenario, their states, the user's role flipping, the stop tokens) and replace only that
call: the conversation so far is written as chat messages (``chat_messages``), sent through a
spade-eval ``Generate`` (the runner's cached policy call, so an interrupted run resumes without asking
again), and the reply is read back into a tau2 message (``read_reply``). The simulation itself is
tau2's ``Orchestrator`` and ``evaluate_simulation`` with tau2's defaults (200 steps, 10 tool errors,
evaluation type ``ALL``), composed as tau2's own ``run_task`` composes them.

Messages are written the way every tool-use suite of spade-eval writes them: tool schemas travel in
``GenerationRequest.tools``, a reply's calls are ``<tool_call>{"name": ..., "arguments": {...}}
</tool_call>`` blocks in its text (``spade_train.policies.openai_compat`` writes a server's parsed tool
calls back in that form), and tool results are ``{"role": "tool", ...}`` messages.

Where this differs from tau2 run through litellm: a reply whose ``<tool_call>`` block is not valid JSON
is passed on as text (a function-calling server's parser does the same) rather than failing the
simulation; an empty reply is not retried (litellm's path retries it three times) but ends the
simulation as tau2 ends it when the retries are spent, with the reply failing tau2's message check,
which scores 0; a ``<think>...</think>`` preamble is dropped before the reply is read.

tau2's dialogue is synchronous and runs in a worker thread; ``Relay`` lets it ask the event loop that
owns the policy for each generation.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from tau2.agent.llm_agent import LLMAgent, LLMAgentState
from tau2.config import DEFAULT_MAX_ERRORS, DEFAULT_MAX_STEPS
from tau2.data_model.message import (
    AssistantMessage,
    Message,
    MultiToolMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UserMessage,
)
from tau2.data_model.simulation import SimulationRun
from tau2.data_model.tasks import Task
from tau2.environment.tool import Tool
from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation
from tau2.orchestrator.orchestrator import Orchestrator
from tau2.registry import registry
from tau2.user.base import UserState, ValidUserInputMessage
from tau2.user.user_simulator import UserSimulator

from spade_envs.contract.actions import TOOL_CALL_PATTERN
from spade_eval.benchmark import Generate
from spade_eval.suites.tool_calls import CallSyntaxError, format_tagged_calls, parse_tagged_calls
from spade_eval.suites.tool_calls import ToolCall as ParsedCall
from spade_train.policies.base import Generation, GenerationRequest, SamplingParams
from spade_train.policies.base import Message as ChatMessage

TASK_SPLIT = "base"
"""The split tau2's own runs use when none is named (``RunConfig.task_split_name``)."""
_REASONING = re.compile(r"^.*?</think>", re.DOTALL)

Ask = Callable[[GenerationRequest], str]
"""What a speaking role calls for its next reply: the request in, the reply's text out."""


class GenerationFailed(RuntimeError):
    """A model call failed (endpoint error, timeout); the simulation stops and scores 0."""


class DialogueCancelled(RuntimeError):
    """The evaluation was interrupted while the dialogue waited for a generation."""


def load_tasks(domain: str) -> list[Task]:
    """The domain's tasks in tau2's order, from tau2's own task loader (its ``base`` split)."""
    return list(registry.get_tasks_loader(domain)(task_split_name=TASK_SPLIT))


# ---------------------------------------------------------------------- messages
def chat_messages(messages: list[Message]) -> list[ChatMessage]:
    """tau2 messages as chat messages: calls as ``<tool_call>`` blocks after the text, results as
    ``tool`` messages that name the call they answer."""
    chat: list[ChatMessage] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            chat.append({"role": "system", "content": message.content or ""})
        elif isinstance(message, ToolMessage):
            chat.append({"role": "tool", "content": message.content or "", "tool_call_id": message.id})
        elif isinstance(message, (AssistantMessage, UserMessage)):
            calls = [ParsedCall(call.name, dict(call.arguments)) for call in message.tool_calls or []]
            chat.append({"role": message.role, "content": (message.content or "") + format_tagged_calls(calls)})
        else:
            raise TypeError(f"no chat form for a tau2 {type(message).__name__}")
    return chat


def read_reply(text: str, requestor: str, ids: Iterator[int]) -> tuple[str | None, list[ToolCall] | None]:
    """(content, tool calls) of a reply, as tau2's messages hold them: the text outside ``<tool_call>``
    blocks (None when empty) and the calls (None when there are none), each with a fresh id."""
    said = _REASONING.sub("", text, count=1) if "</think>" in text else text
    try:
        parsed = parse_tagged_calls(said)
    except CallSyntaxError:
        parsed = []  # an unreadable block stays text, as a function-calling server's parser leaves it
    content = (TOOL_CALL_PATTERN.sub("", said) if parsed else said).strip() or None
    calls = [
        ToolCall(id=f"call_{next(ids)}", name=call.name, arguments=call.arguments, requestor=requestor)
        for call in parsed
    ]
    return content, calls or None


# ---------------------------------------------------------------------- the two speaking roles
class PolicyAgent(LLMAgent):
    """tau2's LLM agent (its system prompt and state) answering through a spade-eval model."""

    def __init__(self, tools: list[Tool], domain_policy: str, ask: Ask, sampling: SamplingParams) -> None:
        super().__init__(tools=tools, domain_policy=domain_policy, llm=None)
        self._ask = ask
        self._sampling = sampling
        self._schemas = [tool.openai_schema for tool in tools] or None
        self._ids = itertools.count(1)

    def set_seed(self, seed: int) -> None:
        self._sampling = replace(self._sampling, seed=seed)

    def generate_next_message(
        self, message: Any, state: LLMAgentState
    ) -> tuple[AssistantMessage, LLMAgentState]:
        # LLMAgent.generate_next_message, with its litellm call replaced
        if isinstance(message, MultiToolMessage):
            state.messages.extend(message.tool_messages)
        else:
            state.messages.append(message)
        text = self._ask(GenerationRequest(
            messages=chat_messages(state.system_messages + state.messages),
            sampling=self._sampling, tools=self._schemas, role="agent",
        ))
        content, calls = read_reply(text, "assistant", self._ids)
        reply = AssistantMessage(role="assistant", content=content, tool_calls=calls, raw_data={"text": text})
        state.messages.append(reply)
        return reply, state


class PolicyUser(UserSimulator):
    """tau2's user simulator (its guidelines, the task's scenario, role flipping) speaking through a
    spade-eval model."""

    def __init__(
        self, tools: list[Tool] | None, instructions: str, ask: Ask, sampling: SamplingParams
    ) -> None:
        super().__init__(tools=tools, instructions=instructions, llm=None)
        self._ask = ask
        self._sampling = sampling
        self._schemas = [tool.openai_schema for tool in tools] if tools else None
        self._ids = itertools.count(1)

    def set_seed(self, seed: int) -> None:
        self._sampling = replace(self._sampling, seed=seed)

    def _generate_next_message(
        self, message: ValidUserInputMessage, state: UserState
    ) -> tuple[UserMessage, UserState]:
        # UserSimulator._generate_next_message, with its litellm call replaced
        if isinstance(message, MultiToolMessage):
            state.messages.extend(message.tool_messages)
        else:
            state.messages.append(message)
        text = self._ask(GenerationRequest(
            messages=chat_messages(state.system_messages + state.flip_roles()),
            sampling=self._sampling, tools=self._schemas, role="user_simulator",
        ))
        content, calls = read_reply(text, "user", self._ids)
        reply = UserMessage(role="user", content=content, tool_calls=calls, raw_data={"text": text})
        state.messages.append(reply)
        return reply, state


# ---------------------------------------------------------------------- one simulation
def simulate(
    domain: str, task: Task, agent: Ask, user: Ask, sampling: SamplingParams, seed: int | None
) -> SimulationRun:
    """Run ``task`` to its end and score it, as ``tau2.run.run_task`` does for its LLM agent and user
    simulator; the returned run carries tau2's ``reward_info``."""
    environment = registry.get_env_constructor(domain)()
    try:
        user_tools = environment.get_user_tools()
    except ValueError:  # the domain gives the user no tools
        user_tools = None
    orchestrator = Orchestrator(
        domain=domain,
        agent=PolicyAgent(environment.get_tools(), environment.get_policy(), agent, sampling),
        user=PolicyUser(user_tools, str(task.user_scenario), user, sampling),
        environment=environment,
        task=task,
        max_steps=DEFAULT_MAX_STEPS,
        max_errors=DEFAULT_MAX_ERRORS,
        seed=seed,
    )
    simulation = orchestrator.run()
    simulation.reward_info = evaluate_simulation(
        simulation=simulation, task=task, evaluation_type=EvaluationType.ALL, solo_mode=False, domain=domain
    )
    return simulation


class Relay:
    """Generations for a dialogue running in a worker thread, asked of the event loop that owns the
    policy. ``cancel()`` (from the loop's side) makes a waiting dialogue stop with ``DialogueCancelled``."""

    POLL_S = 0.5

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    def asker(self, generate: Generate, who: str) -> Ask:
        def ask(request: GenerationRequest) -> str:
            generation = self._wait(asyncio.run_coroutine_threadsafe(generate(request), self._loop))
            if not generation.ok:
                raise GenerationFailed(f"{who}: {generation.error}")
            return generation.text

        return ask

    def _wait(self, future: concurrent.futures.Future[Generation]) -> Generation:
        while True:
            if self._cancelled.is_set():
                future.cancel()
                raise DialogueCancelled("the evaluation was interrupted")
            try:
                return future.result(timeout=self.POLL_S)
            except concurrent.futures.TimeoutError:
                continue
