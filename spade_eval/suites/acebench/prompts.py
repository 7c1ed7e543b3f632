"""What the model under test (and the simulated user) are told, in this project's own words.

ACEBench evaluates in prompting mode: the API specifications are in the system prompt and calls are
written as ``[ApiName(key1='value1', ...)]``. The wording below is ours; what is kept from the paper is
the protocol the scorers rely on: the call format, the exact sentences of the special category
("Missing necessary parameters (...) for the api (...)", "There is incorrect value (...) for the
parameters (...) in the conversation history.", "Due to the limitations of the function, I cannot solve
this problem."), the scenario facts an agent needs (the current time, the airline's baggage and change
rules, the phone's login rules) and "finish conversation" as the end of a dialogue.
"""

from __future__ import annotations

import json
from typing import Any

CALL_FORMAT = (
    "Write API requests as a Python-style list: [ApiName(key1='value1', key2='value2', ...)], and several "
    "requests as [ApiName(...), OtherApi(...)]. An API without parameters is written [ApiName()]."
)

NORMAL_SYSTEM = """You are an assistant that answers by calling APIs. From the API specifications below and \
the conversation so far, write the API request(s) the assistant should make next.
{call_format} Reply with the list only: no explanation, no results.
Include a parameter when the conversation gives its value or the description requires it; leave out \
optional parameters nobody mentioned. When a description does not prescribe a value's format, use the \
user's own words. Never invent parameter names.
{context}
Roles: user is the person; system is the assistant's earlier replies.

API specifications:
{functions}"""

SPECIAL_SYSTEM = """You are an assistant that answers by calling APIs. From the API specifications below and \
the conversation so far, decide what the assistant should do next.
1. If the request is clear, complete and within the APIs' abilities, reply only with the API request(s). \
{call_format}
2. Otherwise reply with exactly one of these sentences, in square brackets:
   (a) a value the user gave does not fit the parameter's definition (wrong type, format or range):
       ["There is incorrect value (value) for the parameters (key) in the conversation history."]
   (b) a required value is missing:
       ["Missing necessary parameters (key1, key2, ...) for the api (ApiName)"]
   (c) no API can do what is asked:
       ["Due to the limitations of the function, I cannot solve this problem."]
   Replace value, key, key1, key2 and ApiName with the actual value, parameter names and API name. \
Check (a) before (b).
{context}
API specifications:
{functions}"""

PHONE_POLICY = """The current time is 2024-06-11 16:00 (Beijing time). You are the assistant on a user's \
phone: you can send and manage text messages, add and read reminders, and order food delivery.
Rules:
- Use only information from the user or from the tools; do not give opinions.
- In one reply either call tools (several calls of the same tool may go in one list) or talk to the \
user, never both.
- Names the user mentions are full user names.
- Viewing messages or reminders needs a logged-in device: call login_device() first when needed. Sending \
messages also needs Wi-Fi (turn_on_wifi()).
- Before sending a message, know its sender and receiver. The inbox holds six messages; when it is full a \
message must be deleted first (ask the user which one unless they already said).
- A reminder needs a title and a description; its time defaults to the current time. To save a \
message as a reminder, read the message first.
- Ordering food needs the user's food-platform account and password and login_food_platform() (which \
needs Wi-Fi). Ask for the merchant, products and quantities if not given; order from one merchant at a \
time; if the balance is insufficient, say "Insufficient balance" and ask how to change the order.
{call_format}
When the task is complete, reply "finish conversation"."""

TRAVEL_POLICY = """The current time is 2024-07-15 08:00 (Beijing time). You are an airline agent: you book, \
change and cancel flight reservations.
Rules:
- Use only information from the user or from the tools; do not give opinions.
- In one reply either call tools (several calls of the same tool may go in one list, e.g. to book both \
legs of a connection) or talk to the user, never both.
- Bookings: get the user ID and password, the origin and destination, the cabin, the payment method \
(cash or bank) and the number of checked bags; search for flights first, then book. A round trip is two \
bookings. With no direct flight, look for connecting flights through a transfer city and book both legs.
- Free checked bags: regular members 1 in economy and 2 in business; silver 2 and 3; gold 3 in either. \
Each extra bag costs 50 yuan.
- Changes: find the reservation by user ID. A new flight keeps the same origin and destination and the \
fare already paid; a cabin change pays or refunds the fare difference; bags can be added, not removed.
- Cancellations need the user ID, the reservation ID and the reason.
{call_format}
When the task is complete, reply "finish conversation"."""

USER_SIMULATOR = """You are role-playing a person who is talking to a digital assistant. Your situation \
and goal:
{instruction}
Speak only as this person, in short natural messages. Give details only when the assistant asks for \
them, and never invent facts that are not in your situation. When the assistant has done what you \
wanted, or says it cannot, reply with exactly: finish conversation"""

USER_SIMULATOR_OPENING = "Hello! How can I help you today?"
"""The assistant's greeting that starts every simulated dialogue (the user speaks first after it)."""


def functions_json(functions: list[dict[str, Any]]) -> str:
    return json.dumps(functions, ensure_ascii=False, indent=1)


def normal_system_prompt(functions: list[dict[str, Any]], time: str | None, profile: Any | None) -> str:
    context = ""
    if time:
        context += f"\n{time}\n"
    if profile:
        context += f"\nUser profile (values not given in the conversation may come from here):\n{profile}\n"
    return NORMAL_SYSTEM.format(call_format=CALL_FORMAT, context=context, functions=functions_json(functions))


def special_system_prompt(functions: list[dict[str, Any]], time: str | None) -> str:
    context = f"\n{time}\n" if time else ""
    return SPECIAL_SYSTEM.format(
        call_format=CALL_FORMAT, context=context, functions=functions_json(functions)
    )


def conversation_message(question: str) -> str:
    """The user turn of a normal or special item: the whole dialogue so far, as ACEBench gives it."""
    return f"Conversation so far:\n{question}"


def agent_system_prompt(involved_classes: list[str], functions: list[dict[str, Any]]) -> str:
    policy = TRAVEL_POLICY if "Travel" in involved_classes else PHONE_POLICY
    return policy.format(call_format=CALL_FORMAT) + "\n\nTools:\n" + functions_json(functions)


def user_simulator_prompt(instruction: str) -> str:
    return USER_SIMULATOR.format(instruction=instruction)
