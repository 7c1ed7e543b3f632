# expect: valid
"""Bill Pay: check a balance, pay a bill, sweep the surplus, in the SPADE release's style (skill: State Modification).

Written the way the release's multi-turn tool-use prompt asks (string instructions,
``_message_criteria``, ``_advance_if_done`` appended to every tool result, ``_check_answer`` for
"done", one-string solution), with its "read_then_write" and "missing_value" variants: the agent must
read the balance, discover the invoice id with a read tool (pay_invoice refuses guessed ids), and
transfer an amount that depends on what it read.

Looks suspicious: release-style instructions and criteria, a one-string solution, and a first
instruction that is a pure READ ("check my balance"), the kind of step whose criterion is often true
at reset.
Why it is correct: the read step's criterion checks a flag set by get_balance (as the release prompt
prescribes), not the balance itself, so every criterion is False at reset; the amount to sweep is
derivable from the balance and the invoice the tools show; replayed block by block the solution wins
every seed.
"""

import json
import random
from typing import Tuple

PAYEES = ["electricity", "water", "internet", "phone", "insurance"]


class BillPayEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None) -> Tuple[str, dict]:
        self.turn_count = 0
        self._call_history = []
        rng = random.Random(seed)
        self._payee = rng.choice(PAYEES)
        invoices = {}
        for payee in PAYEES:
            invoices[f"INV-{rng.randint(10000, 99999)}"] = {"payee": payee, "amount": rng.randint(30, 400), "paid": False}
        self._invoice = next(i for i, v in invoices.items() if v["payee"] == self._payee)
        checking = rng.randint(900, 4000)
        self._state = {"checking": checking, "savings": rng.randint(0, 9000), "invoices": invoices,
                       "balance_checked": False}
        self._sweep = checking - invoices[self._invoice]["amount"] - 500
        savings_after = self._state["savings"] + self._sweep
        self._tools = {
            "get_balance": {"description": "Show the checking and savings balances",
                            "parameters": {"type": "object", "properties": {}}},
            "list_invoices": {"description": "List open invoices with payee and amount",
                              "parameters": {"type": "object", "properties": {}}},
            "pay_invoice": {"description": "Pay an invoice from checking",
                            "parameters": {"type": "object", "properties": {"invoice_id": {"type": "string"}},
                                           "required": ["invoice_id"]}},
            "transfer": {"description": "Move money between accounts",
                         "parameters": {"type": "object", "properties": {
                             "source": {"type": "string", "enum": ["checking", "savings"]},
                             "amount": {"type": "integer"}}, "required": ["source", "amount"]}},
        }
        invoice = self._invoice
        self._user_messages = [
            "Can you check my account balances?",
            f"Please pay my {self._payee} invoice from checking.",
            "Now move everything above 500 in checking to savings.",
        ]
        self._message_criteria = [
            lambda s: s["balance_checked"],
            lambda s: s["invoices"][invoice]["paid"],
            lambda s: s["checking"] == 500 and s["savings"] == savings_after,
        ]
        self._current_msg = 0
        self._expected_answer = "done"
        return (self._user_messages[0], {})

    def _advance_if_done(self) -> str:
        if self._current_msg >= len(self._user_messages):
            return ""
        if self._message_criteria[self._current_msg](self._state):
            self._current_msg += 1
            if self._current_msg >= len(self._user_messages):
                return "\n\n[ALL STEPS COMPLETE] Submit <answer>done</answer>."
            next_msg = self._user_messages[self._current_msg]
            return f"\n\n[STEP {self._current_msg} COMPLETE — NEW INSTRUCTION] {next_msg}"
        return ""

    def _check_answer(self, answer: str) -> bool:
        return answer.strip().lower() == "done" and self._current_msg >= len(self._user_messages)

    def tool_get_balance(self) -> str:
        self._state["balance_checked"] = True
        return json.dumps({"checking": self._state["checking"], "savings": self._state["savings"]}) + self._advance_if_done()

    def tool_list_invoices(self) -> str:
        open_ = {i: {"payee": v["payee"], "amount": v["amount"]} for i, v in sorted(self._state["invoices"].items())
                 if not v["paid"]}
        return json.dumps(open_) + self._advance_if_done()

    def tool_pay_invoice(self, invoice_id="") -> str:
        invoice = self._state["invoices"].get(invoice_id)
        if invoice is None:
            return f"Error: invoice {invoice_id} not found" + self._advance_if_done()
        if invoice["paid"]:
            return f"Error: {invoice_id} is already paid" + self._advance_if_done()
        if invoice["amount"] > self._state["checking"]:
            return "Error: insufficient funds" + self._advance_if_done()
        invoice["paid"] = True
        self._state["checking"] -= invoice["amount"]
        return f"Paid {invoice_id} ({invoice['amount']})" + self._advance_if_done()

    def tool_transfer(self, source="checking", amount=0) -> str:
        other = "savings" if source == "checking" else "checking"
        if source not in ("checking", "savings") or not isinstance(amount, int) or not 0 < amount <= self._state[source]:
            return "Error: invalid transfer" + self._advance_if_done()
        self._state[source] -= amount
        self._state[other] += amount
        return f"Moved {amount} from {source} to {other}" + self._advance_if_done()

    def solution(self) -> str:
        calls = [
            {"name": "get_balance", "arguments": {}},
            {"name": "list_invoices", "arguments": {}},
            {"name": "pay_invoice", "arguments": {"invoice_id": self._invoice}},
            {"name": "transfer", "arguments": {"source": "checking", "amount": self._sweep}},
        ]
        return "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls) + "<answer>done</answer>"
