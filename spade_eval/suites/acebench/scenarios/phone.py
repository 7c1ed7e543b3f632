"""ACEBench's phone scenarios: BaseApi (the device), MessageApi, ReminderApi and FoodPlatform.

Written for this project from ACEBench's data and paper (arXiv 2501.12851), not from its code: the tool
names, parameters and descriptions are the entries' ``function`` lists; the behaviour is what those
descriptions and the agent policy state (a full inbox must be emptied before sending, viewing messages
needs a logged-in device, ordering food needs a platform login, which needs Wi-Fi); the initial world
(six users, six inbox messages, three reminders, six merchants) and every state change are fixed by the
expected end states in ``possible_answer/``, which the replay test reproduces for all 50 agent entries.

The initial world's values, which the entries assume but do not carry, are those of the ACEBench
repository (chenchen0103/ACEBench and its public fork yxli2123/ACEBench, MIT licence): data, not code.

One device state (Wi-Fi, login) is shared by every class of an entry, as on a phone: the agent turns
Wi-Fi on once, through BaseApi, and then messages can be sent and the food platform reached.

Tools never raise for a bad request: they answer ``{"status": False, "message": ...}`` so the agent can
read the problem and recover, as the benchmark intends. ``state()`` is what end-to-end accuracy compares.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

INBOX_CAPACITY = 6
REMINDER_CAPACITY = 6


@dataclass
class Device:
    wifi: bool = False
    logged_in: bool = True


def _failure(message: str) -> dict[str, Any]:
    return {"status": False, "message": message}


class BaseApi:
    """The phone itself: Wi-Fi and device login."""

    name = "BaseApi"
    tools = ("turn_on_wifi", "login_device")

    def __init__(self, device: Device) -> None:
        self.device = device

    def turn_on_wifi(self) -> dict[str, Any]:
        self.device.wifi = True
        return {"status": True, "message": "Wi-Fi is now on."}

    def login_device(self) -> dict[str, Any]:
        self.device.logged_in = True
        return {"status": True, "message": "Logged in to the device."}

    def state(self) -> dict[str, Any]:
        return {"wifi": self.device.wifi, "logged_in": self.device.logged_in}


PHONE_USERS = {
    "Eve": "USR100",
    "Frank": "USR101",
    "Grace": "USR102",
    "Helen": "USR103",
    "Isaac": "USR104",
    "Jack": "USR105",
}
"""Message-app user name -> user id."""


def _initial_inbox() -> dict[int, dict[str, str]]:
    return {
        1: {
            "sender_id": "USR100",
            "receiver_id": "USR101",
            "message": "Hey Frank, don't forget about our meeting on 2024-06-11 at 4 PM in "
            "Conference Room 1.",
            "time": "2024-06-09",
        },
        2: {
            "sender_id": "USR101",
            "receiver_id": "USR102",
            "message": 'Can you help me order a "Margherita Pizza" delivery? The merchant is Domino\'s.',
            "time": "2024-03-09",
        },
        3: {
            "sender_id": "USR102",
            "receiver_id": "USR103",
            "message": "Please check the milk tea delivery options available from Heytea and purchase a "
            'cheaper milk tea for me. After making the purchase, remember to reply to me with "Already '
            'bought."',
            "time": "2023-12-05",
        },
        4: {
            "sender_id": "USR103",
            "receiver_id": "USR102",
            "message": "No problem Helen, I can assist you.",
            "time": "2024-09-09",
        },
        5: {
            "sender_id": "USR104",
            "receiver_id": "USR105",
            "message": "Isaac, are you available for a call?",
            "time": "2024-06-06",
        },
        6: {
            "sender_id": "USR105",
            "receiver_id": "USR104",
            "message": "Yes Jack, let's do it in 30 minutes.",
            "time": "2024-01-15",
        },
    }


class MessageApi:
    """Text messages between the six users; the inbox holds at most six messages."""

    name = "MessageApi"
    tools = (
        "send_message",
        "delete_message",
        "view_messages_between_users",
        "search_messages",
        "get_latest_message_id",
        "get_earliest_message_id",
    )

    def __init__(self, device: Device) -> None:
        self.device = device
        self.inbox = _initial_inbox()
        self._last_id = max(self.inbox)

    def send_message(self, sender_name: str, receiver_name: str, message: str) -> dict[str, Any]:
        if not self.device.logged_in:
            return _failure("The device is not logged in; log in before sending messages.")
        if not self.device.wifi:
            return _failure("Wi-Fi is off; messages cannot be sent.")
        if len(self.inbox) >= INBOX_CAPACITY:
            return _failure("The inbox is full. Ask the user which message to delete.")
        if sender_name not in PHONE_USERS or receiver_name not in PHONE_USERS:
            return _failure("The sender or the receiver does not exist.")
        self._last_id += 1
        self.inbox[self._last_id] = {
            "sender_id": PHONE_USERS[sender_name],
            "receiver_id": PHONE_USERS[receiver_name],
            "message": str(message),
        }
        return {"status": True, "message": f"Message sent to {receiver_name}."}

    def delete_message(self, message_id: int) -> dict[str, Any]:
        if not self.device.logged_in:
            return _failure("The device is not logged in; log in before deleting messages.")
        key = _as_int(message_id)
        if key not in self.inbox:
            return _failure(f"There is no message with ID {message_id}.")
        del self.inbox[key]
        return {"status": True, "message": f"Message {key} deleted."}

    def view_messages_between_users(self, sender_name: str, receiver_name: str) -> dict[str, Any]:
        if not self.device.logged_in:
            return _failure("The device is not logged in; log in before viewing messages.")
        if sender_name not in PHONE_USERS:
            return _failure(f"There is no user named {sender_name}.")
        if receiver_name not in PHONE_USERS:
            return _failure(f"There is no user named {receiver_name}.")
        found = [
            {"id": key, "sender": sender_name, "receiver": receiver_name, "message": entry["message"]}
            for key, entry in self.inbox.items()
            if entry["sender_id"] == PHONE_USERS[sender_name]
            and entry["receiver_id"] == PHONE_USERS[receiver_name]
        ]
        return {"status": True, "messages": found} if found else _failure("No messages between these users.")

    def search_messages(self, user_name: str, keyword: str) -> dict[str, Any]:
        if user_name not in PHONE_USERS:
            return _failure(f"There is no user named {user_name}.")
        user_id, needle = PHONE_USERS[user_name], str(keyword).lower()
        found = [
            {
                "id": key,
                "sender_id": entry["sender_id"],
                "receiver_id": entry["receiver_id"],
                "message": entry["message"],
            }
            for key, entry in self.inbox.items()
            if user_id in (entry["sender_id"], entry["receiver_id"]) and needle in entry["message"].lower()
        ]
        return {"status": True, "messages": found} if found else _failure("No message contains that keyword.")

    def get_latest_message_id(self) -> dict[str, Any]:
        return self._dated_extreme(latest=True)

    def get_earliest_message_id(self) -> dict[str, Any]:
        return self._dated_extreme(latest=False)

    def _dated_extreme(self, *, latest: bool) -> dict[str, Any]:
        """By the messages' dates; messages sent during the episode carry no date and are not ranked."""
        if not self.device.logged_in:
            return _failure("The device is not logged in; log in before reading message IDs.")
        dated = [
            (datetime.strptime(entry["time"], "%Y-%m-%d"), key)
            for key, entry in self.inbox.items()
            if "time" in entry
        ]
        if not dated:
            return _failure("There are no dated messages.")
        _, key = max(dated) if latest else min(dated)
        which = "latest" if latest else "earliest"
        return {"status": True, "message": f"The {which} message ID is {key}", "message_id": key}

    def state(self) -> dict[str, Any]:
        return {"inbox": self.inbox}


