# expect: valid
"""Support Lookup: the ID of a customer's most recent ticket (skill: Data Retrieval).

Looks suspicious: the answer is an identifier that appears verbatim in a tool result, and the agent
"only copies" it; a leak check that flags answers visible to the agent, or one that treats any
verbatim answer in an observation as a leak, may reject it.

Why it is correct: the ID is not in the task text or in any tool description; it appears only in
the results of the tools the agent must call (find the customer, list their tickets, compare the
dates), which is exactly the retrieval skill the task trains. Guessing an ID without the tools wins
essentially never.
"""

import random

NAMES = ["Ayla Demir", "Bo Lindgren", "Carla Ruiz", "Dev Patel", "Elsa Berg", "Femi Adeyemi", "Gus Moreau"]


class SupportLookupEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Customer -> tickets -> latest."""

    def reset(self, seed=None):
        rng = random.Random(seed)
        customers = {f"C{rng.randint(1000, 9999)}{i}": name for i, name in enumerate(rng.sample(NAMES, 5))}
        tickets = {}
        days = rng.sample(range(1, 365), 20)
        for day in days:
            tickets[f"TK-{rng.randint(100000, 999999)}"] = {"customer": rng.choice(sorted(customers)), "day": day}
        self._name = rng.choice([customers[c] for c in sorted({t["customer"] for t in tickets.values()})])
        self._customer = next(c for c, n in customers.items() if n == self._name)
        mine = [t for t, v in tickets.items() if v["customer"] == self._customer]
        self._expected_answer = max(mine, key=lambda t: tickets[t]["day"])
        self._state = {"customers": customers, "tickets": tickets}
        self._tools = {
            "find_customer": {"description": "Find a customer's id by full name.",
                              "parameters": {"type": "object", "properties": {"name": {"type": "string"}},
                                             "required": ["name"]}},
            "list_tickets": {"description": "List a customer's ticket IDs with the day (of the year) each was opened.",
                             "parameters": {"type": "object", "properties": {"customer_id": {"type": "string"}},
                                            "required": ["customer_id"]}},
        }
        return (f"{self._name} is calling about their most recent support ticket. Which ticket is it? Answer with "
                "the ticket ID as <answer>TK-000000</answer>."), {}

    def tool_find_customer(self, name=""):
        found = [c for c, n in self._state["customers"].items() if n.lower() == str(name).strip().lower()]
        return f"{name}: customer id {found[0]}" if found else f"No customer named {name!r}."

    def tool_list_tickets(self, customer_id=""):
        mine = sorted((v["day"], t) for t, v in self._state["tickets"].items() if v["customer"] == str(customer_id))
        return "\n".join(f"{t}: opened on day {d}" for d, t in mine) if mine else f"No tickets for {customer_id!r}."

    def solution(self):
        return [{"name": "find_customer", "arguments": {"name": self._name}},
                {"name": "list_tickets", "arguments": {"customer_id": self._customer}},
                self._expected_answer]
