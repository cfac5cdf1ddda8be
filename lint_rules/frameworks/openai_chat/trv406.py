"""TRV406 chat-tool-message-without-id."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import (
    ChatFile,
    appended_value,
    collect,
    dict_entry,
    has_spread,
)
from lint_rules.frameworks.tool_loops import as_display
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatToolMessageWithoutId(Rule):
    """
    ## What it does
    Checks for a `{"role": "tool", ...}` message literal without a
    `tool_call_id` that is sent to `chat.completions.create(messages=...)`.

    ## Why is this bad?
    `tool_call_id` is required (openai 3.57,
    `types/chat/chat_completion_tool_message_param.py`): it says which call
    the message answers. Without it the request is rejected (HTTP 400), and
    the assistant message's calls stay unanswered. Messages that never reach
    a request of the module are not reported: other libraries' chat
    templates also use `"role": "tool"`.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRV406"
    name = "chat-tool-message-without-id"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "A tool message without `tool_call_id`"

    invalid = (
        Example(
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        messages.append({"role": "tool", "name": "get_weather", "content": get_weather(**args)})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="written directly in the request",
            code=HEAD
            + """\
def follow_up(history, message, result):
    return client.chat.completions.create(
        model="gpt-4o",
        messages=[*history, message, {"role": "tool", "content": result}],
    )
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
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="the id added to the dict afterwards",
            code=HEAD
            + """\
def run(messages, tool_call, result):
    answer = {"role": "tool", "content": result}
    answer["tool_call_id"] = tool_call.id
    messages.append(answer)
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="a message for another library's chat template",
            code="""\
import openai

template_messages = []


def render(tokenizer, result):
    template_messages.append({"role": "tool", "name": "get_weather", "content": result})
    return tokenizer.apply_chat_template(template_messages, tokenize=False)
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.checks(self.code, settings):
            return
        lists = context.request_message_lists
        direct = context.request_message_displays
        for scope, message in context.tool_messages:
            if dict_entry(message, "tool_call_id") is not None or has_spread(message):
                continue
            role = dict_entry(message, "role")
            assert role is not None
            if message in direct or sent(context, scope, message, lists):
                yield Finding(
                    node=role,
                    message=context.contract.say(
                        "Tool message without `tool_call_id`: the API rejects it (HTTP 400); "
                        "answer each call with `tool_call_id=tool_call.id`"
                    ),
                )


def sent(context: ChatFile, scope: object, message: cst.Dict, lists: set[str]) -> bool:
    """Appended (directly, or through a once-assigned name) to a list sent to a request."""
    from lint_rules.frameworks.openai_chat.recognition import Scope

    assert isinstance(scope, Scope)
    alias = None
    for name, values in scope.assignments.items():
        if len(values) == 1 and values[0] is not None and as_display(values[0]) is message:
            alias = name
    if alias is not None and _completed(scope, alias):
        return False
    for call in collect(scope.node, cst.Call):
        assert isinstance(call, cst.Call)
        found = appended_value(call)
        if found is None:
            continue
        target, value = found
        is_message = value is message or (isinstance(value, cst.Name) and value.value == alias)
        if is_message and context.module.code_for(target).strip() in lists:
            return True
    return False


def _completed(scope: object, name: str) -> bool:
    """The dict is changed after its literal (``d["tool_call_id"] = ...``, ``d.update``)."""
    from lint_rules.frameworks.openai_chat.recognition import Scope

    assert isinstance(scope, Scope)
    for node in collect(scope.node, cst.Subscript, cst.Call):
        if (
            isinstance(node, cst.Subscript)
            and isinstance(node.value, cst.Name)
            and node.value.value == name
        ):
            return True
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and isinstance(node.func.value, cst.Name)
            and node.func.value.value == name
        ):
            return True
    return False
