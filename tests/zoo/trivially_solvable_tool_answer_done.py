# expect: trivially_solvable
"""Ticket Cleanup: archive every closed support ticket, then reply done (a defect-zoo environment).

The environment: a tool-use task in this project's style. The agent lists the tickets, archives the
closed ones (archiving an open ticket is refused) and replies <answer>done</answer>.

The defect: ``check_answer`` only checks the word: it returns ``answer == "done"`` and never looks
at whether the closed tickets were archived, so the very first reply can be the final one.
Exploit: the constant action "<answer>done</answer>" wins every seed on the first turn.
"""

import random


class TicketCleanupEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Archive the closed tickets."""

    def __init__(self, max_turns=15, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        tickets = {}
        for number in rng.sample(range(1000, 9999), 9):
            tickets[f"TK{number}"] = {"status": rng.choice(["open", "closed", "pending"]), "archived": False}
        first = sorted(tickets)[0]
        tickets[first]["status"] = "closed"  # at least one ticket to archive
        self._state = {"tickets": tickets}
        self._expected_answer = "done"
        self._tools = {
            "list_tickets": {
                "description": "List all tickets with their status.",
                "parameters": {"type": "object", "properties": {}, "required": []},
            },
            "archive_ticket": {
                "description": "Archive one closed ticket.",
                "parameters": {"type": "object", "properties": {"ticket_id": {"type": "string"}},
                               "required": ["ticket_id"]},
            },
        }
        return ("Archive every closed ticket (leave open and pending ones alone). When all closed tickets "
                "are archived, reply <answer>done</answer>."), {}

    def check_answer(self, answer):
        return str(answer).strip().lower() == "done"  # defect: the archive state is never checked

    def tool_list_tickets(self):
        return "\n".join(f"{t}: {v['status']}{' (archived)' if v['archived'] else ''}"
                         for t, v in sorted(self._state["tickets"].items()))

    def tool_archive_ticket(self, ticket_id=""):
        ticket = self._state["tickets"].get(str(ticket_id))
        if ticket is None:
            return f"Error: no ticket {ticket_id!r}."
        if ticket["status"] != "closed":
            return f"Error: {ticket_id} is {ticket['status']}; only closed tickets can be archived."
        ticket["archived"] = True
        return f"Archived {ticket_id}."

    def solution(self):
        closed = [t for t, v in sorted(self._state["tickets"].items()) if v["status"] == "closed"]
        calls = [{"name": "list_tickets", "arguments": {}}]
        calls += [{"name": "archive_ticket", "arguments": {"ticket_id": t}} for t in closed]
        return calls + ["done"]
