"""WarehouseLookupEnv: answer an inventory question by chaining lookups over a seeded stock list.

Why this shape: the question (total stock value of a category, units needed to restock it to a target,
or the cost of that restock) cannot be answered from any single tool. The agent must list the category's
items, fetch each one's stock and price, and combine them; the arithmetic is simple so the skill under
test is retrieving every needed record (Data Retrieval) and not dropping one. Tools validate arguments
and raise clear errors, so a malformed call teaches rather than crashes.

ToolUseBaseEnv is not imported: the SPADE loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
import re
from typing import Any

_CATALOGUE: dict[str, list[str]] = {
    "tools": ["claw hammer", "torque wrench", "cordless drill", "hand saw", "tape measure", "chisel set"],
    "garden": ["hose reel", "pruning shears", "seed tray", "watering can", "leaf rake", "trowel"],
    "kitchen": ["cast iron pan", "chef knife", "mixing bowl", "kettle", "spice rack", "colander"],
    "electrical": ["extension lead", "light bulb pack", "wall socket", "cable reel", "fuse box", "dimmer"],
    "paint": ["primer tin", "roller kit", "masking tape", "brush set", "gloss tin", "paint tray"],
}
_STRING = {"type": "string"}
_AMOUNT = re.compile(r"(?:\$|usd)?\s*(-?\d+(?:\.\d+)?)\s*(?:usd|dollars?|units?|items?|pieces?|pcs)?", re.IGNORECASE)


class WarehouseLookupEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the SPADE loader
    """Tool-use env (Data Retrieval): compute a category-level inventory figure from item lookups."""

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        """Seed ~10 items over three categories and pick a question about one category."""
        rng = random.Random(seed)
        categories = sorted(rng.sample(sorted(_CATALOGUE), 3))
        counts = rng.choice([(3, 3, 4), (2, 4, 4), (3, 4, 3), (4, 2, 4), (2, 3, 5)])
        codes = rng.sample(range(100, 1000), 10)
        items: dict[str, dict[str, Any]] = {}
        for category, count in zip(categories, counts):
            for name in rng.sample(_CATALOGUE[category], count):
                items[f"SKU-{codes[len(items)]}"] = {
                    "name": name, "category": category, "stock": rng.randint(0, 110),
                    "unit_price": rng.randint(199, 9999) / 100}
        target_category = rng.choice(categories)
        stocks = [it["stock"] for it in items.values() if it["category"] == target_category]
        target = rng.choice([t for t in (40, 50, 60, 75, 80, 100, 120) if t > min(stocks)])
        self._state = {"items": items, "category": target_category, "target": target}
        self._tools = {
            "list_categories": {"description": "List the product categories in the warehouse.",
                                "parameters": {"type": "object", "properties": {}, "required": []}},
            "list_items": {"description": "List the item ids and names in one category.",
                           "parameters": {"type": "object", "properties": {"category": _STRING},
                                          "required": ["category"]}},
            "get_item": {"description": "Get one item's name, category, units in stock and unit price (USD).",
                         "parameters": {"type": "object", "properties": {"item_id": _STRING},
                                        "required": ["item_id"]}},
            "search_items": {"description": "Find items whose name contains a text fragment.",
                             "parameters": {"type": "object", "properties": {"query": _STRING},
                                            "required": ["query"]}},
        }
        kind = rng.choice(["value", "units", "cost"])
        chosen = [it for it in items.values() if it["category"] == target_category]
        question = {
            "value": f"What is the total stock value (units in stock x unit price, in USD) of all items in "
                     f"the '{target_category}' category?",
            "units": f"How many units must be ordered in total so that every item in the '{target_category}' "
                     f"category has at least {target} units in stock?",
            "cost": f"What would it cost (in USD, at each item's unit price) to bring every item in the "
                    f"'{target_category}' category up to at least {target} units in stock?",
        }[kind]
        cents = {
            "value": sum(round(it["unit_price"] * 100) * it["stock"] for it in chosen),
            "units": sum(max(0, target - it["stock"]) for it in chosen) * 100,
            "cost": sum(round(it["unit_price"] * 100) * max(0, target - it["stock"]) for it in chosen),
        }[kind]
        self._expected_answer = cents // 100 if kind == "units" else round(cents / 100, 2)
        depot = f"{rng.choice(['North', 'Harbour', 'Central', 'East', 'Valley'])} depot #{rng.randint(2, 99)}"
        obs = (f"You are the inventory assistant for the {depot}. {question} Give a number (round money "
               f"to 2 decimals) as <answer>...</answer>.")
        return obs, {"question_kind": kind, "items": len(items)}

    def check_answer(self, answer: str) -> bool:
        """Accept '$1,234.50', '1234.5 USD' or '35 units': an amount or a count, alone or with its unit; anything
        else around it ('not 35', '35 or 36') is refused."""
        m = _AMOUNT.fullmatch(answer.replace(",", "").strip().rstrip("."))
        return m is not None and super().check_answer(m.group(1))

    @staticmethod
    def _text(value: Any, name: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"'{name}' must be a non-empty string")
        return value.strip()

    def tool_list_categories(self) -> str:
        return ", ".join(sorted({it["category"] for it in self._state["items"].values()}))

    def tool_list_items(self, category: Any = None) -> str:
        category = self._text(category, "category").lower()
        rows = [f"{sku}: {it['name']}" for sku, it in sorted(self._state["items"].items())
                if it["category"] == category]
        if not rows:
            raise ValueError(f"unknown category '{category}'; call list_categories to see the valid ones")
        return "\n".join(rows)

    def tool_get_item(self, item_id: Any = None) -> str:
        item_id = self._text(item_id, "item_id").upper()
        item = self._state["items"].get(item_id)
        if item is None:
            raise ValueError(f"no item with id '{item_id}'; ids look like SKU-123 (see list_items)")
        return (f"{item_id}: name={item['name']}, category={item['category']}, stock={item['stock']} units, "
                f"unit_price={item['unit_price']:.2f} USD")

    def tool_search_items(self, query: Any = None) -> str:
        query = self._text(query, "query").lower()
        items = sorted(self._state["items"].items())
        hits = [f"{sku}: {it['name']}" for sku, it in items if query in it["name"]]
        return "\n".join(hits) if hits else f"No item name contains '{query}'."

    def solution(self) -> list[Any]:
        """List the category, fetch each of its items, then answer."""
        category = self._state["category"]
        skus = sorted(sku for sku, it in self._state["items"].items() if it["category"] == category)
        calls: list[Any] = [{"name": "list_items", "arguments": {"category": category}}]
        calls += [{"name": "get_item", "arguments": {"item_id": sku}} for sku in skus]
        return calls + [self._expected_answer]
