"""TRV501 anthropic-tool-result-without-id."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.anthropic._examples import HEAD
from lint_rules.frameworks.anthropic.recognition import AnthropicFile
from lint_rules.frameworks.tool_loops import (
    completed_later,
    dict_entry,
    first_entry,
    has_spread,
    rename_key,
)
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule

_WRONG_KEYS = ("tool_call_id", "id", "tool_id", "toolUseId")


class AnthropicToolResultWithoutId(Rule):
    """
    ## What it does
    Checks for a `{"type": "tool_result", ...}` block without `tool_use_id` —
    missing, or spelled OpenAI's way (`tool_call_id`), or `id` — that reaches
    the `messages=` of a `messages.create(...)` / `messages.stream(...)`
    request of the module.

    ## Why is this bad?
    `tool_use_id` is required (anthropic 2.15,
    `types/tool_result_block_param.py`: `tool_use_id: Required[str]`): it
    says which `tool_use` block the result answers. The SDK sends the block as
    it is and the API rejects the request (HTTP 400), on the turn after the
    tool already ran. Blocks that never reach a request of the module are not
    reported: user interfaces and other libraries build their own
    `"tool_result"` events.

    ## Fix safety
    Renaming `tool_call_id` / `id` to `tool_use_id` is offered as an unsafe
    fix: it changes the request that is sent (which is the point), but code
    that reads the block back by its old key would no longer find it.

    ## References
    - [Anthropic: handling tool use](https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use)
    """

    code = "TRV501"
    name = "anthropic-tool-result-without-id"
    severity = Severity.ERROR
    framework = "anthropic"
    fix_applicability = Applicability.UNSAFE
    message = "A `tool_result` block without `tool_use_id`"

    invalid = (
        Example(
            title="OpenAI's key name",
            code=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use":
            output = get_weather(**block.input)
            results.append({"type": "tool_result", "tool_call_id": block.id, "content": output})
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
            fixed=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use":
            output = get_weather(**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="no id at all, results built by a comprehension",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "Weather in Paris?"}]
response = client.messages.create(
    model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
)
messages.append({"role": "assistant", "content": response.content})
messages.append(
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "content": get_weather(**block.input)}
            for block in response.content
            if block.type == "tool_use"
        ],
    }
)
final = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
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
            title="an event for a user interface, not a request",
            code="""\
import anthropic


def tool_event(block, output):
    return {"type": "tool_result", "id": block.id, "name": block.name, "output": output}
""",
        ),
        Example(
            title="the id added after the literal",
            code=HEAD
            + """\
def answer(messages, block):
    result = {"type": "tool_result", "content": get_weather(**block.input)}
    result["tool_use_id"] = block.id
    messages.append({"role": "user", "content": [result]})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )

    def check(self, context: AnthropicFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for scope, block in context.tool_results:
            if dict_entry(block, "tool_use_id") is not None or has_spread(block):
                continue
            if completed_later(scope, block) or not context.follow(scope, block).reaches:
                continue
            wrong = first_entry(block, _WRONG_KEYS)
            if wrong is not None:
                key = wrong.key
                assert isinstance(key, cst.BaseExpression)
                yield Finding(
                    node=key,
                    message=(
                        f"`tool_result` block names its id `{context.module.code_for(key)}`: "
                        "the API requires `tool_use_id` (HTTP 400)"
                    ),
                    fix=rename_key(context.module, key, "tool_use_id", "Rename to `tool_use_id`"),
                )
                continue
            kind = dict_entry(block, "type")
            assert kind is not None
            yield Finding(
                node=kind,
                message=(
                    "`tool_result` block without `tool_use_id`: the API rejects it (HTTP 400); "
                    'answer each block with `"tool_use_id": block.id`'
                ),
            )
