"""Shared example code of the MCP rules."""

from __future__ import annotations

OFFICIAL = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


"""

STANDALONE = """\
from fastmcp import FastMCP

mcp = FastMCP("orders")


"""
