# toolret example: a function step (always a tool function). TRV106: "content" given an
# int instead of a str. The nested within_a_week() returns a bool, but that return
# belongs to the nested function, not to the step. A call whose result cannot be
# inferred (conv.functions...) is never reported.
from _gen import *  # <AUTO GENERATED>


def check_availability(conv: Conversation, flow: Flow):
    def within_a_week(slot: dict) -> bool:
        return slot["days_away"] <= 7

    response = conv.api.clinic_pms.free_slots(species=conv.state.species or "dog")
    if not response.ok:
        conv.log.error("free_slots failed", status_code=response.status_code)
        return conv.functions.transfer_to_reception()
    slots = [s for s in response.json().get("slots", []) if within_a_week(s)]
    if not slots:
        conv.exit_flow()
        return "There are no free appointments this week. Apologise and offer to transfer the caller to reception."
    conv.state.offered_slots = ", ".join(f"{s['day']} at {s['time']}" for s in slots[:3])
    flow.goto_step("Offer Slot", "slots found")
    return {
        "utterance": "Good news, I've found some free appointments this week.",
        "content": len(slots),  # expect: TRV106
    }
