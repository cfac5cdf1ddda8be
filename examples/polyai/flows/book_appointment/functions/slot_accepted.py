# toolret example: TRV106, "transition": flow.goto_step(...). goto_step navigates and
# returns None, so the dict carries "transition": None (seen in PolyAI's retail
# template). The first return shows a correct transition dict.
from _gen import *  # <AUTO GENERATED>


@func_description("Called when the caller accepts one of the offered appointment times")
@func_parameter("slot", "The accepted time exactly as it was offered, e.g. 'Tuesday at 10:30'")
def slot_accepted(conv: Conversation, flow: Flow, slot: str):
    if slot not in (conv.state.offered_slots or ""):
        return {
            "content": "That time wasn't one of the offered slots. Offer the available times again.",
            "transition": {"goto_step": "Offer Slot"},
        }
    conv.state.chosen_slot = slot
    conv.write_metric("SLOT_ACCEPTED")
    return {
        "utterance": f"Great, I'll pencil {conv.state.pet_name} in for {slot}.",
        "transition": flow.goto_step("Confirm Booking"),  # expect: TRV106
    }
