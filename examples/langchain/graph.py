"""The support agent as a LangGraph `StateGraph`: a model node, a `ToolNode` with the
tools of `support_tools_fixed.py`, and a routing node that returns `Command`s (a graph
node, not a tool: its `Command` needs no `ToolMessage`)."""

from __future__ import annotations

from typing import Literal

from langchain.chat_models import init_chat_model
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command
from support_tools_fixed import (
    TicketHistoryTool,
    add_note,
    confirm_refund,
    customer_tickets_tool,
    escalate_to_human,
    order_status,
    refund_preview,
    search_orders,
    ticket_tool,
    transfer_to_billing,
)


class SupportState(MessagesState):
    escalated: bool
    refunded: bool
    notes: list[str]


TOOLS = [
    search_orders,
    order_status,
    ticket_tool("support"),
    customer_tickets_tool,
    TicketHistoryTool(),
    escalate_to_human,
    add_note,
    refund_preview,
    confirm_refund,
    transfer_to_billing,
]

model = init_chat_model("anthropic:claude-sonnet-4-5").bind_tools(TOOLS)


def assistant(state: SupportState) -> dict:
    return {"messages": [model.invoke(state["messages"])]}


def triage(state: SupportState) -> Command[Literal["assistant", "__end__"]]:
    if state.get("escalated"):
        return Command(update={"notes": ["handed to a human"]}, goto=END)
    return Command(goto="assistant")


builder = StateGraph(SupportState)
builder.add_node("triage", triage)
builder.add_node("assistant", assistant)
builder.add_node("tools", ToolNode(TOOLS))
builder.add_edge(START, "triage")
builder.add_conditional_edges("assistant", tools_condition)
builder.add_edge("tools", "triage")
graph = builder.compile()
