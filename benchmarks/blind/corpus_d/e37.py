"""Warehouse fulfilment: pick, pack and ship a customer order, one request at a time.

ToolUseBaseEnv is injected by the loader.
"""

from __future__ import annotations

import random
from typing import Any

_SKUS = {"SKU-101": ("desk lamp", 1.4), "SKU-102": ("kettle", 1.1), "SKU-103": ("toaster", 2.3),
         "SKU-104": ("blender", 3.2), "SKU-105": ("rice cooker", 2.8), "SKU-106": ("hand mixer", 1.2),
         "SKU-107": ("coffee grinder", 0.9), "SKU-108": ("waffle iron", 2.6), "SKU-109": ("scale", 0.7)}
_BOXES = {"S": 3.0, "M": 6.0, "L": 10.0}
_CARRIERS = {"postline": 5.0, "roadfast": 12.0, "heavyhaul": 40.0}


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


class FulfilmentEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        order = f"O-{rng.randint(10000, 99999)}"
        while True:
            lines = {sku: rng.randint(1, 2) for sku in rng.sample(sorted(_SKUS), rng.randint(2, 3))}
            weight = round(sum(_SKUS[s][1] * q for s, q in lines.items()), 2)
            if weight <= _BOXES["L"]:
                break
        self._state = {"order": order, "lines": lines, "picked": {}, "status": "open", "box": None,
                       "carrier": None, "weight": weight, "notes": []}
        self._expected_answer = "done"
        s = {"type": "string"}
        self._tools = {
            "get_order": {"description": "Order lines (SKU, item, quantity, unit weight kg) and status.",
                          "parameters": _obj(order_id=s)},
            "pick_item": {"description": "Pick a quantity of one SKU for an order from the shelves.",
                          "parameters": _obj(order_id=s, sku=s, quantity={"type": "integer"})},
            "pack_order": {"description": f"Pack a fully picked order into a box; sizes and max kg: {_BOXES}.",
                           "parameters": _obj(order_id=s, box=s)},
            "ship_order": {"description": f"Hand a packed order to a carrier; carriers and max kg: {_CARRIERS}.",
                           "parameters": _obj(order_id=s, carrier=s)},
            "update_order": {"description": "Update an order's status field or attach a note for the team.",
                             "parameters": {"type": "object", "properties": {"order_id": s, "status": s,
                                                                             "note": s},
                                            "required": ["order_id"]}},
        }
        self._user_messages = [
            {"message": f"Please pick every line of order {order}.", "check": lambda st: st["status"] == "picked"},
            {"message": "Now pack it in the smallest box that holds its weight.",
             "check": lambda st: st["status"] == "packed"},
            {"message": "Ship it with the cheapest carrier allowed for that weight (postline < roadfast < "
                        "heavyhaul).", "check": lambda st: st["status"] == "shipped"},
        ]
        obs = (f"You run the fulfilment desk. Order {order} needs handling. Carry out each request with the "
               "tools; when all are done reply <answer>done</answer>.")
        return obs, {"order_id": order}

    def _order(self, order_id: Any) -> dict[str, Any]:
        if str(order_id).strip().upper() != self._state["order"]:
            raise ValueError(f"unknown order {order_id!r}")
        return self._state

    def tool_get_order(self, order_id: Any = None) -> str:
        st = self._order(order_id)
        rows = [f"{sku} {_SKUS[sku][0]} x{q} ({_SKUS[sku][1]} kg each), picked {st['picked'].get(sku, 0)}"
                for sku, q in st["lines"].items()]
        return "\n".join(rows) + f"\nstatus: {st['status']}"

    def tool_pick_item(self, order_id: Any = None, sku: Any = None, quantity: Any = None) -> str:
        st = self._order(order_id)
        key = str(sku).strip().upper()
        if key not in st["lines"]:
            raise ValueError(f"{sku!r} is not on this order")
        if not isinstance(quantity, int) or isinstance(quantity, bool) or quantity < 1:
            raise ValueError("quantity must be a positive integer")
        if st["picked"].get(key, 0) + quantity > st["lines"][key]:
            raise ValueError("that would pick more than ordered")
        st["picked"][key] = st["picked"].get(key, 0) + quantity
        if st["picked"] == st["lines"] and st["status"] == "open":
            st["status"] = "picked"
        return f"Picked {quantity} x {key}. Status: {st['status']}."

    def tool_pack_order(self, order_id: Any = None, box: Any = None) -> str:
        st = self._order(order_id)
        size = str(box).strip().upper()
        if st["status"] != "picked":
            raise ValueError("order is not fully picked")
        if size not in _BOXES or _BOXES[size] < st["weight"]:
            raise ValueError("that box cannot take this order")
        fits = [b for b, cap in _BOXES.items() if cap >= st["weight"]]
        if size != fits[0]:
            raise ValueError(f"policy: use the smallest box that fits ({st['weight']} kg)")
        st["box"], st["status"] = size, "packed"
        return f"Packed in box {size}. Status: packed."

    def tool_ship_order(self, order_id: Any = None, carrier: Any = None) -> str:
        st = self._order(order_id)
        name = str(carrier).strip().lower()
        if st["status"] != "packed":
            raise ValueError("order is not packed")
        allowed = [c for c, cap in _CARRIERS.items() if cap >= st["weight"]]
        if name != allowed[0]:
            raise ValueError("policy: use the cheapest carrier allowed for this weight")
        st["carrier"], st["status"] = name, "shipped"
        return f"Shipped with {name}."

    def tool_update_order(self, order_id: Any = None, status: Any = None, note: Any = None) -> str:
        st = self._order(order_id)
        if note is not None:
            st["notes"].append(str(note)[:200])
        if status is not None:
            st["status"] = str(status).strip().lower()
        return f"Order {st['order']} updated. Status: {st['status']}."

    def solution(self) -> list[Any]:
        st, order = self._state, self._state["order"]
        calls: list[Any] = [{"name": "pick_item", "arguments": {"order_id": order, "sku": sku, "quantity": q}}
                            for sku, q in st["lines"].items()]
        box = next(b for b, cap in _BOXES.items() if cap >= st["weight"])
        carrier = next(c for c, cap in _CARRIERS.items() if cap >= st["weight"])
        calls.append({"name": "pack_order", "arguments": {"order_id": order, "box": box}})
        calls.append({"name": "ship_order", "arguments": {"order_id": order, "carrier": carrier}})
        return calls + ["done"]
