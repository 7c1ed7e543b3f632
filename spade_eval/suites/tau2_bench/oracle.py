"""A scripted agent and user that play each task's expected actions: the harness checked without a model.

tau2's evaluator replays a task's expected actions on a fresh environment and compares the result with
the simulation's (database state, environment assertions), checks the actions themselves where the task
says so, and looks for the information the agent must communicate. A dialogue that performs exactly
those actions and says exactly that information must therefore score 1 on every task whose checks
are consistent, through whatever sits between the model and tau2: message rendering, reply reading,
tool routing, the evaluator call. ``OracleScript`` is such a dialogue, written as two ``ScriptedPolicy``
responders, so it runs through the same path as a model does (``benchmarks/tau2_oracle.py`` runs it over
whole domains; the tests run it on single tasks).

``begin(task)`` names the task of the next simulation (simulations of an oracle run one at a time:
several tasks share one user scenario, so neither side could tell them apart from what it is shown).
The two sides then take the task's actions in order, each its own (``requestor``), handing over with a
line of text whenever the next action is the other side's. When no action is left, the agent states the
information to communicate and the user ends the call with tau2's stop token. A task whose expected
end state is given only by assertions, with no actions, cannot be played this way.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from spade_train.policies.base import GenerationRequest
from spade_train.policies.scripted import ScriptedPolicy

STOP = "###STOP###"
"""tau2's token for a user who is done (``tau2.user.base.STOP``)."""
HANDOVER = "Please go ahead with the next step on your side."


class OracleScript:
    """The expected actions of one tau2 task at a time, played by a scripted agent (``agent``) and user
    (``user``)."""

    def __init__(self) -> None:
        self._task: Any | None = None
        self._position = 0
        self._lock = threading.Lock()
        self.agent = ScriptedPolicy(self._agent_reply, name="oracle-agent")
        self.user = ScriptedPolicy(self._user_reply, name="oracle-user")

    def begin(self, task: Any) -> None:
        """Play ``task`` (a tau2 ``Task``) in the next simulation, from its first action."""
        with self._lock:
            self._task, self._position = task, 0

    # ------------------------------------------------------------------ the two sides
    def _agent_reply(self, request: GenerationRequest) -> str:
        action = self._take("assistant")
        if action is not None:
            return _call(action)
        if self._next() is not None:
            return HANDOVER
        criteria = self._task.evaluation_criteria if self._task is not None else None
        said = " ".join(criteria.communicate_info or []) if criteria is not None else ""
        return f"Everything is done. {said}".strip()

    def _user_reply(self, request: GenerationRequest) -> str:
        if not any(message["role"] == "assistant" for message in request.messages[1:]):
            return "Hello, I need help with my request."
        action = self._take("user")
        if action is not None:
            return _call(action)
        if self._next() is not None:
            return "Done on my side. What next?"
        return STOP

    # ------------------------------------------------------------------ the shared cursor
    def _next(self) -> Any | None:
        criteria = self._task.evaluation_criteria if self._task is not None else None
        actions = list(criteria.actions or []) if criteria is not None else []
        return actions[self._position] if self._position < len(actions) else None

    def _take(self, side: str) -> Any | None:
        """The next action if it is ``side``'s (advancing the cursor), else None."""
        with self._lock:
            action = self._next()
            if action is None or str(getattr(action.requestor, "value", action.requestor)) != side:
                return None
            self._position += 1
            return action


def _call(action: Any) -> str:
    return "<tool_call>" + json.dumps({"name": action.name, "arguments": action.arguments}) + "</tool_call>"
