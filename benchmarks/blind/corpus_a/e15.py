"""ShopCheckoutEnv: price a customer's basket with a coupon by looking up the catalogue (tool use).

A customer sends a shopping list (two or three products with quantities) and a coupon code. The agent
looks the products up (search_products, get_product) and the coupon (get_coupon) and answers with the
amount the customer pays after the coupon, in USD rounded to the cent. The coupon is a percentage off
the whole basket.

ToolUseBaseEnv is not imported: the SPADE loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_PRODUCTS = ["desk lamp", "wool scarf", "coffee grinder", "yoga mat", "water bottle", "phone stand",
             "notebook set", "ceramic mug", "travel pillow", "bike light", "garden gloves", "tea sampler"]
_STR = {"type": "string"}


class ShopCheckoutEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Tool-use: compute a basket total after a percentage coupon."""

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        names = rng.sample(_PRODUCTS, 8)
        skus = rng.sample(range(1000, 9999), 8)
        catalogue = {f"SKU{s}": {"name": n, "price": rng.randint(299, 8999) / 100} for s, n in zip(skus, names)}
        wanted = rng.sample(sorted(catalogue), rng.randint(2, 3))
        basket = {sku: rng.randint(1, 4) for sku in wanted}
        code = rng.choice(["SPRING", "WELCOME", "LOYAL", "FLASH"]) + str(rng.randint(10, 99))
        pct = rng.choice([10, 15, 20, 25, 30])
        self._state = {"catalogue": catalogue, "coupons": {code: pct}}
        self._tools = {
            "search_products": {"description": "Find products whose name contains the query text.",
                                "parameters": {"type": "object", "properties": {"query": _STR}, "required": ["query"]}},
            "get_product": {"description": "Get a product's name and unit price (USD) by SKU.",
                            "parameters": {"type": "object", "properties": {"sku": _STR}, "required": ["sku"]}},
            "get_coupon": {"description": "Look up a coupon code; returns its percentage discount.",
                           "parameters": {"type": "object", "properties": {"code": _STR}, "required": ["code"]}},
        }
        subtotal_cents = sum(round(catalogue[s]["price"] * 100) * q for s, q in basket.items())
        self._expected_answer = round(subtotal_cents * (1 - pct // 100) / 100, 2)
        self._plan = [{"name": "search_products", "arguments": {"query": catalogue[s]["name"]}} for s in wanted]
        self._plan.append({"name": "get_coupon", "arguments": {"code": code}})
        order = ", ".join(f"{q} x {catalogue[s]['name']}" for s, q in basket.items())
        text = (f"A customer wants to buy: {order}. They have the coupon code {code}. How much will they pay "
                "in total after the coupon is applied? Answer in USD rounded to the cent, e.g. <answer>12.34</answer>.")
        return text, {"items": len(basket)}

    def tool_search_products(self, query: Any = None) -> str:
        if not isinstance(query, str) or not query.strip():
            raise ValueError("'query' must be a non-empty string")
        hits = [f"{sku}: {p['name']}, {p['price']:.2f} USD" for sku, p in sorted(self._state["catalogue"].items())
                if query.strip().lower() in p["name"]]
        return "\n".join(hits) if hits else "No products match."

    def tool_get_product(self, sku: Any = None) -> str:
        product = self._state["catalogue"].get(str(sku).strip().upper())
        if product is None:
            raise ValueError(f"unknown SKU {sku!r}")
        return f"{product['name']}: {product['price']:.2f} USD"

    def tool_get_coupon(self, code: Any = None) -> str:
        pct = self._state["coupons"].get(str(code).strip().upper())
        if pct is None:
            return "Coupon not found."
        return f"Coupon {str(code).strip().upper()}: {pct}% off the whole basket."

    def solution(self) -> list[Any]:
        return [dict(call) for call in self._plan] + [f"{self._expected_answer:.2f}"]
