# expect: valid
"""Ledger Audit: a tool-use environment in the SPADE release's style (skill: Data Retrieval).

Its ``list_accounts`` tool is described without a ``parameters`` schema. The release's base class
reads that as a tool without parameters (``{"type": "object", "properties": {}}``), and so does ours,
so code written that way validates unchanged.

It subclasses ToolUseBaseEnv WITHOUT importing it: the loader places the name in the module's
namespace, exactly as in the release. The base class parses <tool_call> / <answer> and counts turns.
"""

import random

NAMES = ["acme", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor"]


class LedgerAuditEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Sum the balances of the accounts that belong to one region."""

    def reset(self, seed=None):
        rng = random.Random(seed)
        names = rng.sample(NAMES, 5)
        regions = ["north", "south"]
        self._state = {
            "accounts": {
                name: {"region": rng.choice(regions), "balance": rng.randint(10, 999)} for name in names
            }
        }
        self._region = rng.choice(regions)
        self._expected_answer = sum(
            a["balance"] for a in self._state["accounts"].values() if a["region"] == self._region
        )
        self._tools = {
            "list_accounts": {  # no "parameters": a tool that takes none
                "description": "List the names of all accounts in the ledger.",
            },
            "get_account": {
                "description": "Return the region and balance of one account.",
                "parameters": {
                    "type": "object",
                    "properties": {"name": {"type": "string", "description": "account name"}},
                    "required": ["name"],
                },
            },
        }
        task = (
            f"What is the total balance of all accounts in the {self._region} region? Use the tools, "
            "then give the number as <answer>...</answer>."
        )
        return task, {}

    def tool_list_accounts(self):
        return ", ".join(sorted(self._state["accounts"]))

    def tool_get_account(self, name):
        account = self._state["accounts"].get(str(name))
        if account is None:
            return f"No account named {name!r}."
        return f"{name}: region={account['region']}, balance={account['balance']}"

    def solution(self):
        calls = [{"name": "list_accounts", "arguments": {}}]
        calls += [{"name": "get_account", "arguments": {"name": n}} for n in sorted(self._state["accounts"])]
        return calls + [str(self._expected_answer)]
