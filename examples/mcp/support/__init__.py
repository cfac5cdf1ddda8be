"""An MCP server split over modules, as production servers are (see ../README.md)."""

from .server import mcp

__all__ = ["mcp"]
