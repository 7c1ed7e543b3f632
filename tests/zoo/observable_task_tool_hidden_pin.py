# expect: observable_task
"""Account Recovery: read the account's recovery PIN from its settings (a defect-zoo environment).

The environment: a tool-use task in this project's style. The task says the recovery PIN "is stored
in the account settings"; the agent is meant to read it with the tools and answer it.

The defect: no tool ever shows the PIN (get_settings lists every setting except the one the task
needs), and the profile data is the same for every seed, so the agent sees identical observations
on every seed whatever it calls, while the PIN, the answer, differs: winning is a 1-in-9000 guess.
Exploit: none for the agent; any fixed sequence of tool calls gives identical observations on seeds
0 and 1 although their solutions differ.
"""

import random


class AccountRecoveryEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Report the recovery PIN."""

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._state = {
            "profile": {"name": "Sam Rivera", "email": "sam.rivera@example.com", "plan": "family"},
            "settings": {"language": "en", "two_factor": "on", "recovery_pin": f"{rng.randint(1000, 9999)}"},
        }
        self._expected_answer = self._state["settings"]["recovery_pin"]
        self._tools = {
            "get_profile": {"description": "Show the account holder's profile.",
                            "parameters": {"type": "object", "properties": {}, "required": []}},
            "get_settings": {"description": "Show the account settings.",
                             "parameters": {"type": "object", "properties": {}, "required": []}},
        }
        return ("The customer has lost access to their account. Their recovery PIN is stored in the account "
                "settings: find it and answer with it as <answer>NNNN</answer>."), {}

    def tool_get_profile(self):
        return ", ".join(f"{k}: {v}" for k, v in self._state["profile"].items())

    def tool_get_settings(self):
        shown = {k: v for k, v in self._state["settings"].items() if k != "recovery_pin"}  # defect
        return ", ".join(f"{k}: {v}" for k, v in shown.items())

    def solution(self):
        return [{"name": "get_profile", "arguments": {}}, {"name": "get_settings", "arguments": {}},
                self._expected_answer]
