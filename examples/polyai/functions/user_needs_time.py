# toolret example: TRV102, `return {}` with no navigation and nothing said: the LLM gets
# nothing back. The deliberate {"utterance": ""} (stay silent, end the turn) is fine.
from _gen import *  # <AUTO GENERATED>


@func_description("The caller asked for a moment, e.g. to find their pet's records")
def user_needs_time(conv: Conversation):
    conv.state.wait_count = (conv.state.wait_count or 0) + 1
    if conv.state.wait_count >= 3:
        return "Let the caller know you're still here whenever they're ready."
    if conv.state.wait_count == 1:
        return {"utterance": ""}
    return {}  # expect: TRV102
