# expect: valid
"""Sprint Board: create, assign and schedule a task, one instruction at a time (skill: State Modification).

This project's multi-instruction style: ``self._user_messages = [{"message": ..., "check": ...}]``;
the base class reveals the next instruction once the current check holds on ``self._state`` and
accepts <answer>done</answer> only after all of them.

Looks suspicious: an <answer>done</answer> task, the kind a constant policy wins when the checks are
weak; and later instructions refer to a task id the agent only learns from a tool result.
Why it is correct: no check holds at reset (the task does not exist yet), each check needs its own
instruction's change, the new task's id comes from create_task's result (assign_task refuses unknown
ids), and "done" before the instructions are complete is refused. solution() wins every seed.
"""

import random

PEOPLE = ["ana", "bilal", "chen", "dora", "emil", "fatou"]
WORDS = ["login", "invoice", "search", "upload", "profile", "export", "billing", "sync"]


class SprintBoardEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Three dependent edits on a task board."""

    def reset(self, seed=None):
        rng = random.Random(seed)
        existing = {f"T{n}": {"title": f"Fix {rng.choice(WORDS)} bug", "assignee": rng.choice(PEOPLE), "due": None}
                    for n in rng.sample(range(100, 200), 5)}
        self._next_id = rng.randint(200, 999)
        self._title = f"Add {rng.choice(WORDS)} {rng.choice(['tests', 'docs', 'metrics', 'alerts'])}"
        self._person = rng.choice(PEOPLE)
        self._due = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        self._state = {"tasks": existing, "next_id": self._next_id}
        self._expected_answer = "done"
        self._tools = {
            "list_tasks": {"description": "List the tasks on the board.",
                           "parameters": {"type": "object", "properties": {}, "required": []}},
            "create_task": {"description": "Create a task; returns its id.",
                            "parameters": {"type": "object", "properties": {"title": {"type": "string"}},
                                           "required": ["title"]}},
            "assign_task": {"description": "Assign a task to a person.",
                            "parameters": {"type": "object", "properties": {
                                "task_id": {"type": "string"}, "person": {"type": "string", "enum": PEOPLE}},
                                "required": ["task_id", "person"]}},
            "set_due": {"description": "Set a task's due date (YYYY-MM-DD).",
                        "parameters": {"type": "object", "properties": {
                            "task_id": {"type": "string"}, "date": {"type": "string"}}, "required": ["task_id", "date"]}},
        }
        title, person, due = self._title, self._person, self._due
        new = lambda s: [t for t, v in s["tasks"].items() if v["title"] == title]  # noqa: E731
        self._user_messages = [
            {"message": f"Create a task called '{title}'.", "check": lambda s: len(new(s)) == 1},
            {"message": f"Assign it to {person}.",
             "check": lambda s: len(new(s)) == 1 and s["tasks"][new(s)[0]]["assignee"] == person},
            {"message": f"It is due on {due}.", "check": lambda s: len(new(s)) == 1 and s["tasks"][new(s)[0]]["due"] == due},
        ]
        return "You manage the team's sprint board.", {}

    def tool_list_tasks(self):
        return "\n".join(f"{t}: {v['title']} ({v['assignee'] or 'unassigned'}, due {v['due'] or '-'})"
                         for t, v in sorted(self._state["tasks"].items()))

    def tool_create_task(self, title=""):
        title = str(title).strip()
        if not title:
            return "Error: a task needs a title."
        task_id = f"T{self._state['next_id']}"
        self._state["next_id"] += 1
        self._state["tasks"][task_id] = {"title": title, "assignee": None, "due": None}
        return f"Created {task_id}: {title}"

    def tool_assign_task(self, task_id="", person=""):
        task = self._state["tasks"].get(str(task_id))
        if task is None or person not in PEOPLE:
            return "Error: unknown task or person."
        task["assignee"] = person
        return f"{task_id} assigned to {person}."

    def tool_set_due(self, task_id="", date=""):
        task = self._state["tasks"].get(str(task_id))
        if task is None or not str(date).count("-") == 2:
            return "Error: unknown task or date."
        task["due"] = str(date)
        return f"{task_id} due {date}."

    def solution(self):
        task_id = f"T{self._next_id}"
        return [
            {"name": "create_task", "arguments": {"title": self._title}},
            {"name": "assign_task", "arguments": {"task_id": task_id, "person": self._person}},
            {"name": "set_due", "arguments": {"task_id": task_id, "date": self._due}},
            "done",
        ]
