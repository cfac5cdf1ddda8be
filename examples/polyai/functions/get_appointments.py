# toolret example: another unreferenced global function file (like get_bookings in
# PolyAI's restaurant template). It returns lists: fine, it is a helper. Expected: nothing.
from _gen import *  # <AUTO GENERATED>

MOCK_APPOINTMENTS = [
    {"id": "A-1001", "pet_name": "Bella", "date": "2026-03-02", "time": "10:30", "status": "booked"},
    {"id": "A-1002", "pet_name": "Bella", "date": "2026-04-14", "time": "16:00", "status": "booked"},
    {"id": "A-1003", "pet_name": "Pickle", "date": "2026-03-05", "time": "09:15", "status": "cancelled"},
]


def describe_appointment(appointment: dict) -> str:
    return f"{appointment['pet_name']} on {appointment['date']} at {appointment['time']}"


@func_description("Utility module: appointment lookups shared by other functions")
def get_appointments(conv: Conversation):
    if conv.state.USE_MOCK_API:
        return [a for a in MOCK_APPOINTMENTS if a["status"] == "booked"]
    response = conv.api.clinic_pms.list_appointments(phone=conv.state.caller_phone)
    if not response.ok:
        conv.log.error("PMS lookup failed", status_code=response.status_code)
        return []
    return [a for a in response.json().get("appointments", []) if a["status"] == "booked"]
