"""TRV405 chat-unanswered-tool-calls."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import ChatFile, appended_value, collect
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatUnansweredToolCalls(Rule):
    """
    ## What it does
    Checks for a tool loop that appends the assistant message with *all* its
    `tool_calls` but answers only `tool_calls[0]`, with no loop over the calls.

    ## Why is this bad?
    The API requires every `tool_call_id` of an assistant message to be
    answered by a tool message: HTTP 400 "An assistant message with
    'tool_calls' must be followed by tool messages responding to each
    'tool_call_id'". The code works in a demo and fails the first time the
    model makes two calls at once (parallel tool calls are on by default).
    Loop over `message.tool_calls`, or pass `parallel_tool_calls=False`.

    Not reported when any request of the module passes `parallel_tool_calls=`
    anything but a literal `True`, or passes `**kwargs`.

    ## References
    - [OpenAI: parallel function calling](https://platform.openai.com/docs/guides/function-calling#parallel-function-calling)
    """

    code = "TRV405"
    name = "chat-unanswered-tool-calls"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "Only `tool_calls[0]` is answered"

    invalid = (
        Example(
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    if message.tool_calls:
        tool_call = message.tool_calls[0]
        args = json.loads(tool_call.function.arguments)
        messages.append(message)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
        response = client.chat.completions.create(model="gpt-4o", messages=messages)
    return response.choices[0].message.content
""",
        ),
        Example(
            title="the response read without a local alias",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    call = response.choices[0].message.tool_calls[0]
    messages.append(response.choices[0].message)
    result = get_weather(**json.loads(call.function.arguments))
    messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
    )
    valid = (
        Example(
            title="every call answered",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls or []:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="parallel tool calls switched off",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(
        model="gpt-4o", messages=messages, tools=tools, parallel_tool_calls=False
    )
    message = response.choices[0].message
    tool_call = message.tool_calls[0]
    messages.append(message)
    messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="only the first call is kept in the assistant message",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    tool_call = response.choices[0].message.tool_calls[0]
    messages.append({"role": "assistant", "tool_calls": [tool_call]})
    messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked(settings) or context.parallel_calls_limited:
            return
        for scope in context.scopes:
            if not isinstance(scope.node, cst.FunctionDef):
                continue
            first: dict[str, cst.Subscript] = {}
            other_index: set[str] = set()
            for node in collect(scope.node, cst.Subscript):
                assert isinstance(node, cst.Subscript)
                message = scope.tool_calls_of(node.value)
                if message is None or len(node.slice) != 1:
                    continue
                index = node.slice[0].slice
                if (
                    isinstance(index, cst.Index)
                    and isinstance(index.value, cst.Integer)
                    and index.value.value == "0"
                ):
                    first.setdefault(message, node)
                    continue
                other_index.add(message)
            if not first:
                continue
            looped = {loop.message for loop in context.loops if loop.scope is scope}
            looped |= _comprehended(scope)
            lengths = _length_tested(scope)
            appended = set()
            answers = False
            for call in collect(scope.node, cst.Call):
                assert isinstance(call, cst.Call)
                found = appended_value(call)
                if found is None:
                    continue
                _, value = found
                carried = scope.carries_all_calls(value)
                if carried is not None:
                    appended.add(carried)
            for _, tool_message in context.tool_messages:
                if tool_message in collect(scope.node, cst.Dict):
                    answers = True
                    break
            if not answers:
                continue
            for message, subscript in first.items():
                if (
                    message in appended
                    and message not in looped
                    and message not in other_index
                    and message not in lengths
                ):
                    yield Finding(
                        node=subscript,
                        message=(
                            "Only `tool_calls[0]` is answered, but the assistant message with "
                            "all its tool calls is sent: HTTP 400 when the model makes two "
                            "calls; loop over `tool_calls` or pass `parallel_tool_calls=False`"
                        ),
                    )


def _comprehended(scope: object) -> set[str]:
    from lint_rules.frameworks.openai_chat.recognition import Scope

    assert isinstance(scope, Scope)
    found = set()
    for node in collect(scope.node, cst.CompFor):
        assert isinstance(node, cst.CompFor)
        message = scope.tool_calls_of(node.iter)
        if message is not None:
            found.add(message)
    for call in collect(scope.node, cst.Call):
        assert isinstance(call, cst.Call)
        if appended_value(call) is not None:
            continue
        for arg in call.args:  # map(handle, message.tool_calls), handle_calls(message)
            message = scope.tool_calls_of(arg.value)
            if message is not None:
                found.add(message)
            elif isinstance(arg.value, (cst.Name, cst.Attribute, cst.Subscript)):
                found.add(scope.canonical(arg.value))
    return found


def _length_tested(scope: object) -> set[str]:
    from lint_rules.frameworks.openai_chat.recognition import Scope

    assert isinstance(scope, Scope)
    found = set()
    for call in collect(scope.node, cst.Call):
        assert isinstance(call, cst.Call)
        if isinstance(call.func, cst.Name) and call.func.value == "len" and call.args:
            message = scope.tool_calls_of(call.args[0].value)
            if message is not None:
                found.add(message)
    return found
