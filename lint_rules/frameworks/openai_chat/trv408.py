"""TRV408 chat-tool-message-reused-id."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import ChatFile, answered_id
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatToolMessageReusedId(Rule):
    """
    ## What it does
    Checks, inside a loop over `tool_calls` (in a function or in the module
    body), for a tool message whose `tool_call_id` comes from a fixed call
    (`message.tool_calls[0].id`) instead of the loop variable.

    ## Why is this bad?
    Every answer claims the first call's id, so the other calls stay
    unanswered: HTTP 400 "An assistant message with 'tool_calls' must be
    followed by tool messages responding to each 'tool_call_id'" whenever the
    model makes two calls. Use the loop variable's `.id`.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRV408"
    name = "chat-tool-message-reused-id"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "Every tool message answers the first call's id"

    invalid = (
        Example(
            code=HEAD
            + """\
def run(messages, message):
    messages.append(message)
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {
                "role": "tool",
                "tool_call_id": message.tool_calls[0].id,
                "content": get_weather(**args),
            }
        )
""",
        ),
        Example(
            title="through a local alias",
            code=HEAD
            + """\
def run(messages, response):
    tool_calls = response.choices[0].message.tool_calls
    messages.append(response.choices[0].message)
    for call in tool_calls:
        messages.append({"role": "tool", "tool_call_id": tool_calls[0].id, "content": "ok"})
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def run(messages, message):
    messages.append(message)
    for tool_call in message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": "ok"})
""",
        ),
        Example(
            title="outside any loop (one call only)",
            code=HEAD
            + """\
def run(messages, message):
    messages.append({"role": "assistant", "tool_calls": [message.tool_calls[0]]})
    messages.append({"role": "tool", "tool_call_id": message.tool_calls[0].id, "content": "ok"})
""",
        ),
        Example(
            title="an index that follows the loop",
            code=HEAD
            + """\
def run(messages, message):
    for i, _ in enumerate(message.tool_calls):
        messages.append({"role": "tool", "tool_call_id": message.tool_calls[i].id, "content": ""})
""",
        ),
        Example(
            title="the first call's name reused as the loop variable",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "What's the weather in Paris and in Rome?"}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
message = response.choices[0].message
tool_call = message.tool_calls[0]
print("first tool:", tool_call.function.name)
messages.append(message)
for tool_call in message.tool_calls:
    messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"})
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.checks(self.code, settings):
            return
        for loop in context.loops:
            for message in loop.tool_messages:
                found = answered_id(loop.scope, message)
                if found is None:
                    continue
                entry, value = found
                if not (isinstance(value, cst.Attribute) and value.attr.value == "id"):
                    continue
                fixed = value.value
                if not (
                    isinstance(fixed, cst.Subscript)
                    and len(fixed.slice) == 1
                    and isinstance(fixed.slice[0].slice, cst.Index)
                    and isinstance(fixed.slice[0].slice.value, cst.Integer)
                    and loop.scope.tool_calls_of(fixed.value) is not None
                ):
                    continue
                yield Finding(
                    node=entry.value,
                    message=context.contract.say(
                        "Inside the loop over `tool_calls`, every tool message answers the same "
                        "fixed call: use the loop variable's `.id`"
                    ),
                )
