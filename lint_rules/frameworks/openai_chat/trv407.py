"""TRV407 chat-assistant-message-per-call."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import ChatFile, appended_value
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatAssistantMessagePerCall(Rule):
    """
    ## What it does
    Checks for the assistant message that carries the `tool_calls` appended
    *inside* the loop over those same `tool_calls`, in every function and in
    the module body. A loop over a parameter (`for call in tool_calls:` in a
    helper) is over the calls of a message this function does not see: what
    it appends is not compared with anything.

    ## Why is this bad?
    The assistant message is repeated once per call. After the first
    iteration the list holds `assistant, tool, assistant, tool`: the first
    assistant message carries two call ids but is followed by only one tool
    message, so the API rejects the request (HTTP 400 "An assistant message
    with 'tool_calls' must be followed by tool messages responding to each
    'tool_call_id'") on any response with two calls. Append it once, before
    the loop.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRV407"
    name = "chat-assistant-message-per-call"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "The assistant message is appended once per tool call"

    invalid = (
        Example(
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    for tool_call in message.tool_calls:
        messages.append(message)
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="an assistant dict with all the calls",
            code=HEAD
            + """\
def run(messages, response):
    tool_calls = response.choices[0].message.tool_calls
    for call in tool_calls:
        messages.append({"role": "assistant", "content": None, "tool_calls": tool_calls})
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny"})
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
""",
        ),
        Example(
            title="one assistant message per call, each with only that call",
            code=HEAD
            + """\
def run(messages, response):
    for call in response.choices[0].message.tool_calls:
        messages.append({"role": "assistant", "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny"})
""",
        ),
        Example(
            title="appended only on the first iteration",
            code=HEAD
            + """\
def run(messages, message):
    for i, tool_call in enumerate(message.tool_calls):
        pass
    for tool_call in message.tool_calls:
        if not messages or messages[-1] is not message:
            messages.append(message)
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"})
""",
        ),
        Example(
            title="a helper's loop over the calls it is given appends only the answers",
            code=HEAD
            + """\
def execute_tool_calls(tool_calls, messages):
    for tool_call in tool_calls:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.checks(self.code, settings):
            return
        for loop in context.loops:
            if loop.message is None:
                continue  # whose calls the loop answers is not known
            for call in _unconditional_calls(loop.node.body):
                found = appended_value(call)
                if found is None:
                    continue
                if loop.scope.carries_all_calls(found[1]) == loop.message:
                    yield Finding(
                        node=call,
                        message=context.contract.say(
                            "The assistant message with all its tool calls is appended once per "
                            "call: HTTP 400 when the model makes two calls; append it once, "
                            "before the loop"
                        ),
                    )


def _unconditional_calls(body: cst.BaseSuite) -> Iterator[cst.Call]:
    """Calls that are whole statements of the loop body (also inside ``try``/``with``)."""
    if not isinstance(body, cst.IndentedBlock):
        return
    for stmt in body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                    yield small.value
        elif isinstance(stmt, (cst.Try, cst.With)):
            yield from _unconditional_calls(stmt.body)
