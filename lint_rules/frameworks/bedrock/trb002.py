"""TRB002 bedrock-tool-result-block-value."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import HEAD
from lint_rules.frameworks.bedrock.recognition import BedrockFile, known_kind, shape_of
from lint_rules.frameworks.encoding import LIBRARY_VALUE_TYPES, Encoder, not_a_mapping
from lint_rules.frameworks.tool_loops import dict_entry
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_str

DOCUMENT = Encoder(
    instance_types=LIBRARY_VALUE_TYPES | {"datetime.datetime"},
    encodes_bytes=False,
    failing_class=not_a_mapping,
    encodes_tuples=False,
)
"""botocore 1.44.18's document type, verified with `Stubber`: `str`, `int`, `bool`,
`float`, `None`, lists and dicts are accepted; a `datetime`, `Decimal`, set, tuple, bytes
or object raises `ParamValidationError` ("Invalid type for document parameter …")."""


class BedrockToolResultBlockValue(Rule):
    """
    ## What it does
    Checks the blocks of a Bedrock Converse tool result's `content` for a
    `{"text": X}` block whose `X` is certainly not a string (a number, a bool,
    `None`, a dict, a list), and for a `{"json": ...}` display that nests a
    value botocore cannot send: a `datetime`, a `Decimal` (what DynamoDB's
    `boto3` returns for every number), a set, a tuple, `bytes` or an instance
    of a plain class or dataclass of the module.

    ## Why is this bad?
    botocore validates the request before sending it: `ParamValidationError`
    ("Invalid type for parameter …toolResult.content[0].text, value: 20, type:
    <class 'int'>, valid types: <class 'str'>", or "Invalid type for document
    parameter price, value: 1.5, type: <class 'decimal.Decimal'>") — at the
    request after the tool ran (verified with botocore 1.44.18's `Stubber`).

    ## Fix safety
    A number in a `text` block is wrapped in `str()`: safe, the model reads
    the same digits.

    ## References
    - [Bedrock: `ToolResultContentBlock`](https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultContentBlock.html)
    """

    code = "TRB002"
    name = "bedrock-tool-result-block-value"
    severity = Severity.ERROR
    framework = "bedrock"
    fix_applicability = Applicability.SAFE
    message = "A Bedrock tool result block holds a value botocore rejects"

    invalid = (
        Example(
            title="a number in a text block",
            code=HEAD
            + """\
def answer(tool_use: dict) -> dict:
    temperature = 20
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": temperature}],
        }
    }
""",
            fixed=HEAD
            + """\
def answer(tool_use: dict) -> dict:
    temperature = 20
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": str(temperature)}],
        }
    }
""",
        ),
        Example(
            title="a DynamoDB `Decimal` in a json block",
            code="""\
from decimal import Decimal

import boto3


def answer(tool_use: dict, item: dict) -> dict:
    price = Decimal(item["price"])
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"json": {"name": item["name"], "price": price}}],
        }
    }
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def answer(tool_use: dict) -> dict:
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": "20"}, {"json": {"temperature": 20, "unit": None}}],
        }
    }
""",
        ),
        Example(
            title="a value of unknown type",
            code=HEAD
            + """\
def answer(tool_use: dict, run) -> dict:
    output = run(tool_use["name"], tool_use["input"])
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": output}]}}
""",
        ),
        Example(
            title="a tool's JSON schema (`inputSchema`'s `json` is not a result block)",
            code=HEAD
            + """\
TOOLS = {
    "tools": [
        {"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}}
    ]
}
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        module = context.module
        for found in context.tool_results:
            for block in context.content_blocks(found.scope, found.result):
                if not isinstance(block, cst.Dict):
                    continue
                text = dict_entry(block, "text")
                if text is not None:
                    shape = shape_of(context, found.scope, text.value)
                    what = known_kind(shape)
                    if what is None or shape.kind is Kind.STR:
                        continue
                    number = shape.kind in (Kind.INT, Kind.FLOAT)
                    yield Finding(
                        node=text.value,
                        message=(
                            f"A `text` block holds {what}, not a `str`: botocore raises "
                            "`ParamValidationError` at the next request, after the tool ran"
                            + ("; wrap it in `str()`" if number else "")
                        ),
                        fix=wrap_in_str(text.value, module) if number else None,
                    )
                document = dict_entry(block, "json")
                if document is not None and isinstance(document.value, (cst.Dict, cst.List)):
                    shape = shape_of(context, found.scope, document.value)
                    bad = DOCUMENT.not_encodable(shape, module)
                    if bad is not None:
                        yield Finding(
                            node=document.value,
                            message=(
                                f"The `json` block holds {bad}: botocore raises "
                                '`ParamValidationError` ("Invalid type for document '
                                'parameter") at the next request, after the tool ran; '
                                "convert it (`str()`, `float()`, a list)"
                            ),
                        )
