"""TRC003 claude-sdk-result-without-content."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.claude_agent_sdk._examples import HEAD
from lint_rules.frameworks.claude_agent_sdk.recognition import ClaudeSdkFile
from lint_rules.frameworks.tool_loops import dict_entry, has_spread
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ClaudeSdkResultWithoutContent(Rule):
    """
    ## What it does
    Checks the Claude Agent SDK's `@tool(...)` handlers for a returned dict
    display with a closed key set (no `**spread`) and no `"content"` key: the
    tool's data returned as the result dict itself (`return {"temperature":
    20}`). Only a display written in the `return` is read (a dict bound to a
    name may get its `"content"` later).

    ## Why is this bad?
    The SDK reads `result.get("content", [])` (claude-agent-sdk 0.2.190):
    Claude receives an empty, successful result and never sees the data.
    Older SDK versions read `result["content"]` and turn every call into an
    error ("'content'"). Wrap the data in a text block.

    ## References
    - [Claude Agent SDK: custom tools](https://docs.claude.com/en/api/agent-sdk/custom-tools)
    """

    code = "TRC003"
    name = "claude-sdk-result-without-content"
    severity = Severity.WARNING
    framework = "claude_agent_sdk"
    message = "A Claude Agent SDK tool returns a dict without `content`"

    invalid = (
        Example(
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    return {"city": args["city"], "temperature": 20}
""",
        ),
        Example(
            title="an error flag alone",
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    if not args["city"]:
        return {"is_error": True}
    return {"content": [{"type": "text", "text": "Sunny"}]}
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
import json


@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    data = {"city": args["city"], "temperature": 20}
    return {"content": [{"type": "text", "text": json.dumps(data)}]}
""",
        ),
        Example(
            title="a spread that may hold the content",
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    return {**base_result(args), "is_error": False}
""",
        ),
        Example(
            title="a dict completed before it is returned",
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    result = {"is_error": False}
    result["content"] = [{"type": "text", "text": "Sunny"}]
    return result
""",
        ),
    )

    def check(self, context: ClaudeSdkFile, settings: Settings) -> Iterator[Finding]:
        for handler in context.handlers:
            for site in context.flow(handler.function).sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    if (
                        isinstance(value, cst.Dict)
                        and not has_spread(value)
                        and dict_entry(value, "content") is None
                    ):
                        yield Finding(
                            node=value,
                            message=(
                                f"`{handler.function.name.value}` returns a dict without "
                                '`"content"`: Claude receives an empty result and never sees '
                                'the data; return `{"content": [{"type": "text", "text": '
                                "...}]}`"
                            ),
                        )
