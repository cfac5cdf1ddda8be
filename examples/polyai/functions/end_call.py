# toolret example: TRV103. The LLM calls this silently (rules.txt says "without saying
# anything else"), so {"hangup": True} without an utterance ends the call with no goodbye.
# The first branch is correct: conv.say(...) speaks the goodbye before hanging up.
from _gen import *  # <AUTO GENERATED>


@func_description("End the call once the caller has nothing else they need")
def end_call(conv: Conversation):
    conv.state.call_outcome = "CONTAINED"
    conv.write_metric("END_CALL")
    if conv.state.booking_reference:
        conv.say(f"Your booking reference is {conv.state.booking_reference}. Thanks for calling, goodbye!")
        return {"hangup": True}
    return {"hangup": True}  # expect: TRV103
