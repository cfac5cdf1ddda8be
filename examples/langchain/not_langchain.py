"""The mistakes of `support_tools.py` on tools of other libraries — CrewAI's `@tool`
and a home-made `tool` decorator, `Command` and `ToolMessage` — in a module that
imports neither `langchain` nor `langgraph`: not checked, nothing is reported."""

from __future__ import annotations

from crewai.tools import tool as crew_tool
from support.agent_kit import Command, ToolMessage, tool
from support.db import ORDERS, TICKETS


@tool(response_format="content_and_artifact")
def search_orders(customer_id: str):
    """Search a customer's orders."""
    if not customer_id.startswith("C"):
        return f"Unknown customer id {customer_id!r}"
    rows = ORDERS.for_customer(customer_id)
    return f"{len(rows)} orders found", rows


@tool
def order_status(order_id: str) -> str:
    return f"Order {order_id}: {ORDERS.status(order_id)}"


class TicketTools:
    def __init__(self, queue: str) -> None:
        self.queue = queue

    @tool
    def open_ticket(self, subject: str, body: str) -> str:
        """Open a support ticket."""
        return f"Ticket {TICKETS.open(self.queue, subject, body).id} opened"


@tool
def escalate_to_human(reason: str) -> Command:
    """Hand the conversation to a human agent."""
    return Command(update={"escalated": True, "reason": reason})


@tool
def add_note(order_id: str, note: str) -> Command:
    """Add a note to an order."""
    return Command(update={"messages": [ToolMessage("Note added", tool_call_id="call_1")]})


@crew_tool("Refund preview")
def refund_preview(order_id: str):
    """Preview the refund of an order."""
    refund = ORDERS.refund_preview(order_id)
    return f"Refund of {refund.amount} EUR", {"lines": refund.lines}


@crew_tool
def crew_order_status(order_id: str) -> str:
    return ORDERS.status(order_id)
