# expect: valid
"""Savings Move: transfer money to savings and report the new savings balance (skill: API Orchestration).

Looks suspicious: it is the same shape as the classic "the answer can be computed from the task text,
so the tool calls can be skipped" defect (move X, report a balance).

Why it is correct: the task text gives the amount but not the savings balance, which only
get_balance shows, and ``check_answer`` also requires that the transfer really happened (the
recorded transfer of exactly that amount), so answering without the tool calls loses even with a
lucky number.
"""

import random


class SavingsMoveEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Transfer, then read the balance."""

    def reset(self, seed=None):
        rng = random.Random(seed)
        checking = rng.randint(500, 9000)
        savings = rng.randint(0, 30000)
        self._amount = rng.randint(50, checking - 10)
        self._state = {"accounts": {"checking": checking, "savings": savings}, "transfers": []}
        self._expected_answer = savings + self._amount
        self._tools = {
            "get_balance": {"description": "Show the balance of an account.",
                            "parameters": {"type": "object", "properties": {
                                "account": {"type": "string", "enum": ["checking", "savings"]}}, "required": ["account"]}},
            "transfer": {"description": "Move money from one of your accounts to the other.",
                         "parameters": {"type": "object", "properties": {
                             "source": {"type": "string", "enum": ["checking", "savings"]},
                             "amount": {"type": "integer"}}, "required": ["source", "amount"]}},
        }
        return (f"Move {self._amount} from checking to savings, then answer with the new savings balance as "
                "<answer>n</answer>."), {}

    def check_answer(self, answer):
        moved = ("checking", "savings", self._amount) in self._state["transfers"]
        return moved and super().check_answer(answer)

    def tool_get_balance(self, account=""):
        if account not in self._state["accounts"]:
            return f"Error: unknown account {account!r}."
        return f"{account}: {self._state['accounts'][account]}"

    def tool_transfer(self, source="", amount=0):
        accounts = self._state["accounts"]
        if source not in accounts or not isinstance(amount, int) or not 0 < amount <= accounts[source]:
            return "Error: invalid transfer."
        target = "savings" if source == "checking" else "checking"
        accounts[source] -= amount
        accounts[target] += amount
        self._state["transfers"].append((source, target, amount))
        return f"Moved {amount} from {source} to {target}."

    def solution(self):
        return [{"name": "transfer", "arguments": {"source": "checking", "amount": self._amount}},
                {"name": "get_balance", "arguments": {"account": "savings"}},
                str(self._expected_answer)]
