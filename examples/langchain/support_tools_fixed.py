"""The tools of `support_tools.py` written right: nothing is reported.

- the `content_and_artifact` tool returns `(content, artifact)` on every path;
- every tool has a docstring or a `description`;
- the ticket tool is built from a bound method, or is a `BaseTool` subclass;
- every `Command` answers the call with a `ToolMessage` carrying the call's id,
  taken from `InjectedToolCallId` or from the `ToolRuntime`;
- the refund preview declares its artifact.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from langchain.tools import ToolRuntime
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, InjectedToolCallId, StructuredTool, tool
from langgraph.types import Command
from pydantic import BaseModel, Field
from support.db import ORDERS, TICKETS


@tool(response_format="content_and_artifact")
def search_orders(customer_id: str) -> tuple[str, list[dict[str, Any]]]:
    """Search a customer's orders; the rows are kept as the message's artifact."""
    if not customer_id.startswith("C"):
        return f"Unknown customer id {customer_id!r}", []
    rows = ORDERS.for_customer(customer_id)
    return f"{len(rows)} orders found", rows


@tool("order_status", description="The shipping status of one order.")
def order_status(order_id: str) -> str:
    return f"Order {order_id}: {ORDERS.status(order_id)}"


class TicketTools:
    def __init__(self, queue: str) -> None:
        self.queue = queue

    def open_ticket(self, subject: str, body: str) -> str:
        """Open a support ticket."""
        ticket = TICKETS.open(self.queue, subject, body)
        return f"Ticket {ticket.id} opened"


def ticket_tool(queue: str) -> StructuredTool:
    """A tool of the bound method: `self` is not part of the schema."""
    return StructuredTool.from_function(TicketTools(queue).open_ticket)


class TicketQuery(BaseModel):
    """Look up the tickets of a customer."""

    customer_id: str = Field(description="The customer's id, e.g. C1042")


def customer_tickets(customer_id: str) -> str:
    return ", ".join(t.subject for t in TICKETS.for_customer(customer_id)) or "No tickets"


customer_tickets_tool = StructuredTool.from_function(
    func=customer_tickets, name="customer_tickets", args_schema=TicketQuery
)


class TicketHistoryTool(BaseTool):
    """The full history of a ticket; the events are kept as the message's artifact."""

    name: str = "ticket_history"
    description: str = "The history of a support ticket."
    response_format: Literal["content_and_artifact"] = "content_and_artifact"

    def _run(self, ticket_id: str) -> tuple[str, list[dict[str, Any]]]:
        try:
            events = TICKETS.history(ticket_id)
        except KeyError:
            return f"No ticket {ticket_id}", []
        return f"{len(events)} events", events


@tool
def escalate_to_human(reason: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Hand the conversation to a human agent."""
    return Command(
        update={
            "escalated": True,
            "reason": reason,
            "messages": [ToolMessage("Escalated to a human agent", tool_call_id=tool_call_id)],
        }
    )


@tool
def add_note(order_id: str, note: str, runtime: ToolRuntime) -> Command:
    """Add a note to an order."""
    ORDERS.add_note(order_id, note)
    message = ToolMessage("Note added", tool_call_id=runtime.tool_call_id)
    return Command(update={"notes": [note], "messages": [message]})


@tool(response_format="content_and_artifact")
def refund_preview(order_id: str) -> tuple[str, dict[str, Any]]:
    """Preview the refund of an order."""
    refund = ORDERS.refund_preview(order_id)
    return f"Refund of {refund.amount} EUR", {"lines": refund.lines}


@tool
def confirm_refund(order_id: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Confirm the refund of an order."""
    ORDERS.refund(order_id)
    return Command(
        update={
            "messages": [ToolMessage("Refund done", tool_call_id=tool_call_id)],
            "refunded": True,
        }
    )


@tool
def transfer_to_billing() -> Command:
    """Hand the conversation to the billing agent of the parent graph."""
    return Command(goto="billing", graph=Command.PARENT, update={"active_agent": "billing"})
