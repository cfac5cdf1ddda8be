"""TRC004 claude-sdk-dropped-block."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.claude_agent_sdk._examples import HEAD
from lint_rules.frameworks.claude_agent_sdk.recognition import ClaudeSdkFile, returned_displays
from lint_rules.frameworks.tool_loops import dict_entry, display_elements, has_spread, string_value
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

KEPT_TYPES = frozenset({"text", "image", "resource_link", "resource"})
"""What ``_convert_tool_content`` keeps (claude-agent-sdk 0.2.190)."""


class ClaudeSdkDroppedBlock(Rule):
    """
    ## What it does
    Checks the `"content"` list a Claude Agent SDK `@tool(...)` handler
    returns (a list display in the returned dict) for a block display
    without `"type"`, or with a type the SDK does not convert (`"json"`,
    `"tool_result"`, anything but `text`, `image`, `resource_link` and
    `resource`), and for a text block whose `"text"` is certainly not a
    string.

    ## Why is this bad?
    The SDK converts each block by its `"type"` and drops every other one
    with only a log warning (`_convert_tool_content`, claude-agent-sdk
    0.2.190): Claude receives an empty result, silently. A text block whose
    text is a number makes the call an error result ("validation errors for
    CallToolResult"), verified with the SDK's in-process MCP server.

    ## References
    - [Claude Agent SDK: custom tools](https://docs.claude.com/en/api/agent-sdk/custom-tools)
    """

    code = "TRC004"
    name = "claude-sdk-dropped-block"
    severity = Severity.WARNING
    framework = "claude_agent_sdk"
    message = "A Claude Agent SDK tool result block is dropped or invalid"

    invalid = (
        Example(
            title="a block without `type`",
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    return {"content": [{"text": f"Sunny in {args['city']}"}]}
""",
        ),
        Example(
            title="a `json` block, and a number as text",
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    data = {"type": "json", "json": {"temperature": 20}}
    return {"content": [data, {"type": "text", "text": 20}]}
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    return {
        "content": [
            {"type": "text", "text": f"Sunny in {args['city']}"},
            {"type": "resource_link", "uri": "https://example.com/weather", "name": "source"},
        ]
    }
""",
        ),
        Example(
            title="blocks built elsewhere",
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    return {"content": [make_block(args["city"]), {**TEXT, "text": "ok"}]}
""",
        ),
        Example(
            title="a text value of unknown type",
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    return {"content": [{"type": "text", "text": lookup(args["city"])}]}
""",
        ),
    )

    def check(self, context: ClaudeSdkFile, settings: Settings) -> Iterator[Finding]:
        for handler, display in returned_displays(context):
            content = dict_entry(display, "content")
            if content is None:
                continue
            for block in display_elements(content.value):
                if not isinstance(block, cst.Dict) or has_spread(block):
                    continue
                kind = dict_entry(block, "type")
                if kind is None:
                    yield Finding(
                        node=block,
                        message=(
                            'A content block without `"type"`: the SDK drops it silently and '
                            'Claude never reads it; write `{"type": "text", "text": ...}`'
                        ),
                    )
                    continue
                written = string_value(kind.value)
                if written is not None and written not in KEPT_TYPES:
                    yield Finding(
                        node=kind.value,
                        message=(
                            f'A "{written}" content block: the SDK keeps only text, image, '
                            "resource_link and resource blocks and drops it silently; send "
                            'the data as `{"type": "text", "text": json.dumps(...)}`'
                        ),
                    )
                    continue
                text = dict_entry(block, "text")
                if written == "text" and text is not None:
                    shape = context.inference(handler.function).infer(text.value)
                    if shape.kind in (Kind.INT, Kind.FLOAT, Kind.BOOL, Kind.NONE, Kind.DICT,
                                      Kind.LIST):  # fmt: skip
                        yield Finding(
                            node=text.value,
                            message=(
                                f"A text block's `text` is a `{shape.kind.value}`, not a `str`: "
                                'every call is an error result ("validation errors for '
                                'CallToolResult"); wrap it in `str()`'
                            ),
                        )
