# toolret example: a function step whose returns cannot be inferred from this file
# (a call of a function from another module, a conv.state lookup): never reported.
# Expected: nothing.
from _gen import *  # <AUTO GENERATED>

from functions.get_appointments import describe_appointment, get_appointments


def cancellation_entry(conv: Conversation, flow: Flow):
    upcoming = get_appointments(conv)
    if not upcoming:
        conv.exit_flow()
        return "The caller has no upcoming appointments. Tell them, and ask if they'd like to book one."
    conv.state.upcoming_appointments = upcoming
    conv.state.upcoming_summary = "; ".join(f"{a['id']}: {describe_appointment(a)}" for a in upcoming)
    flow.goto_step("Confirm Cancellation", "appointments found")
    if len(upcoming) == 1:
        return describe_appointment(upcoming[0])
    return conv.state.get("multi_appointment_prompt")
