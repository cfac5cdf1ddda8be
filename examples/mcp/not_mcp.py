"""The mistakes of `orders_server.py` on a home-made `FastMCP` class in a module that does
not import `mcp` or `fastmcp`: not checked, nothing is reported."""

import json
from typing import Any

from my_rpc import CallToolResult, FastMCP, Server

mcp = FastMCP("orders")
server = Server("orders")


@mcp.tool
def order_status(order_id: str) -> str:
    return f"Order {order_id} has shipped"


@mcp.resource
def catalogue() -> str:
    return "A1, B2"


@mcp.tool()
def order_summary(order_id: str) -> str:
    return {"id": order_id, "status": "shipped"}


@mcp.tool()
def order_details(order_id: str) -> dict[str, Any]:
    return json.dumps({"id": order_id})


@mcp.tool()
def cancel_order(order_id: str) -> CallToolResult | None:
    return None


@mcp.tool()
async def track_parcel(order_id: str, ctx) -> str:
    return "In transit"


@mcp.tool()
def order_lines(order_id: str):
    return [{"sku": "A1"}, {"sku": "B2"}]


@server.call_tool()
async def call_tool(name: str, arguments: dict):
    if name == "order_status":
        return "shipped"
