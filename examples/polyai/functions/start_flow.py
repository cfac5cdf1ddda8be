# toolret example: `return {}` right after conv.goto_flow(...) is fine (the flow's first
# step speaks next), and so is a bare `return` (None). Expected: nothing.
from _gen import *  # <AUTO GENERATED>

FLOWS = {"book": "book_appointment", "cancel": "cancel_appointment"}


@func_description("Start booking or cancelling an appointment")
@func_parameter("intent", "Either 'book' or 'cancel'")
def start_flow(conv: Conversation, intent: str):
    flow_name = FLOWS.get(intent.strip().lower())
    if flow_name is None:
        return {"content": "Ask the caller whether they want to book or cancel an appointment."}
    conv.write_metric("FLOW_STARTED", flow_name)
    if conv.current_flow == flow_name:
        return
    conv.goto_flow(flow_name)
    return {}
