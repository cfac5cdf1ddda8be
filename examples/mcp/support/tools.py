"""The tools: this module does not import ``fastmcp``; ``server.py`` registers them."""

from .errors import log_error, raise_tool_error

ORDERS = {"A1": {"id": "A1", "status": "shipped"}}


def order_status(order_id: str) -> str:
    """The status of an order (its except branch never falls through)."""
    try:
        return ORDERS[order_id]["status"]
    except KeyError as error:
        raise_tool_error(error, "order_status")


def order_details(order_id: str) -> dict[str, str]:  # expect: TRV602 (project)
    """An order: `None` reaches the client when the order is unknown."""
    try:
        return ORDERS[order_id]
    except KeyError as error:
        log_error(error, "order_details")


def order_summary(order_id: str) -> str:
    """A summary: a dict under `-> str`."""
    return {"id": order_id, "summary": "1 item"}  # expect: TRV602 (project)


def not_a_tool(order_id: str) -> str:
    """Not registered anywhere: not checked as a tool."""
    return {"id": order_id}
