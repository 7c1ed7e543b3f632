"""CatalogueSearchEnv: Find a book's first-publication year with a search tool limited to three queries.
"""
from __future__ import annotations

import random
import re
from typing import Any

_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
_S = {"type": "string"}


def _params(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


def _single_answer(action: Any) -> Any:
    """Two different <answer> blocks in one reply count as one wrong answer, not as a choice."""
    if isinstance(action, str) and "<tool_call>" not in action:
        answers = {" ".join(a.split()).lower() for a in _ANSWER_TAG.findall(action[:20000])}
        if len(answers) > 1:
            return "<answer>(several different answers)</answer>"
    return action


_ADJ = ("Silent", "Crimson", "Hidden", "Broken", "Golden", "Distant", "Frozen", "Burning", "Quiet", "Hollow",
        "Endless", "Wandering")
_NOUN = ("River", "Garden", "Empire", "Harbour", "Mirror", "Orchard", "Lantern", "Voyage", "Kingdom", "Meadow",
         "Tower", "Winter")
_FIRST = ("Ada", "Bruno", "Clara", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas")
_LAST = ("Moreau", "Okafor", "Lindqvist", "Tanaka", "Novak", "Alvarez", "Brennan", "Ivanova", "Castillo", "Weber")


class CatalogueSearchEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Find a book's first-publication year with a search tool limited to three queries."""

    SEARCH_QUOTA = 3

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        titles = rng.sample([f"The {a} {n}" for a in _ADJ for n in _NOUN], 11)
        authors = rng.sample([f"{f} {l}" for f in _FIRST for l in _LAST], 12)
        ids = [f"BK-{n}" for n in rng.sample(range(1000, 10000), 12)]
        books = {}
        for i, book_id in enumerate(ids):
            title = titles[i] if i < 11 else titles[0]  # one other book shares the target's title
            books[book_id] = {"title": title, "author": authors[i], "year": rng.randint(1900, 2020),
                              "pages": rng.randint(90, 700)}
        target = ids[0]
        self._target = target
        self._state = {"books": books, "searches": 0}
        self._expected_answer = books[target]["year"]
        self._tools = {
            "search": {"description": f"Search the catalogue by words of a title; returns at most 5 ids with "
                                      f"title and author. Limited to {self.SEARCH_QUOTA} searches per episode.",
                       "parameters": _params(query=_S)},
            "get_book": {"description": "Full record of one book by id: title, author, year, pages.",
                         "parameters": _params(book_id=_S)},
        }
        obs = (f"In which year was \"{books[target]['title']}\" by {books[target]['author']} first published? "
               f"Use the catalogue tools (search is limited to {self.SEARCH_QUOTA} queries; beware of books "
               "sharing a title) and reply with the year as <answer>YEAR</answer>. One answer only: a wrong "
               "year ends the episode.")
        return obs, {"tools": sorted(self._tools)}

    def tool_search(self, query: Any = None) -> str:
        if not isinstance(query, str) or not query.strip():
            raise ValueError("'query' must be a non-empty string")
        if self._state["searches"] >= self.SEARCH_QUOTA:
            raise ValueError(f"search quota used up ({self.SEARCH_QUOTA} of {self.SEARCH_QUOTA})")
        self._state["searches"] += 1
        words = query.lower().split()
        hits = [f"{i}: {b['title']} - {b['author']}" for i, b in sorted(self._state["books"].items())
                if all(w in b["title"].lower() for w in words)]
        left = self.SEARCH_QUOTA - self._state["searches"]
        return ("\n".join(hits[:5]) if hits else "No matches.") + f"\n(searches left: {left})"

    def tool_get_book(self, book_id: Any = None) -> str:
        if not isinstance(book_id, str):
            raise ValueError("'book_id' must be a string such as BK-1234")
        book = self._state["books"].get(book_id.strip().upper())
        if book is None:
            raise ValueError(f"no book {book_id!r}")
        return f"{book['title']} by {book['author']}, first published {book['year']}, {book['pages']} pages."

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        return super().step(_single_answer(action))

    def solution(self) -> list[Any]:
        title = self._state["books"][self._target]["title"]
        return [{"name": "search", "arguments": {"query": title}},
                {"name": "get_book", "arguments": {"book_id": self._target}}, self._expected_answer]
