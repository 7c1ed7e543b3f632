"""Accounts receivable (tool use): total the open invoices of a client."""

import random

_CLIENTS = ["Halvorsen & Co", "Birch Dental", "Marlow Studios", "Quayle Freight", "Orchid Foods",
            "Tamsin Legal"]
PAGE_SIZE = 5


class ReceivablesEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns=8, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        client = rng.choice(_CLIENTS)
        n = rng.randint(7, 19)
        invoices = []
        for _ in range(n):
            invoices.append({"id": "INV-" + "".join(rng.choice("ABCDEFGHJKMNPQRSTVWXYZ23456789") for _ in range(6)),
                             "amount": rng.randint(40, 2500), "due": f"2024-0{rng.randint(1, 9)}-{rng.randint(10, 28)}"})
        self._state = {"client": client, "invoices": invoices}
        self._expected_answer = sum(i["amount"] for i in invoices)
        self._tools = {
            "client_summary": {"description": "Number of open invoices and pages for the client.",
                               "parameters": {"type": "object", "properties": {}}},
            "list_invoices": {"description": f"Open invoices of the client, {PAGE_SIZE} per page; pages start at 1.",
                              "parameters": {"type": "object", "properties": {"page": {"type": "integer",
                                                                                        "minimum": 1}},
                                             "required": ["page"]}},
        }
        task = (f"Our client {client} asks for the total amount (EUR) of all their open invoices. Use the tools "
                "and reply with the total as <answer>N</answer>.")
        return task, {"client": client}

    def _pages(self):
        return (len(self._state["invoices"]) + PAGE_SIZE - 1) // PAGE_SIZE

    def tool_client_summary(self):
        return f"{len(self._state['invoices'])} open invoices over {self._pages()} pages"

    def tool_list_invoices(self, page=None):
        if isinstance(page, bool) or not isinstance(page, int):
            raise ValueError("page must be an integer")
        if page < 1 or page >= self._pages():
            raise ValueError(f"page out of range (1-{self._pages()})")
        chunk = self._state["invoices"][(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
        return "\n".join(f"{i['id']}: EUR {i['amount']} due {i['due']}" for i in chunk)

    def solution(self):
        calls = [{"name": "client_summary", "arguments": {}}]
        calls += [{"name": "list_invoices", "arguments": {"page": p}} for p in range(1, self._pages() + 1)]
        return calls + [self._expected_answer]
