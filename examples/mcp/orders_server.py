"""An order-support MCP server on the official SDK (mcp 1.x `FastMCP`), written with
one mistake per tool.

The correct tools sit next to the wrong ones: a `-> str` tool returning text, a
`-> dict[str, Any]` tool returning a dict, a pydantic model, `ctx: Context`, a
`CallToolResult` with `isError=True`.
"""

import json
from typing import Any

from mcp.server.fastmcp import Context, FastMCP
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel

from .store import ORDERS

mcp = FastMCP("orders")


class Order(BaseModel):
    id: str
    status: str
    total: float


@mcp.tool  # expect: TRV601
def order_status(order_id: str) -> str:
    """The status of an order (bare decorator: `TypeError` at import)."""
    return f"Order {order_id} has shipped"


@mcp.tool()
def order_summary(order_id: str) -> str:
    """A dict under `-> str`: every call is an `isError` result."""
    return {"id": order_id, "status": "shipped"}  # expect: TRV602


@mcp.tool()
def order_details(order_id: str) -> dict[str, Any]:
    """JSON text under a dict annotation: every call is an `isError` result."""
    return json.dumps({"id": order_id, "status": "shipped"})  # expect: TRV602


@mcp.tool()
def delivery_window(order_id: str, express: bool) -> str:  # expect: TRV602
    """Falls off its end when `express` is false (reported at the annotation)."""
    if express:
        return f"Order {order_id} arrives tomorrow"


@mcp.tool()
def cancel_order(order_id: str) -> CallToolResult | None:  # expect: TRV604
    """`InvalidSignature` when the tool is registered."""
    if order_id not in ORDERS:
        return None
    return CallToolResult(content=[TextContent(type="text", text="cancelled")])


@mcp.tool()
async def track_parcel(order_id: str, ctx) -> str:  # expect: TRV605
    """`ctx` is an argument the model must invent; the context never arrives."""
    await ctx.info(f"Tracking {order_id}")
    return "In transit"


@mcp.tool()
def order_json(order_id: str) -> str:
    """JSON inside a string: no structured content (info)."""
    return json.dumps({"id": order_id, "status": "shipped"})  # expect: TRV606


@mcp.tool()
def order_lines(order_id: str):
    """One content block per line item (info)."""
    return [{"sku": "A1", "qty": 2}, {"sku": "B2", "qty": 1}]  # expect: TRV607


# ---------------------------------------------------------------- written right


@mcp.tool()
def order_status_ok(order_id: str) -> str:
    """The status of an order."""
    return f"Order {order_id} has shipped"


@mcp.tool()
def order_details_ok(order_id: str) -> dict[str, Any]:
    """An order as structured content."""
    return {"id": order_id, "status": "shipped"}


@mcp.tool()
def order_model(order_id: str) -> Order:
    """An order as a model."""
    return Order(id=order_id, status="shipped", total=42.5)


@mcp.tool()
def order_raw(order_id: str) -> dict:
    """A bare `dict` builds no schema in the official SDK: an error text is fine."""
    if order_id not in ORDERS:
        return f"No order {order_id}"
    return {"id": order_id, "status": "shipped"}


@mcp.tool()
def delivery_window_ok(order_id: str, express: bool) -> str | None:
    """`None` under an optional annotation."""
    if express:
        return f"Order {order_id} arrives tomorrow"
    return None


@mcp.tool()
def cancel_order_ok(order_id: str) -> CallToolResult:
    """An error result the model can read."""
    if order_id not in ORDERS:
        return CallToolResult(
            content=[TextContent(type="text", text=f"No order {order_id}")], isError=True
        )
    return CallToolResult(content=[TextContent(type="text", text="cancelled")])


@mcp.tool()
async def track_parcel_ok(order_id: str, ctx: Context) -> str:
    """The context arrives."""
    await ctx.info(f"Tracking {order_id}")
    return "In transit"


@mcp.tool()
def order_lines_ok(order_id: str) -> list[dict[str, Any]]:
    """One structured result."""
    return [{"sku": "A1", "qty": 2}, {"sku": "B2", "qty": 1}]


@mcp.tool()
async def order_remote(order_id: str) -> dict[str, Any]:
    """A value whose type is not known."""
    return await ORDERS.fetch(order_id)


@mcp.resource("orders://{order_id}")
def order_resource(order_id: str) -> str:
    return f"Order {order_id}"


@mcp.prompt()
def apology(customer: str) -> str:
    return f"Write an apology to {customer}."
