"""TRB004 bedrock-tool-result-foreign-shape."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import HEAD
from lint_rules.frameworks.bedrock.recognition import BedrockFile
from lint_rules.frameworks.tool_loops import (
    completed_later,
    dict_entry,
    display_elements,
    first_entry,
    has_spread,
    literal_entry,
    rename_key,
    string_value,
)
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule

_FOREIGN_IDS = ("tool_use_id", "toolUseID", "tool_call_id", "id")


class BedrockToolResultForeignShape(Rule):
    """
    ## What it does
    Checks for a Bedrock Converse `toolResult` without its `toolUseId` (or
    with another API's key instead: `tool_use_id`, `toolUseID`,
    `tool_call_id`, `id`), and for another API's tool result in a list of
    messages passed to `converse(messages=...)`: an Anthropic `{"type":
    "tool_result", ...}` block, or an OpenAI `{"role": "tool",
    "tool_call_id": ...}` message. A result whose keys are added after the
    display (`result["toolUseId"] = ...`) or spread in (`**base`) is not
    reported.

    ## Why is this bad?
    botocore validates the request before sending it and raises
    `ParamValidationError` — "Missing required parameter …: "toolUseId"",
    "Invalid number of parameters set for tagged union structure" for an
    Anthropic block, "Unknown parameter in messages[2]: "tool_call_id"" for an
    OpenAI message — at the request after the tool ran (verified with
    botocore 1.44.18's `Stubber`).

    ## Fix safety
    A foreign id key is renamed to `toolUseId`. The fix is unsafe: the value
    must be the `toolUse` block's `toolUseId`, which the rule cannot check.

    ## References
    - [Bedrock: `ToolResultBlock`](https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultBlock.html)
    """

    code = "TRB004"
    name = "bedrock-tool-result-foreign-shape"
    severity = Severity.ERROR
    framework = "bedrock"
    fix_applicability = Applicability.UNSAFE
    message = "A Bedrock tool result is written in another API's shape"

    invalid = (
        Example(
            title="Anthropic's key name",
            code=HEAD
            + """\
def answer(tool_use: dict, output: str) -> dict:
    return {"toolResult": {"tool_use_id": tool_use["toolUseId"], "content": [{"text": output}]}}
""",
            fixed=HEAD
            + """\
def answer(tool_use: dict, output: str) -> dict:
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": output}]}}
""",
        ),
        Example(
            title="an OpenAI tool message sent to Converse",
            code=HEAD
            + """\
def run(messages: list, tool_use: dict, output: str):
    messages.append({"role": "tool", "tool_call_id": tool_use["toolUseId"], "content": output})
    return client.converse(modelId=MODEL, messages=messages)
""",
        ),
        Example(
            title="no id at all",
            code=HEAD
            + """\
def answer(output: str) -> dict:
    return {"role": "user", "content": [{"toolResult": {"content": [{"text": output}]}}]}
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def answer(tool_use: dict, output: str) -> dict:
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": output}]}}
""",
        ),
        Example(
            title="the id added after the display",
            code=HEAD
            + """\
def answer(tool_use: dict, output: str) -> dict:
    result = {"content": [{"text": output}]}
    result["toolUseId"] = tool_use["toolUseId"]
    return {"toolResult": result}
""",
        ),
        Example(
            title="an OpenAI message list that goes to another provider",
            code=HEAD
            + """\
def to_openai(tool_use: dict, output: str) -> dict:
    return {"role": "tool", "tool_call_id": tool_use["toolUseId"], "content": output}
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for found in context.tool_results:
            result = found.result
            if dict_entry(result, "toolUseId") is not None or has_spread(result):
                continue
            foreign = first_entry(result, _FOREIGN_IDS)
            if foreign is not None:
                yield Finding(
                    node=foreign.key,
                    message=(
                        f"The tool result's id is under `{string_value(foreign.key)}`: Bedrock "
                        "names it `toolUseId`, and botocore raises `ParamValidationError` "
                        '("Missing required parameter … toolUseId") at the next request'
                    ),
                    fix=rename_key(
                        context.module, foreign.key, "toolUseId", "Rename to `toolUseId`"
                    ),
                )
            elif not completed_later(found.scope, result):
                yield Finding(
                    node=result,
                    message=(
                        "The tool result has no `toolUseId`: botocore raises "
                        '`ParamValidationError` ("Missing required parameter … toolUseId") at '
                        "the next request; answer the `toolUse` block's `toolUseId`"
                    ),
                )
        reported: set[int] = set()
        for _, _, message in context.messages_sent:
            if not isinstance(message, cst.Dict) or id(message) in reported:
                continue
            reported.add(id(message))
            call_id = dict_entry(message, "tool_call_id")
            if call_id is not None and literal_entry(message, "role") == "tool":
                yield Finding(
                    node=call_id.key,
                    message=(
                        'An OpenAI `{"role": "tool", "tool_call_id": ...}` message is sent to '
                        'Converse: botocore raises `ParamValidationError` ("Unknown parameter '
                        '… tool_call_id"); send `{"role": "user", "content": [{"toolResult": '
                        '{"toolUseId": ..., "content": [...]}}]}`'
                    ),
                )
                continue
            content = dict_entry(message, "content")
            for block in display_elements(content.value) if content is not None else ():
                if isinstance(block, cst.Dict) and literal_entry(block, "type") == "tool_result":
                    yield Finding(
                        node=block,
                        message=(
                            'An Anthropic `{"type": "tool_result"}` block is sent to Converse: '
                            'botocore raises `ParamValidationError` ("Invalid number of '
                            'parameters set for tagged union structure"); write `{"toolResult": '
                            '{"toolUseId": ..., "content": [...]}}`'
                        ),
                    )
