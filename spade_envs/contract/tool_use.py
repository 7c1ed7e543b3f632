"""``ToolUseBaseEnv``: the base class for tool-use environments, compatible with the SPADE release.

A tool-use environment subclasses ``ToolUseBaseEnv`` and only describes its world:

* ``reset(seed)`` fills ``self._tools`` (``{name: {"description": str, "parameters": JSON schema}}``),
  ``self._state`` and ``self._expected_answer`` and returns ``(task_text, info)``;
* each tool is a method ``tool_<name>(**arguments) -> str``;
* ``solution()`` returns the reference tool calls (dicts ``{"name", "arguments"}``) and final answer,
  or, as in the SPADE release, ONE string of ``<tool_call>...</tool_call>`` blocks followed by
  ``<answer>...</answer>`` (see ``contract.actions.tool_use_script``).

The base class owns the protocol: it parses ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``
and ``<answer>...</answer>``, answers each call with ``Tool result:`` and the tool's text (the release's
wording), penalises malformed turns with ``FORMAT_PENALTY``, counts turns and exposes the tools as OpenAI
function schemas (``get_tools()``). A wrong final answer ends the episode with reward 0 (the release lets
the agent answer again, which turns a small answer space into free enumeration).

Multi-instruction variant: set ``self._user_messages`` in ``reset`` to a list of instructions, each a
dict ``{"message": str, "check": callable(state) -> bool}`` (or a ``(message, check)`` pair). They are
revealed one at a time; the next appears once the current check holds on ``self._state``, and
``<answer>done</answer>`` wins only after all of them hold.

The release's own multi-instruction style is supported too: ``_user_messages`` as plain strings with
``_message_criteria``, ``_current_msg`` and an ``_advance_if_done()`` the subclass calls in its tools and
an overridden ``_check_answer``. The subclass then runs the instructions itself and the base class only
judges the final answer.

Release compatibility, besides: ``_check_answer(answer)`` is the overridable comparison (``check_answer``
calls it), ``turn_count`` and ``_call_history`` are kept up to date, ``execute_tool`` and ``_obs_suffix``
exist, and a tool described without ``parameters`` takes none.

Environments written for the SPADE release subclass this without importing it: the loader places the
name in their module namespace. This module is standard-library only because the sandbox guest embeds it.
"""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Any

_TOOL_CALL = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)
_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)

FORMAT_HELP = (
    'Use <tool_call>{"name": "<tool>", "arguments": {...}}</tool_call> to call a tool, '
    "or <answer>...</answer> to give your final answer."
)


def normalize_answer(value: Any) -> str:
    """Lower-case, trim, collapse whitespace and drop a trailing full stop, so that 'Paris.' == 'paris'."""
    text = " ".join(str(value).strip().split()).lower()
    return text.removesuffix(".")


def answers_match(given: Any, expected: Any) -> bool:
    """Compare two answers as numbers when both parse as numbers, else as normalised text."""
    left, right = normalize_answer(given), normalize_answer(expected)
    try:
        a, b = float(left.replace(",", "")), float(right.replace(",", ""))
    except ValueError:
        return left == right
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


