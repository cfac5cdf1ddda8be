"""The tools: registered by ``server.py``; written for Python 3.12+."""

from .errors import log_error, raise_tool_error

type Order = dict[str, str]

ORDERS: dict[str, Order] = {"A1": {"id": "A1", "status": "shipped"}}


def first[T](items: list[T]) -> T:
    return items[0]


def order_status(order_id: str) -> str:
    """The status of an order (its except branch never falls through)."""
    try:
        return f"{ORDERS[order_id]["status"]}"
    except KeyError as error:
        raise_tool_error(error, "order_status")


def order_details(order_id: str) -> dict[str, str]:  # expect: TRV602 (project)
    """An order: `None` reaches the client when the order is unknown."""
    try:
        return ORDERS[order_id]
    except KeyError as error:
        log_error(error, {"operation": f"{"order_details"}"})


def order_summary(order_id: str) -> str:
    """A summary: a dict under `-> str`."""
    return {"id": order_id, "summary": f"{ORDERS[order_id]["status"]}"}  # expect: TRV602 (project)
