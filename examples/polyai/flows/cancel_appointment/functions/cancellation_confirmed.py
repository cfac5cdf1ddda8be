# toolret example: TRV108, conv.exit_flow() and a "transition" on one path (the
# transition silently overrides the exit). cancel_appointment() is a helper taking conv
# and returning bool. The other returns are fine.
from _gen import *  # <AUTO GENERATED>


def cancel_appointment(conv: Conversation, appointment_id: str) -> bool:
    if conv.state.USE_MOCK_API:
        return True
    return conv.api.clinic_pms.cancel(appointment_id=appointment_id).ok


@func_description("Called when the caller has chosen the appointment to cancel")
@func_parameter("appointment_id", "The id of the appointment to cancel, e.g. A-1001")
@func_parameter("rebook", "True if the caller wants a new time instead")
def cancellation_confirmed(conv: Conversation, flow: Flow, appointment_id: str, rebook: bool):
    known = {a["id"] for a in conv.state.upcoming_appointments or []}
    if appointment_id not in known:
        flow.goto_step("Confirm Cancellation", "unknown appointment id")
        return "That id is not one of the caller's appointments. Read them out again and ask which one to cancel."
    if not cancel_appointment(conv, appointment_id):
        return conv.functions.transfer_to_reception()
    conv.write_metric("APPOINTMENT_CANCELLED")
    conv.exit_flow()
    if rebook:
        return {
            "utterance": "That's cancelled. Let's find you a new time.",
            "transition": {"goto_flow": "book_appointment"},  # expect: TRV108
        }
    return {"utterance": "That's cancelled for you. Is there anything else I can help with?"}
