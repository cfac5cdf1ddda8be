# toolret example: a global function file that no prompt, topic or phrase filter
# references: a helper other functions import (like in_hours in PolyAI's templates).
# It returns bool, which would be TRV101 in a tool. Expected: nothing.
from _gen import *  # <AUTO GENERATED>
from datetime import datetime, time
from zoneinfo import ZoneInfo

OPENING_HOURS = {
    0: (time(8, 0), time(19, 0)),
    1: (time(8, 0), time(19, 0)),
    2: (time(8, 0), time(19, 0)),
    3: (time(8, 0), time(19, 0)),
    4: (time(8, 0), time(19, 0)),
    5: (time(9, 0), time(13, 0)),
}


@func_description("Check whether the clinic is open right now")
def in_hours(conv: Conversation):
    if conv.real_time_config.get("force_ooh"):
        return False
    now = datetime.now(ZoneInfo("Europe/London"))
    hours = OPENING_HOURS.get(now.weekday())
    if hours is None:
        return False
    opens, closes = hours
    return opens <= now.time() < closes
