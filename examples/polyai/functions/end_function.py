# toolret example: end_function is always a tool function, but it runs after the call
# has ended, so TRV102/TRV103/TRV104/TRV107 never apply to it. Expected: nothing.
from _gen import *  # <AUTO GENERATED>


def end_function(conv: Conversation):
    if conv.env != "live":
        return {}
    conv.write_metric("CALL_OUTCOME", conv.state.call_outcome or "UNKNOWN")
    if conv.state.booking_reference:
        conv.write_metric("BOOKING_MADE", write_once=True)
