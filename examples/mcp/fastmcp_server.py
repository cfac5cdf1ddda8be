"""The same kind of server on the standalone `fastmcp` package (4.x).

A bare `@mcp.tool` / `@mcp.prompt` is accepted there; a bare `@mcp.resource` is not (it
needs its URI). `fastmcp` builds a schema for a bare `-> dict` too.
"""

from fastmcp import Context, FastMCP

mcp = FastMCP("orders")


@mcp.tool
def order_status(order_id: str) -> str:
    """The status of an order (a bare decorator is fine on fastmcp)."""
    return f"Order {order_id} has shipped"


@mcp.prompt
def apology(customer: str) -> str:
    return f"Write an apology to {customer}."


@mcp.resource  # expect: TRV601
def catalogue() -> str:
    return "A1, B2"


@mcp.resource("orders://catalogue")
def catalogue_ok() -> str:
    return "A1, B2"


@mcp.tool
def order(order_id: str) -> dict:
    """A string under a bare `-> dict`: fastmcp validates it."""
    if not order_id:
        return "no order id"  # expect: TRV602
    return {"id": order_id, "status": "shipped"}


@mcp.tool
async def refund(order_id: str, context=None) -> str:  # expect: TRV605
    return f"Order {order_id} refunded"


@mcp.tool
async def refund_ok(order_id: str, ctx: Context) -> str:
    await ctx.info(f"Refunding {order_id}")
    return f"Order {order_id} refunded"


@mcp.tool
def order_lines(order_id: str):
    """fastmcp merges a list into one text block: not split."""
    return [{"sku": "A1"}, {"sku": "B2"}]
