# toolret example: TRV107 (info), modifiers returned without an utterance:
# "utterance_channel" and "end_turn": False only act together with one. The last
# return is correct.
from _gen import *  # <AUTO GENERATED>


@func_description("Called when the caller confirms the booking details")
def booking_confirmed(conv: Conversation, flow: Flow):
    response = conv.api.clinic_pms.book(slot=conv.state.chosen_slot, pet=conv.state.pet_name)
    reference = response.json().get("reference")
    conv.state.booking_reference = reference
    conv.write_metric("BOOKING_MADE")
    if conv.state.is_new_client:
        flow.goto_step("Collect Card Digits", "deposit needed")
        return {
            "content": "New clients pay a 20 pound deposit. Ask for the last four digits of their card.",
            "utterance_channel": "DTMF",  # expect: TRV107
        }
    conv.exit_flow()
    if conv.state.other_pets:
        return {"content": "The booking is done. Ask whether they'd like to book for their other pets too.", "end_turn": False}  # expect: TRV107
    return {"utterance": f"You're all booked in, your reference is {reference}. Is there anything else I can help with?"}
