# expect: hint_leak
"""Region Ledger: total balance of the accounts of one region (a defect-zoo environment).

The environment: a tool-use task in this project's style. The agent lists the accounts, looks up each
one's region and balance, and answers with the total balance of the asked region. hint() is the
optional hint.

The defect: hint() lists the exact tool calls to make, i.e. exactly which accounts belong to the
region ("Call get_account for acme, delta and fjord and add up their balances."), so the filtering
that is the whole task is done for the agent.
Exploit: make the get_account calls the hint names, add the balances and answer; this wins every seed.
"""

import random

NAMES = ["acme", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper"]


class RegionLedgerEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Sum the balances of one region's accounts."""

    def __init__(self, max_turns=14, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        names = rng.sample(NAMES, 9)
        regions = ["north", "south", "east"]
        accounts = {n: {"region": regions[i % 3], "balance": rng.randint(10, 9999)} for i, n in enumerate(names)}
        self._state = {"accounts": accounts}
        self._region = rng.choice(regions)
        self._members = sorted(n for n, a in accounts.items() if a["region"] == self._region)
        self._expected_answer = sum(accounts[n]["balance"] for n in self._members)
        self._tools = {
            "list_accounts": {"description": "List all account names.",
                              "parameters": {"type": "object", "properties": {}, "required": []}},
            "get_account": {"description": "Show one account's region and balance.",
                            "parameters": {"type": "object", "properties": {"name": {"type": "string"}},
                                           "required": ["name"]}},
        }
        return (f"What is the total balance of the accounts in the {self._region} region? Use the tools, "
                "then answer with the number as <answer>n</answer>."), {}

    def hint(self):
        names = ", ".join(self._members[:-1]) + " and " + self._members[-1]
        return f"Call get_account for {names} and add up their balances."  # defect: the exact calls

    def tool_list_accounts(self):
        return ", ".join(sorted(self._state["accounts"]))

    def tool_get_account(self, name=""):
        account = self._state["accounts"].get(str(name))
        if account is None:
            return f"No account named {name!r}."
        return f"{name}: region={account['region']}, balance={account['balance']}"

    def solution(self):
        calls = [{"name": "list_accounts", "arguments": {}}]
        calls += [{"name": "get_account", "arguments": {"name": n}} for n in sorted(self._state["accounts"])]
        return calls + [str(self._expected_answer)]
