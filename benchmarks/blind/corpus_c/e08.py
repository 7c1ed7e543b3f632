"""Library desk (tool use, many tools): find the call number of an available book for a patron."""

import random

_AUTHORS = ["Mira Okafor", "Tomas Lindqvist", "Aiko Brandt", "Felix Moreau", "Priya Raman", "Jonas Weller",
            "Ines Castell", "Ruth Adeyemi"]
_SUBJECTS = ["astronomy", "botany", "cartography", "geology", "typography", "beekeeping"]
_WORDS = ["Hidden", "Quiet", "Northern", "Practical", "Little", "Complete", "Field", "Modern", "Curious",
          "Patient"]
_NOUNS = ["Guide", "Atlas", "Handbook", "Companion", "Notes", "Primer", "Almanac", "Survey"]
_BRANCHES = ["Harbour Road", "Elm Park", "Old Mill", "Castle Hill", "Riverside"]


def _obj(**props):
    return {"type": "object", "properties": props, "required": sorted(props)}


_S = {"type": "string"}


class LibraryDeskEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        branch_names = rng.sample(_BRANCHES, 4)
        branches = {f"BR-{i + 1}{rng.randint(0, 9)}": n for i, n in enumerate(branch_names)}
        author = rng.choice(_AUTHORS)
        subject = rng.choice(_SUBJECTS)
        used_cn, books = set(), {}

        def new_book(a, s):
            while True:
                cn = f"CN-{rng.randint(1000, 9999)}"
                if cn not in used_cn:
                    used_cn.add(cn)
                    break
            bid = f"BK{len(books) + 101}"
            books[bid] = {"title": f"The {rng.choice(_WORDS)} {s.title()} {rng.choice(_NOUNS)}", "author": a,
                          "subject": s, "year": rng.randint(1975, 2023), "call_number": cn}
            return bid

        targets = [new_book(author, subject) for _ in range(rng.randint(2, 3))]
        for _ in range(rng.randint(2, 3)):
            new_book(author, rng.choice([s for s in _SUBJECTS if s != subject]))
        for _ in range(rng.randint(4, 6)):
            new_book(rng.choice([a for a in _AUTHORS if a != author]), rng.choice(_SUBJECTS))
        copies = {bid: {code: rng.choice(["available", "on loan", "missing"]) for code in branches
                        if rng.random() < 0.7} for bid in books}
        home = rng.choice(sorted(branches))
        winner = rng.choice(targets)
        for bid in targets:
            copies[bid][home] = "available" if bid == winner else rng.choice(["on loan", "missing"])
        members = {f"M{rng.randint(1000, 9999)}": rng.choice(["adult", "junior", "senior"]) for _ in range(3)}
        loans = {m: rng.sample(sorted(books), 2) for m in members}
        self._state = {"branches": branches, "books": books, "copies": copies, "members": members,
                       "loans": loans, "home": home, "targets": targets}
        self._expected_answer = books[winner]["call_number"]
        self._tools = {
            "list_branches": {"description": "All branches: code and name.", "parameters": _obj()},
            "branch_hours": {"description": "Opening hours of a branch.", "parameters": _obj(branch_code=_S)},
            "search_author": {"description": "Book ids by an author (full or partial name).",
                              "parameters": _obj(name=_S)},
            "search_subject": {"description": "Book ids on a subject.", "parameters": _obj(subject=_S)},
            "get_book": {"description": "Title, author, subject, year of a book (no call number).",
                         "parameters": _obj(book_id=_S)},
            "copies": {"description": "Copy status of a book at each branch that holds it.",
                       "parameters": _obj(book_id=_S)},
            "shelf_mark": {"description": "The call number (shelf mark) of a book.",
                           "parameters": _obj(book_id=_S)},
            "get_member": {"description": "Membership type of a member.", "parameters": _obj(member_id=_S)},
            "member_loans": {"description": "Book ids a member has on loan.", "parameters": _obj(member_id=_S)},
            "hold_queue": {"description": "Number of holds waiting for a book.", "parameters": _obj(book_id=_S)},
        }
        task = (f"A patron at the {branches[home]} branch wants the {subject} book by {author} that they can "
                f"take home today (a copy marked available at that branch). Exactly one such book exists. "
                "Find it and reply with its call number, e.g. <answer>CN-0000</answer>.")
        return task, {"branches": len(branches)}

    def _book(self, book_id):
        key = str(book_id).strip().upper()
        if key not in self._state["books"]:
            raise ValueError(f"no book {book_id!r}")
        return key

    def tool_list_branches(self):
        return "\n".join(f"{c}: {n}" for c, n in sorted(self._state["branches"].items()))

    def tool_branch_hours(self, branch_code=None):
        if str(branch_code).strip().upper() not in self._state["branches"]:
            raise ValueError("unknown branch code")
        return "Mon-Fri 09:00-19:00, Sat 10:00-16:00"

    def tool_search_author(self, name=None):
        q = str(name).strip().lower()
        if len(q) < 3:
            raise ValueError("give at least 3 characters of the name")
        hits = [b for b, v in sorted(self._state["books"].items()) if q in v["author"].lower()]
        return ", ".join(hits) or "no books found"

    def tool_search_subject(self, subject=None):
        q = str(subject).strip().lower()
        hits = [b for b, v in sorted(self._state["books"].items()) if v["subject"] == q]
        return ", ".join(hits) or "no books found"

    def tool_get_book(self, book_id=None):
        v = self._state["books"][self._book(book_id)]
        return f"{v['title']} by {v['author']} ({v['year']}), subject: {v['subject']}"

    def tool_copies(self, book_id=None):
        c = self._state["copies"][self._book(book_id)]
        return "\n".join(f"{code}: {st}" for code, st in sorted(c.items())) or "no copies held"

    def tool_shelf_mark(self, book_id=None):
        return self._state["books"][self._book(book_id)]["call_number"]

    def tool_get_member(self, member_id=None):
        t = self._state["members"].get(str(member_id).strip().upper())
        if t is None:
            raise ValueError("unknown member")
        return f"{member_id}: {t} membership"

    def tool_member_loans(self, member_id=None):
        loans = self._state["loans"].get(str(member_id).strip().upper())
        if loans is None:
            raise ValueError("unknown member")
        return ", ".join(loans)

    def tool_hold_queue(self, book_id=None):
        return f"{sum(ord(ch) for ch in self._book(book_id)) % 4} holds"

    def check_answer(self, answer):
        return str(answer).strip().upper() == self._expected_answer

    def solution(self):
        st = self._state
        author = st["books"][st["targets"][0]]["author"]
        winner = next(b for b in st["targets"] if st["copies"][b].get(st["home"]) == "available")
        calls = [{"name": "list_branches", "arguments": {}},
                 {"name": "search_author", "arguments": {"name": author}}]
        calls += [{"name": "copies", "arguments": {"book_id": b}} for b in st["targets"]]
        calls.append({"name": "shelf_mark", "arguments": {"book_id": winner}})
        return calls + [self._expected_answer]
