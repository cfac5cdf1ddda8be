# toolret example: triggered only by the phrase_filtering entry "goodbye"
# (say_phrase: true, function: hangup), so it runs after the goodbye was spoken:
# {"hangup": True} without an utterance is correct here. Expected: nothing.
from _gen import *  # <AUTO GENERATED>


@func_description("End the call after the agent has said goodbye")
def hangup(conv: Conversation):
    conv.state.call_outcome = conv.state.call_outcome or "CONTAINED"
    return {"hangup": True}
