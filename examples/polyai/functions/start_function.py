# toolret example: start_function is always a tool function (runs at call start, no
# reference needed). Correct: the deliberate {"utterance": ""} + listen pattern from
# PolyAI's own templates. normalise_caller_number() is a helper. Expected: nothing.
from _gen import *  # <AUTO GENERATED>
from datetime import datetime
from zoneinfo import ZoneInfo

from functions.in_hours import in_hours


def normalise_caller_number(number: str | None) -> str:
    if not number:
        return ""
    return number.removeprefix("+44").lstrip("0")


def start_function(conv: Conversation):
    now = datetime.now(ZoneInfo("Europe/London"))
    conv.state.clinic_name = "Maple Street Vets"
    conv.state.formatted_date_time = now.strftime("%A, %d %B %Y at %H:%M")
    conv.state.caller_phone = normalise_caller_number(conv.caller_number)
    conv.state.USE_MOCK_API = conv.real_time_config.get("use_mock_api", True)
    conv.state.is_ooh = not in_hours(conv)
    if conv.state.is_ooh:
        conv.write_metric("OUT_OF_HOURS")
    return {"utterance": "", "listen": {"asr": {"timeout": 0.1}}}
