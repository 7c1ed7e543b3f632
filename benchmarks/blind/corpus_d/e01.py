"""Portfolio desk: total unrealized gain of a client's holdings, from position, quote and basis tools.

ToolUseBaseEnv is injected by the loader.
"""

from __future__ import annotations

import random
import re
from typing import Any

_TICKERS = ["ACME", "BOLT", "CRUX", "DYNA", "EMBR", "FLUX", "GRID", "HALO", "IONX", "JADE", "KILN",
            "LUMA", "MOXI", "NOVA"]


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


class PortfolioGainEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        client = f"CL-{rng.randint(100, 999)}"
        positions = {}
        for ticker in sorted(rng.sample(_TICKERS, rng.randint(3, 5))):
            basis = round(rng.uniform(8, 300), 2)
            positions[ticker] = {"shares": rng.randint(5, 400), "basis": basis,
                                 "price": round(basis * rng.uniform(0.6, 1.6), 2)}
        total = round(sum(p["shares"] * (p["price"] - p["basis"]) for p in positions.values()), 2) + 0.0
        self._state = {"client": client, "positions": positions}
        self._expected_answer = f"{total:.2f}"
        self._tools = {
            "list_positions": {"description": "Tickers and share counts held by a client.",
                               "parameters": _obj(client_id={"type": "string"})},
            "get_quote": {"description": "Last traded price (USD) of one ticker.",
                          "parameters": _obj(ticker={"type": "string"})},
            "get_cost_basis": {"description": "Average purchase price per share (USD) for each of a client's "
                                              "positions.",
                               "parameters": _obj(client_id={"type": "string"})},
        }
        obs = (f"You are a portfolio assistant. Client {client} asks for the total unrealized gain across all "
               "of their positions: market value minus cost, in USD, rounded to cents (negative for a loss). "
               "Use the tools, then reply with <answer>amount</answer>, e.g. <answer>-1234.50</answer>.")
        return obs, {"client": client}

    def _client(self, client_id: Any) -> None:
        if str(client_id).strip().upper() != self._state["client"]:
            raise ValueError(f"unknown client {client_id!r}")

    def tool_list_positions(self, client_id: Any = None) -> str:
        self._client(client_id)
        return "\n".join(f"{t}: {p['shares']} shares" for t, p in self._state["positions"].items())

    def tool_get_quote(self, ticker: Any = None) -> str:
        key = str(ticker).strip().upper()
        if key not in self._state["positions"]:
            raise ValueError(f"no quote available for {ticker!r}")
        return f"{key} last {self._state['positions'][key]['price']:.2f} USD"

    def tool_get_cost_basis(self, client_id: Any = None) -> str:
        self._client(client_id)
        return "\n".join(f"{t}: {p['basis']:.2f} USD/share" for t, p in self._state["positions"].items())

    def check_answer(self, answer: str) -> bool:
        given = str(answer).strip().replace("$", "").replace(",", "").replace(" ", "").lstrip("+")
        if not given:
            return False
        try:  # tolerate a dropped trailing zero: 1234.5 for 1234.50
            return re.fullmatch(given + "0*", self._expected_answer) is not None
        except re.error:
            return False

    def solution(self) -> list[Any]:
        client = self._state["client"]
        calls: list[Any] = [{"name": "list_positions", "arguments": {"client_id": client}},
                            {"name": "get_cost_basis", "arguments": {"client_id": client}}]
        calls += [{"name": "get_quote", "arguments": {"ticker": t}} for t in self._state["positions"]]
        return calls + [self._expected_answer]
