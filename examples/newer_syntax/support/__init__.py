"""An MCP server split over modules, in Python 3.12+ syntax."""

from .server import mcp

__all__ = ["mcp"]
