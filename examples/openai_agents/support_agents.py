# A customer-support desk built with the OpenAI Agents SDK (openai-agents 0.24):
# a triage agent hands off to billing and refunds. Agents are built at import time,
# so TRV301/TRV310 would crash the app on start; the tool mistakes fail silently.
import json

from pydantic import BaseModel

from agents import Agent, StopAtTools, function_tool


class Order(BaseModel):
    order_id: str
    status: str


@function_tool
def lookup_order(order_id: str) -> str:
    """Look up an order by its id."""
    order = Order(order_id=order_id, status="shipped")
    return order.model_dump_json()


@function_tool(name_override="issue_refund")
def refund(order_id: str, amount: float) -> str:
    """Refund an order."""
    return json.dumps({"order_id": order_id, "refunded": amount})


@function_tool
def order_history(customer_id: str) -> dict:
    """The customer's past orders."""
    return {"customer": customer_id, "orders": ["A-1", "B-7"], "vip": False}  # expect: TRV308


@function_tool
def cancel_order(order_id: str) -> str:
    """Cancel an order that has not shipped yet."""
    if not order_id.startswith("A-"):
        return ValueError(f"unknown order {order_id}")  # expect: TRV901
    return f"order {order_id} cancelled"


async def fetch_tracking(order_id: str) -> str:
    return f"{order_id}: in transit"


@function_tool
async def track_order(order_id: str) -> str:
    """Where the parcel is now."""
    return fetch_tracking(order_id)  # expect: TRV902


def search_faq(question: str) -> str:
    return "See https://example.com/faq"


def search_orders(question: str) -> str:
    return "No matching order"


faq_search = function_tool(search_faq, name_override="search")
orders_search = function_tool(search_orders, name_override="search")


billing_agent = Agent(
    name="Billing",
    handoff_description="Questions about invoices and payments",
    instructions="Answer billing questions using the order tools.",
    tools=[lookup_order, order_history],
    tool_use_behavior="stop_at_first_tool",  # expect: TRV301
)

refund_agent = Agent(
    name="Refunds",
    instructions="Refund orders the customer asks about, then stop.",
    tools=[lookup_order, refund],
    tool_use_behavior=StopAtTools(stop_at_tool_names=["refund"]),  # expect: TRV302
)

faq_agent = Agent(
    name="FAQ",
    instructions="Answer from the FAQ.",
    tools=[faq_search, orders_search],  # expect: TRV311
    tool_use_behaviour="stop_on_first_tool",  # expect: TRV310
)


@function_tool
def transfer_to_refunds(reason: str):
    """Send the customer to the refunds desk."""
    return refund_agent  # expect: TRV309


triage_agent = Agent(
    name="Triage",
    instructions="Route the customer to the right desk.",
    handoffs=[billing_agent, refund_agent],
    tools=[transfer_to_refunds],
)

# Correct configurations: nothing to report below.
stop_after_refund = Agent(
    name="Refunds (stops after refunding)",
    tools=[lookup_order, refund],
    tool_use_behavior={"stop_at_tool_names": ["issue_refund"]},
)
first_tool_answers = Agent(
    name="Order status",
    tools=[lookup_order],
    tool_use_behavior="stop_on_first_tool",
)
