"""TRV411 ollama-tool-message-keys."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat.recognition import ChatFile, Scope, collect, dict_entry
from lint_rules.frameworks.openai_chat.trv406 import sent
from lint_rules.frameworks.tool_loops import rename_key, string_value
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule

_HEAD = """\
import ollama


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


"""


class OllamaToolMessageKeys(Rule):
    """
    ## What it does
    Checks Ollama tool loops (`ollama.chat(...)`, `Client().chat(...)`,
    `AsyncClient().chat(...)` in a module that imports `ollama` and no other
    Chat Completions client) for the two spellings ported from OpenAI's
    loops: reading `.id` of a tool call, and a `{"role": "tool", ...}` message
    keyed by `tool_call_id` or `name` instead of `tool_name`.

    ## Why is this bad?
    Ollama's tool calls have no `id`: `call.id` raises `AttributeError` after
    the tool ran. Its `Message` model has no `tool_call_id` or `name` field:
    the client drops both silently, so the model gets results it cannot tell
    apart. Answer each call with `"tool_name": call.function.name` (ollama
    0.6: `ollama/_types.py`, `Message.tool_name`).

    The OpenAI rules about answering every call by its id (TRV405–TRV410) do
    not apply to Ollama: its calls have no ids, and a call left unanswered is
    not an error there.

    ## Fix safety
    The rename of `tool_call_id`/`name` to `tool_name` is offered only when
    the value is the call's function name; it is unsafe because it changes
    what the model is sent.

    ## References
    - [ollama-python: tool calling](https://github.com/ollama/ollama-python/blob/main/examples/tools.py)
    """

    code = "TRV411"
    name = "ollama-tool-message-keys"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "An Ollama tool call has no `id`, and its tool messages are keyed by `tool_name`"
    fix_applicability = Applicability.UNSAFE

    invalid = (
        Example(
            title="OpenAI's id ported to an Ollama loop",
            code=_HEAD
            + """\
def run(messages):
    response = ollama.chat(model="llama3.1", messages=messages, tools=[get_weather])
    messages.append(response.message)
    for call in response.message.tool_calls:
        result = get_weather(**call.function.arguments)
        messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return ollama.chat(model="llama3.1", messages=messages, tools=[get_weather])
""",
        ),
        Example(
            title="`name` instead of `tool_name`",
            code=_HEAD
            + """\
client = ollama.Client()


def run(messages):
    response = client.chat(model="llama3.1", messages=messages, tools=[get_weather])
    messages.append(response.message)
    for call in response.message.tool_calls:
        result = get_weather(**call.function.arguments)
        messages.append({"role": "tool", "name": call.function.name, "content": result})
    return client.chat(model="llama3.1", messages=messages, tools=[get_weather])
""",
            fixed=_HEAD
            + """\
client = ollama.Client()


def run(messages):
    response = client.chat(model="llama3.1", messages=messages, tools=[get_weather])
    messages.append(response.message)
    for call in response.message.tool_calls:
        result = get_weather(**call.function.arguments)
        messages.append({"role": "tool", "tool_name": call.function.name, "content": result})
    return client.chat(model="llama3.1", messages=messages, tools=[get_weather])
""",
        ),
    )
    valid = (
        Example(
            code=_HEAD
            + """\
def run(messages):
    response = ollama.chat(model="llama3.1", messages=messages, tools=[get_weather])
    messages.append(response.message)
    for call in response.message.tool_calls:
        result = get_weather(**call.function.arguments)
        messages.append({"role": "tool", "tool_name": call.function.name, "content": result})
    return ollama.chat(model="llama3.1", messages=messages, tools=[get_weather])
""",
        ),
        Example(
            title="an OpenAI loop: its calls do have ids",
            code="""\
from openai import OpenAI

client = OpenAI()


def run(messages, tools):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for call in message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny"})
""",
        ),
        Example(
            title="a chat template of another library, not sent to Ollama",
            code=_HEAD
            + """\
def render(tokenizer, call, result):
    template_messages = [{"role": "tool", "name": call.function.name, "content": result}]
    return tokenizer.apply_chat_template(template_messages, tokenize=False)
""",
        ),
        Example(
            title="both keys: `tool_name` is there",
            code=_HEAD
            + """\
def run(messages):
    response = ollama.chat(model="llama3.1", messages=messages, tools=[get_weather])
    messages.append(response.message)
    for call in response.message.tool_calls:
        result = get_weather(**call.function.arguments)
        name = call.function.name
        messages.append({"role": "tool", "name": name, "tool_name": name, "content": result})
    return ollama.chat(model="llama3.1", messages=messages, tools=[get_weather])
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.checks(self.code, settings):
            return
        reported: set[int] = set()
        for loop in context.loops:
            variable = loop.variable
            if variable is None:
                continue
            for node in collect(loop.node.body, cst.Attribute):
                assert isinstance(node, cst.Attribute)
                value = node.value
                if (
                    node.attr.value == "id"
                    and isinstance(value, cst.Name)
                    and value.value == variable
                    and id(node) not in reported
                ):
                    reported.add(id(node))
                    yield _no_id(node)
        for scope in context.scopes:
            for node in collect(scope.node, cst.Attribute):
                assert isinstance(node, cst.Attribute)
                if (
                    node.attr.value == "id"
                    and id(node) not in reported
                    and _fixed_call(scope, node)
                ):
                    reported.add(id(node))
                    yield _no_id(node)
        lists = context.request_message_lists
        direct = context.request_message_displays
        for scope, message in context.tool_messages:
            if dict_entry(message, "tool_name") is not None:
                continue
            entry = dict_entry(message, "name") or dict_entry(message, "tool_call_id")
            if entry is None or not (message in direct or sent(context, scope, message, lists)):
                continue
            key = entry.key
            assert isinstance(key, cst.BaseExpression)
            fix = None
            if _is_function_name(entry.value):
                fix = rename_key(context.module, key, "tool_name", "Rename to `tool_name`")
            yield Finding(
                node=key,
                message=(
                    f"Ollama drops a tool message's `{string_value(key) or 'name'}`: the "
                    "model cannot tell which call the result answers; key it by "
                    "`tool_name` (the call's `function.name`)"
                ),
                fix=fix,
            )


def _no_id(node: cst.Attribute) -> Finding:
    return Finding(
        node=node,
        message=(
            "Ollama's tool calls have no `id`: this raises `AttributeError` after the tool "
            'ran; answer with `"tool_name": call.function.name`'
        ),
    )


def _fixed_call(scope: Scope, node: cst.Attribute) -> bool:
    """``message.tool_calls[0].id``, or ``call.id`` with ``call = ...tool_calls[i]``."""
    value: cst.BaseExpression | None = node.value
    if isinstance(value, cst.Name):
        value = scope.value_of(value.value)
    return isinstance(value, cst.Subscript) and scope.tool_calls_of(value.value) is not None


def _is_function_name(node: cst.BaseExpression) -> bool:
    """``call.function.name`` or ``call["function"]["name"]``."""
    if isinstance(node, cst.Attribute):
        inner = node.value
        return (
            node.attr.value == "name"
            and isinstance(inner, cst.Attribute)
            and inner.attr.value == "function"
        )
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = node.slice[0].slice
        inner = node.value
        return (
            isinstance(index, cst.Index)
            and string_value(index.value) == "name"
            and isinstance(inner, cst.Subscript)
            and len(inner.slice) == 1
            and isinstance(inner.slice[0].slice, cst.Index)
            and string_value(inner.slice[0].slice.value) == "function"
        )
    return False
