"""BulkQuoteEnv: price a bulk order from a price list and the shop's discount policy (tool use).

The agent looks up the unit price and the discount policy, then answers with the order total in
euros. Totals are compared as numbers, so 86.4 and 86.40 are the same answer.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_PRODUCTS = ["ceramic mug", "oak coaster", "linen napkin", "steel bottle", "cotton tote", "glass jar"]
_S = {"type": "string"}
_THRESHOLD = 10
_DISCOUNT_PERCENT = 10


class BulkQuoteEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Unit price x quantity, less the bulk discount."""

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        product = rng.choice(_PRODUCTS)
        quantity = rng.choice([8, 9, 10, 11, 12])
        prices = {p: rng.randint(30, 250) * 10 for p in _PRODUCTS}  # cents, whole dimes
        self._state = {"prices": prices, "product": product, "quantity": quantity}
        cents = prices[product] * quantity
        if quantity >= _THRESHOLD:
            cents = cents * (100 - _DISCOUNT_PERCENT) // 100
        self._expected_answer = f"{cents // 100}.{cents % 100:02d}"
        self._tools = {
            "price_list": {"description": "Unit price in EUR of a product.",
                           "parameters": {"type": "object", "properties": {"product": _S}, "required": ["product"]}},
            "discount_policy": {"description": "The shop's bulk discount rule.",
                                "parameters": {"type": "object", "properties": {}}},
        }
        text = (f"A customer orders {quantity} x {product}. What is the order total in EUR after any bulk discount? "
                "Answer with the amount, e.g. <answer>123.45</answer>. One answer is judged.")
        return text, {"quantity": quantity}

    def tool_price_list(self, product: Any = None) -> str:
        key = str(product).strip().lower()
        if key not in self._state["prices"]:
            raise ValueError(f"unknown product; we sell: {', '.join(_PRODUCTS)}")
        cents = self._state["prices"][key]
        return f"{key}: EUR {cents // 100}.{cents % 100:02d} each"

    def tool_discount_policy(self) -> str:
        return f"Orders of {_THRESHOLD} or more units of one product get {_DISCOUNT_PERCENT}% off the order total."

    def check_answer(self, answer: str) -> bool:
        try:
            return abs(float(str(answer).replace("EUR", "").replace("€", "").strip()) - float(self._expected_answer)) < 0.006
        except ValueError:
            return False

    def solution(self) -> list[Any]:
        product, quantity = self._state["product"], self._state["quantity"]
        cents = self._state["prices"][product] * quantity
        if quantity > _THRESHOLD:
            cents = cents * (100 - _DISCOUNT_PERCENT) // 100
        return [{"name": "price_list", "arguments": {"product": product}},
                {"name": "discount_policy", "arguments": {}}, f"{cents // 100}.{cents % 100:02d}"]
