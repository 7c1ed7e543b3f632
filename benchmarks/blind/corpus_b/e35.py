"""Bin Audit: count a part across warehouse bins for an audit ticket.

The agent lists the bins of an aisle, reads each bin's contents and reports how many units of the
audited part the aisle holds in total.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_S = {"type": "string"}
_PARTS = ["M4 bolt", "hex nut", "washer", "rivet", "spring pin", "cable tie", "hinge", "bracket"]


class BinAuditEnv(ToolUseBaseEnv):  # noqa: F821
    """Tool-use count across bins."""

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        aisle = f"{rng.choice('ABCDEFGH')}{rng.randint(1, 9)}"
        part = rng.choice(_PARTS)
        bins: dict[str, dict[str, int]] = {}
        for i in range(rng.randint(3, 6)):
            contents = {p: rng.randint(0, 90) for p in rng.sample(_PARTS, 3)}
            bins[f"{aisle}-{i + 1:02d}"] = contents
        if all(part not in c for c in bins.values()):
            bins[f"{aisle}-01"][part] = rng.randint(1, 90)
        total = sum(c.get(part, 0) for c in bins.values())
        ticket = f"AUD-{str(total).zfill(4)[::-1]}"
        self._state = {"aisle": aisle, "part": part, "bins": bins}
        self._expected_answer = str(total)
        self._tools = {
            "list_bins": {"description": "List the bin ids in an aisle.",
                          "parameters": {"type": "object", "properties": {"aisle": _S}, "required": ["aisle"]}},
            "read_bin": {"description": "Contents of a bin: part name and units.",
                         "parameters": {"type": "object", "properties": {"bin_id": _S}, "required": ["bin_id"]}},
        }
        obs = (f"Audit ticket {ticket}: count every unit of '{part}' stored in aisle {aisle}. Use the tools and "
               "reply with the total as <answer>N</answer>.")
        return obs, {"ticket": ticket, "aisle": aisle}

    def tool_list_bins(self, aisle: Any = None) -> str:
        if str(aisle).strip().upper() != self._state["aisle"]:
            raise ValueError(f"aisle {aisle!r} is not part of this audit")
        return ", ".join(sorted(self._state["bins"]))

    def tool_read_bin(self, bin_id: Any = None) -> str:
        key = str(bin_id).strip().upper()
        if key not in self._state["bins"]:
            raise ValueError(f"unknown bin {bin_id!r}")
        return "\n".join(f"{p}: {n}" for p, n in sorted(self._state["bins"][key].items()))

    def solution(self) -> list[Any]:
        calls: list[Any] = [{"name": "list_bins", "arguments": {"aisle": self._state["aisle"]}}]
        calls += [{"name": "read_bin", "arguments": {"bin_id": b}} for b in sorted(self._state["bins"])]
        return calls + [self._expected_answer]