class ToolUseBaseEnv:
    """Protocol handling shared by every tool-use environment; subclasses describe tools and state."""

    FORMAT_PENALTY = -0.1
    reward_range = (-0.1, 1.0)

    MAX_CALLS_PER_ACTION = 16
    """More tool calls than this in one action are a format error: one turn must not enumerate."""

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max_turns
        self.kwargs = kwargs
        self.turn_count = 0
        self._tools: dict[str, dict[str, Any]] = {}
        self._state: dict[str, Any] = {}
        self._call_history: list[dict[str, Any]] = []
        self._expected_answer: Any = None
        self._user_messages: list[Any] = []
        self.reset()

    # ------------------------------------------------------------------ episode bookkeeping
    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wrap every subclass ``reset`` so the base bookkeeping runs even if it never calls super().

        Designer-written subclasses routinely forget ``super().reset()``; without this the turn
        counter and the instruction index would leak from one episode into the next.
        """
        super().__init_subclass__(**kwargs)
        own_reset = cls.__dict__.get("reset")
        if own_reset is None or getattr(own_reset, "_spade_wrapped", False):
            return

        @functools.wraps(own_reset)
        def reset(self: ToolUseBaseEnv, seed: int | None = None, *args: Any, **kw: Any) -> Any:
            outermost = getattr(self, "_reset_depth", 0) == 0
            self._reset_depth = getattr(self, "_reset_depth", 0) + 1
            try:
                if outermost:
                    self._begin_episode()
                result = own_reset(self, seed, *args, **kw)
            finally:
                self._reset_depth -= 1
            return self._reveal_first_instruction(result) if outermost else result

        reset._spade_wrapped = True  # type: ignore[attr-defined]
        cls.reset = reset  # type: ignore[method-assign]

    def _begin_episode(self) -> None:
        self._turn = 0
        self.turn_count = 0
        self._episode_over = False
        self._instruction_index = 0
        self._user_messages = []
        self._call_history = []

    def _our_instructions(self) -> bool:
        """True when the base class runs the instructions (our dict/pair style), False when there are none
        or the subclass runs them itself (the release's string style with ``_message_criteria``)."""
        messages = getattr(self, "_user_messages", None)
        if not isinstance(messages, list) or not messages or hasattr(self, "_message_criteria"):
            return False
        return not all(isinstance(item, str) for item in messages)

    def _reveal_first_instruction(self, result: Any) -> Any:
        if not self._our_instructions() or not isinstance(result, tuple) or len(result) != 2:
            return result
        observation, info = result
        first = self._instruction_text(0)
        observation = f"{observation}\n\nUser: {first}" if observation else f"User: {first}"
        if isinstance(info, dict):
            info = {**info, "instruction_index": 0, "instructions_total": len(self._user_messages)}
        return observation, info

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        raise NotImplementedError(
            "A ToolUseBaseEnv subclass must define reset(self, seed=None) that sets self._tools, "
            "self._state and self._expected_answer and returns (task_text, info)."
        )

    # ------------------------------------------------------------------ tools
    def get_tools(self) -> list[dict[str, Any]]:
        """The environment's tools as OpenAI function-calling schemas."""
        return [
            {
                "type": "function",
                "function": {
                    "name": name,
                    "description": str(spec.get("description", "")),
                    # A tool described without parameters takes none (as in the release).
                    "parameters": spec.get("parameters", {"type": "object", "properties": {}})
                    if isinstance(spec, dict) else None,
                },
            }
            for name, spec in self._tools.items()
        ]

    def check_answer(self, answer: str) -> bool:
        """Whether a final answer is correct. Override this or (release name) ``_check_answer``."""
        return bool(self._check_answer(answer))

    def _check_answer(self, answer: str) -> bool:
        """Text or number match against ``self._expected_answer``; the release's overridable comparison."""
        return self._expected_answer is not None and answers_match(answer, self._expected_answer)

    def execute_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Run one tool by name, as the release's orchestrator does: ``{"output": str, "returncode": int}``."""
        if name not in self._tools or not callable(getattr(self, "tool_" + str(name), None)):
            return {"output": f"Unknown tool '{name}'", "returncode": 1}
        output = self._call_tool(name, arguments if isinstance(arguments, dict) else {})
        return {"output": output, "returncode": 1 if output.startswith("Error") else 0}

    def _obs_suffix(self) -> str:
        """Kept for release-style subclasses that still append it to their observations: tools travel
        as schemas (``get_tools()``), so there is nothing to append."""
        return ""

    def close(self) -> None:
        """Nothing to release by default."""

    # ------------------------------------------------------------------ the step protocol
    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if getattr(self, "_episode_over", False):
            return "The episode is over. Call reset() to start a new one.", 0.0, True, False, {}
        self._turn = getattr(self, "_turn", 0) + 1
        self.turn_count = self._turn
        action = action if isinstance(action, str) else str(action)
        calls = _TOOL_CALL.findall(action)
        answer = _ANSWER.search(action)
        if calls:
            observation, reward, terminated, info = self._run_tool_calls(calls)
        elif answer is not None:
            observation, reward, terminated, info = self._judge_answer(answer.group(1).strip())
        else:
            observation = f"Format error: no tool call or answer found. {FORMAT_HELP}"
            reward, terminated, info = self.FORMAT_PENALTY, False, {"format_error": True}
        truncated = not terminated and self._turn >= getattr(self, "max_turns", 10)
        self._episode_over = terminated or truncated
        if truncated and self._expected_answer is not None and not self._our_instructions():
            observation += f"\n\nOut of turns. The expected answer was: {self._expected_answer}"
        info = {"turn": self._turn, **info}
        return observation, float(reward), terminated, truncated, info

    def _run_tool_calls(self, raw_calls: list[str]) -> tuple[str, float, bool, dict[str, Any]]:
        responses: list[str] = []
        format_error = False
        if len(raw_calls) > self.MAX_CALLS_PER_ACTION:
            message = (f"Format error: {len(raw_calls)} tool calls in one turn; make at most "
                       f"{self.MAX_CALLS_PER_ACTION}.")
            return message, self.FORMAT_PENALTY, False, {"tool_calls": len(raw_calls), "format_error": True}
        for raw in raw_calls:
            parsed = self._parse_tool_call(raw)
            if isinstance(parsed, str):
                responses.append(parsed)
                format_error = True
                continue
            name, arguments = parsed
            responses.append(self._call_tool(name, arguments))
        observation = "\n\n".join(text if text.startswith("Format error") else f"Tool result:\n{text}"
                                  for text in responses)
        info: dict[str, Any] = {"tool_calls": len(raw_calls), "format_error": format_error}
        if self._our_instructions():
            observation += self._advance_instructions()
            info["instruction_index"] = self._instruction_index
        return observation, (self.FORMAT_PENALTY if format_error else 0.0), False, info

    def _parse_tool_call(self, raw: str) -> tuple[str, dict[str, Any]] | str:
        """Return (name, arguments), or an error message meant for the agent."""
        try:
            call = json.loads(raw.strip())
        except (ValueError, RecursionError):
            return f"Format error: the tool call is not valid JSON. {FORMAT_HELP}"
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            return f'Format error: a tool call needs a "name" string. {FORMAT_HELP}'
        arguments = call.get("arguments", {})
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except (ValueError, RecursionError):
                return 'Format error: "arguments" must be a JSON object.'
        if not isinstance(arguments, dict):
            return 'Format error: "arguments" must be a JSON object.'
        name = call["name"]
        if name not in self._tools or not callable(getattr(self, "tool_" + name, None)):
            available = ", ".join(sorted(self._tools)) or "none"
            return f"Format error: unknown tool '{name}'. Available tools: {available}."
        return name, arguments

    def _call_tool(self, name: str, arguments: dict[str, Any]) -> str:
        try:
            result = getattr(self, "tool_" + name)(**arguments)
        except TypeError as error:
            return f"Error: bad arguments for {name}: {error}"
        except Exception as error:  # noqa: BLE001 -- a tool rejecting bad input is part of the game (error recovery)
            return f"Error: {type(error).__name__}: {error}"
        if not isinstance(result, str):
            try:
                result = json.dumps(result)
            except (TypeError, ValueError):
                result = str(result)
        if len(self._call_history) < 1000:
            self._call_history.append({"name": name, "arguments": arguments, "result": result})
        return result

    # ------------------------------------------------------------------ answers and instructions
    def _judge_answer(self, answer: str) -> tuple[str, float, bool, dict[str, Any]]:
        if self._our_instructions():
            if self._instruction_index < len(self._user_messages):
                pending = self._instruction_index + 1
                return (
                    f"Not finished: instruction {pending} of {len(self._user_messages)} is not done yet.",
                    0.0,
                    False,
                    {"instruction_index": self._instruction_index},
                )
            return "All instructions completed.", 1.0, True, {"correct": True}
        if self.check_answer(answer):
            return "Correct.", 1.0, True, {"correct": True}
        return "Incorrect.", 0.0, True, {"correct": False}

    def _instruction_text(self, index: int) -> str:
        item = self._user_messages[index]
        if isinstance(item, dict):
            return str(item.get("message", item.get("content", "")))
        if isinstance(item, (tuple, list)) and item:
            return str(item[0])
        return str(item)

    def _instruction_met(self, index: int) -> bool:
        item = self._user_messages[index]
        if isinstance(item, dict):
            check = item.get("check", item.get("predicate"))
        elif isinstance(item, (tuple, list)) and len(item) > 1:
            check = item[1]
        else:
            check = None
        return bool(check(self._state)) if callable(check) else False

    def _advance_instructions(self) -> str:
        """Reveal the next instruction(s) whose predecessors now hold; returns text for the observation."""
        revealed = ""
        while self._instruction_index < len(self._user_messages) and self._instruction_met(
            self._instruction_index
        ):
            self._instruction_index += 1
            if self._instruction_index < len(self._user_messages):
                revealed += f"\n\nUser: {self._instruction_text(self._instruction_index)}"
            else:
                revealed += "\n\nUser: That is everything. Reply <answer>done</answer> when finished."
        return revealed
