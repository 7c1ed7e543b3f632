"""OverdueCountEnv: count a client's overdue unpaid invoices across paged results (tool use).

Invoices come ten to a page; an invoice is overdue when it is unpaid and its due date is before the
reference date. Agents can sanity-check their count with a validation tool before answering, which
mirrors the pre-submission checks of the accounting system this is modelled on.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import datetime
import random
from typing import Any


class OverdueCountEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Paged invoices; count the overdue ones."""

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        client = rng.choice(["Halvorsen AS", "Quispe Ltda", "Mbeki & Co", "Sato KK", "Novak s.r.o.", "Ortega SL"])
        today = datetime.date(2025, rng.randint(2, 11), rng.randint(1, 28))
        invoices = []
        for i in range(rng.randint(18, 40)):
            due = today + datetime.timedelta(days=rng.randint(-90, 60))
            invoices.append({"id": f"INV-{rng.randint(10, 99)}{i:03d}", "due": due.isoformat(),
                             "amount": rng.randint(50, 5000), "paid": rng.random() < 0.45})
        overdue = sum(1 for inv in invoices if not inv["paid"] and inv["due"] < today.isoformat())
        self._state = {"invoices": invoices, "today": today.isoformat()}
        self._expected_answer = str(overdue)
        self._tools = {
            "list_invoices": {"description": "One page (10 invoices) of the client's invoices: id, due date, amount, "
                                             "paid flag. Pages start at 1.",
                              "parameters": {"type": "object", "properties": {"page": {"type": "integer"}},
                                             "required": ["page"]}},
            "validate_answer": {"description": "Pre-submission check of a candidate count.",
                                "parameters": {"type": "object", "properties": {"value": {"type": "integer"}},
                                               "required": ["value"]}},
        }
        pages = (len(invoices) + 9) // 10
        text = (f"How many of {client}'s invoices are overdue on {today.isoformat()} (unpaid and due before that "
                f"date)? The invoice list has {pages} pages. Answer with the count, e.g. <answer>7</answer>. One "
                "answer is judged.")
        return text, {"pages": pages}

    def tool_list_invoices(self, page: Any = 1) -> str:
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise ValueError("page must be a positive integer")
        rows = self._state["invoices"][(page - 1) * 10: page * 10]
        if not rows:
            return "No invoices on this page."
        return "\n".join(f"{r['id']}: due {r['due']}, {r['amount']} EUR, {'paid' if r['paid'] else 'unpaid'}"
                         for r in rows)

    def tool_validate_answer(self, value: Any = None) -> str:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("value must be an integer")
        return "correct" if str(value) == self._expected_answer else "incorrect"

    def solution(self) -> list[Any]:
        pages = (len(self._state["invoices"]) + 9) // 10
        return [{"name": "list_invoices", "arguments": {"page": p}} for p in range(1, pages + 1)] + [self._expected_answer]
