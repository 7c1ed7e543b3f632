"""A verifiers environment as a SPADE environment, so the gate can audit it: ``spade-envs validate
verifiers:ENV --sandbox process``.

verifiers (Prime Intellect) environments are what most people train on today: a module whose
``load_environment(**args)`` returns a ``vf.Environment`` (single-turn, multi-turn or with tools) holding a
dataset and a rubric. ``ENV`` is either a folder (or one ``.py`` file) holding ``load_environment``, as on
the Environments Hub, or the id of an installed environment module (``vf.load_environment(ENV)``).

The generated environment file plays one dataset row per seed through the environment's *own* rollout:
its ``get_model_response`` is replaced on the instance by one that answers with the agent's moves, so
the prompts, ``env_response`` and stop conditions are verifiers' own and nothing is re-implemented. A
step replays the episode from the start with the moves made so far (verifiers' rollout is one coroutine;
replaying keeps the contract's ``step`` synchronous, at a cost that grows with the episode's length) and
stops where the environment asks for the next move: what it said since the agent's last move is the
observation. When the rollout ends, the rubric scores it (``rubric.score_rollout``) and the episode ends
with that reward, divided by the rubric's largest possible sum of weights when it exceeds 1. The row's
``answer`` is the solution, sent in a box, or in answer tags where only those are paid in full.

For a folder, its module's code is placed first in the generated file (findings keep its line numbers)
and runs in the process sandbox with the rest; an installed module is imported there. Nothing of it runs
on the host, which only reads the folder's files as text.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from spade_envs.interop.third_party import LibraryTarget
from spade_envs.syntax import parse

PREFIX = "verifiers:"
CLASS_NAME = "VerifiersEnv"
ROWS = 64
"""Dataset rows the adapter reads: one per seed, seeds beyond it wrap around."""
LIBRARIES = ("verifiers", "datasets", "asyncio")
"""What every verifiers environment and the adapter import (the environment's own extra imports need
``--allow-import``)."""
MEMORY_MB = 1024
"""Importing verifiers maps about 1.5 GB; in a session forked from the process backend's template it is
already mapped, and this is the session's own allowance on top."""
UNCHECKED = (
    ("each step replays the episode from its start with the moves so far (verifiers' rollout is one "
     "coroutine): an environment whose replies depend on more than its row and the moves is judged on the "
     "replay"),
    "native tool calls are not sent: an agent's <tool_call> tags reach the environment as text",
    f"only the first {ROWS} rows of the environment's dataset are played (its eval dataset where it has one)",
    ("the right answer written without the box the prompt asks for is not played as a wrong answer: a grader "
     "written for verifiers may take answers in any wrapping"),
)


class VerifiersInputError(ValueError):
    """A verifiers target that cannot be adapted (one line: what, and how to fix it)."""


def verifiers_target(target: str, env_args: dict | None = None) -> LibraryTarget:
    """The adapter for ``verifiers:FOLDER``, ``verifiers:FILE.py`` or ``verifiers:MODULE_ID``."""
    name = target[len(PREFIX):]
    if not name:
        raise VerifiersInputError(f"{target!r} names no environment; write verifiers:FOLDER (holding "
                                  "load_environment) or verifiers:ENV_ID (an installed environment)")
    arguments = json.dumps(env_args or {})
    path = Path(name)
    if path.exists():
        module = _module_file(path)
        code = _read(module)
        source = code.rstrip("\n") + "\n\n\n" + _ADAPTER.format(
            load="load_environment(**_SPADE_ARGS)", args=repr(arguments), rows=ROWS, class_name=CLASS_NAME)
    else:
        if not all(part.isidentifier() for part in name.replace("-", "_").split(".")):
            raise VerifiersInputError(f"{target!r}: no such folder, and {name!r} is not an environment id; write "
                                      "verifiers:FOLDER or verifiers:ENV_ID (e.g. verifiers:vf-gsm8k)")
        source = _ADAPTER.format(load=f"_spade_vf.load_environment({name!r}, **_SPADE_ARGS)",
                                 args=repr(arguments), rows=ROWS, class_name=CLASS_NAME)
    return LibraryTarget(target, source, CLASS_NAME, LIBRARIES, MEMORY_MB, True, False, UNCHECKED)


def _module_file(path: Path) -> Path:
    """The file that defines ``load_environment``: the file named, or the one such module in the folder."""
    if path.is_file():
        if path.suffix != ".py":
            raise VerifiersInputError(f"verifiers:{path} is not a Python file; name the folder or the .py file "
                                      "that defines load_environment")
        return path
    found = sorted(file for file in path.glob("*.py")
                   if not file.name.startswith(("_", "test")) and _defines_loader(_read(file)))
    if len(found) != 1:
        what = "no module" if not found else f"{len(found)} modules ({', '.join(f.name for f in found)})"
        raise VerifiersInputError(f"verifiers:{path}: {what} in the folder define load_environment at the top "
                                  "level; name the .py file that does (verifiers:FOLDER/NAME.py)")
    return found[0]


def _defines_loader(code: str) -> bool:
    try:
        tree = parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "load_environment"
               for node in tree.body)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, ValueError) as error:
        raise VerifiersInputError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None


