"""ACEBench's phone scenarios: BaseApi (the device), MessageApi, ReminderApi and FoodPlatform.

These classes behave as ACEBench's own (chenchen0103/ACEBench, ``model_inference/*/scenariosen/
phone_platform``, MIT licence): the same state, the same checks in the same order, the same messages
and the same side effects, including the ones that look like mistakes, because ACEBench's expected
end states and scores are computed with them. The code is this project's; the initial world (six
users, six inbox messages, three reminders, six merchants and their menus) is ACEBench's data.

What a newcomer may not expect, all as in ACEBench:

- Every phone class is a device of its own: MessageApi, ReminderApi and FoodPlatform each hold their
  own ``wifi`` and ``logged_in`` and have ``turn_on_wifi`` / ``login_device`` too. ``World`` sends a
  call of those to every involved class that has them, so the copies move together. Each loads
  ``initial_config["BaseApi"]`` (ACEBench loads the class's own config first, then BaseApi's over it).
- Device checks compare with ``== False``: a config value of ``0`` is off, ``None`` is not.
- Values are stored as given (a message may be a number), IDs are looked up exactly (``"3"`` is not
  message 3), products must be named exactly as on the menu.
- Messages sent during an episode carry no ``time``; ``get_latest_message_id`` and
  ``get_earliest_message_id`` then raise ``KeyError('time')``, which the caller reports as an
  execution error.
- ``add_food_delivery_order`` needs a platform login but neither Wi-Fi nor a device login;
  ``search_messages``, ``view_all_reminders`` and the order views need no login at all.
- ``check_balance`` returns the bare balance (0.0 for an unknown user), not a status dict.

Bad arguments raise as they would in ACEBench (a missing parameter is a ``TypeError``, a string
keyword ``.lower()``s, a list user name is unhashable); ``World`` turns every exception into the
"Error during execution" text ACEBench shows the agent.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

Result = dict[str, Any]


def _off(flag: Any) -> bool:
    """ACEBench's device check, ``flag == False``: 0 and 0.0 are off too, None and "" are not."""
    return flag == False


def _failure(message: str) -> Result:
    return {"status": False, "message": message}


class BaseApi:
    """The device: Wi-Fi (off unless configured) and a login (on unless configured)."""

    saved_attributes = ("wifi", "logged_in")

    def __init__(self, base_config: dict[str, Any]) -> None:
        config = copy.deepcopy(base_config)
        self.wifi: Any = config.get("wifi", False)
        self.logged_in: Any = config.get("logged_in", True)

    def turn_on_wifi(self) -> Result:
        self.wifi = True
        return {"status": True, "message": "Wi-Fi has been turned on"}

    def login_device(self) -> Result:
        self.logged_in = True
        return {"status": True, "message": "Device has been logged in"}


# ---------------------------------------------------------------------- messages
MESSAGE_USERS: tuple[tuple[str, str, str, str], ...] = (
    # name, user id, phone number, occupation (ACEBench's data)
    ("Eve", "USR100", "123-456-7890", "Software Engineer"),
    ("Frank", "USR101", "234-567-8901", "Data Scientist"),
    ("Grace", "USR102", "345-678-9012", "Product Manager"),
    ("Helen", "USR103", "456-789-0123", "UX Designer"),
    ("Isaac", "USR104", "567-890-1234", "DevOps Engineer"),
    ("Jack", "USR105", "678-901-2345", "Marketing Specialist"),
)
INBOX: tuple[tuple[str, str, str, str], ...] = (
    # sender id, receiver id, text, date; message IDs are 1..6 in this order (ACEBench's data)
    (
        "USR100",
        "USR101",
        "Hey Frank, don't forget about our meeting on 2024-06-11 at 4 PM in Conference Room 1.",
        "2024-06-09",
    ),
    (
        "USR101",
        "USR102",
        'Can you help me order a "Margherita Pizza" delivery? The merchant is Domino\'s.',
        "2024-03-09",
    ),
    (
        "USR102",
        "USR103",
        (
            "Please check the milk tea delivery options available from Heytea and purchase a cheaper "
            'milk tea for me. After making the purchase, remember to reply to me with "Already bought."'
        ),
        "2023-12-05",
    ),
    ("USR103", "USR102", "No problem Helen, I can assist you.", "2024-09-09"),
    ("USR104", "USR105", "Isaac, are you available for a call?", "2024-06-06"),
    ("USR105", "USR104", "Yes Jack, let's do it in 30 minutes.", "2024-01-15"),
)


