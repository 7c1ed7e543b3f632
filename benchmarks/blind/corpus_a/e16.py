"""ExpenseReportEnv: total an employee's receipts for one month from the expense system (tool use).

The agent must report the total (USD) of all receipts an employee filed in a given month. Receipts are
listed a page at a time and each one must be opened to see its amount; some receipts belong to other
months and must be left out. A reconciliation service is also available for double-checking a draft
figure against the accounts ledger before answering.

ToolUseBaseEnv is not imported: the SPADE loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_PEOPLE = ["Ana Ortiz", "Ben Okafor", "Chen Wei", "Dara Khan", "Eli Novak", "Farah Aziz"]
_KINDS = ["taxi", "hotel", "train", "lunch", "conference fee", "parking", "dinner"]
_STR = {"type": "string"}


class ExpenseReportEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Tool-use: sum one employee's receipts for one month."""

    PAGE = 4

    def __init__(self, max_turns: int = 16, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        person = rng.choice(_PEOPLE)
        month = rng.randrange(12)
        receipts = {}
        for i in rng.sample(range(100, 999), rng.randint(6, 10)):
            receipts[f"R-{i}"] = {"kind": rng.choice(_KINDS), "amount": rng.randint(850, 42000) / 100,
                                  "month": month if rng.random() < 0.6 else rng.randrange(12)}
        if not any(r["month"] == month for r in receipts.values()):
            next(iter(receipts.values()))["month"] = month
        self._state = {"person": person, "receipts": receipts}
        cents = sum(round(r["amount"] * 100) for r in receipts.values() if r["month"] == month)
        self._expected_answer = round(cents / 100, 2)
        self._month = month
        self._tools = {
            "list_receipts": {"description": "List receipt ids filed by an employee, a page at a time (page starts at 1).",
                              "parameters": {"type": "object", "properties": {"employee": _STR, "page": {"type": "integer"}},
                                             "required": ["employee", "page"]}},
            "get_receipt": {"description": "Open one receipt: its kind, month and amount in USD.",
                            "parameters": {"type": "object", "properties": {"receipt_id": _STR}, "required": ["receipt_id"]}},
            "reconcile": {"description": "Compare a draft total (USD) with the accounts ledger for the employee and month in this task; reports the variance.",
                          "parameters": {"type": "object", "properties": {"draft_total": {"type": "number"}}, "required": ["draft_total"]}},
        }
        text = (f"Finance asks: what is the total of all receipts that {person} filed for {_MONTHS[month]}? "
                "Answer in USD rounded to the cent, e.g. <answer>123.45</answer>.")
        return text, {"employee": person, "month": _MONTHS[month]}

    def tool_list_receipts(self, employee: Any = None, page: Any = 1) -> str:
        if str(employee).strip().lower() != self._state["person"].lower():
            raise ValueError(f"no employee named {employee!r}")
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise ValueError("'page' must be a positive integer")
        ids = sorted(self._state["receipts"])
        chunk = ids[(page - 1) * self.PAGE: page * self.PAGE]
        more = page * self.PAGE < len(ids)
        return ("\n".join(chunk) if chunk else "No receipts on this page.") + ("\n(more on the next page)" if more else "")

    def tool_get_receipt(self, receipt_id: Any = None) -> str:
        receipt = self._state["receipts"].get(str(receipt_id).strip().upper())
        if receipt is None:
            raise ValueError(f"unknown receipt {receipt_id!r}")
        return f"{receipt['kind']}, {_MONTHS[receipt['month']]}, {receipt['amount']:.2f} USD"

    def tool_reconcile(self, draft_total: Any = None) -> str:
        if isinstance(draft_total, bool) or not isinstance(draft_total, (int, float)):
            raise ValueError("'draft_total' must be a number")
        variance = round(self._expected_answer - float(draft_total), 2)
        if abs(variance) < 0.005:
            return "Draft total agrees with the ledger."
        return f"Draft total differs from the ledger by {variance:+.2f} USD."

    def solution(self) -> list[Any]:
        person, ids = self._state["person"], sorted(self._state["receipts"])
        calls: list[Any] = [{"name": "list_receipts", "arguments": {"employee": person, "page": p}}
                            for p in range(1, (len(ids) + self.PAGE - 1) // self.PAGE + 1)]
        calls += [{"name": "get_receipt", "arguments": {"receipt_id": i}} for i in ids]
        return calls + [f"{self._expected_answer:.2f}"]
