"""IT helpdesk (tool use, multi-instruction): onboard a new hire and offboard a leaver, request by request."""

import random

_FIRST = ["Nora", "Ilya", "Maren", "Osei", "Talia", "Bruno", "Keiko", "Dario", "Fenna", "Lior"]
_LAST = ["Blake", "Ferreira", "Novak", "Quist", "Haddad", "Lund", "Sato", "Varga", "Okoro", "Pike"]
_DEPTS = ["finance", "legal", "design", "support", "research"]
_GROUPS = ["vpn-users", "printers-3f", "wiki-editors", "payroll-read", "lab-access"]


def _obj(**props):
    return {"type": "object", "properties": props, "required": sorted(props)}


_S, _I = {"type": "string"}, {"type": "integer"}


class HelpdeskOnboardingEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        people = rng.sample([(f, l) for f in _FIRST for l in _LAST], 6)
        users = {}
        for f, l in people[:5]:
            uname = f"{f[0].lower()}{l.lower()}{rng.randint(10, 99)}"
            users[uname] = {"name": f"{f} {l}", "dept": rng.choice(_DEPTS), "groups": set(rng.sample(_GROUPS, 2)),
                            "quota": rng.choice([5, 10, 20]), "active": True}
        hire = f"{people[5][0]} {people[5][1]}"
        dept, group, quota = rng.choice(_DEPTS), rng.choice(_GROUPS), rng.choice([15, 25, 30, 40, 50])
        leaver = rng.choice(sorted(users))
        self._state = {"users": users, "seq": rng.randint(10, 99)}
        self._tools = {
            "list_users": {"description": "All usernames with full names.", "parameters": _obj()},
            "find_user": {"description": "Usernames whose full name contains the text.",
                          "parameters": _obj(name=_S)},
            "get_user": {"description": "Details of one user.", "parameters": _obj(username=_S)},
            "create_user": {"description": f"Create an account; department one of {', '.join(_DEPTS)}. "
                                           "Returns the new username.",
                            "parameters": _obj(full_name=_S, department=_S)},
            "list_groups": {"description": "Groups that exist.", "parameters": _obj()},
            "add_to_group": {"description": "Add a user to a group.", "parameters": _obj(username=_S, group=_S)},
            "remove_from_group": {"description": "Remove a user from a group.",
                                  "parameters": _obj(username=_S, group=_S)},
            "set_quota": {"description": "Set a user's storage quota in GB (1-100).",
                          "parameters": _obj(username=_S, gb=_I)},
            "disable_user": {"description": "Disable an account.", "parameters": _obj(username=_S)},
            "enable_user": {"description": "Re-enable an account.", "parameters": _obj(username=_S)},
        }

        def new(st):
            return [u for u, v in st["users"].items() if v.get("new") and v["name"] == hire]

        def made(st):
            return any(st["users"][u]["dept"] == dept for u in new(st))

        def grouped(st):
            return any(group in st["users"][u]["groups"] and st["users"][u]["active"] for u in new(st))

        def sized(st):
            return any(st["users"][u]["quota"] == quota for u in new(st))

        def gone(st):
            return not st["users"][leaver]["active"]

        self._user_messages = [
            {"message": f"Hi, please create an account for our new hire {hire} in the {dept} department.",
             "check": made},
            {"message": f"Thanks. Please add {hire.split()[0]} to the {group} group.", "check": grouped},
            {"message": f"And set their storage quota to {quota} GB.", "check": sized},
            {"message": f"Last thing: {users[leaver]['name']} left last week, please disable their account.",
             "check": gone},
        ]
        self._plan = (hire, dept, group, quota, leaver)
        self._expected_answer = "done"
        return ("You are the IT helpdesk agent. Handle each request with the tools; when everything is done "
                "reply <answer>done</answer>."), {"requests": 4}

    def _user(self, username):
        key = str(username).strip().lower()
        if key not in self._state["users"]:
            raise ValueError(f"no user {username!r}")
        return self._state["users"][key]

    def tool_list_users(self):
        return "\n".join(f"{u}: {v['name']}" for u, v in sorted(self._state["users"].items()))

    def tool_find_user(self, name=None):
        q = str(name).strip().lower()
        hits = [u for u, v in sorted(self._state["users"].items()) if q and q in v["name"].lower()]
        return ", ".join(hits) or "no match"

    def tool_get_user(self, username=None):
        v = self._user(username)
        return (f"{v['name']}, dept {v['dept']}, groups {', '.join(sorted(v['groups'])) or 'none'}, "
                f"quota {v['quota']} GB, {'active' if v['active'] else 'disabled'}")

    def tool_create_user(self, full_name=None, department=None):
        name = " ".join(str(full_name).split()).title()
        dept = str(department).strip().lower()
        if dept not in _DEPTS or len(name.split()) < 2:
            raise ValueError("need a full name and a valid department")
        self._state["seq"] += 1
        uname = f"{name.split()[0][0].lower()}{name.split()[-1].lower()}{self._state['seq']}"
        self._state["users"][uname] = {"name": name, "dept": dept, "groups": set(), "quota": 10,
                                       "active": True, "new": True}
        return f"Created {uname}."

    def tool_list_groups(self):
        return ", ".join(_GROUPS)

    def tool_add_to_group(self, username=None, group=None):
        g = str(group).strip().lower()
        if g not in _GROUPS:
            raise ValueError("unknown group")
        self._user(username)["groups"].add(g)
        return "Added."

    def tool_remove_from_group(self, username=None, group=None):
        self._user(username)["groups"].discard(str(group).strip().lower())
        return "Removed."

    def tool_set_quota(self, username=None, gb=None):
        if isinstance(gb, bool) or not isinstance(gb, int) or not 1 <= gb <= 100:
            raise ValueError("gb must be an integer 1-100")
        self._user(username)["quota"] = gb
        return f"Quota set to {gb} GB."

    def tool_disable_user(self, username=None):
        self._user(username)["active"] = False
        return "Disabled."

    def tool_enable_user(self, username=None):
        self._user(username)["active"] = True
        return "Enabled."

    def solution(self):
        hire, dept, group, quota, leaver = self._plan
        parts = hire.split()
        uname = f"{parts[0][0].lower()}{parts[-1].lower()}{self._state['seq'] + 1}"
        return [{"name": "create_user", "arguments": {"full_name": hire, "department": dept}},
                {"name": "add_to_group", "arguments": {"username": uname, "group": group}},
                {"name": "set_quota", "arguments": {"username": uname, "gb": quota}},
                {"name": "disable_user", "arguments": {"username": leaver}},
                "done"]