class MessageApi(BaseApi):
    """Text messages between six users; at most six messages, new IDs count on from 7."""

    saved_attributes = ("inbox",)
    capacity = 6

    def __init__(self, base_config: dict[str, Any]) -> None:
        super().__init__(base_config)
        self.user_list: dict[str, dict[str, str]] = {
            name: {"user_id": user_id, "phone_number": phone, "occupation": occupation}
            for name, user_id, phone, occupation in MESSAGE_USERS
        }
        self.inbox: dict[int, dict[str, Any]] = {
            number: {"sender_id": sender, "receiver_id": receiver, "message": text, "time": date}
            for number, (sender, receiver, text, date) in enumerate(INBOX, start=1)
        }
        self.message_id_counter = len(INBOX)

    def send_message(self, sender_name: Any, receiver_name: Any, message: Any) -> Result:
        if _off(self.logged_in):
            return _failure("Device not logged in, unable to send message")
        if _off(self.wifi):
            return _failure("Wi-Fi is turned off, cannot send messages at this time")
        if len(self.inbox) >= self.capacity:
            return _failure("Inbox capacity is full. You need to ask the user which message to delete.")
        if sender_name not in self.user_list or receiver_name not in self.user_list:
            return _failure("Sender or receiver does not exist")
        self.message_id_counter += 1
        self.inbox[self.message_id_counter] = {
            "sender_id": self.user_list[sender_name]["user_id"],
            "receiver_id": self.user_list[receiver_name]["user_id"],
            "message": message,
        }
        return {"status": True, "message": f"Message successfully sent to {receiver_name}."}

    def delete_message(self, message_id: Any) -> Result:
        if _off(self.logged_in):
            return _failure("Device not logged in, unable to delete message")
        if message_id not in self.inbox:
            return _failure("Message ID does not exist")
        del self.inbox[message_id]
        return {"status": True, "message": f"Message ID {message_id} has been successfully deleted."}

    def view_messages_between_users(self, sender_name: Any, receiver_name: Any) -> Result:
        """Messages sent from ``sender_name`` to ``receiver_name`` (one direction only)."""
        if _off(self.logged_in):
            return _failure("Device not logged in, unable to view message information")
        if sender_name not in self.user_list:
            return _failure("Sender does not exist")
        if receiver_name not in self.user_list:
            return _failure("Receiver does not exist")
        sender_id = self.user_list[sender_name]["user_id"]
        receiver_id = self.user_list[receiver_name]["user_id"]
        found = [
            {"id": number, "sender": sender_name, "receiver": receiver_name, "message": entry["message"]}
            for number, entry in self.inbox.items()
            if entry["sender_id"] == sender_id and entry["receiver_id"] == receiver_id
        ]
        if not found:
            return _failure("No related message records found")
        return {"status": True, "messages": found}

    def search_messages(self, user_name: Any, keyword: Any) -> Result:
        """The user's sent and received messages containing ``keyword``, ignoring case; no login needed."""
        if user_name not in self.user_list:
            return _failure("User does not exist")
        user_id = self.user_list[user_name]["user_id"]
        found = []
        for number, entry in self.inbox.items():
            involved = entry["sender_id"] == user_id or entry["receiver_id"] == user_id
            if involved and keyword.lower() in entry["message"].lower():
                found.append(
                    {
                        "id": number,
                        "sender_id": entry["sender_id"],
                        "receiver_id": entry["receiver_id"],
                        "message": entry["message"],
                    }
                )
        if not found:
            return _failure("No messages found containing the keyword")
        return {"status": True, "messages": found}

    def get_all_message_times_with_ids(self) -> dict[Any, Any]:
        """``{message ID: date}``; raises ``KeyError`` once a message without a date is in the inbox."""
        if _off(self.logged_in):
            return _failure(
                "Device not logged in, unable to retrieve all message times and their corresponding "
                "message IDs."
            )
        return {number: entry["time"] for number, entry in self.inbox.items()}

    def get_latest_message_id(self) -> Result:
        return self._dated_extreme("latest")

    def get_earliest_message_id(self) -> Result:
        return self._dated_extreme("earliest")

    def _dated_extreme(self, which: str) -> Result:
        """The message with the latest (earliest) date, the first one on a tie.

        Every message's date is read, so a message sent during the episode (it has none) raises
        ``KeyError('time')``.
        """
        if _off(self.logged_in):
            return _failure(f"Device not logged in, unable to retrieve the {which} sent message ID.")
        if not self.inbox:
            return _failure("No message records found")
        best_id, best_date = None, None
        for number, entry in self.inbox.items():
            date = datetime.strptime(entry["time"], "%Y-%m-%d")
            if best_date is None or (date > best_date if which == "latest" else date < best_date):
                best_id, best_date = number, date
        return {"status": True, "message": f"The {which} message ID is {best_id}", "message_id": best_id}


