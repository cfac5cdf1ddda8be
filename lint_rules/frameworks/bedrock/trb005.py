"""TRB005 bedrock-tool-result-without-assistant-turn."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import HEAD
from lint_rules.frameworks.bedrock.recognition import BedrockFile, ToolResult, key_read_any
from lint_rules.frameworks.tool_loops import (
    Scope,
    collect,
    dict_entry,
    items_reaching,
    keyword,
    lists_holding,
    literal_entry,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_HARMLESS_KEYS = frozenset({"stopReason", "usage", "metrics", "ResponseMetadata"})
_CONTENT = ("output", "message", "content")


class BedrockToolResultWithoutAssistantTurn(Rule):
    """
    ## What it does
    Checks for a user message of `toolResult` blocks, answering the `toolUse`
    blocks of a Converse response, that is sent in the next request's
    `messages` while the response's assistant message
    (`response["output"]["message"]`) is added nowhere: the function reads
    only the message's `content` (and `stopReason`, `usage`, `metrics`) from
    the response.

    Not reported when the assistant message *may* be added: anything else
    read from the response (the message, the response itself handed to a
    function or stored), a message display of another role than `"user"` in
    the function (an assistant turn rebuilt from the blocks), the messages
    list handed to another function, or the response bound more than once.

    ## Why is this bad?
    Each `toolResult` must answer a `toolUse` block of the previous
    (assistant) message. Without it the service rejects the request: HTTP 400
    `ValidationException` "The number of toolResult blocks at
    messages.N.content exceeds the number of toolUse blocks of previous turn"
    (pydantic/pydantic-ai#2327, evalstate/fast-agent#624) — on the first turn
    where the model uses a tool. botocore sends it as it is.

    ## References
    - [Bedrock: tool use with the Converse API](https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html)
    """

    code = "TRB005"
    name = "bedrock-tool-result-without-assistant-turn"
    severity = Severity.ERROR
    framework = "bedrock"
    message = "Bedrock tool results sent without the assistant turn before them"

    invalid = (
        Example(
            title="only the blocks are read",
            code=HEAD
            + """\
def run(messages: list, tools: dict):
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
    results = []
    for block in response["output"]["message"]["content"]:
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
            title="a comprehension of results",
            code=HEAD
            + """\
def run(messages: list, tools: dict):
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
    if response["stopReason"] != "tool_use":
        return response
    blocks = response["output"]["message"]["content"]
    results = [
        {
            "toolResult": {
                "toolUseId": b["toolUse"]["toolUseId"],
                "content": [{"json": get_weather(**b["toolUse"]["input"])}],
            }
        }
        for b in blocks
        if "toolUse" in b
    ]
    messages.append({"role": "user", "content": results})
    return client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
""",
        ),
    )
    valid = (
        Example(
            title="the assistant message added first (AWS's example)",
            code=HEAD
            + """\
def run(messages: list, tools: dict):
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
    output_message = response["output"]["message"]
    messages.append(output_message)
    results = []
    for block in output_message["content"]:
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
            title="the assistant turn rebuilt from the blocks",
            code=HEAD
            + """\
def run(messages: list, tools: dict):
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
    blocks = response["output"]["message"]["content"]
    messages.append({"role": "assistant", "content": blocks})
    results = [
        {"toolResult": {"toolUseId": b["toolUse"]["toolUseId"], "content": [{"text": "ok"}]}}
        for b in blocks
        if "toolUse" in b
    ]
    messages.append({"role": "user", "content": results})
    return client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
""",
        ),
        Example(
            title="a history object that may add the turn",
            code=HEAD
            + """\
def run(history, tools: dict):
    response = client.converse(modelId=MODEL, messages=history.messages, toolConfig=tools)
    history.record(response)
    results = [
        {"toolResult": {"toolUseId": b["toolUse"]["toolUseId"], "content": [{"text": "ok"}]}}
        for b in response["output"]["message"]["content"]
        if "toolUse" in b
    ]
    messages = history.messages
    messages.append({"role": "user", "content": results})
    return client.converse(modelId=MODEL, messages=messages, toolConfig=tools)
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        reported: set[int] = set()
        for found in context.tool_results:
            origin = context.answered(found, found.block)
            if origin is None:
                continue
            response = origin[0]
            scope = found.scope
            if len(scope.assignments.get(response, [])) != 1 or _turn_may_be_added(
                context, scope, response
            ):
                continue
            for message in _sent_user_messages(context, scope, found):
                if id(message) in reported:
                    continue
                reported.add(id(message))
                role = dict_entry(message, "role")
                yield Finding(
                    node=role.value if role is not None else message,
                    message=(
                        f"Tool results for `{response}`'s `toolUse` blocks are sent, but its "
                        'assistant message is not added before them: HTTP 400 ("The number of '
                        "toolResult blocks … exceeds the number of toolUse blocks of previous "
                        f'turn"); append `{response}["output"]["message"]` first'
                    ),
                )


def _turn_may_be_added(context: BedrockFile, scope: Scope, response: str) -> bool:
    """Anything of the response besides its message's blocks, ``stopReason``, ``usage``
    and ``metrics`` is read (but in a ``return``, which ends the function), or a message of
    another role than ``user`` is written."""
    for node in collect(scope.node, cst.Dict):
        assert isinstance(node, cst.Dict)
        if dict_entry(node, "role") is not None and literal_entry(node, "role") != "user":
            return True
    owners: dict[int, cst.BaseExpression] = {}
    for node in collect(scope.node, cst.Subscript, cst.Call):
        assert isinstance(node, (cst.Subscript, cst.Call))
        read = key_read_any(node)
        if read is not None:
            owners[id(read[0])] = node
    skipped = _not_reads(scope)
    for returned in collect(scope.node, cst.Return):  # the function ends there
        skipped.update(id(n) for n in collect(returned, cst.Name))
    for node in collect(scope.node, cst.Name):
        assert isinstance(node, cst.Name)
        if node.value != response or id(node) in skipped:
            continue
        keys: list[str] = []
        current: cst.BaseExpression = node
        while id(current) in owners:
            current = owners[id(current)]
            read = key_read_any(current)
            assert read is not None
            keys.append(read[1])
        if not keys or not (keys[0] in _HARMLESS_KEYS or tuple(keys[:3]) == _CONTENT):
            return True
    return False


def _not_reads(scope: Scope) -> set[int]:
    """The names of a scope that are not reads of a variable: assignment targets,
    attribute names, keyword names."""
    found: set[int] = set()
    for node in collect(scope.node, cst.Attribute, cst.Arg, cst.AssignTarget):
        if isinstance(node, cst.Attribute):
            found.add(id(node.attr))
        elif isinstance(node, cst.Arg) and node.keyword is not None:
            found.add(id(node.keyword))
        elif isinstance(node, cst.AssignTarget):
            found.add(id(node.target))
    return found


def _sent_user_messages(
    context: BedrockFile, scope: Scope, found: ToolResult
) -> Iterator[cst.Dict]:
    """The user messages holding the tool result (in their ``content`` display, or in a
    list they hold by name) that reach a request's ``messages=`` in the scope, whose list
    no other call receives."""
    index = context.module.index
    at = index.span(found.block)[0]
    holders = lists_holding(scope, found.block)
    for request_scope, request in context.requests:
        if request_scope is not scope or not _list_kept(scope, request):
            continue
        for message in items_reaching(scope, request, "messages"):
            if not isinstance(message, cst.Dict) or literal_entry(message, "role") != "user":
                continue
            content = dict_entry(message, "content")
            if content is None:
                continue
            start, end = index.span(content.value)
            value = content.value
            if start <= at < end or (isinstance(value, cst.Name) and value.value in holders):
                yield message


def _list_kept(scope: Scope, request: cst.Call) -> bool:
    """The request's ``messages=`` is a name that no other call of the scope receives (a
    helper or a history object may add the turn)."""
    arg = keyword(request, "messages")
    if arg is None or not isinstance(arg.value, cst.Name):
        return False
    name = arg.value.value
    for node in collect(scope.node, cst.Call):
        assert isinstance(node, cst.Call)
        if node is request:
            continue
        for given in node.args:
            if isinstance(given.value, cst.Name) and given.value.value == name:
                if keyword(node, "messages") is given:
                    continue  # another Converse request
                return False
    return True
