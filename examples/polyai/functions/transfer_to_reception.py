# toolret example: TRV104, a handoff dict without an utterance (the caller is transferred
# in silence). Also correct: conv.call_handoff(...) with the utterance as third
# positional argument. Triggered by rules.txt and by a say_phrase: false phrase filter.
from _gen import *  # <AUTO GENERATED>

RECEPTION_UTTERANCE = "Of course, I'll put you through to our reception team now."


@func_description("Transfer the caller to a receptionist")
def transfer_to_reception(conv: Conversation):
    reason = conv.state.handoff_reason or "SPEAK_TO"
    conv.write_metric("HANDOFF_REASON", reason)
    if conv.state.is_ooh:
        return {"utterance": "Reception is closed right now, but I can book or cancel an appointment for you."}
    if conv.state.handoff_attempted:
        return {"handoff": True}  # expect: TRV104
    conv.state.handoff_attempted = True
    return conv.call_handoff("RECEPTION", reason, RECEPTION_UTTERANCE)
