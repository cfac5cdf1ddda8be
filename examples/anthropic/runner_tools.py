"""Tools of the SDK's tool runner (`client.beta.messages.tool_runner(...)`).

The runner sends what a `@beta_tool` function returns as the `tool_result`
content: a `str` as it is, anything else as `list(value)` (anthropic 2.x) —
a dict's keys only, an `int` an `is_error` `TypeError`.
"""

import json

from anthropic import beta_tool

ORDERS = {
    "A-1001": {"status": "shipped", "items": 2, "customer": "c-7"},
    "A-1002": {"status": "processing", "items": 1, "customer": "c-7"},
}


@beta_tool
def get_order_status(order_id: str) -> str:
    """Get the status of an order.

    Args:
        order_id: The order's id, like A-1001.
    """
    return json.dumps(ORDERS.get(order_id, {"error": "no such order"}))


@beta_tool
def cancel_order(order_id: str) -> str:
    """Cancel an order that has not shipped.

    Args:
        order_id: The order's id.
    """
    if ORDERS[order_id]["status"] == "shipped":
        return "Cannot cancel: the order has shipped"
    ORDERS[order_id]["status"] = "cancelled"
    return f"Order {order_id} cancelled"


@beta_tool
def get_order_details(order_id: str):
    """Get an order's details.

    Args:
        order_id: The order's id.
    """
    return {"order_id": order_id, **ORDERS[order_id]}  # expect: TRV508


@beta_tool
def count_open_orders(customer_id: str) -> int:
    """Count a customer's orders that are not shipped.

    Args:
        customer_id: The customer's id.
    """
    return len(  # expect: TRV508
        [o for o in ORDERS.values() if o["customer"] == customer_id and o["status"] != "shipped"]
    )


@beta_tool
def list_customer_orders(customer_id: str) -> dict[str, str]:  # expect: TRV508
    """The status of each of a customer's orders.

    Args:
        customer_id: The customer's id.
    """
    return load_statuses(customer_id)


def load_statuses(customer_id: str):
    with open("statuses.json", encoding="utf-8") as file:
        return json.load(file)[customer_id]


def order_count() -> int:
    """Not a tool: may return an int."""
    return len(ORDERS)
