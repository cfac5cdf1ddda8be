"""TRR001 responses-chat-tool-schema."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_responses._examples import HEAD
from lint_rules.frameworks.openai_responses.recognition import ResponsesFile
from lint_rules.frameworks.tool_loops import as_display, dict_entry, has_spread, literal_entry
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule

_CHAT_HEAD = HEAD.replace(
    """\
        "type": "function",
        "name": "get_weather",
        "description": "Get the current weather in a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
""",
    """\
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather in a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
""",
)
_PYDANTIC_TOOL = frozenset(
    {"openai.pydantic_function_tool", "openai.lib._tools.pydantic_function_tool"}
)


class ResponsesChatToolSchema(Rule):
    """
    ## What it does
    Checks for a Chat Completions tool schema — `{"type": "function",
    "function": {"name": ..., "parameters": ...}}`, or
    `openai.pydantic_function_tool(Model)` — in the `tools=` of a
    `responses.create(...)` request, or a nested schema literal in the
    `tools=` of `responses.stream(...)`.

    ## Why is this bad?
    The Responses API takes function tools flat: `{"type": "function",
    "name": ..., "parameters": ...}`. The SDK sends the nested form as it is,
    and the server rejects the request: HTTP 400 "Missing required
    parameter: 'tools[0].name'". Code ported from Chat Completions keeps its
    tool list, and `pydantic_function_tool` makes the Chat form too.
    `responses.stream(...)` converts `pydantic_function_tool`'s schema, but
    raises on a nested literal before sending anything: "Expected Chat
    Completions function tool shape to be created using
    `openai.pydantic_function_tool()`" (openai 1.109 and 3.63, verified with
    a mocked transport).

    `responses.parse(...)` is not checked: it converts `pydantic_function_tool`
    itself (and rejects a nested literal the same way as `stream`).
    The tool list is read where it is written: a list display in the call, or
    a name bound once to one in the same function or the module body, with
    its elements as displays or names of module-level displays.

    ## Fix safety
    The fix moves the `function` entry's keys up into the tool
    (`{"type": "function", "name": ..., "parameters": ...}`). It is offered
    for dict displays only, and is unsafe: the same list may also be sent to
    a Chat Completions request, which needs the nested form. The moved keys
    keep their lines and indentation (a formatter realigns them).

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    - [OpenAI: migrating to the Responses API](https://platform.openai.com/docs/guides/migrate-to-responses)
    """

    code = "TRR001"
    name = "responses-chat-tool-schema"
    severity = Severity.ERROR
    framework = "openai_responses"
    fix_applicability = Applicability.UNSAFE
    message = "A Responses request's tools hold a Chat Completions tool schema"

    invalid = (
        Example(
            title="the Chat Completions tool list, kept in a migration",
            code=_CHAT_HEAD
            + """\
def run(question):
    return client.responses.create(model="gpt-4.1", input=question, tools=tools)
""",
            fixed=HEAD.replace(
                '        "type": "function",\n',
                '        "type": "function",\n',
            ).replace(
                """\
        "type": "function",
        "name": "get_weather",
        "description": "Get the current weather in a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
""",
                """\
        "type": "function",
        "name": "get_weather",
            "description": "Get the current weather in a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
""",
            )
            + """\
def run(question):
    return client.responses.create(model="gpt-4.1", input=question, tools=tools)
""",
        ),
        Example(
            title="`pydantic_function_tool` makes the Chat form",
            code="""\
import openai
from pydantic import BaseModel


class GetWeather(BaseModel):
    city: str


async def run(aclient: openai.AsyncOpenAI, question: str):
    return await aclient.responses.create(
        model="gpt-4.1", input=question, tools=[openai.pydantic_function_tool(GetWeather)]
    )
""",
        ),
        Example(
            title="a nested schema streamed (the SDK raises before sending)",
            code=_CHAT_HEAD
            + """\
def run(question):
    with client.responses.stream(model="gpt-4.1", input=question, tools=tools) as stream:
        return stream.get_final_response()
""",
        ),
    )
    valid = (
        Example(
            title="the flat Responses schema",
            code=HEAD
            + """\
def run(question):
    return client.responses.create(model="gpt-4.1", input=question, tools=tools)
""",
        ),
        Example(
            title="`responses.stream` converts `pydantic_function_tool` too",
            code="""\
import openai
from pydantic import BaseModel


class GetWeather(BaseModel):
    city: str


async def run(aclient: openai.AsyncOpenAI, question: str):
    async with aclient.responses.stream(
        model="gpt-4.1", input=question, tools=[openai.pydantic_function_tool(GetWeather)]
    ) as stream:
        return await stream.get_final_response()
""",
        ),
        Example(
            title="`responses.parse` converts `pydantic_function_tool`",
            code="""\
import openai
from pydantic import BaseModel


class GetWeather(BaseModel):
    city: str


client = openai.OpenAI()
response = client.responses.parse(
    model="gpt-4.1", input="Weather in Paris?", tools=[openai.pydantic_function_tool(GetWeather)]
)
""",
        ),
        Example(
            title="the Chat form sent to Chat Completions, converted for Responses",
            code=_CHAT_HEAD
            + """\
def chat(messages):
    return client.chat.completions.create(model="gpt-4.1", messages=messages, tools=tools)


def respond(question):
    flat = [{"type": "function", **tool["function"]} for tool in tools]
    return client.responses.create(model="gpt-4.1", input=question, tools=flat)
""",
        ),
    )

    def check(self, context: ResponsesFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        module = context.module
        for scope, request in context.requests:
            func = request.func
            assert isinstance(func, cst.Attribute)
            method = func.attr.value
            if method == "parse":
                continue
            for tool in context.listed(scope, request, "tools"):
                if isinstance(tool, cst.Call):
                    if method == "create" and module.qualified_name(tool.func) in _PYDANTIC_TOOL:
                        yield Finding(
                            node=tool,
                            message=(
                                "`pydantic_function_tool()` makes a Chat Completions tool "
                                'schema: the Responses API rejects it (HTTP 400 "Missing '
                                "required parameter: 'tools[0].name'\"); use "
                                "`responses.parse`, which converts it, or the flat schema"
                            ),
                        )
                    continue
                nested = _nested_function(tool)
                if nested is None:
                    continue
                failure = (
                    'the SDK raises before sending it ("Expected Chat Completions function '
                    'tool shape to be created using `openai.pydantic_function_tool()`")'
                    if method == "stream"
                    else 'rejects this request (HTTP 400 "Missing required parameter: '
                    "'tools[0].name'\")"
                )
                yield Finding(
                    node=tool,
                    message=(
                        'A Chat Completions tool schema (`{"type": "function", "function": '
                        '{...}}`): the Responses API takes it flat (`{"type": "function", '
                        f'"name": ..., "parameters": ...}}`), and {failure}'
                    ),
                    fix=_flatten(module.index.original(tool), tool, nested),
                )


def _nested_function(tool: cst.BaseExpression) -> cst.DictElement | None:
    """The ``"function"`` entry of a ``{"type": "function", "function": {...}}`` display
    without a ``"name"`` of its own."""
    display = as_display(tool)
    if not isinstance(display, cst.Dict) or literal_entry(display, "type") != "function":
        return None
    if has_spread(display) or dict_entry(display, "name") is not None:
        return None
    entry = dict_entry(display, "function")
    if entry is None or not isinstance(as_display(entry.value), cst.Dict):
        return None
    return entry


def _flatten(
    original: cst.CSTNode, tool: cst.BaseExpression, entry: cst.DictElement
) -> FixSpec | None:
    """``{"type": "function", "function": {k: v, ...}}`` → ``{"type": "function", k: v,
    ...}``, for a display written as one (not a constructor's stand-in)."""
    inner = entry.value
    if original is not tool or not isinstance(tool, cst.Dict) or not isinstance(inner, cst.Dict):
        return None
    if not inner.elements:
        return None
    elements = [*(e for e in tool.elements if e is not entry), *inner.elements]
    for i, element in enumerate(elements[:-1]):
        if isinstance(element.comma, cst.MaybeSentinel):
            space = cst.SimpleWhitespace(" ")
            elements[i] = element.with_changes(comma=cst.Comma(whitespace_after=space))
    # the last one ends as the tool's last entry did (a trailing comma, or none)
    elements[-1] = elements[-1].with_changes(comma=tool.elements[-1].comma)
    flat = tool.with_changes(elements=elements)
    return FixSpec(
        title="Flatten the tool schema",
        applicability=Applicability.UNSAFE,
        edits=(EditSpec(tool, cst.Module(body=[]).code_for_node(flat)),),
    )
