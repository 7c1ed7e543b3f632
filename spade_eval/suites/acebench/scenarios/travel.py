"""ACEBench's airline scenario: Travel (users, flights, reservations).

The class behaves as ACEBench's own (chenchen0103/ACEBench, ``model_inference/*/scenariosen/travel.py``,
MIT licence): same state, checks in the same order, same messages (mostly sentences, not status
dicts) and same side effects. The code is this project's; the catalogue (three users, eleven flights,
four reservations) is ACEBench's data.

The rules, all as in ACEBench, including the surprising ones:

- ``reserve_flight`` needs every parameter, ``cabin`` spelt ``"Economy Class"`` or ``"Business Class"``
  and an available flight; a wrong password, an unknown flight or cabin raise (an execution error), no
  message. It charges the fare plus 50 per bag beyond the free allowance to ``cash`` or ``bank``, takes
  a seat even when none is left, and names the reservation ``res_<number of reservations + 1>``.
- ``modify_flight`` applies, in this order, a new flight (same origin and destination, else it stops
  with a message), a new cabin (the fare difference on the reservation's flight *before* the change;
  the cabin changes even when the balance cannot pay the difference) and added bags (50 for every bag of
  the new total beyond the allowance, bags already checked included). An argument that raises half-way
  leaves the earlier changes in place.
- ``cancel_reservation`` refunds the fare (never the baggage fees) to the cash balance, whatever paid
  for it, and keeps the reservation, so cancelling twice refunds twice. The clock is fixed at
  2024-07-14 06:00, so every flight is more than a day away and the refund is always in full.
- The helpers ``authenticate_user``, ``get_baggage_allowance``, ``calculate_baggage_fee``,
  ``update_balance``, ``process_refund`` and ``calculate_price_difference`` are tools too, as in
  ACEBench, where every public method can be called.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

BAGGAGE_FEE = 50
FREE_BAGS = {
    "regular": {"Economy Class": 1, "Business Class": 2},
    "silver": {"Economy Class": 2, "Business Class": 3},
    "gold": {"Economy Class": 3, "Business Class": 3},
}
NOW = datetime(2024, 7, 14, 6, 0, 0)
"""ACEBench's fixed "current time" for cancellations."""
AIRLINE_CANCELLED = "The airline has canceled the flight."
_TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
_FLIGHT_FIELDS = (
    "flight_no",
    "origin",
    "destination",
    "depart_time",
    "arrival_time",
    "status",
    "seats_available",
    "economy_price",
    "business_price",
)

