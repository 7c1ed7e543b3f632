# expect: answer_format
"""Renewal Desk: when does a customer's subscription renew? (a defect-zoo environment).

The environment: a tool-use task in this project's style. The agent looks the customer up, reads
the start date and the plan length and answers with the renewal date; the task asks for the date
"in YYYY-MM-DD format".

The defect: the overridden ``check_answer`` compares with the date written DD/MM/YYYY, so an answer
in the requested format never matches; solution() answers in DD/MM/YYYY.
Exploit: none for the agent; "<answer>2025-03-14</answer>" (as instructed) loses on every seed while
"<answer>14/03/2025</answer>" wins.
"""

import datetime
import random

CUSTOMERS = ["Aiko", "Bram", "Cleo", "Dario", "Esme", "Femi", "Gil", "Hedda", "Ivo", "Juno"]


class RenewalDeskEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """start date + plan months."""

    def reset(self, seed=None):
        rng = random.Random(seed)
        customers = {}
        for name in rng.sample(CUSTOMERS, 6):
            start = datetime.date(2024, 1, 1) + datetime.timedelta(days=rng.randint(0, 500))
            customers[name] = {"start": start, "days": rng.choice([30, 90, 180, 365])}
        self._customer = rng.choice(sorted(customers))
        info = customers[self._customer]
        self._renewal = info["start"] + datetime.timedelta(days=info["days"])
        self._state = {"customers": customers}
        self._expected_answer = self._renewal.strftime("%d/%m/%Y")
        self._tools = {
            "find_customer": {"description": "Show a customer's subscription start date and plan.",
                              "parameters": {"type": "object", "properties": {"name": {"type": "string"}},
                                             "required": ["name"]}},
            "list_plans": {"description": "List the plan lengths on offer.",
                           "parameters": {"type": "object", "properties": {}, "required": []}},
        }
        return (f"{self._customer} asks when their subscription renews (the start date plus the plan length in "
                "days). Answer with the date in YYYY-MM-DD format, e.g. <answer>2025-03-14</answer>."), {}

    def check_answer(self, answer):
        return str(answer).strip() == self._expected_answer  # defect: DD/MM/YYYY only

    def tool_find_customer(self, name=""):
        info = self._state["customers"].get(str(name).strip().title())
        if info is None:
            return f"No customer {name!r}."
        return f"{name}: started {info['start'].isoformat()}, plan {info['days']} days"

    def tool_list_plans(self):
        return "30, 90, 180 or 365 days"

    def solution(self):
        return [{"name": "find_customer", "arguments": {"name": self._customer}}, self._expected_answer]
