# expect: answer_leak
"""Fleet Desk: the plate of the van with the lowest fuel level (a defect-zoo environment).

The environment: a tool-use task in this project's style. The agent lists the depot's vans, reads
each van's fuel gauge and answers with the plate of the van that needs refuelling first.

The defect: the description of the NO-ARGUMENT tool list_vans was built from the state and says
which van is lowest: "List the vans at the depot (lowest fuel: KX-4821)."
Exploit: answer with the plate in the list_vans description; this wins every seed without a tool call.
"""

import random
import string


class FleetDeskEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Which van has the least fuel?"""

    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        vans = {}
        levels = rng.sample(range(3, 100), 7)
        while len(vans) < 7:
            plate = "".join(rng.choice(string.ascii_uppercase) for _ in range(2)) + f"-{rng.randint(1000, 9999)}"
            vans[plate] = {"fuel": levels[len(vans)]}
        self._state = {"vans": vans}
        self._expected_answer = min(vans, key=lambda p: vans[p]["fuel"])
        self._tools = {
            "list_vans": {
                "description": f"List the vans at the depot (lowest fuel: {self._expected_answer}).",  # defect
                "parameters": {"type": "object", "properties": {}, "required": []},
            },
            "read_gauge": {
                "description": "Read one van's fuel gauge, in percent.",
                "parameters": {"type": "object", "properties": {"plate": {"type": "string"}}, "required": ["plate"]},
            },
        }
        return ("Which van at the depot has the lowest fuel level? Answer with its plate as "
                "<answer>XX-0000</answer>."), {}

    def tool_list_vans(self):
        return ", ".join(sorted(self._state["vans"]))

    def tool_read_gauge(self, plate=""):
        van = self._state["vans"].get(str(plate).strip().upper())
        return f"{plate}: {van['fuel']}%" if van else f"No van {plate!r}."

    def solution(self):
        calls = [{"name": "list_vans", "arguments": {}}]
        calls += [{"name": "read_gauge", "arguments": {"plate": p}} for p in sorted(self._state["vans"])]
        return calls + [self._expected_answer]
