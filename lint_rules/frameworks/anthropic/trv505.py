"""TRV505 anthropic-tool-result-content-type."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, Shape
from lint_rules.config import Settings
from lint_rules.frameworks.anthropic._examples import HEAD
from lint_rules.frameworks.anthropic.recognition import AnthropicFile
from lint_rules.frameworks.tool_loops import dict_entry
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_json_dumps


class AnthropicToolResultContentType(Rule):
    """
    ## What it does
    Checks for a `tool_result` block whose `content` is certainly a dict, a
    number, a bool, or a list of plain strings (not content blocks), in a
    block that reaches a request of the module.

    ## Why is this bad?
    `content` must be a string or a list of content blocks (text, image,
    document, search result; anthropic 2.15,
    `types/tool_result_block_param.py`). The SDK sends whatever it is given
    and the API rejects the request with HTTP 400, after the tool ran.
    Serialise the result with `json.dumps(...)` or `str(...)`. `None` is not
    reported: what the server answers to `"content": null` is not verified.

    ## Fix safety
    The fix wraps the value in `json.dumps(...)` and is offered only when the
    module already has `import json`. It is unsafe: `json.dumps` raises
    `TypeError` on values it cannot encode (a `set`, a `datetime`).

    The fix is offered only where `json` there is the module of the file's own
    `import json`: not where anything else binds the name (`json = ...`, a
    parameter or local `json`, `import simplejson as json`, a star import).

    ## References
    - [Anthropic: handling tool use](https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use)
    """

    code = "TRV505"
    name = "anthropic-tool-result-content-type"
    severity = Severity.ERROR
    framework = "anthropic"
    fix_applicability = Applicability.UNSAFE
    message = "A `tool_result`'s `content` is not a string or content blocks"

    invalid = (
        Example(
            title="the tool's dict result sent as it is",
            code=HEAD
            + """\
def answer(messages, block):
    weather = {"city": block.input["city"], "temperature": 21}
    messages.append(
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": block.id, "content": weather}
            ],
        }
    )
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
            fixed=HEAD
            + """\
def answer(messages, block):
    weather = {"city": block.input["city"], "temperature": 21}
    messages.append(
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": block.id, "content": json.dumps(weather)}
            ],
        }
    )
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="a list of strings, not content blocks",
            code="""\
import anthropic

client = anthropic.Anthropic()


def answer(messages, block):
    forecast = {"type": "tool_result", "tool_use_id": block.id, "content": ["Sunny", "21 C"]}
    result = forecast
    messages.append({"role": "user", "content": [result]})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def answer(messages, block):
    weather = {"city": block.input["city"], "temperature": 21}
    messages.append(
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": block.id, "content": json.dumps(weather)}
            ],
        }
    )
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="a list of content blocks",
            code=HEAD
            + """\
def answer(messages, block, chart):
    content = [
        {"type": "text", "text": "The chart:"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": chart}},
    ]
    messages.append(
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": block.id, "content": content}],
        }
    )
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="`str()` of whatever the tool returned",
            code=HEAD
            + """\
def answer(messages, response, registry):
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use":
            output = registry[block.name](**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )

    def check(self, context: AnthropicFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        module = context.module
        for scope, block in context.tool_results:
            entry = dict_entry(block, "content")
            if entry is None:
                continue
            function = scope.node if isinstance(scope.node, cst.FunctionDef) else None
            what = not_content(context.inference(function).infer(entry.value))
            if what is None or not context.follow(scope, block).reaches:
                continue
            yield Finding(
                node=entry.key,
                message=(
                    f"`tool_result` `content` is {what}: the API accepts only a string or a "
                    "list of content blocks (HTTP 400); serialise it with `json.dumps()`"
                ),
                fix=wrap_in_json_dumps(entry.value, module),
            )


def not_content(shape: Shape) -> str | None:
    """What a value is when it is certainly not a ``tool_result``'s content: a dict, a
    number, a bool, a list of plain strings."""
    if shape.kind is Kind.DICT:
        return "a dict"
    if shape.kind is Kind.INT:
        return "an `int`"
    if shape.kind in (Kind.FLOAT, Kind.BOOL):
        return f"a `{shape.kind.value}`"
    elements = shape.element_shapes() if shape.kind is Kind.LIST else ()
    if elements and all(e.kind is Kind.STR for e in elements):
        return "a list of strings, not content blocks"
    return None
