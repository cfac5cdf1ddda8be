"""An MCP server split over modules, as production servers are (see ../README.md)."""
