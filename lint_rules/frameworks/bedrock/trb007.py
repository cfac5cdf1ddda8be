"""TRB007 bedrock-error-result-empty."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import HEAD
from lint_rules.frameworks.bedrock.recognition import BedrockFile
from lint_rules.frameworks.tool_loops import completed_later, dict_entry, has_spread, literal_entry
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class BedrockErrorResultEmpty(Rule):
    """
    ## What it does
    Checks for a Bedrock Converse tool result with `"status": "error"` whose
    `content` is an empty list, or missing (and not added after the display).

    ## Why is this bad?
    botocore sends it (verified with botocore 1.44.18's `Stubber`), but the
    service rejects the request: HTTP 400 `ValidationException` "The content
    field at messages.N.content.0.toolResult cannot be empty when status value
    is error" — so the loop that reports a failed tool fails itself, and the
    model never learns what went wrong. Say what failed in a text block.

    ## References
    - [Bedrock: `ToolResultBlock`](https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultBlock.html)
    """

    code = "TRB007"
    name = "bedrock-error-result-empty"
    severity = Severity.ERROR
    framework = "bedrock"
    message = "A Bedrock error tool result has no content"

    invalid = (
        Example(
            title="an empty error result",
            code=HEAD
            + """\
def failed(tool_use: dict) -> dict:
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [], "status": "error"}}
""",
        ),
        Example(
            title="no content at all",
            code=HEAD
            + """\
def failed(tool_use: dict) -> dict:
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "status": "error"}}
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def failed(tool_use: dict, error: Exception) -> dict:
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": f"The tool failed: {error}"}],
            "status": "error",
        }
    }
""",
        ),
        Example(
            title="the content added after the display",
            code=HEAD
            + """\
def failed(tool_use: dict, error: Exception) -> dict:
    result = {"toolUseId": tool_use["toolUseId"], "status": "error"}
    result["content"] = [{"text": str(error)}]
    return {"toolResult": result}
""",
        ),
        Example(
            title="an empty success result",
            code=HEAD
            + """\
def done(tool_use: dict) -> dict:
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": []}}
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for found in context.tool_results:
            result = found.result
            if literal_entry(result, "status") != "error" or has_spread(result):
                continue
            content = dict_entry(result, "content")
            if content is None:
                if completed_later(found.scope, result):
                    continue
                node: cst.CSTNode = result
            elif isinstance(content.value, (cst.List, cst.Tuple)) and not content.value.elements:
                node = content.value
            else:
                continue
            yield Finding(
                node=node,
                message=(
                    'An error tool result without content: Bedrock rejects it (HTTP 400 "The '
                    'content field … cannot be empty when status value is error"); say what '
                    'failed: `"content": [{"text": ...}]`'
                ),
            )