USERS: tuple[tuple[str, str, str, float, float, str], ...] = (
    # user id, name, password, cash, bank, membership (ACEBench's data)
    ("user1", "Eve", "password123", 2000.0, 50000.0, "regular"),
    ("user2", "Frank", "password456", 8000.0, 8000.0, "silver"),
    ("user3", "Grace", "password789", 1000.0, 5000.0, "gold"),
)
FLIGHTS: tuple[tuple[str, str, str, str, str, int, int, int], ...] = (
    # flight_no, origin, destination, departs, arrives, seats, economy fare, business fare (ACEBench's
    # data; CZ1765 and MH2616 appear twice, and lookups by number find the first)
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
RESERVATIONS: tuple[tuple[str, str, str, str, str, str], ...] = (
    # reservation id, user id, flight_no, cabin, origin, destination; paid by bank, one bag (ACEBench's
    # data; res_4's MU2616 is no flight of the catalogue)
    ("res_1", "user1", "CA1234", "Economy Class", "Beijing", "Shanghai"),
    ("res_2", "user1", "MU5678", "Business Class", "Shanghai", "Beijing"),
    ("res_3", "user2", "MH1765", "Business Class", "Xiamen", "Chengdu"),
    ("res_4", "user2", "MU2616", "Business Class", "Chengdu", "Xiamen"),
)


def _error(message: str) -> dict[str, str]:
    return {"status": "error", "message": message}


class Travel:
    """Flight booking for three users."""

    saved_attributes = ("users", "reservations")

    def __init__(self) -> None:
        self.users: dict[str, dict[str, Any]] = {
            user_id: {
                "user_name": name,
                "password": password,
                "cash_balance": cash,
                "bank_balance": bank,
                "membership_level": level,
            }
            for user_id, name, password, cash, bank, level in USERS
        }
        self.flights: list[dict[str, Any]] = [
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
            for number, origin, destination, departs, arrives, seats, economy, business in FLIGHTS
        ]
        self.reservations: list[dict[str, Any]] = [
            {
                "reservation_id": reservation_id,
                "user_id": user_id,
                "flight_no": flight_no,
                "payment_method": "bank",
                "cabin": cabin,
                "baggage": 1,
                "origin": origin,
                "destination": destination,
            }
            for reservation_id, user_id, flight_no, cabin, origin, destination in RESERVATIONS
        ]

    # ------------------------------------------------------------------ queries
    def get_flight_details(self, origin: Any = None, destination: Any = None) -> list[dict[str, Any]] | str:
        """Flights from ``origin`` to ``destination`` (either may be left out), any status."""
        flights = [
            flight
            for flight in self.flights
            if (not origin or flight["origin"] == origin)
            and (not destination or flight["destination"] == destination)
        ]
        if not flights:
            return "There are no direct flights that meet the criteria."
        return [{key: flight[key] for key in _FLIGHT_FIELDS} for flight in flights]

    def get_user_details(self, user_id: Any, password: Any) -> dict[str, Any]:
        user = self.users.get(user_id)
        if user and user["password"] == password:
            return {key: value for key, value in user.items() if key != "password"}
        return _error("Incorrect username or password.")

    def get_reservation_details(self, reservation_id: Any = None, user_id: Any = None) -> Any:
        """Reservations by ID, else by user, each with its flight (the first of that number, or None)."""
        if reservation_id:
            found = [entry for entry in self.reservations if entry["reservation_id"] == reservation_id]
        elif user_id:
            found = [entry for entry in self.reservations if entry["user_id"] == user_id]
        else:
            return _error("Please provide a valid reservation ID or user ID")
        return [{**entry, "flight_info": self._flight(entry["flight_no"])} for entry in found]

    def find_transfer_flights(self, origin_city: Any, transfer_city: Any, destination_city: Any) -> Any:
        """Available two-leg connections whose first leg lands before the second departs."""
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
            {"first_leg": first, "second_leg": second}
            for first in first_legs
            for second in second_legs
            if datetime.strptime(first["arrival_time"], _TIME_FORMAT)
            < datetime.strptime(second["depart_time"], _TIME_FORMAT)
        ]
        return pairs or "No connecting flights that meet the criteria were found."

    # ------------------------------------------------------------------ helpers that are tools too
    def authenticate_user(self, user_id: Any, password: Any) -> dict[str, Any]:
        """The user's record, or an error dict (which is truthy: callers cannot tell them apart)."""
        user = self.users.get(user_id)
        if user and user["password"] == password:
            return user
        return _error("Incorrect username or password.")

    def get_baggage_allowance(self, membership_level: Any, cabin_class: Any) -> int:
        return FREE_BAGS.get(membership_level, {}).get(cabin_class, 0)

    def calculate_baggage_fee(self, membership_level: Any, cabin_class: Any, baggage_count: Any) -> Any:
        """50 per bag beyond the allowance; an unknown level or cabin raises ``KeyError``."""
        free = FREE_BAGS[membership_level][cabin_class]
        return max(baggage_count - free, 0) * BAGGAGE_FEE

    def update_balance(self, user: Any, payment_method: Any, amount: Any) -> bool:
        """Add ``amount`` (negative: a charge) to the method's balance; False when it would go below 0.
        Any method but ``cash`` and ``bank`` changes nothing and succeeds."""
        for method, key in (("cash", "cash_balance"), ("bank", "bank_balance")):
            if payment_method == method:
                if user[key] + amount < 0:
                    return False
                user[key] += amount
                return True
        return True

    def process_refund(self, user: Any, amount: Any) -> None:
        """Refunds always go to the cash balance."""
        user["cash_balance"] += amount

    def calculate_price_difference(self, flight: Any, old_cabin: Any, new_cabin: Any) -> Any:
        """New fare minus old fare on ``flight``; a cabin that is neither class costs 0."""
        fares = {"Economy Class": flight["economy_price"], "Business Class": flight["business_price"]}
        old_fare = fares.get(old_cabin, 0)
        return fares.get(new_cabin, 0) - old_fare

    # ------------------------------------------------------------------ changes
    def reserve_flight(
        self, user_id: Any, password: Any, flight_no: Any, cabin: Any, payment_method: Any, baggage_count: Any
    ) -> str:
        user = self.authenticate_user(user_id, password)  # an error dict on a wrong password: see below
        flight = next(
            (f for f in self.flights if f["flight_no"] == flight_no and f["status"] == "available"), None
        )
        # No checks: an unknown flight fails on the fare (TypeError), a wrong password on the
        # membership (KeyError), an unknown cabin on the allowance (KeyError), as in ACEBench.
        fare = flight["economy_price"] if cabin == "Economy Class" else flight["business_price"]  # type: ignore[index]
        total = fare + self.calculate_baggage_fee(user["membership_level"], cabin, baggage_count)
        if payment_method not in ["cash", "bank"]:
            return "Invalid payment method"
        balance_key = "cash_balance" if payment_method == "cash" else "bank_balance"
        account = self.users.get(user_id)
        if total > account[balance_key]:  # type: ignore[index]
            return (
                f"Your {payment_method} balance is insufficient. Please consider using another payment "
                "method."
            )
        account[balance_key] -= total  # type: ignore[index]
        flight["seats_available"] -= 1  # type: ignore[index]
        reservation_id = f"res_{len(self.reservations) + 1}"
        self.reservations.append(
            {
                "reservation_id": reservation_id,
                "user_id": user_id,
                "flight_no": flight_no,
                "payment_method": payment_method,
                "cabin": cabin,
                "baggage": baggage_count,
            }
        )
        return f"Booking successful. Reservation ID: {reservation_id}. Total cost: {total} yuan (including baggage fees)."

    def modify_flight(
        self,
        user_id: Any,
        reservation_id: Any,
        new_flight_no: Any = None,
        new_cabin: Any = None,
        add_baggage: Any = 0,
        new_payment_method: Any = None,
    ) -> str:
        reservation = self._reservation(user_id, reservation_id)
        if not reservation:
            return "Reservation not found or user ID does not match."
        held = self._flight(reservation["flight_no"])
        if not held:
            return "Flight information not found."
        payment_method = new_payment_method if new_payment_method else reservation["payment_method"]
        user = self.users[user_id]
        if not user:
            return "User information not found."
        done: list[str] = []

        if new_flight_no and new_flight_no != reservation["flight_no"]:
            new_flight = self._flight(new_flight_no)
            same_route = new_flight and (new_flight["origin"], new_flight["destination"]) == (
                held["origin"],
                held["destination"],
            )
            if not same_route:
                return "Flight change failed: Invalid new flight number or destination does not match."
            reservation["flight_no"] = new_flight_no
            done.append("Flight number has been changed.")

        if new_cabin and new_cabin != reservation.get("cabin"):
            difference = self.calculate_price_difference(held, reservation["cabin"], new_cabin)
            reservation["cabin"] = new_cabin
            if difference > 0:
                if self.update_balance(user, payment_method, -difference):
                    done.append(f"Cabin change successful. Price difference paid: {difference}.")
                else:
                    done.append("Insufficient balance to pay the cabin price difference.")
            elif difference < 0:
                self.update_balance(user, payment_method, -difference)
                done.append(f"Cabin change successful. Price difference refunded: {-difference}.")

        if add_baggage > 0:
            free = self.get_baggage_allowance(user["membership_level"], reservation["cabin"])
            bags = reservation.get("baggage", 0) + add_baggage
            fee = max(0, bags - free) * BAGGAGE_FEE
            if fee > 0:
                if self.update_balance(user, payment_method, -fee):
                    done.append(f"Baggage has been added. Additional fee to be paid: {fee}.")
                else:
                    done.append("Insufficient balance to pay the additional baggage fees.")
            reservation["baggage"] = bags

        return " ".join(done) if done else "Modification completed with no additional fees."

    def cancel_reservation(self, user_id: Any, reservation_id: Any, reason: Any) -> str:
        user = self.users.get(user_id, None)
        if not user:
            return "Invalid user ID."
        reservation = self._reservation(user_id, reservation_id)
        if not reservation:
            return "Invalid reservation ID or it does not belong to the user."
        flight = self._flight(reservation["flight_no"])
        if not flight:
            return "Invalid flight information."
        departs = datetime.strptime(flight["depart_time"], _TIME_FORMAT)
        if NOW > departs:
            return "The flight segment has been used and cannot be canceled."
        fare = flight["economy_price"] if reservation["cabin"] == "Economy Class" else flight["business_price"]
        if reason == AIRLINE_CANCELLED:
            self.process_refund(user, fare)
            return (
                "The flight has been canceled. Your reservation will be canceled free of charge, and "
                f"{fare} yuan has been refunded."
            )
        if departs - NOW > timedelta(days=1):
            self.process_refund(user, fare)
            return f"More than 24 hours before departure. Free cancellation successful, {fare} yuan has been refunded."
        fee = fare * 0.1
        self.process_refund(user, fare - fee)
        return (
            f"Less than 24 hours before departure. A cancellation fee of {fee} yuan has been deducted, and "
            f"{fare - fee} yuan has been refunded."
        )

    # ------------------------------------------------------------------ lookups (not tools)
    def _flight(self, flight_no: Any) -> dict[str, Any] | None:
        return next((flight for flight in self.flights if flight["flight_no"] == flight_no), None)

    def _reservation(self, user_id: Any, reservation_id: Any) -> dict[str, Any] | None:
        return next(
            (
                entry
                for entry in self.reservations
                if entry["reservation_id"] == reservation_id and entry["user_id"] == user_id
            ),
            None,
        )
