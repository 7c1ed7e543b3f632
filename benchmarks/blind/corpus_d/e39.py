"""Library desk: find where a particular edition of an author's book is shelved.

ToolUseBaseEnv is injected by the loader.
"""

from __future__ import annotations

import random
from typing import Any

_AUTHORS = ["Adichie", "Borges", "Calvino", "Duras", "Eco", "Ferrante", "Grass", "Hesse", "Ishiguro", "Jansson",
            "Kafka", "Lispector", "Murakami", "Nabokov", "Oz", "Pamuk"]
_WORDS = ["River", "Glass", "Winter", "Garden", "Mirror", "Harbour", "Lantern", "Orchard", "Silence", "Atlas"]
_BRANCHES = ["Central", "Northgate", "Riverside", "Old Town"]


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


class LibraryShelfEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        authors = rng.sample(_AUTHORS, 5)
        books: dict[str, dict[str, Any]] = {}
        ids = rng.sample(range(1000, 10000), 5 * 4)
        for a_index, author in enumerate(authors):
            years = rng.sample(range(1950, 2021), 4)
            for k, year in enumerate(years):
                books[f"BK-{ids[a_index * 4 + k]}"] = {
                    "author": author, "title": f"The {rng.choice(_WORDS)} {rng.choice(_WORDS)}",
                    "year": year, "branch": rng.choice(_BRANCHES),
                    "shelf": f"{rng.choice('ABCDEFGH')}{rng.randint(1, 40)}-{rng.randint(1, 9)}"}
        author = rng.choice(authors)
        target = rng.choice(sorted(b for b, v in books.items() if v["author"] == author))
        self._state = {"books": books, "target": target}
        self._expected_answer = books[target]["shelf"]
        s = {"type": "string"}
        self._tools = {
            "search_books": {"description": "Books by an author (surname): id, title and year.",
                             "parameters": _obj(author=s)},
            "get_book": {"description": "Catalogue record of one book id: branch and shelf mark.",
                         "parameters": _obj(book_id=s)},
            "list_branches": {"description": "Library branches.", "parameters": {"type": "object",
                                                                                "properties": {}}},
            "get_branch_hours": {"description": "Opening hours of a branch.", "parameters": _obj(branch=s)},
        }
        year = books[target]["year"]
        obs = (f"A reader wants the edition of the book by {author} that was published in {year}. Which shelf "
               "mark is it at? Use the tools and reply with the shelf mark, e.g. <answer>C12-4</answer>.")
        return obs, {"author": author, "year": year}

    def tool_search_books(self, author: Any = None) -> str:
        name = str(author).strip().title()
        rows = [f"{b}: {v['title']} ({v['year']})" for b, v in sorted(self._state["books"].items())
                if v["author"] == name]
        if not rows:
            raise ValueError(f"no books by {author!r}")
        return "\n".join(rows)

    def tool_get_book(self, book_id: Any = None) -> str:
        key = str(book_id).strip().upper()
        if key not in self._state["books"]:
            raise ValueError(f"unknown book id {book_id!r}")
        v = self._state["books"][key]
        return f"{key}: {v['title']} by {v['author']}, {v['year']}; {v['branch']} branch, shelf {v['shelf']}"

    def tool_list_branches(self) -> str:
        return ", ".join(_BRANCHES)

    def tool_get_branch_hours(self, branch: Any = None) -> str:
        name = str(branch).strip().title()
        if name not in _BRANCHES:
            raise ValueError(f"unknown branch {branch!r}")
        return f"{name}: 09:00-{17 + _BRANCHES.index(name)}:00, closed Sundays"

    def check_answer(self, answer: str) -> bool:
        return str(answer).strip().upper().replace(" ", "") == self._expected_answer

    def solution(self) -> list[Any]:
        target = self._state["target"]
        return [{"name": "search_books", "arguments": {"author": self._state["books"][target]["author"]}},
                {"name": "get_book", "arguments": {"book_id": target}},
                self._expected_answer]
