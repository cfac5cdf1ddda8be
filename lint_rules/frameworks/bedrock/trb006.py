"""TRB006 bedrock-unanswered-tool-use."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import HEAD
from lint_rules.frameworks.bedrock.recognition import BedrockFile
from lint_rules.frameworks.tool_loops import (
    Scope,
    collect,
    counted,
    dict_entry,
    display_elements,
    sent_values,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class BedrockUnansweredToolUse(Rule):
    """
    ## What it does
    Checks for a Converse loop that sends the whole assistant message back
    (`messages.append(response["output"]["message"])`) but answers only one of
    its `toolUse` blocks: the block picked by a fixed index (`content[0]`,
    `content[-1]`), by `next(...)`, or by a search loop that `break`s at the
    first, with no loop of the same function answering the others.

    Not reported when the blocks are counted (`len(...)` of the message's
    content), or when the module sets a `toolChoice` other than `auto` (it may
    force one tool).

    ## Why is this bad?
    The model may use several tools in one turn (Claude on Bedrock often
    does). Every `toolUse` block of the assistant message must be answered by
    a `toolResult` in the next user message, or the service rejects the
    request with a `ValidationException` — on the first turn with two tool
    uses. botocore sends the messages as they are.

    ## References
    - [Bedrock: tool use with the Converse API](https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html)
    """

    code = "TRB006"
    name = "bedrock-unanswered-tool-use"
    severity = Severity.ERROR
    framework = "bedrock"
    message = "Only one of a Bedrock assistant message's `toolUse` blocks is answered"

    invalid = (
        Example(
            title="the first block with a tool use",
            code=HEAD
            + """\
def run(messages: list, tools: dict):
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
    message = response["output"]["message"]
    messages.append(message)
    tool_use = next(b["toolUse"] for b in message["content"] if "toolUse" in b)
    output = get_weather(**tool_use["input"])
    result = {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": output}]}}
    messages.append({"role": "user", "content": [result]})
    return client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
""",
        ),
        Example(
            title="a search loop that stops at the first",
            code=HEAD
            + """\
def run(messages: list, tools: dict):
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
    messages.append(response["output"]["message"])
    tool_use = None
    for block in response["output"]["message"]["content"]:
        if "toolUse" in block:
            tool_use = block["toolUse"]
            break
    output = get_weather(**tool_use["input"])
    result = {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": output}]}}
    messages.append({"role": "user", "content": [result]})
    return client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def run(messages: list, tools: dict):
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
    message = response["output"]["message"]
    messages.append(message)
    results = []
    for block in message["content"]:
        if "toolUse" in block:
            tool_use = block["toolUse"]
            output = get_weather(**tool_use["input"])
            results.append(
                {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": output}]}}
            )
    messages.append({"role": "user", "content": results})
    return client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
""",
        ),
        Example(
            title="one tool forced by `toolChoice`",
            code=HEAD
            + """\
TOOLS = {"tools": [WEATHER], "toolChoice": {"tool": {"name": "get_weather"}}}


def run(messages: list):
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=TOOLS)
    message = response["output"]["message"]
    messages.append(message)
    tool_use = message["content"][-1]["toolUse"]
    result = {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": "ok"}]}}
    messages.append({"role": "user", "content": [result]})
    return client.converse(modelId=MODEL, messages=messages, toolConfig=TOOLS)
""",
        ),
        Example(
            title="the blocks counted first",
            code=HEAD
            + """\
def run(messages: list, tools: dict):
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
    message = response["output"]["message"]
    messages.append(message)
    if len(message["content"]) != 1:
        raise ValueError("one tool use at a time")
    tool_use = message["content"][0]["toolUse"]
    result = {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": "ok"}]}}
    messages.append({"role": "user", "content": [result]})
    return client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked or _may_force_one(context):
            return
        answers = []
        looped: set[tuple[int, str]] = set()
        for found in context.tool_results:
            origin = context.answered(found, found.block)
            if origin is None:
                continue
            response, is_loop = origin
            if is_loop:
                looped.add((id(found.scope), response))
            else:
                answers.append((found, response))
        reported: set[int] = set()
        for found, response in answers:
            scope = found.scope
            if (id(scope), response) in looped or id(found.result) in reported:
                continue
            counts = counted(context.module, scope, partial(context.content_of, scope))
            if response in counts or not _carries(context, scope, response):
                continue
            reported.add(id(found.result))
            entry = dict_entry(found.result, "toolUseId")
            assert entry is not None
            yield Finding(
                node=entry.value,
                message=(
                    f"Only one `toolUse` block of `{response}` is answered, but its whole "
                    "assistant message is sent back: Bedrock rejects the next request when the "
                    "model uses two tools; answer every `toolUse` block of its content"
                ),
            )


def _carries(context: BedrockFile, scope: Scope, response: str) -> bool:
    """The response's assistant message goes back: ``r["output"]["message"]`` (or a name
    bound once to it) is appended, inserted, extended or written in a list display."""
    for node in collect(scope.node, cst.Call, cst.List, cst.AugAssign):
        if isinstance(node, cst.Call):
            values = sent_values(node)
        elif isinstance(node, cst.List):
            values = [e.value for e in node.elements if isinstance(e, cst.Element)]
        else:
            assert isinstance(node, cst.AugAssign)
            values = display_elements(node.value)
        if any(context.message_of(scope, v) == response for v in values):
            return True
    return False


def _may_force_one(context: BedrockFile) -> bool:
    """A ``toolChoice`` other than ``{"auto": {}}`` is written in the module."""
    for node in collect(context.module.tree, cst.Dict, nested=True):
        assert isinstance(node, cst.Dict)
        choice = dict_entry(node, "toolChoice")
        if choice is None:
            continue
        value = choice.value
        if not (isinstance(value, cst.Dict) and dict_entry(value, "auto") is not None):
            return True
    return False
