# expect: step_budget
"""Savings Projection: the balance of a savings account after some months (a defect-zoo environment).

The environment: a tool-use task in this project's style. The agent reads the account's balance and
monthly rate, projects it forward with the simulate tool and answers with the balance (in whole
cents) after the asked number of months.

The defect: the simulate tool loops once per month with no upper bound on its ``months`` argument,
so its cost grows with a number the agent chooses: instant for 12 or 36 months, minutes of CPU for
``{"months": 2147483647}``.
Exploit: the action '<tool_call>{"name": "simulate", "arguments": {"months": 2147483647}}</tool_call>'
makes one step run for minutes; months=24 returns at once.
"""

import random


class SavingsProjectionEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Compound a balance month by month."""

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._state = {"cents": rng.randint(10_000, 5_000_000), "rate_bp": rng.randint(5, 90)}
        self._months = rng.randint(6, 60)
        self._expected_answer = self._project(self._months)
        self._tools = {
            "get_account": {"description": "Show the balance (in cents) and the monthly interest rate (basis points).",
                            "parameters": {"type": "object", "properties": {}, "required": []}},
            "simulate": {"description": "Project the balance forward by a number of months (interest is "
                                        "credited monthly, rounded down to the cent).",
                         "parameters": {"type": "object", "properties": {"months": {"type": "integer"}},
                                        "required": ["months"]}},
        }
        return (f"What will the savings balance be, in whole cents, after {self._months} months? Answer as "
                "<answer>n</answer>."), {}

    def _project(self, months):
        cents = self._state["cents"]
        for _ in range(months):  # defect: no bound on months
            cents += cents * self._state["rate_bp"] // 10_000
            cents %= 10 ** 15  # keep the numbers small; the loop count is the cost
        return cents

    def tool_get_account(self):
        return f"balance {self._state['cents']} cents, monthly rate {self._state['rate_bp']} basis points"

    def tool_simulate(self, months=0):
        if not isinstance(months, int) or months < 0:
            return "Error: months must be a non-negative whole number."
        return f"After {months} months: {self._project(months)} cents"

    def solution(self):
        return [{"name": "get_account", "arguments": {}},
                {"name": "simulate", "arguments": {"months": self._months}},
                str(self._expected_answer)]
