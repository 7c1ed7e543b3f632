# expect: valid
"""Top Rated: the three best-rated products of a category, best first (skill: Data Retrieval).

Written the way the SPADE release's tool-use prompt asks ("Override _check_answer() if you need custom
comparison logic"): the agent searches a catalogue, reads the ratings and answers with three product
IDs, comma-separated, best first; ``_check_answer`` compares the ORDERED list (spaces and case do not
matter). solution() is one string of <tool_call> blocks and <answer>.

Looks suspicious: the win is decided by ``_check_answer`` (the release's name), which a base class
that only calls ``check_answer`` ignores; and the answer is a list, where lenient comparisons
(sets, substrings) are a common defect.
Why it is correct: the override is exact about what matters (the three IDs in order) and lenient
only about formatting; ratings are distinct so the order is well defined; replayed block by block
the solution wins every seed, and reversing or shuffling the IDs loses.
"""

import json
import random
from typing import Tuple

CATEGORIES = ["kettles", "blenders", "toasters", "fans", "heaters"]


class TopRatedEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    def __init__(self, max_turns=16, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None) -> Tuple[str, dict]:
        self.turn_count = 0
        self._call_history = []
        rng = random.Random(seed)
        ratings = rng.sample(range(100, 500), 30)
        products = {}
        for index, rating in enumerate(ratings):
            category = CATEGORIES[index % len(CATEGORIES)]
            products[f"SKU{rng.randint(1000, 9999)}{index:02d}"] = {"category": category, "rating": rating / 100}
        self._category = rng.choice(CATEGORIES)
        mine = sorted((p for p, v in products.items() if v["category"] == self._category),
                      key=lambda p: -products[p]["rating"])
        self._mine = sorted(mine)
        self._expected_answer = ", ".join(mine[:3])
        self._state = {"products": products}
        self._tools = {
            "search_products": {"description": "List the product IDs in a category",
                                "parameters": {"type": "object", "properties": {
                                    "category": {"type": "string", "enum": CATEGORIES}}, "required": ["category"]}},
            "get_rating": {"description": "Average customer rating of a product (1-5)",
                           "parameters": {"type": "object", "properties": {"product_id": {"type": "string"}},
                                          "required": ["product_id"]}},
            "get_price": {"description": "Price of a product",
                          "parameters": {"type": "object", "properties": {"product_id": {"type": "string"}},
                                         "required": ["product_id"]}},
        }
        return (f"TASK: Which three {self._category} have the best customer ratings? Answer with their product IDs, "
                "best first, comma-separated: <answer>ID1, ID2, ID3</answer>."), {}

    def _check_answer(self, answer: str) -> bool:
        given = [part.strip().upper() for part in str(answer).split(",") if part.strip()]
        return given == [part.strip().upper() for part in self._expected_answer.split(",")]

    def tool_search_products(self, category=""):
        found = sorted(p for p, v in self._state["products"].items() if v["category"] == category)
        return json.dumps(found) if found else f"Error: unknown category {category}"

    def tool_get_rating(self, product_id=""):
        product = self._state["products"].get(product_id)
        return f"{product_id}: {product['rating']:.2f}" if product else f"Error: {product_id} not found"

    def tool_get_price(self, product_id=""):
        product = self._state["products"].get(product_id)
        return f"{product_id}: {round(product['rating'] * 17 + 9, 2)}" if product else f"Error: {product_id} not found"

    def solution(self) -> str:
        calls = [{"name": "search_products", "arguments": {"category": self._category}}]
        calls += [{"name": "get_rating", "arguments": {"product_id": p}} for p in self._mine]
        return "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls) + \
            f"<answer>{self._expected_answer}</answer>"
