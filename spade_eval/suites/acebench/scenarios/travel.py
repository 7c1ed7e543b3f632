"""ACEBench's airline scenario: Travel (users, flights, reservations).

Written for this project from ACEBench's data and paper, not its code. The catalogue (three users, the
flights between Beijing, Shanghai, Nanjing, Shenzhen, Xiamen, Chengdu and Fuzhou, four reservations) is
the benchmark's world; the rules come from the agent policy the paper describes and are pinned down by
the expected end states:

- booking charges the cabin fare plus 50 yuan per checked bag beyond the free allowance (regular:
  economy 1 / business 2; silver: 2 / 3; gold: 3 / 3) to the chosen payment method (cash or bank);
- changing a reservation's flight keeps its fare (segments are not repriced); changing its cabin charges
  or refunds the fare difference between the two cabins, priced on the flight the reservation held when
  the change was asked (agent_multi_turn_25: MU5678 business -> economy refunds 3000 - 1900 = 1100);
  added bags pay the allowance rule for the new bag count;
- cancelling refunds the fare to the original payment method, less a 20% fee for economy unless the
  airline cancelled (no entry's milestones cancel; this follows the policy text).

The initial world's values, which the entries assume but do not carry, are those of the ACEBench
repository (chenchen0103/ACEBench and its public fork yxli2123/ACEBench, MIT licence): data, not code.

Tools answer errors as ``{"status": False, "message": ...}`` or a sentence, never by raising.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

BAGGAGE_FEE = 50
FREE_BAGS = {
    "regular": {"Economy Class": 1, "Business Class": 2},
    "silver": {"Economy Class": 2, "Business Class": 3},
    "gold": {"Economy Class": 3, "Business Class": 3},
}
_TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


def _initial_users() -> dict[str, dict[str, Any]]:
    return {
        "user1": {
            "user_name": "Eve",
            "password": "password123",
            "cash_balance": 2000.0,
            "bank_balance": 50000.0,
            "membership_level": "regular",
        },
        "user2": {
            "user_name": "Frank",
            "password": "password456",
            "cash_balance": 8000.0,
            "bank_balance": 8000.0,
            "membership_level": "silver",
        },
        "user3": {
            "user_name": "Grace",
            "password": "password789",
            "cash_balance": 1000.0,
            "bank_balance": 5000.0,
            "membership_level": "gold",
        },
    }


_FLIGHTS = (
    # flight_no, origin, destination, departs, arrives, seats, economy fare, business fare
    ("CA1234", "Beijing", "Shanghai", "2024-07-15 08:00:00", "2024-07-15 10:30:00", 5, 1200, 3000),
    ("MU5678", "Shanghai", "Beijing", "2024-07-16 09:00:00", "2024-07-16 11:30:00", 3, 1900, 3000),
    ("CZ4321", "Shanghai", "Beijing", "2024-07-16 20:00:00", "2024-07-16 22:00:00", 8, 2500, 4000),
    ("CZ4352", "Shanghai", "Beijing", "2024-07-17 20:00:00", "2024-07-17 22:00:00", 8, 1600, 2500),
    ("MU3561", "Beijing", "Nanjing", "2024-07-18 08:00:00", "2024-07-18 10:00:00", 8, 1500, 4000),
    ("MU1566", "Beijing", "Nanjing", "2024-07-18 20:00:00", "2024-07-18 22:00:00", 8, 1500, 4000),
    ("CZ1765", "Nanjing", "Shenzhen", "2024-07-17 20:30:00", "2024-07-17 22:00:00", 8, 1500, 2500),
    ("CZ1765", "Nanjing", "Shenzhen", "2024-07-18 12:30:00", "2024-07-18 15:00:00", 8, 1500, 2500),
    ("MH1765", "Xiamen", "Chengdu", "2024-07-17 12:30:00", "2024-07-17 15:00:00", 8, 1500, 2500),
    ("MH2616", "Chengdu", "Xiamen", "2024-07-18 18:30:00", "2024-07-18 21:00:00", 8, 1500, 2500),
    ("MH2616", "Chengdu", "Fuzhou", "2024-07-16 18:30:00", "2024-07-16 21:00:00", 8, 1500, 2500),
)


def _initial_flights() -> list[dict[str, Any]]:
    return [
        {
            "flight_no": number,
            "origin": origin,
            "destination": destination,
            "depart_time": departs,
            "arrival_time": arrives,
            "status": "available",
            "seats_available": seats,
            "economy_price": economy,
            "business_price": business,
        }
        for number, origin, destination, departs, arrives, seats, economy, business in _FLIGHTS
    ]


def _initial_reservations() -> list[dict[str, Any]]:
    booked = [
        ("res_1", "user1", "CA1234", "Economy Class", "Beijing", "Shanghai"),
        ("res_2", "user1", "MU5678", "Business Class", "Shanghai", "Beijing"),
        ("res_3", "user2", "MH1765", "Business Class", "Xiamen", "Chengdu"),
        ("res_4", "user2", "MU2616", "Business Class", "Chengdu", "Xiamen"),
    ]
    return [
        {
            "reservation_id": reservation,
            "user_id": user,
            "flight_no": flight,
            "payment_method": "bank",
            "cabin": cabin,
            "baggage": 1,
            "origin": origin,
            "destination": destination,
        }
        for reservation, user, flight, cabin, origin, destination in booked
    ]


def _failure(message: str) -> dict[str, Any]:
    return {"status": False, "message": message}


def _cabin(name: Any) -> str | None:
    """``Economy Class`` / ``Business Class`` from the ways people write them ("economy", "business")."""
    text = str(name or "").lower()
    if "econ" in text:
        return "Economy Class"
    if "business" in text:
        return "Business Class"
    return None


class Travel:
    """Flight booking for three users."""

    name = "Travel"
    tools = (
        "get_user_details",
        "get_flight_details",
        "get_reservation_details",
        "reserve_flight",
        "cancel_reservation",
        "modify_flight",
        "find_transfer_flights",
    )

    def __init__(self) -> None:
        self.users = _initial_users()
        self.flights = _initial_flights()
        self.reservations = _initial_reservations()
        self._last_reservation = len(self.reservations)

    # ------------------------------------------------------------------ queries
    def get_user_details(self, user_id: str, password: str) -> dict[str, Any]:
        user = self._authenticated(user_id, password)
        if user is None:
            return _failure("Incorrect user ID or password.")
        return {key: value for key, value in user.items() if key != "password"}

    def get_flight_details(self, origin: str | None = None, destination: str | None = None) -> Any:
        flights = [
            flight
            for flight in self.flights
            if (not origin or flight["origin"] == origin)
            and (not destination or flight["destination"] == destination)
        ]
        return (
            [dict(flight) for flight in flights]
            if flights
            else "There are no direct flights that meet the criteria."
        )

    def get_reservation_details(self, reservation_id: str | None = None, user_id: str | None = None) -> Any:
        if reservation_id:
            found = [entry for entry in self.reservations if entry["reservation_id"] == reservation_id]
        elif user_id:
            found = [entry for entry in self.reservations if entry["user_id"] == user_id]
        else:
            return _failure("Give a reservation ID or a user ID.")
        return [{**entry, "flight_info": self._flight(entry["flight_no"])} for entry in found]

    def find_transfer_flights(self, origin_city: str, transfer_city: str, destination_city: str) -> Any:
        first_legs = [
            flight
            for flight in self.flights
            if flight["origin"] == origin_city
            and flight["destination"] == transfer_city
            and flight["status"] == "available"
        ]
        second_legs = [
            flight
            for flight in self.flights
            if flight["origin"] == transfer_city
            and flight["destination"] == destination_city
            and flight["status"] == "available"
        ]
        pairs = [
            {"first_leg": dict(first), "second_leg": dict(second)}
            for first in first_legs
            for second in second_legs
            if datetime.strptime(first["arrival_time"], _TIME_FORMAT)
            < datetime.strptime(second["depart_time"], _TIME_FORMAT)
        ]
        return pairs or "No connecting flights that meet the criteria were found."

    # ------------------------------------------------------------------ changes
    def reserve_flight(
        self,
        user_id: str,
        password: str,
        flight_no: str,
        cabin: str,
        payment_method: str | None = None,
        baggage_count: int = 0,
        payment_methods: str | None = None,
    ) -> Any:
        """``payment_methods`` is accepted too: the tool schema's ``required`` list spells it that way."""
        user = self._authenticated(user_id, password)
        if user is None:
            return "Authentication failed. Check the user ID and password."
        flight = self._flight(flight_no)
        if flight is None or flight["status"] != "available":
            return _failure(f"Flight {flight_no} is not available.")
        if flight["seats_available"] <= 0:
            return _failure(f"Flight {flight_no} has no seats left.")
        cabin_name = _cabin(cabin)
        if cabin_name is None:
            return _failure(f"Unknown cabin {cabin!r}; choose Economy Class or Business Class.")
        method = payment_method or payment_methods
        if method not in ("cash", "bank"):
            return _failure("The payment method must be cash or bank.")
        bags = _count(baggage_count)
        if bags is None:
            return _failure("baggage_count must be a non-negative integer.")
        cost = self._fare(flight, cabin_name) + self._baggage_fee(user, cabin_name, bags)
        if not self._charge(user, method, cost):
            return _failure("Insufficient balance.")
        flight["seats_available"] -= 1
        self._last_reservation += 1
        reservation_id = f"res_{self._last_reservation}"
        self.reservations.append(
            {
                "reservation_id": reservation_id,
                "user_id": user_id,
                "flight_no": flight_no,
                "payment_method": method,
                "cabin": cabin_name,
                "baggage": bags,
            }
        )
        return {
            "status": True,
            "message": f"Booked {flight_no}; reservation {reservation_id}; charged {cost}.",
        }

    def modify_flight(
        self,
        user_id: str,
        reservation_id: str,
        new_flight_no: str | None = None,
        new_cabin: str | None = None,
        add_baggage: int = 0,
        new_payment_method: str | None = None,
    ) -> dict[str, Any]:
        reservation = self._reservation(user_id, reservation_id)
        if reservation is None:
            return _failure(f"User {user_id} has no reservation {reservation_id}.")
        user = self.users[user_id]
        method = new_payment_method or reservation["payment_method"]
        if method not in ("cash", "bank"):
            return _failure("The payment method must be cash or bank.")
        if new_flight_no and self._flight(new_flight_no) is None:
            return _failure(f"Flight {new_flight_no} does not exist.")
        cabin_name = reservation["cabin"]
        if new_cabin:
            cabin_name = _cabin(new_cabin)
            if cabin_name is None:
                return _failure(f"Unknown cabin {new_cabin!r}; choose Economy Class or Business Class.")
        extra_bags = _count(add_baggage)
        if extra_bags is None:
            return _failure("add_baggage must be a non-negative integer.")
        held = self._flight(reservation["flight_no"])
        cost = 0.0
        if cabin_name != reservation["cabin"] and held is not None:
            cost += self._fare(held, cabin_name) - self._fare(held, reservation["cabin"])
        bags = reservation["baggage"] + extra_bags
        cost += self._baggage_fee(user, cabin_name, bags) - self._baggage_fee(
            user, reservation["cabin"], reservation["baggage"]
        )
        if not self._charge(user, method, cost):
            return _failure("Insufficient balance for the change.")
        if new_flight_no:
            reservation["flight_no"] = new_flight_no
        reservation["cabin"] = cabin_name
        reservation["baggage"] = bags
        return {"status": True, "message": f"Reservation {reservation_id} updated; balance change {-cost}."}

    def cancel_reservation(self, user_id: str, reservation_id: str, reason: str) -> dict[str, Any]:
        reservation = self._reservation(user_id, reservation_id)
        if reservation is None:
            return _failure(f"User {user_id} has no reservation {reservation_id}.")
        flight = self._flight(reservation["flight_no"])
        fare = self._fare(flight, reservation["cabin"]) if flight is not None else 0.0
        airline_cancelled = "airline" in str(reason).lower()
        refund = fare if airline_cancelled or reservation["cabin"] == "Business Class" else fare * 0.8
        self._charge(self.users[user_id], reservation["payment_method"], -refund)
        self.reservations.remove(reservation)
        return {"status": True, "message": f"Reservation {reservation_id} cancelled; refunded {refund}."}

    def state(self) -> dict[str, Any]:
        return {"users": self.users, "reservations": self.reservations}

    # ------------------------------------------------------------------ helpers
    def _authenticated(self, user_id: str, password: str) -> dict[str, Any] | None:
        user = self.users.get(user_id) if isinstance(user_id, str) else None
        return user if user is not None and user["password"] == password else None

    def _flight(self, flight_no: Any) -> dict[str, Any] | None:
        return next((flight for flight in self.flights if flight["flight_no"] == flight_no), None)

    def _reservation(self, user_id: str, reservation_id: str) -> dict[str, Any] | None:
        return next(
            (
                entry
                for entry in self.reservations
                if entry["reservation_id"] == reservation_id and entry["user_id"] == user_id
            ),
            None,
        )

    @staticmethod
    def _fare(flight: dict[str, Any], cabin: str) -> float:
        return float(flight["economy_price"] if cabin == "Economy Class" else flight["business_price"])

    @staticmethod
    def _baggage_fee(user: dict[str, Any], cabin: str, bags: int) -> float:
        free = FREE_BAGS.get(user["membership_level"], {}).get(cabin, 0)
        return float(max(bags - free, 0) * BAGGAGE_FEE)

    @staticmethod
    def _charge(user: dict[str, Any], method: str, amount: float) -> bool:
        """Take ``amount`` (a refund when negative) from the method's balance; False if it cannot cover it."""
        key = "cash_balance" if method == "cash" else "bank_balance"
        if user[key] - amount < 0:
            return False
        user[key] -= amount
        return True


def _count(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    return value if isinstance(value, int) and value >= 0 else None
