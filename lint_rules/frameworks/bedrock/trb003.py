"""TRB003 bedrock-json-block-not-object."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import HEAD
from lint_rules.frameworks.bedrock.recognition import BedrockFile, known_kind, shape_of
from lint_rules.frameworks.tool_loops import dict_entry
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule

_NOT_AN_OBJECT = frozenset({Kind.LIST, Kind.STR, Kind.INT, Kind.FLOAT, Kind.BOOL})


class BedrockJsonBlockNotObject(Rule):
    """
    ## What it does
    Checks for a `{"json": X}` block in a Bedrock Converse tool result's
    `content` whose `X` is certainly a list, a string, a number or a bool.
    A value of unknown shape (`json.loads(...)`, a parameter) is not
    reported.

    ## Why is this bad?
    botocore sends any JSON document (verified with botocore 1.44.18), but
    the service accepts only an object there: HTTP 400 `ValidationException`
    "The format of the value at messages.N.content.0.toolResult.content.0.json
    is invalid. Provide a json object for the field and try again"
    (aws/aws-sdk-js-v3#7330, sigoden/aichat#1542) — after the tool ran. A
    list of rows, the most common case, must be wrapped in an object.

    ## Fix safety
    The fix wraps the value as `{"result": X}`. It is unsafe: the model then
    reads the value under a `result` key.

    ## References
    - [Bedrock: `ToolResultContentBlock`](https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultContentBlock.html)
    """

    code = "TRB003"
    name = "bedrock-json-block-not-object"
    severity = Severity.ERROR
    framework = "bedrock"
    fix_applicability = Applicability.UNSAFE
    message = "A Bedrock tool result's `json` block is not an object"

    invalid = (
        Example(
            title="a list of rows",
            code=HEAD
            + """\
def answer(use: dict, rows: list[dict]) -> dict:
    names = [row["name"] for row in rows]
    return {"toolResult": {"toolUseId": use["toolUseId"], "content": [{"json": names}]}}
""",
            fixed=HEAD
            + """\
def answer(use: dict, rows: list[dict]) -> dict:
    names = [row["name"] for row in rows]
    return {"toolResult": {"toolUseId": use["toolUseId"], "content": [{"json": {"result": names}}]}}
""",
        ),
        Example(
            title="a JSON string where the object belongs",
            code=HEAD
            + """\
import json


def answer(use: dict) -> dict:
    data = json.dumps({"temperature": 20})
    return {"toolResult": {"toolUseId": use["toolUseId"], "content": [{"json": data}]}}
""",
            fixed=HEAD
            + """\
import json


def answer(use: dict) -> dict:
    data = json.dumps({"temperature": 20})
    return {"toolResult": {"toolUseId": use["toolUseId"], "content": [{"json": {"result": data}}]}}
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def answer(tool_use: dict, rows: list[dict]) -> dict:
    names = [row["name"] for row in rows]
    return {
        "toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"json": {"names": names}}]}
    }
""",
        ),
        Example(
            title="a parsed document of unknown shape",
            code=HEAD
            + """\
import json


def answer(tool_use: dict, body: str) -> dict:
    return {
        "toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"json": json.loads(body)}]}
    }
""",
        ),
        Example(
            title="a text block for a string",
            code=HEAD
            + """\
def answer(tool_use: dict) -> dict:
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": "20C"}]}}
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for found in context.tool_results:
            for block in context.content_blocks(found.scope, found.result):
                document = dict_entry(block, "json") if isinstance(block, cst.Dict) else None
                if document is None:
                    continue
                shape = shape_of(context, found.scope, document.value)
                if shape.kind not in _NOT_AN_OBJECT:
                    continue
                yield Finding(
                    node=document.value,
                    message=(
                        f"The `json` block holds {known_kind(shape)}: Bedrock accepts only an "
                        'object there (HTTP 400 "Provide a json object for the field"), after '
                        'the tool ran; wrap it: `{"result": ...}`'
                    ),
                    fix=FixSpec(
                        title='Wrap as `{"result": ...}`',
                        applicability=Applicability.UNSAFE,
                        edits=(
                            EditSpec(document.value, '{"result": ', "before"),
                            EditSpec(document.value, "}", "after"),
                        ),
                    ),
                )
