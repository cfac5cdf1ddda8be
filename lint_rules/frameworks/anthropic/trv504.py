"""TRV504 anthropic-tool-result-wrong-role."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.anthropic._examples import HEAD
from lint_rules.frameworks.anthropic.recognition import AnthropicFile, role_of
from lint_rules.frameworks.tool_loops import collect, keyword
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AnthropicToolResultWrongRole(Rule):
    """
    ## What it does
    Checks for `tool_result` blocks sent in a message whose role is not
    `"user"`, and for an OpenAI-style `{"role": "tool", ...}` message added to
    a list that the same function sends to `messages.create(...)`.

    ## Why is this bad?
    The Messages API has only the roles `user` and `assistant` (anthropic 2.15,
    `types/message_param.py`); tool results are content blocks of a `user`
    message. A `tool` role, or results under `assistant`, is rejected with
    HTTP 400. Code ported from the Chat Completions API often keeps its
    `{"role": "tool", "tool_call_id": ...}` messages.

    A `{"role": "tool"}` message is reported only when the list it is added to
    is sent to an Anthropic request in the same function and never to a Chat
    Completions request: modules that speak to both providers keep both
    formats.

    ## References
    - [Anthropic: handling tool use](https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use)
    """

    code = "TRV504"
    name = "anthropic-tool-result-wrong-role"
    severity = Severity.ERROR
    framework = "anthropic"
    message = "Tool results in a message whose role is not `user`"

    invalid = (
        Example(
            title="OpenAI's tool message",
            code=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append({"role": "assistant", "content": response.content})
    for block in response.content:
        if block.type == "tool_use":
            messages.append(
                {"role": "tool", "tool_call_id": block.id, "content": get_weather(**block.input)}
            )
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="results under the assistant role",
            code=HEAD
            + """\
def run(messages, response):
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
        for block in response.content
        if block.type == "tool_use"
    ]
    messages.append({"role": "assistant", "content": response.content + results})
    messages.append({"role": "assistant", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def run(messages, response):
    messages.append({"role": "assistant", "content": response.content})
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
        for block in response.content
        if block.type == "tool_use"
    ]
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="a module that talks to both providers",
            code="""\
import anthropic
import openai


def ask_openai(messages, call, result):
    messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return openai.OpenAI().chat.completions.create(model="gpt-4o", messages=messages)


def ask_claude(messages):
    return anthropic.Anthropic().messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, messages=messages
    )
""",
        ),
        Example(
            title="a helper that returns the user message",
            code=HEAD
            + """\
def tool_result_message(tool_use_id, output):
    return {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": tool_use_id, "content": output}],
    }


def answer(messages, response):
    messages.append({"role": "assistant", "content": response.content})
    for block in response.content:
        if block.type == "tool_use":
            messages.append(tool_result_message(block.id, get_weather(**block.input)))
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )

    def check(self, context: AnthropicFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        reported: set[int] = set()
        for scope, block in context.tool_results:
            reach = context.follow(scope, block)
            if not reach.reaches:
                continue
            for message in reach.messages:
                role = role_of(message)
                if role is None or role[1] == "user" or id(message) in reported:
                    continue
                reported.add(id(message))
                yield Finding(
                    node=role[0],
                    message=(
                        f'`tool_result` blocks in a `"{role[1]}"` message: they must be sent in a '
                        '`"user"` message (HTTP 400)'
                    ),
                )
        chat_lists = _chat_completions_lists(context)
        for scope in context.scopes:
            sent = context.scope_request_lists(scope)
            if not sent:
                continue
            for call in collect(scope.node, cst.Call):
                assert isinstance(call, cst.Call)
                use_target = None
                added: cst.BaseExpression | None = None
                for arg in call.args:
                    use = context.use_of(arg.value)
                    if use is not None and use.kind == "added" and use.holder is call:
                        use_target = use.target
                        added = arg.value
                        break
                if isinstance(added, cst.Name):
                    added = scope.value_of(added.value)
                elif isinstance(added, (cst.ListComp, cst.GeneratorExp)):
                    added = added.elt
                if use_target is None or not isinstance(added, cst.Dict):
                    continue
                role = role_of(added)
                target = scope.canonical(use_target)
                if role is None or role[1] != "tool" or target not in sent or target in chat_lists:
                    continue
                yield Finding(
                    node=role[0],
                    message=(
                        'A `"role": "tool"` message sent to the Anthropic API: it has no `tool` '
                        'role (HTTP 400); answer with `{"role": "user", "content": [{"type": '
                        '"tool_result", "tool_use_id": ..., "content": ...}]}`'
                    ),
                )


def _chat_completions_lists(context: AnthropicFile) -> frozenset[str]:
    """The message lists the module sends to a Chat Completions-style request
    (``*.completions.create(messages=...)``, ``completion(messages=...)``)."""
    found: set[str] = set()
    for scope in context.scopes:
        for call in collect(scope.node, cst.Call):
            assert isinstance(call, cst.Call)
            func = call.func
            text = context.module.code_for(func)
            if "completion" not in text:
                continue
            arg = keyword(call, "messages")
            if arg is not None:
                found.add(scope.canonical(arg.value))
    return frozenset(found)
