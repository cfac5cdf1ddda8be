"""LangChain tools of a customer-support agent, one mistake per tool (TRV701–TRV706).

`support_tools_fixed.py` has the same tools written right.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.types import Command
from support.db import ORDERS, TICKETS


@tool(response_format="content_and_artifact")
def search_orders(customer_id: str) -> tuple[str, list[dict[str, Any]]]:
    """Search a customer's orders; the rows are kept as the message's artifact."""
    if not customer_id.startswith("C"):
        return f"Unknown customer id {customer_id!r}"  # expect: TRV701
    rows = ORDERS.for_customer(customer_id)
    return f"{len(rows)} orders found", rows


@tool  # expect: TRV702
def order_status(order_id: str) -> str:
    return f"Order {order_id}: {ORDERS.status(order_id)}"


class TicketTools:
    def __init__(self, queue: str) -> None:
        self.queue = queue

    @tool  # expect: TRV703
    def open_ticket(self, subject: str, body: str) -> str:
        """Open a support ticket."""
        ticket = TICKETS.open(self.queue, subject, body)
        return f"Ticket {ticket.id} opened"


@tool
def escalate_to_human(reason: str) -> Command:
    """Hand the conversation to a human agent."""
    return Command(update={"escalated": True, "reason": reason})  # expect: TRV704


@tool
def add_note(order_id: str, note: str) -> Command:
    """Add a note to an order."""
    ORDERS.add_note(order_id, note)
    return Command(
        update={
            "notes": [note],
            "messages": [ToolMessage("Note added", tool_call_id="call_1")],  # expect: TRV705
        }
    )


@tool
def refund_preview(order_id: str) -> tuple[str, dict[str, Any]]:
    """Preview the refund of an order."""
    refund = ORDERS.refund_preview(order_id)
    return f"Refund of {refund.amount} EUR", {"lines": refund.lines}  # expect: TRV706


@tool
def confirm_refund(order_id: str) -> Command:
    """Confirm the refund of an order."""
    ORDERS.refund(order_id)
    return Command(
        update={
            "refunded": True,
            "messages": [AIMessage("Refund done")],  # expect: TRV704
        }
    )