# ---------------------------------------------------------------------- reminders
REMINDERS: tuple[tuple[int, str, str, str], ...] = (
    # reminder_id field, title, description, time; list keys are 1..3 in this order (ACEBench's data)
    (1001, "Doctor's Appointment", "Visit Dr. Smith for a checkup.", "2024-07-15 09:30"),
    (1002, "Team Meeting", "Monthly project review with the team.", "2024-07-17 11:00"),
    (
        1003,
        "To-do list",
        (
            'First, help Frank place a food delivery order at "Hema Fresh," ordering two "Fresh Gift '
            'Packs." Then, send a message to Frank saying, "The price of the purchased goods is () yuan." '
            "Replace the parentheses with the actual amount, keeping one decimal place."
        ),
        "2024-07-16 11:00",
    ),
)


class ReminderApi(BaseApi):
    """Reminders; at most six. A new reminder's key and ``reminder_id`` are both its counter (4, 5, ...),
    while the three initial ones have keys 1-3 and ``reminder_id`` 1001-1003."""

    saved_attributes = ("reminder_list",)
    capacity = 6

    def __init__(self, base_config: dict[str, Any]) -> None:
        super().__init__(base_config)
        self.reminder_list: dict[int, dict[str, Any]] = {
            number: {
                "reminder_id": reminder_id,
                "title": title,
                "description": description,
                "time": time,
                "notified": False,
            }
            for number, (reminder_id, title, description, time) in enumerate(REMINDERS, start=1)
        }
        self.reminder_id_counter = len(REMINDERS)

    def view_reminder_by_title(self, title: Any) -> Result:
        if _off(self.logged_in):
            return _failure("The device is not logged in, so you cannot view notifications")
        for reminder in self.reminder_list.values():
            if reminder["title"] == title:
                return {"status": True, "reminder": reminder}
        return _failure(f"No reminder found with the title '{title}'.")

    def add_reminder(self, title: Any, description: Any, time: Any) -> Result:
        if _off(self.logged_in):
            return _failure("Device not logged in. Unable to add a new reminder.")
        if len(self.reminder_list) >= self.capacity:
            return _failure("Reminder capacity is full. Unable to add a new reminder.")
        self.reminder_id_counter += 1
        number = self.reminder_id_counter
        self.reminder_list[number] = {
            "reminder_id": number,
            "title": title,
            "description": description,
            "time": time,
            "notified": False,
        }
        return {"status": True, "message": f"Reminder '{title}' was successfully added."}

    def delete_reminder(self, reminder_id: Any) -> Result:
        """``reminder_id`` is the list key (1, 2, ...), not the ``reminder_id`` field."""
        if _off(self.logged_in):
            return _failure("Device not logged in. Unable to delete the specified reminder.")
        if reminder_id not in self.reminder_list:
            return _failure("Reminder ID does not exist.")
        del self.reminder_list[reminder_id]
        return {"status": True, "message": f"Reminder ID {reminder_id} was successfully deleted."}

    def view_all_reminders(self) -> Result:
        if not self.reminder_list:
            return _failure("No reminders found.")
        fields = ("title", "description", "time", "notified")
        return {
            "status": True,
            "reminders": [{key: reminder[key] for key in fields} for reminder in self.reminder_list.values()],
        }


# ---------------------------------------------------------------------- food delivery
FOOD_ACCOUNTS: tuple[tuple[str, str, str, float], ...] = (
    # name, user id, password, balance (ACEBench's data)
    ("Eve", "U100", "password123", 500.0),
    ("Frank", "U101", "password456", 300.0),
    ("Grace", "U102", "password789", 150.0),
    ("Helen", "U103", "password321", 800.0),
    ("Isaac", "U104", "password654", 400.0),
    ("Jack", "U105", "password654", 120.0),
)
MERCHANTS: tuple[tuple[str, str, str, tuple[tuple[str, float], ...]], ...] = (
    # name, merchant id, service type, menu (ACEBench's data)
    ("Domino's", "M100", "Pizza", (("Margherita Pizza", 68.0), ("Super Supreme Pizza", 88.0))),
    (
        "Rice Village Bibimbap",
        "M101",
        "Bibimbap",
        (("Stone Pot Bibimbap", 35.0), ("Korean Beef Bibimbap", 45.0)),
    ),
    ("Haidilao", "M102", "Hotpot", (("Beef Rolls", 68.0), ("Seafood Platter", 88.0))),
    ("Heytea", "M103", "Milk Tea", (("Cheese Milk Tea", 25.0), ("Four Seasons Spring Milk Tea", 22.0))),
    (
        "Hema Fresh",
        "M104",
        "Fresh Grocery",
        (("Organic Vegetable Pack", 15.0), ("Fresh Gift Pack", 99.0)),
    ),
    ("Jiutian BBQ", "M105", "BBQ", (("Korean Grilled Beef", 128.0), ("Grilled Pork Belly", 78.0))),
)


