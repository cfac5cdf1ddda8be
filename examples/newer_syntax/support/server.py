"""The server: tools of ``tools.py`` registered by list and by ``add_tool``."""

from fastmcp import FastMCP
from fastmcp.tools import FunctionTool

from .tools import order_details, order_status, order_summary

NAME = "support"
mcp = FastMCP(f"{NAME}-{"orders"}", tools=[order_status, order_summary])
mcp.add_tool(FunctionTool.from_function(order_details, name="order_details"))