def _initial_reminders() -> dict[int, dict[str, Any]]:
    return {
        1: {
            "reminder_id": 1001,
            "title": "Doctor's Appointment",
            "description": "Visit Dr. Smith for a checkup.",
            "time": "2024-07-15 09:30",
            "notified": False,
        },
        2: {
            "reminder_id": 1002,
            "title": "Team Meeting",
            "description": "Monthly project review with the team.",
            "time": "2024-07-17 11:00",
            "notified": False,
        },
        3: {
            "reminder_id": 1003,
            "title": "To-do list",
            "description": 'First, help Frank place a food delivery order at "Hema Fresh," ordering two '
            '"Fresh Gift Packs." Then, send a message to Frank saying, "The price of the purchased goods '
            'is () yuan." Replace the parentheses with the actual amount, keeping one decimal '
            "place.",
            "time": "2024-07-16 11:00",
            "notified": False,
        },
    }


class ReminderApi:
    """Reminders; at most six. A new reminder's ID is its position counter (4, 5, ...)."""

    name = "ReminderApi"
    tools = ("add_reminder", "view_reminder_by_title", "search_reminders")

    def __init__(self, device: Device) -> None:
        self.device = device
        self.reminder_list = _initial_reminders()
        self._last_id = max(self.reminder_list)

    def add_reminder(self, title: str, description: str, time: str) -> dict[str, Any]:
        if not self.device.logged_in:
            return _failure("The device is not logged in; log in before adding reminders.")
        if len(self.reminder_list) >= REMINDER_CAPACITY:
            return _failure("The reminder list is full.")
        self._last_id += 1
        self.reminder_list[self._last_id] = {
            "reminder_id": self._last_id,
            "title": str(title),
            "description": str(description),
            "time": str(time),
            "notified": False,
        }
        return {"status": True, "message": f"Reminder '{title}' added."}

    def view_reminder_by_title(self, title: str) -> dict[str, Any]:
        if not self.device.logged_in:
            return _failure("The device is not logged in; log in before viewing reminders.")
        for reminder in self.reminder_list.values():
            if reminder["title"] == title:
                return {"status": True, "reminder": reminder}
        return _failure(f"No reminder is titled '{title}'.")

    def search_reminders(self, keyword: str) -> dict[str, Any]:
        if not self.device.logged_in:
            return _failure("The device is not logged in; log in before searching reminders.")
        needle = str(keyword).lower()
        found = [
            reminder
            for reminder in self.reminder_list.values()
            if needle in reminder["title"].lower() or needle in reminder["description"].lower()
        ]
        return (
            {"status": True, "reminders": found} if found else _failure("No reminder matches that keyword.")
        )

    def state(self) -> dict[str, Any]:
        return {"reminder_list": self.reminder_list}


