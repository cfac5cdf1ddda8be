"""Low-level MCP servers (`mcp.server.lowlevel.Server`): tool handlers that return what the
SDK cannot send, and a second server whose handler is written right."""

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("orders")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:  # expect: TRV603
    """A bare string, and an unknown tool name falls off the end."""
    if name == "order_status":
        return f"Order {arguments['order_id']} has shipped"  # expect: TRV603
    if name == "refund":
        return types.TextContent(type="text", text="refunded")  # expect: TRV603


fixed = Server("orders-fixed")


@fixed.call_tool()
async def call_tool_fixed(name: str, arguments: dict) -> list[types.TextContent]:
    """A list of content blocks, structured content as a dict, and a raise for the rest."""
    match name:
        case "order_status":
            return [types.TextContent(type="text", text="shipped")]
        case "order":
            return {"id": arguments["order_id"], "status": "shipped"}
        case _:
            raise ValueError(f"Unknown tool: {name}")
