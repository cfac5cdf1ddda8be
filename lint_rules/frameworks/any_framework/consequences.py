"""What each framework does with a tool's returned exception or un-awaited coroutine."""

from __future__ import annotations

from typing import Final

TITLES: Final[dict[str, str]] = {
    "polyai": "PolyAI function",
    "browser_use": "browser-use action",
    "openai_agents": "Agents SDK tool",
    "openai_chat": "Chat Completions tool",
    "anthropic": "Anthropic `@beta_tool`",
    "mcp": "MCP tool",
    "langchain": "LangChain tool",
    "pydantic_ai": "Pydantic AI tool",
    "openai_responses": "Responses API tool",
    "google_genai": "Gemini automatic-function-calling tool",
    "bedrock": "Strands tool",
    "claude_agent_sdk": "Claude Agent SDK tool",
}

EXCEPTION: Final[dict[str, str]] = {
    "polyai": "Agent Studio accepts only a `str` or a `dict`, and the turn fails",
    "browser_use": "browser-use raises `Invalid action result type` after the action ran",
    "openai_agents": "the SDK sends the model `str()` of it as the tool's successful result",
    "openai_chat": "the loop sends the model its repr as a result, or `json.dumps` raises",
    "anthropic": "the tool runner sends the model an `is_error` `TypeError` instead of "
    "the message (2.x), or raises `TypeError: Object of type … is not JSON serializable` (0.x)",
    "mcp": "the server sends its message as a successful result (`isError: false`; a "
    "low-level handler's gets `Unexpected return type` instead)",
    "langchain": "the model reads its repr as the tool's normal result",
    "pydantic_ai": "the whole run aborts with `PydanticSerializationError`",
    "openai_responses": "the loop sends the model its repr as the call's output, or "
    "`json.dumps` raises",
    "google_genai": 'the SDK wraps it as `{"result": ...}` and `generate_content` raises '
    "`TypeError` (not JSON serializable) after the tool ran",
    "bedrock": "Strands sends the model `str()` of it as the tool's successful result",
    "claude_agent_sdk": 'the SDK reads `.get("content")` of it, and every call is an '
    "error result (\"… has no attribute 'get'\") instead of the message",
}

COROUTINE: Final[dict[str, str]] = {
    "polyai": "Agent Studio gets a coroutine object, not a `str` or a `dict`, and the work "
    "never runs",
    "browser_use": "browser-use raises `Invalid action result type`, and the work never runs",
    "openai_agents": 'the model reads "<coroutine object …>" as the result, and the work '
    "never runs",
    "openai_chat": 'the model reads "<coroutine object …>" as the result (or `json.dumps` '
    "raises), and the work never runs",
    "anthropic": "the tool runner does not await it: the model reads an `is_error` "
    "`TypeError` (2.x) or the run raises `TypeError` (0.x), and the work never runs",
    "mcp": 'the client reads "<coroutine object …>" as a successful result, and the work '
    "never runs",
    "langchain": 'the model reads "<coroutine object …>" as the result, and the work never runs',
    "pydantic_ai": "the whole run aborts with `PydanticSerializationError`, and the work "
    "never runs",
    "openai_responses": 'the model reads "<coroutine object …>" as the output (or '
    "`json.dumps` raises), and the work never runs",
    "google_genai": "`generate_content` raises `TypeError` (not JSON serializable), and the "
    "work never runs",
    "bedrock": 'Strands sends the model "<coroutine object …>" as the result, and the work '
    "never runs",
    "claude_agent_sdk": 'the SDK reads `.get("content")` of the coroutine, every call is an '
    "error result, and the work never runs",
}


def title(framework: str) -> str:
    return TITLES.get(framework, "Tool")


def exception_consequence(framework: str) -> str:
    return EXCEPTION.get(framework, "the framework treats it as a successful result")


def coroutine_consequence(framework: str) -> str:
    return COROUTINE.get(framework, "the work never runs")
