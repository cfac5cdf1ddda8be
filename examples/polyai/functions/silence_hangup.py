# toolret example: one line, two mistakes: the misspelled "utterence" (TRV105) means the
# dict has no utterance, so the hangup is silent too (TRV103).
from _gen import *  # <AUTO GENERATED>


@func_description("Say goodbye and end the call if the caller stays silent")
def silence_hangup(conv: Conversation):
    conv.state.call_outcome = "SILENCE"
    conv.write_metric("SILENCE_HANGUP")
    return {"utterence": "I can't hear you, so I'll end the call. Goodbye!", "hangup": True}  # expect: TRV103, TRV105
