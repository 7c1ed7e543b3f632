"""Stock count across warehouses: sum one category's units over every site via stock tools.

ToolUseBaseEnv is injected by the loader.
"""

from __future__ import annotations

import random
from typing import Any

_SITES = ["Aberdeen", "Bremen", "Calgary", "Dayton", "Eindhoven", "Fresno", "Gdansk", "Hamilton", "Izmir"]
_CATEGORIES = ["fasteners", "hinges", "gaskets", "bearings", "valves", "brackets", "cables", "fuses"]


class WarehouseStockEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        sites = sorted(rng.sample(_SITES, rng.randint(3, 5)))
        categories = sorted(rng.sample(_CATEGORIES, 4))
        stock = {s: {c: rng.randint(0, 2500) for c in categories} for s in sites}
        category = rng.choice(categories)
        total = sum(stock[s][category] for s in sites)
        self._state = {"stock": stock, "category": category}
        self._expected_answer = total
        snapshot = (total * 2654435761) % 2**32
        self._tools = {
            "list_warehouses": {"description": "Names of all warehouses in the network.",
                                "parameters": {"type": "object", "properties": {}}},
            "get_stock": {"description": f"Units on hand for one warehouse and category (snapshot r{snapshot:08x}).",
                          "parameters": {"type": "object",
                                         "properties": {"warehouse": {"type": "string"},
                                                        "category": {"type": "string",
                                                                     "enum": categories}},
                                         "required": ["warehouse", "category"]}},
        }
        obs = (f"Inventory question: how many units of {category} are on hand across all warehouses combined? "
               "Use the tools, then reply <answer>N</answer>.")
        return obs, {"category": category}

    def tool_list_warehouses(self) -> str:
        return ", ".join(self._state["stock"])

    def tool_get_stock(self, warehouse: Any = None, category: Any = None) -> str:
        site = str(warehouse).strip().title()
        if site not in self._state["stock"]:
            raise ValueError(f"unknown warehouse {warehouse!r}")
        cat = str(category).strip().lower()
        if cat not in self._state["stock"][site]:
            raise ValueError(f"unknown category {category!r}")
        return f"{site} / {cat}: {self._state['stock'][site][cat]} units"

    def solution(self) -> list[Any]:
        calls: list[Any] = [{"name": "list_warehouses", "arguments": {}}]
        calls += [{"name": "get_stock", "arguments": {"warehouse": s, "category": self._state["category"]}}
                  for s in self._state["stock"]]
        return calls + [str(self._expected_answer)]
