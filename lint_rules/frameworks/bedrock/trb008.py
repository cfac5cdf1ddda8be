"""TRB008 bedrock-invalid-enum."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import HEAD
from lint_rules.frameworks.bedrock.recognition import ROLES, STATUSES, BedrockFile
from lint_rules.frameworks.tool_loops import dict_entry, string_value
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, replace_string_literal

_FAILED = frozenset({"failed", "failure", "fail", "err", "errored", "exception"})
_SUCCEEDED = frozenset({"ok", "succeeded", "successful", "done", "completed", "complete"})


class BedrockInvalidEnum(Rule):
    """
    ## What it does
    Checks a Bedrock Converse tool result's `status` for a literal other than
    `"success"` or `"error"` (`"failed"`, `"ok"`), and a message sent to
    `converse(messages=...)` for a `role` literal other than `"user"` or
    `"assistant"` (`"tool"`, `"model"`, `"function"`). `"system"`, which
    botocore 1.44's `ConversationRole` lists, is not reported.

    ## Why is this bad?
    botocore does not check enum values (verified with botocore 1.44.18's
    `Stubber`): the request is sent, and the service rejects it with HTTP 400
    `ValidationException` — after the tool ran. The service model
    (`ToolResultStatus`, `ConversationRole`) defines the values.

    ## Fix safety
    A `status` that reads as a failure (`"failed"`) becomes `"error"`, one
    that reads as a success (`"ok"`) becomes `"success"`, and a tool role
    becomes `"user"` (Bedrock sends tool results in user messages). The fix is
    unsafe: it changes what the model is told.

    ## References
    - [Bedrock: `ToolResultBlock`](https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultBlock.html)
    - [Bedrock: `Message`](https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html)
    """

    code = "TRB008"
    name = "bedrock-invalid-enum"
    severity = Severity.ERROR
    framework = "bedrock"
    fix_applicability = Applicability.UNSAFE
    message = "A Bedrock `status` or `role` is not one the service accepts"

    invalid = (
        Example(
            title="a failed tool",
            code=HEAD
            + """\
def failed(tool_use: dict, error: Exception) -> dict:
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": str(error)}],
            "status": "failed",
        }
    }
""",
            fixed=HEAD
            + """\
def failed(tool_use: dict, error: Exception) -> dict:
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": str(error)}],
            "status": "error",
        }
    }
""",
        ),
        Example(
            title="a tool role",
            code=HEAD
            + """\
def run(messages: list, tool_use: dict, output: str):
    result = {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": output}]}}
    messages.append({"role": "tool", "content": [result]})
    return client.converse(modelId=MODEL, messages=messages)
""",
            fixed=HEAD
            + """\
def run(messages: list, tool_use: dict, output: str):
    result = {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": output}]}}
    messages.append({"role": "user", "content": [result]})
    return client.converse(modelId=MODEL, messages=messages)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def run(messages: list, tool_use: dict, output: str):
    result = {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": output}],
            "status": "success",
        }
    }
    messages.append({"role": "user", "content": [result]})
    return client.converse(modelId=MODEL, messages=messages)
""",
        ),
        Example(
            title="a role in a list that is not sent to Converse",
            code=HEAD
            + """\
def to_openai(messages: list, output: str) -> list:
    return [*messages, {"role": "tool", "content": output}]
""",
        ),
        Example(
            title="a status computed at run time",
            code=HEAD
            + """\
def answer(tool_use: dict, ok: bool, output: str) -> dict:
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": output}],
            "status": "success" if ok else "error",
        }
    }
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for found in context.tool_results:
            status = dict_entry(found.result, "status")
            value = string_value(status.value) if status is not None else None
            if status is None or value is None or value in STATUSES:
                continue
            suggested = _status_for(value)
            yield Finding(
                node=status.value,
                message=(
                    f'The tool result\'s `status` is "{value}": Bedrock accepts only "success" '
                    'or "error" and rejects the request (botocore does not check it)'
                    + (f'; use "{suggested}"' if suggested else "")
                ),
                fix=replace_string_literal(status.value, suggested, f'Use "{suggested}"')
                if suggested
                else None,
            )
        reported: set[int] = set()
        for _, _, message in context.messages_sent:
            if not isinstance(message, cst.Dict) or id(message) in reported:
                continue
            reported.add(id(message))
            role = dict_entry(message, "role")
            value = string_value(role.value) if role is not None else None
            if role is None or value is None or value in ROLES:
                continue
            if dict_entry(message, "tool_call_id") is not None:
                continue  # an OpenAI tool message: TRB004
            tool = value in ("tool", "function")
            yield Finding(
                node=role.value,
                message=(
                    f'A message with role "{value}" is sent to Converse: Bedrock accepts only '
                    '"user" and "assistant" and rejects the request (botocore does not check '
                    "it)" + ('; tool results go in a "user" message' if tool else "")
                ),
                fix=replace_string_literal(role.value, "user", 'Use "user"') if tool else None,
            )


def _status_for(value: str) -> str | None:
    lowered = value.lower()
    if lowered in _FAILED:
        return "error"
    if lowered in _SUCCEEDED:
        return "success"
    return None