def _initial_food_users() -> dict[str, dict[str, Any]]:
    accounts = [
        ("Eve", "U100", "password123", 500.0),
        ("Frank", "U101", "password456", 300.0),
        ("Grace", "U102", "password789", 150.0),
        ("Helen", "U103", "password321", 800.0),
        ("Isaac", "U104", "password654", 400.0),
        ("Jack", "U105", "password654", 120.0),
    ]
    return {
        name: {"user_id": user_id, "password": password, "balance": balance}
        for name, user_id, password, balance in accounts
    }


MENUS: dict[str, tuple[tuple[str, float], ...]] = {
    "Domino's": (("Margherita Pizza", 68.0), ("Super Supreme Pizza", 88.0)),
    "Rice Village Bibimbap": (("Stone Pot Bibimbap", 35.0), ("Korean Beef Bibimbap", 45.0)),
    "Haidilao": (("Beef Rolls", 68.0), ("Seafood Platter", 88.0)),
    "Heytea": (("Cheese Milk Tea", 25.0), ("Four Seasons Spring Milk Tea", 22.0)),
    "Hema Fresh": (("Organic Vegetable Pack", 15.0), ("Fresh Gift Pack", 99.0)),
    "Jiutian BBQ": (("Korean Grilled Beef", 128.0), ("Grilled Pork Belly", 78.0)),
}


