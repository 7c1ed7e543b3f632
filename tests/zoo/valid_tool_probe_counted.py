# expect: valid
"""Leaky Pipe: find which of eight pipe sections leaks with a pressure probe (skill: Search), tool use.

Looks suspicious: each probe call changes the environment's state (it counts the probes used, and three
are allowed), yet the final answer is accepted without any probe: the answer is a section number from 1
to 8, which the task itself shows, so a checker that asks "does the answer win without the state-changing
calls, although it can be read from the task?" says yes.

Why it is correct: the probes are how the answer is found, not a change the task asks for; counting them
is bookkeeping. Answering without probing wins one time in eight, what a blind guess among the shown
sections is worth.
"""

import random

_SECTIONS = {"type": "array", "items": {"type": "integer"}}


class LeakyPipeEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Binary search over eight sections with at most three probes."""

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._state = {"leak": rng.randint(1, 8), "probes_used": 0}
        self._expected_answer = str(self._state["leak"])
        self._tools = {
            "probe": {
                "description": "Measure the pressure over some pipe sections (numbered 1 to 8): it drops if the "
                               "leak is among them. Three probes are allowed.",
                "parameters": {"type": "object", "properties": {"sections": _SECTIONS}, "required": ["sections"]},
            },
        }
        return ("A pipe of eight sections, numbered 1 to 8, leaks in exactly one. Use the pressure probe (three "
                "probes at most), then answer with the leaking section's number, e.g. <answer>3</answer>."), {}

    def tool_probe(self, sections=None):
        if self._state["probes_used"] >= 3:
            return "The probe's battery is empty: three probes were used."
        if not isinstance(sections, list) or not sections or not all(
                isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 8 for s in sections):
            return "Error: give a non-empty list of section numbers from 1 to 8."
        self._state["probes_used"] += 1
        dropped = self._state["leak"] in sections
        return f"Probe {self._state['probes_used']} of 3: pressure {'drops' if dropped else 'holds'}."

    def solution(self):
        low, high, calls = 1, 8, []
        while low < high:
            middle = (low + high) // 2
            calls.append({"name": "probe", "arguments": {"sections": list(range(low, middle + 1))}})
            if self._state["leak"] <= middle:
                high = middle
            else:
                low = middle + 1
        return calls + [str(low)]