_ADAPTER = '''# ---- generated by spade-envs (spade_envs/interop/verifiers_input.py): the verifiers environment as a
# SPADE environment. Each step replays the rollout with the agent's moves so far.
import asyncio as _spade_asyncio
import json as _spade_json

import verifiers.legacy as _spade_vf  # the classic stack, which `import verifiers as vf` reaches lazily

_SPADE_ARGS = _spade_json.loads({args})
_SPADE_ROWS = {rows}
_SPADE_FORMS = ("\\\\boxed{{{{{{}}}}}}", "<answer>{{}}</answer>")


class _SpadeWaiting(Exception):
    """The rollout asked for a move the agent has not made yet: the episode waits for it here."""

    def __init__(self, messages):
        super().__init__("waiting for the agent's move")
        self.messages = messages


class _SpadeClient(_spade_vf.Client):
    """Never asked for anything: the environment's get_model_response is replaced by the agent's moves."""

    def setup_client(self, config):
        return None

    async def to_native_tool(self, tool):
        return tool

    async def to_native_prompt(self, messages):
        return messages, {{}}

    async def get_native_response(self, *args, **kwargs):
        raise RuntimeError("the SPADE adapter answers with the agent's moves")

    async def raise_from_native_response(self, response):
        return None

    async def from_native_response(self, response):
        return response

    async def close(self):
        return None


def _spade_text(messages):
    """Messages as the agent reads them: each one's text, in order."""
    parts = []
    for message in messages or []:
        content = message.get("content") if isinstance(message, dict) else getattr(message, "content", None)
        if isinstance(content, list):
            content = "".join(str(p.get("text", "")) if isinstance(p, dict) else str(getattr(p, "text", ""))
                              for p in content)
        if content:
            parts.append(str(content))
    return "\\n\\n".join(parts)


def _spade_role(message):
    return message.get("role") if isinstance(message, dict) else getattr(message, "role", None)


class {class_name}:
    """One dataset row per seed, played through the environment's own rollout and scored by its rubric."""

    def __init__(self, max_turns=None, **kwargs):
        self._env = {load}
        try:  # the eval dataset where the environment has one
            dataset = self._env.get_eval_dataset(n=_SPADE_ROWS)
        except ValueError:
            dataset = None
        if dataset is None:
            dataset = self._env.get_dataset(n=_SPADE_ROWS)
        self._rows = [dict(row) for row in dataset][:_SPADE_ROWS]
        own = getattr(self._env, "max_turns", None)
        own = own if type(own) is int and own > 0 else 10
        self.max_turns = own if max_turns is None else max_turns
        weights = [w for w in self._env.rubric._get_reward_weights() if w > 0]
        self._scale = max(1.0, float(sum(weights)))
        self._env.get_model_response = self._respond
        self._client = _SpadeClient(None)
        self._row, self._moves, self._asked, self._done = self._rows[0], [], 0, False

    async def _respond(self, state, prompt, client=None, model=None, tool_defs=None, sampling_args=None):
        if self._asked >= len(self._moves):
            raise _SpadeWaiting(prompt)
        move = self._moves[self._asked]
        self._asked += 1
        message = _spade_vf.ResponseMessage(content=move, finish_reason="stop", is_truncated=False)
        return _spade_vf.Response(id=f"spade-{{self._asked}}", created=0, model="spade-agent", message=message)

    async def _rollout(self):
        state = await self._env.rollout(dict(self._row), self._client, "spade-agent", {{}})
        await self._env.rubric.score_rollout(state)
        return state

    def _play(self):
        """(messages the environment said since the agent's last move, None) or (None, the scored state)."""
        self._asked = 0
        try:
            return None, _spade_asyncio.run(self._rollout())
        except _SpadeWaiting as waiting:
            messages = list(waiting.messages)
            last = max((i for i, m in enumerate(messages) if _spade_role(m) == "assistant"), default=-1)
            return messages[last + 1:], None

    def reset(self, seed=None):
        self._row = self._rows[(seed or 0) % len(self._rows)]
        self._moves, self._done = [], False
        said, state = self._play()
        if state is not None:
            raise RuntimeError("the rollout ended before the agent's first move")
        return _spade_text(said), {{}}

    def step(self, action):
        if self._done:
            return "The episode is over; call reset().", 0.0, True, False, {{}}
        self._moves.append(action if isinstance(action, str) else str(action))
        said, state = self._play()
        if state is None:
            truncated = len(self._moves) >= self.max_turns
            self._done = truncated
            return _spade_text(said), 0.0, False, truncated, {{}}
        self._done = True
        reward = state.get("reward")
        reward = float(reward) / self._scale if isinstance(reward, (int, float)) else reward
        return _spade_text(state.get("final_env_response") or []) or "Scored.", reward, True, False, {{}}

    def solution(self):
        """The row's answer as an agent sends it: in a box, or in answer tags where only those are paid."""
        answer = self._row.get("answer")
        if not isinstance(answer, str) or not answer:
            return None
        moves, self._moves = self._moves, []
        try:
            for form in _SPADE_FORMS:
                self._moves = [form.format(answer)]
                _, state = self._play()
                if state is not None and isinstance(state.get("reward"), (int, float)) \\
                        and state["reward"] / self._scale >= 1.0 - 1e-9:
                    return form.format(answer)
            return _SPADE_FORMS[0].format(answer)
        finally:
            self._moves = moves

    def close(self):
        pass
'''
