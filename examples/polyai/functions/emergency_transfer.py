# toolret example: TRV108, hangup and handoff in one dict (points at the second of the
# two keys), and TRV104, conv.call_handoff(...) without an utterance.
from _gen import *  # <AUTO GENERATED>


@func_description("The caller describes a pet emergency: transfer them to a vet now")
@func_parameter("symptoms", "A one-sentence summary of what is wrong with the pet")
def emergency_transfer(conv: Conversation, symptoms: str):
    conv.state.handoff_reason = "PET_EMERGENCY"
    conv.write_metric("EMERGENCY", symptoms)
    if conv.state.is_ooh:
        return {
            "utterance": "I'm putting you through to the out-of-hours emergency vet now.",
            "handoff": {"type": "OOH_EMERGENCY", "reason": "PET_EMERGENCY"},
            "hangup": True,  # expect: TRV108
        }
    return conv.call_handoff(destination="DUTY_VET", reason="PET_EMERGENCY")  # expect: TRV104
