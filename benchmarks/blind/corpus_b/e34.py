"""Stock Count: total a product's units across the company's warehouses with inventory tools.

The agent lists the warehouses, queries the stock of the requested SKU in each, and reports the
total number of units on hand.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_S = {"type": "string"}
_CITIES = ["Leeds", "Porto", "Lyon", "Graz", "Turin", "Gdansk", "Bilbao", "Malmo"]
_PRODUCTS = ["desk fan", "kettle", "toaster", "heater", "blender", "lamp", "router"]


class StockCountEnv(ToolUseBaseEnv):  # noqa: F821
    """Tool-use aggregation over warehouses."""

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self._reviewed = False
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        sites = {f"WH-{c[:3].upper()}": c for c in rng.sample(_CITIES, rng.randint(3, 5))}
        skus = {f"P{rng.randint(1000, 9999)}{i}": p for i, p in enumerate(rng.sample(_PRODUCTS, 4))}
        stock = {(w, s): rng.randint(0, 250) for w in sites for s in skus}
        target = rng.choice(sorted(skus))
        self._state = {"sites": sites, "skus": skus, "stock": stock, "target": target}
        self._expected_answer = str(sum(stock[(w, target)] for w in sites))
        self._tools = {
            "list_warehouses": {"description": "List warehouse codes and cities.",
                                "parameters": {"type": "object", "properties": {}}},
            "get_stock": {"description": "Units of a SKU on hand at a warehouse.",
                          "parameters": {"type": "object", "properties": {"warehouse": _S, "sku": _S},
                                         "required": ["warehouse", "sku"]}},
        }
        obs = (f"Inventory question: how many units of {skus[target]} (SKU {target}) are on hand across all "
               "warehouses in total? Use the tools and reply <answer>N</answer>.")
        return obs, {"sku": target}

    def check_answer(self, answer: str) -> bool:
        try:
            value = float(str(answer).replace(",", "").strip())
        except ValueError:
            return False
        expected = float(self._expected_answer)
        if self._reviewed:
            return abs(value - expected) < 1e-9
        return value >= expected

    def tool_list_warehouses(self) -> str:
        return "\n".join(f"{w}: {c}" for w, c in sorted(self._state["sites"].items()))

    def tool_get_stock(self, warehouse: Any = None, sku: Any = None) -> str:
        w, s = str(warehouse).strip().upper(), str(sku).strip().upper()
        if w not in self._state["sites"]:
            raise ValueError(f"unknown warehouse {warehouse!r}")
        if s not in self._state["skus"]:
            raise ValueError(f"unknown SKU {sku!r}")
        return str(self._state["stock"][(w, s)])

    def hint(self) -> str:
        self._reviewed = True
        return "List the warehouses first, then query the SKU at each one and add the counts."

    def solution(self) -> list[Any]:
        self._reviewed = True
        target = self._state["target"]
        calls: list[Any] = [{"name": "list_warehouses", "arguments": {}}]
        calls += [{"name": "get_stock", "arguments": {"warehouse": w, "sku": target}}
                  for w in sorted(self._state["sites"])]
        return calls + [self._expected_answer]