class FoodPlatform:
    """A food-delivery platform: accounts with balances, merchants with menus, orders."""

    name = "FoodPlatform"
    tools = ("login_food_platform", "check_balance", "add_food_delivery_order", "get_products")

    def __init__(self, device: Device) -> None:
        self.device = device
        self.users = _initial_food_users()
        self.logged_in_users: list[str] = []
        self.orders: list[dict[str, Any]] = []

    def login_food_platform(self, username: str, password: str) -> dict[str, Any]:
        if not self.device.wifi:
            return _failure("Wi-Fi is off; the platform cannot be reached.")
        if username not in self.users:
            return _failure(f"There is no account named {username}.")
        if self.users[username]["password"] != password:
            return _failure("Wrong password.")
        if username in self.logged_in_users:
            return _failure(f"{username} is already logged in.")
        self.logged_in_users.append(username)
        return {"status": True, "message": f"{username} logged in to the food platform."}

    def check_balance(self, user_name: str) -> dict[str, Any]:
        if user_name not in self.users:
            return _failure(f"There is no account named {user_name}.")
        return {"status": True, "balance": self.users[user_name]["balance"]}

    def get_products(self, merchant_name: str) -> Any:
        if merchant_name not in MENUS:
            return _failure(f"There is no merchant named {merchant_name}.")
        return [{"product": product, "price": price} for product, price in MENUS[merchant_name]]

    def add_food_delivery_order(
        self, username: str, merchant_name: str, items: list[dict[str, Any]]
    ) -> dict[str, Any]:
        if username not in self.logged_in_users:
            return _failure(f"{username} is not logged in to the food platform.")
        if merchant_name not in MENUS:
            return _failure(f"There is no merchant named {merchant_name}.")
        if not isinstance(items, list) or not items:
            return _failure("items must be a non-empty list of {'product': ..., 'quantity': ...}.")
        ordered, total = [], 0.0
        for item in items:
            if not isinstance(item, dict):
                return _failure("each item must be {'product': ..., 'quantity': ...}.")
            quantity = item.get("quantity", 1)
            if isinstance(quantity, bool) or not isinstance(quantity, int) or quantity <= 0:
                return _failure(f"invalid quantity {quantity!r}.")
            match = _menu_item(merchant_name, str(item.get("product", "")))
            if match is None:
                return _failure(f"{merchant_name} does not sell {item.get('product')!r}.")
            product, price = match
            ordered.append({"product": product, "quantity": quantity, "price_per_unit": price})
            total += price * quantity
        if total > self.users[username]["balance"]:
            return _failure("Insufficient balance.")
        self.users[username]["balance"] -= total
        self.orders.append(
            {"user_name": username, "merchant_name": merchant_name, "items": ordered, "total_price": total}
        )
        return {"status": True, "message": f"Order placed with {merchant_name}. Total: {total} yuan."}

    def state(self) -> dict[str, Any]:
        return {"users": self.users, "logged_in_users": self.logged_in_users, "orders": self.orders}


def _menu_item(merchant: str, requested: str) -> tuple[str, float] | None:
    """The exact product, or the single menu item whose name contains the request (case-insensitive).

    The second rule exists because users say "a Super Supreme" for the menu's "Super Supreme Pizza"; the
    data's own milestone for agent_multi_step_0 orders it that way and expects that order.
    """
    menu = MENUS[merchant]
    for product, price in menu:
        if product == requested:
            return product, price
    needle = requested.strip().lower()
    partial = [(product, price) for product, price in menu if needle and needle in product.lower()]
    return partial[0] if len(partial) == 1 else None


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None