class FoodPlatform(BaseApi):
    """A food-delivery platform: accounts with balances, merchants with menus, orders.

    Logging in needs Wi-Fi; ordering needs only a platform login. ``logged_in_users`` starts as
    ``initial_config["BaseApi"]["logged_in_users"]`` (empty when absent).
    """

    saved_attributes = ("users", "logged_in_users", "orders")

    def __init__(self, base_config: dict[str, Any]) -> None:
        super().__init__(base_config)
        self.users: dict[str, dict[str, Any]] = {
            name: {"user_id": user_id, "password": password, "balance": balance}
            for name, user_id, password, balance in FOOD_ACCOUNTS
        }
        self.merchant_list: dict[str, dict[str, Any]] = {
            name: {
                "merchant_id": merchant_id,
                "service_type": service,
                "menu": [{"product": product, "price": price} for product, price in menu],
            }
            for name, merchant_id, service, menu in MERCHANTS
        }
        self.logged_in_users: list[Any] = copy.deepcopy(base_config).get("logged_in_users", [])
        self.orders: list[dict[str, Any]] = []

    def login_food_platform(self, username: Any, password: Any) -> Result:
        if _off(self.wifi):
            return _failure("Wi-Fi is not enabled, unable to login")
        if username not in self.users:
            return _failure("User does not exist")
        if self.users[username]["password"] != password:
            return _failure("Incorrect password")
        if username in self.logged_in_users:
            return _failure(f"{username} is already logged in")
        self.logged_in_users.append(username)
        return {"status": True, "message": f"User {username} has successfully logged in!"}

    def view_logged_in_users(self) -> Result:
        if not self.logged_in_users:
            return _failure("No users are currently logged in to the food platform")
        return {"status": True, "logged_in_users": self.logged_in_users}

    def check_balance(self, user_name: Any) -> float:
        """The balance itself; 0.0 for an unknown user (ACEBench prints a notice instead of failing)."""
        if user_name in self.users:
            return self.users[user_name]["balance"]
        return 0.0

    def add_food_delivery_order(self, username: Any, merchant_name: Any, items: Any) -> Result:
        """Price every ``{"product": ..., "quantity": ...}`` (quantity 1 when absent) on the menu, then
        charge the total if the balance covers it. An empty ``items`` places an empty order of 0.0."""
        if username not in self.logged_in_users:
            return _failure(f"User {username} is not logged in to the food platform")
        if merchant_name not in self.merchant_list:
            return _failure("Merchant does not exist")
        menu = self.merchant_list[merchant_name]["menu"]
        total, ordered = 0.0, []
        for item in items:
            product, quantity = item.get("product"), item.get("quantity", 1)
            if not isinstance(quantity, int) or quantity <= 0:
                return _failure(f"Invalid quantity {quantity} for product {product}")
            entry = next((entry for entry in menu if entry["product"] == product), None)
            if entry is None:
                return _failure(f"Product {product} does not exist in {merchant_name}'s menu")
            total += entry["price"] * quantity
            ordered.append({"product": product, "quantity": quantity, "price_per_unit": entry["price"]})
        if total > self.users[username]["balance"]:
            return _failure("Insufficient balance to place the order")
        self.users[username]["balance"] -= total
        self.orders.append(
            {"user_name": username, "merchant_name": merchant_name, "items": ordered, "total_price": total}
        )
        return {
            "status": True,
            "message": f"Food delivery order successfully placed with {merchant_name}. "
            f"Total amount: {total} yuan",
        }

    def get_products(self, merchant_name: Any) -> list[dict[str, Any]] | Result:
        """The merchant's menu, ``[{"product": ..., "price": ...}, ...]``, or a failure."""
        merchant = self.merchant_list.get(merchant_name)
        if merchant:
            return merchant["menu"]
        return _failure(f"Merchant '{merchant_name}' does not exist")

    def view_orders(self, user_name: Any) -> Result:
        orders = [order for order in self.orders if order["user_name"] == user_name]
        if not orders:
            return _failure("User has no order records")
        return {"status": True, "orders": orders}

    def search_orders(self, keyword: Any) -> Result:
        """Orders whose merchant or one of whose products contains ``keyword``, ignoring case."""
        found = [
            order
            for order in self.orders
            if keyword.lower() in order["merchant_name"].lower()
            or any(keyword.lower() in item["product"].lower() for item in order.get("items", []))
        ]
        if not found:
            return _failure("No matching orders found")
        return {"status": True, "orders": found}
