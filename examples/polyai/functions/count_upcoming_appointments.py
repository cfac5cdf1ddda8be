# toolret example: TRV101 with an int (`len(...)`), still an int after it is logged and
# stored: a use never changes a value's type. upcoming_for_pet() takes
# conv: Conversation and returns a list, but it is a helper (not the stem-named
# function); the lambda's return is not a return of the tool.
from _gen import *  # <AUTO GENERATED>

from functions.get_appointments import get_appointments


def upcoming_for_pet(conv: Conversation, pet_name: str) -> list:
    wanted = pet_name.strip().lower()
    return [a for a in get_appointments(conv) if a["pet_name"].lower() == wanted]


@func_description("Tell the caller how many upcoming appointments a pet has")
@func_parameter("pet_name", "The pet's name")
def count_upcoming_appointments(conv: Conversation, pet_name: str):
    bookings = upcoming_for_pet(conv, pet_name)
    if not bookings:
        return f"{pet_name} has no upcoming appointments. Offer to book one."
    conv.state.next_appointment = sorted(bookings, key=lambda a: (a["date"], a["time"]))[0]
    count = len(bookings)
    conv.log.info("%d upcoming appointments for %s", count, pet_name)
    conv.state.upcoming_count = count
    return count  # expect: TRV101
