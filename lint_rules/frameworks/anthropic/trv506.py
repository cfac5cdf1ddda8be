"""TRV506 anthropic-error-result-empty."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.anthropic._examples import HEAD
from lint_rules.frameworks.anthropic.recognition import AnthropicFile
from lint_rules.frameworks.tool_loops import completed_later, dict_entry, has_spread, string_value
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AnthropicErrorResultEmpty(Rule):
    """
    ## What it does
    Checks for a `tool_result` block with `"is_error": True` whose `content`
    is missing, `""` or `[]`.

    ## Why is this bad?
    The API rejects an error result without content: HTTP 400 "content cannot
    be empty if is_error is true" (bytedance/trae-agent#231) — so the one
    request that was meant to tell the model its tool failed fails itself.
    Send the error message as the content.

    ## References
    - [Anthropic: handling tool use](https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use)
    """

    code = "TRV506"
    name = "anthropic-error-result-empty"
    severity = Severity.ERROR
    framework = "anthropic"
    message = "An error `tool_result` without content"

    invalid = (
        Example(
            code=HEAD
            + """\
def answer(messages, block):
    try:
        output = get_weather(**block.input)
        result = {"type": "tool_result", "tool_use_id": block.id, "content": output}
    except Exception:
        result = {"type": "tool_result", "tool_use_id": block.id, "is_error": True}
    messages.append({"role": "user", "content": [result]})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="an empty string for a failed tool",
            code=HEAD
            + """\
def answer(messages, response, failed):
    messages.append({"role": "assistant", "content": response.content})
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": "", "is_error": True}
        if block.id in failed
        else {"type": "tool_result", "tool_use_id": block.id, "content": "ok"}
        for block in response.content
        if block.type == "tool_use"
    ]
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def answer(messages, block):
    try:
        output = get_weather(**block.input)
        result = {"type": "tool_result", "tool_use_id": block.id, "content": output}
    except Exception as error:
        result = {
            "type": "tool_result",
            "tool_use_id": block.id,
            "content": str(error),
            "is_error": True,
        }
    messages.append({"role": "user", "content": [result]})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="the flag from a variable, the content always set",
            code=HEAD
            + """\
def tool_result(block, output, is_error):
    return {
        "type": "tool_result",
        "tool_use_id": block.id,
        "content": output or "(no output)",
        "is_error": is_error,
    }
""",
        ),
        Example(
            title="the content set after the literal",
            code=HEAD
            + """\
def run_tool(messages, block):
    result = {"type": "tool_result", "tool_use_id": block.id, "is_error": True}
    try:
        result["content"] = get_weather(**block.input)
        result["is_error"] = False
    except Exception as error:
        result["content"] = f"Error: {error}"
    messages.append({"role": "user", "content": [result]})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )

    def check(self, context: AnthropicFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for scope, block in context.tool_results:
            flag = dict_entry(block, "is_error")
            if (
                flag is None
                or not isinstance(flag.value, cst.Name)
                or flag.value.value != "True"
                or has_spread(block)
            ):
                continue
            content = dict_entry(block, "content")
            if content is not None and not _empty(content.value):
                continue
            if completed_later(scope, block) or not context.follow(scope, block).reaches:
                continue
            yield Finding(
                node=flag.key,
                message=(
                    'Error `tool_result` without content: HTTP 400 "content cannot be empty if '
                    'is_error is true"; send the error message as its `content`'
                ),
            )


def _empty(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.List):
        return not value.elements
    return string_value(value) == ""
