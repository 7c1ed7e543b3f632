"""SimpleNegotiation-v0: random legal moves, and a fixed trader that never loses value.

Each player holds Wheat, Wood, Sheep, Brick and Ore with private values; a turn may accept or deny the
offer on the table (``[Accept]``, ``[Deny]``) and may make an offer of resources the player holds
(``[Offer: 3 Wheat -> 1 Ore]``). Accepting without the requested resources, or offering what one does
not hold, is an invalid move. After ten turns the player whose inventory value rose more wins; equal
changes (no trade at all, for instance) are a draw.

Opponents see their own resources and values, and the offer on the table; never the other's values.
"""

from __future__ import annotations

import random
from typing import Any

from spade_eval.suites.games.opponents import game_state

ENV_ID = "SimpleNegotiation-v0"
MAX_UNITS_PER_RESOURCE = 5
"""Largest quantity of one resource the random player puts in an offer."""


def holdings(env: Any, player_id: int) -> dict[str, int]:
    return dict(game_state(env)["player_resources"][player_id])


def values(env: Any, player_id: int) -> dict[str, int]:
    return dict(game_state(env)["player_values"][player_id])


def offer_to(env: Any, player_id: int) -> dict[str, Any] | None:
    """The offer waiting for ``player_id``'s answer, if any."""
    offer = game_state(env)["current_offer"]
    return offer if offer and offer.get("to_player") == player_id else None


def can_accept(env: Any, player_id: int) -> bool:
    offer = offer_to(env, player_id)
    if offer is None:
        return False
    held = holdings(env, player_id)
    return all(held.get(resource, 0) >= quantity for resource, quantity in offer["requested_resources"].items())


def gain_from_accepting(env: Any, player_id: int) -> int:
    """Change of ``player_id``'s inventory value, by its own values, if it accepted the pending offer."""
    offer = offer_to(env, player_id)
    if offer is None:
        return 0
    own = values(env, player_id)
    received = sum(own[resource] * quantity for resource, quantity in offer["offered_resources"].items())
    given = sum(own[resource] * quantity for resource, quantity in offer["requested_resources"].items())
    return received - given


def offer_move(give: dict[str, int], get: dict[str, int]) -> str:
    def listing(items: dict[str, int]) -> str:
        return ", ".join(f"{quantity} {resource}" for resource, quantity in items.items())

    return f"[Offer: {listing(give)} -> {listing(get)}]"


class RandomNegotiator:
    """Picks uniformly among denying, accepting (when it can pay) and a random offer it can honour."""

    name = "random"

    def choose(self, env: Any, player_id: int, rng: random.Random) -> str:
        moves = ["[Deny]"]
        if can_accept(env, player_id):
            moves.append("[Accept]")
        offer = self.random_offer(env, player_id, rng)
        if offer is not None:
            moves.append(offer)
        return rng.choice(moves)

    @staticmethod
    def random_offer(env: Any, player_id: int, rng: random.Random) -> str | None:
        held = {resource: quantity for resource, quantity in holdings(env, player_id).items() if quantity > 0}
        if not held:
            return None
        give_types = rng.sample(sorted(held), k=min(len(held), rng.randint(1, 2)))
        give = {resource: rng.randint(1, min(held[resource], MAX_UNITS_PER_RESOURCE)) for resource in give_types}
        others = [resource for resource in sorted(values(env, player_id)) if resource not in give]
        if not others:
            return None
        get_types = rng.sample(others, k=min(len(others), rng.randint(1, 2)))
        return offer_move(give, {resource: rng.randint(1, MAX_UNITS_PER_RESOURCE) for resource in get_types})


class FixedNegotiator:
    """A sensible fixed strategy: take any trade that raises its own value, and ask for good deals.

    It accepts an offer exactly when accepting raises its inventory value by its own values (and it can
    pay). Otherwise it declines and offers some of its cheapest resource for one unit of its dearest,
    giving about ``give_fraction`` of what it receives, so every trade it proposes gains it value. A
    model that accepts such offers without checking its own values loses; one that refuses them draws;
    beating it takes an offer it gains from less than the model does.
    """

    name = "fixed"

    def __init__(self, give_fraction: float = 0.75) -> None:
        if not 0.0 < give_fraction < 1.0:
            raise ValueError(f"give_fraction must be between 0 and 1, got {give_fraction}")
        self.give_fraction = give_fraction

    def choose(self, env: Any, player_id: int, rng: random.Random) -> str:
        if can_accept(env, player_id) and gain_from_accepting(env, player_id) > 0:
            return "[Accept]"
        offer = self.profitable_offer(env, player_id)
        return f"[Deny] {offer}" if offer else "[Deny]"

    def profitable_offer(self, env: Any, player_id: int) -> str | None:
        own, held = values(env, player_id), holdings(env, player_id)
        dearest = max(own, key=lambda resource: (own[resource], resource))
        for cheapest in sorted(own, key=lambda resource: (own[resource], resource)):
            if cheapest == dearest:
                break
            units = max(1, int(self.give_fraction * own[dearest] / own[cheapest]))
            if held.get(cheapest, 0) >= units and units * own[cheapest] < own[dearest]:
                return offer_move({cheapest: units}, {dearest: 1})
        return None
