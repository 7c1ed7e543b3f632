"""BankWorkflowEnv: carry out a customer's banking requests, revealed one at a time, by changing state.

Why this shape: each episode is a short support conversation (open an account, fund it, move money,
freeze a lost card). Requests arrive one by one and each is checked against the bank's state, not the
agent's words, so the skill is Multi-Step Workflows with real State Modification: look up ids, act in
order, use exact amounts, and recover from rejected calls or a wrong amount (withdraw/transfer back).

ToolUseBaseEnv is not imported: the SPADE loader injects it into this module's namespace.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

_Check = Callable[[dict[str, Any]], bool]

_S = {"type": "string"}
_NUM = {"type": "number"}
_TYPES = ("checking", "savings", "travel", "holiday", "emergency")


def _params(**props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


class BankWorkflowEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the SPADE loader
    """Tool-use multi-instruction env (Multi-Step Workflows / State Modification)."""

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        """Seed a customer with two accounts and cards, then 3-4 requests with exact expected outcomes."""
        rng = random.Random(seed)
        customer, base = f"C-{rng.randint(1000, 9999)}", rng.randint(1001, 8000)
        checking, savings = f"AC-{base}", f"AC-{base + 1}"
        # checking starts >= 1500 so that funding (< 600) still fits after a move of up to 60% of it
        balances = (float(rng.randint(1500, 4000)), float(rng.randint(1000, 6000)))
        accounts = {acct: {"owner": customer, "type": kind, "balance": balance}
                    for acct, kind, balance in zip((checking, savings), ("checking", "savings"), balances)}
        cards = {f"CD-{rng.randint(10000, 99999)}{i}": {"last4": str(last4), "status": "active",
                                                     "account": rng.choice([checking, savings])}
                 for i, last4 in enumerate(rng.sample(range(1000, 10000), rng.randint(2, 3)))}
        self._state = {"customer": customer, "accounts": accounts, "cards": cards, "next_account": base + 2}
        self._tools = {
            "list_accounts": {"description": "List a customer's accounts (id, type, balance).",
                              "parameters": _params(customer_id=_S)},
            "open_account": {"description": f"Open a new account; account_type: {', '.join(_TYPES)}.",
                             "parameters": _params(customer_id=_S, account_type=_S)},
            "deposit": {"description": "Deposit cash (USD) into an account.",
                        "parameters": _params(account_id=_S, amount=_NUM)},
            "withdraw": {"description": "Withdraw cash (USD) from an account.",
                         "parameters": _params(account_id=_S, amount=_NUM)},
            "transfer": {"description": "Move money (USD) between two accounts.",
                         "parameters": _params(from_account_id=_S, to_account_id=_S, amount=_NUM)},
            "list_cards": {"description": "List a customer's cards (id, last four digits, status).",
                           "parameters": _params(customer_id=_S)},
            "freeze_card": {"description": "Freeze a card.", "parameters": _params(card_id=_S)},
            "unfreeze_card": {"description": "Unfreeze a card.", "parameters": _params(card_id=_S)},
        }
        extras = rng.sample(["move", "freeze"], rng.choice([1, 2]))
        split = 1 if rng.random() < 0.3 else 0  # sometimes a side request comes first
        order = extras[:split] + ["open", "fund"] + extras[split:]
        new_type, new_id = rng.choice(_TYPES[2:]), f"AC-{base + 2}"  # never "my savings" twice
        funding, by_transfer = float(rng.randrange(100, 600, 5)), rng.random() < 0.5
        ledger = {a: v["balance"] for a, v in accounts.items()}  # expected balances, request by request
        ordered: list[tuple[str, _Check, dict[str, Any]]] = []
        for kind in order:
            if kind == "open":
                message, check = f"Please open a new {new_type} account for me.", self._has_new(new_type)
                call = self._call("open_account", customer_id=customer, account_type=new_type)
            elif kind == "fund" and not by_transfer:
                message = f"I have ${funding:.0f} in cash: please deposit it into the new {new_type} account."
                check = self._has_new(new_type, funding)
                call = self._call("deposit", account_id=new_id, amount=funding)
            elif kind == "fund":
                ledger[checking] -= funding
                opened, debited = self._has_new(new_type, funding), self._balances(checking, ledger)
                message = f"Fund the new {new_type} account with ${funding:.0f} from my checking account."
                check = lambda state, a=opened, b=debited: a(state) and b(state)
                call = self._call("transfer", from_account_id=checking, to_account_id=new_id, amount=funding)
            elif kind == "move":
                (src, s_kind), (dst, d_kind) = rng.sample([(checking, "checking"), (savings, "savings")], 2)
                moved = float(rng.randrange(50, int(ledger[src] * 0.6), 5))
                ledger[src], ledger[dst] = ledger[src] - moved, ledger[dst] + moved
                message = f"Transfer ${moved:.0f} from my {s_kind} to my {d_kind} account."
                check = self._balances(src, ledger, dst)
                call = self._call("transfer", from_account_id=src, to_account_id=dst, amount=moved)
            else:
                card = rng.choice(sorted(cards))
                message = f"I think I lost my card ending in {cards[card]['last4']}. Please freeze it."
                check = lambda state, c=card: state["cards"][c]["status"] == "frozen"
                call = self._call("freeze_card", card_id=card)
            ordered.append((message, check, call))
        self._user_messages = [{"message": m, "check": c} for m, c, _ in ordered]
        self._plan = [call for _, _, call in ordered]
        self._expected_answer = "done"
        obs = (f"You are a bank support agent with banking tools. The customer's id is {customer}. Carry out "
               f"each request with the tools; when everything is done, reply <answer>done</answer>.")
        return obs, {"requests": len(ordered)}

    @staticmethod
    def _has_new(kind: str, amount: float | None = None) -> _Check:
        """An account of this type opened during the episode (holding exactly `amount`, if given)."""
        return lambda st: any(a.get("new") and a["type"] == kind and
                              (amount is None or abs(a["balance"] - amount) < 0.005)
                              for a in st["accounts"].values())

    @staticmethod
    def _balances(account: str, ledger: dict[str, float], other: str = "") -> _Check:
        """The named accounts hold what the ledger says now (a snapshot, not a live view)."""
        expected = {a: ledger[a] for a in (account, other) if a}
        return lambda st: all(abs(st["accounts"][a]["balance"] - b) < 0.005 for a, b in expected.items())

    @staticmethod
    def _call(name: str, **arguments: Any) -> dict[str, Any]:
        return {"name": name, "arguments": arguments}

    @staticmethod
    def _text(value: Any, name: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"'{name}' must be a non-empty string")
        return value.strip().upper()

    def _get(self, table: str, value: Any, name: str = "account_id") -> dict[str, Any]:
        """An account or card by id; `table` is 'accounts' or 'cards'."""
        found = self._state[table].get(self._text(value, name))
        if found is None:
            raise ValueError(f"no {table[:-1]} {value!r}; use list_{table} to see the customer's ids")
        return found

    def _customer(self, value: Any) -> str:
        if self._text(value, "customer_id") != self._state["customer"]:
            raise ValueError(f"unknown customer {value!r}")
        return self._state["customer"]

    @staticmethod
    def _amount(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not 0 < value <= 100000 or abs(round(value, 2) - value) > 1e-9:
            raise ValueError("'amount' must be a positive number of dollars (at most 100000, 2 decimals)")
        return float(value)

    def tool_list_accounts(self, customer_id: Any = None) -> str:
        self._customer(customer_id)
        return "\n".join(f"{i}: {a['type']}, balance {a['balance']:.2f} USD"
                         for i, a in sorted(self._state["accounts"].items()))

    def tool_open_account(self, customer_id: Any = None, account_type: Any = None) -> str:
        owner, kind = self._customer(customer_id), self._text(account_type, "account_type").lower()
        if kind not in _TYPES:
            raise ValueError(f"account_type must be one of {', '.join(_TYPES)}")
        new_id = f"AC-{self._state['next_account']}"
        self._state["next_account"] += 1
        self._state["accounts"][new_id] = {"owner": owner, "type": kind, "balance": 0.0, "new": True}
        return f"Opened {kind} account {new_id}."

    @staticmethod
    def _adjust(account: dict[str, Any], delta: float) -> str:
        if account["balance"] + delta < -1e-9:
            raise ValueError(f"insufficient funds: the account holds {account['balance']:.2f} USD")
        account["balance"] = round(account["balance"] + delta, 2)
        return f"new balance {account['balance']:.2f} USD."

    def tool_deposit(self, account_id: Any = None, amount: Any = None) -> str:
        value = self._amount(amount)
        return f"Deposited {value:.2f} USD; " + self._adjust(self._get("accounts", account_id), value)

    def tool_withdraw(self, account_id: Any = None, amount: Any = None) -> str:
        value = self._amount(amount)
        return f"Withdrew {value:.2f} USD; " + self._adjust(self._get("accounts", account_id), -value)

    def tool_transfer(self, from_account_id: Any = None, to_account_id: Any = None,
                      amount: Any = None) -> str:
        source = self._get("accounts", from_account_id, "from_account_id")
        target, value = self._get("accounts", to_account_id, "to_account_id"), self._amount(amount)
        if source is target:
            raise ValueError("cannot transfer to the same account")
        self._adjust(source, -value)
        return f"Transferred {value:.2f} USD; destination " + self._adjust(target, value)

    def tool_list_cards(self, customer_id: Any = None) -> str:
        self._customer(customer_id)
        return "\n".join(f"{i}: ending {c['last4']}, linked to {c['account']}, {c['status']}"
                         for i, c in sorted(self._state["cards"].items()))

    def tool_freeze_card(self, card_id: Any = None) -> str:
        self._get("cards", card_id, "card_id")["status"] = "frozen"
        return "Card frozen."

    def tool_unfreeze_card(self, card_id: Any = None) -> str:
        self._get("cards", card_id, "card_id")["status"] = "active"
        return "Card active."

    def solution(self) -> list[Any]:
        """The state-changing calls in request order, then 'done'."""
        return [{"name": c["name"], "arguments": dict(c["arguments"])} for c in self._plan] + ["done"]
