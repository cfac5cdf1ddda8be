"""The lines every Claude Agent SDK example starts with."""

HEAD = """\
from claude_agent_sdk import create_sdk_mcp_server, tool


"""
