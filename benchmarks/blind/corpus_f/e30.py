"""ShopFinderEnv: pick the right product out of a search tool's candidate list (tool use).

The search tool returns every product of a category (SKU, colour, price) but not stock; stock needs a
second tool per SKU. The customer wants the cheapest item of one colour that is in stock and within
budget. Each catalogue carries traps: a cheaper item of that colour that is sold out, cheaper items in
other colours, and items over budget. The answer is the chosen SKU (case and spaces do not matter).

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_CATEGORIES = {"kettle": "KT", "desk lamp": "DL", "backpack": "BP", "blender": "BL", "headphones": "HP",
               "toaster": "TS"}
_COLOURS = ["black", "white", "red", "green", "blue", "grey"]
_S = {"type": "string"}


class ShopFinderEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Choose among search candidates after checking stock."""

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        categories = rng.sample(sorted(_CATEGORIES), 3)
        wanted_category, colour = categories[0], rng.choice(_COLOURS)
        used: set[str] = set()

        def sku(category: str) -> str:
            while True:
                code = f"{_CATEGORIES[category]}-{rng.randint(1000, 9999)}"
                if code not in used:
                    used.add(code)
                    return code

        while True:
            prices = rng.sample(range(15, 160), 8)
            others = [c for c in _COLOURS if c != colour]
            items = [{"colour": rng.choice([colour, colour] + others), "price": p, "stock": rng.choice([0, 0, 3, 5, 8, 12])}
                     for p in prices]
            budget = rng.randint(60, 140)
            fits = sorted((i for i in items if i["colour"] == colour and i["price"] <= budget and i["stock"] > 0),
                          key=lambda i: i["price"])
            if not fits:
                continue
            target = fits[0]
            sold_out_trap = any(i["colour"] == colour and i["stock"] == 0 and i["price"] < target["price"] for i in items)
            over_budget = any(i["colour"] == colour and i["price"] > budget for i in items)
            if sold_out_trap and over_budget:
                break
        catalogue: dict[str, list[dict[str, Any]]] = {}
        stock: dict[str, int] = {}
        for category in categories:
            rows = items if category == wanted_category else [
                {"colour": rng.choice(_COLOURS), "price": rng.randint(15, 160), "stock": rng.choice([0, 4, 9])}
                for _ in range(rng.randint(3, 6))]
            catalogue[category] = []
            for row in rows:
                code = sku(category)
                stock[code] = row["stock"]
                if row is target:
                    self._expected_answer = code
                catalogue[category].append({"sku": code, "name": f"{row['colour'].title()} {category}",
                                            "colour": row["colour"], "price": row["price"]})
        self._state = {"catalogue": catalogue, "stock": stock}
        self._tools = {
            "search_catalog": {"description": "List every product of a category (sku, name, colour, price in USD). "
                                              "Stock is not included.",
                               "parameters": {"type": "object", "properties": {"category": _S}, "required": ["category"]}},
            "check_stock": {"description": "Units in stock for one SKU.",
                            "parameters": {"type": "object", "properties": {"sku": _S}, "required": ["sku"]}},
        }
        self._want = (wanted_category, colour, budget)
        text = (f"A customer wants the cheapest {colour} {wanted_category} that is in stock and costs at most "
                f"${budget}. Use the tools to find it and answer with its SKU, e.g. <answer>XX-0000</answer>. "
                "One answer is judged.")
        return text, {"categories": sorted(categories)}

    def tool_search_catalog(self, category: Any = None) -> str:
        key = str(category).strip().lower()
        if key not in self._state["catalogue"]:
            raise ValueError(f"no such category; known: {', '.join(sorted(self._state['catalogue']))}")
        return "\n".join(f"{p['sku']}: {p['name']}, colour {p['colour']}, ${p['price']}"
                         for p in sorted(self._state["catalogue"][key], key=lambda p: p["sku"]))

    def tool_check_stock(self, sku: Any = None) -> str:
        code = str(sku).strip().upper()
        if code not in self._state["stock"]:
            raise ValueError(f"unknown SKU {sku!r}")
        units = self._state["stock"][code]
        return f"{code}: {units} in stock" if units else f"{code}: sold out"

    def solution(self) -> list[Any]:
        category, colour, budget = self._want
        rows = sorted((p for p in self._state["catalogue"][category] if p["colour"] == colour and p["price"] <= budget),
                      key=lambda p: p["price"])
        calls: list[Any] = [{"name": "search_catalog", "arguments": {"category": category}}]
        for row in rows:
            calls.append({"name": "check_stock", "arguments": {"sku": row["sku"]}})
            if row["sku"] == self._expected_answer:
                break
        return calls + [self._expected_answer]
