"""TRB001 bedrock-tool-result-content-not-list."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.names import means_builtin
from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import HEAD
from lint_rules.frameworks.bedrock.recognition import BedrockFile, known_kind, shape_of
from lint_rules.frameworks.tool_loops import dict_entry
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule

_WRAPS = {Kind.STR: "text", Kind.DICT: "json", Kind.INT: "number", Kind.FLOAT: "number"}


class BedrockToolResultContentNotList(Rule):
    """
    ## What it does
    Checks for a Bedrock Converse `{"toolResult": {...}}` block whose
    `content` is certainly a string, a dict or a number instead of a list of
    content blocks.

    ## Why is this bad?
    `ToolResultBlock.content` is a list of `{"text": str}`, `{"json":
    object}`, image or document blocks. botocore validates the request before
    sending it and raises `ParamValidationError` ("Invalid type for parameter
    messages[N].content[M].toolResult.content … valid types: <class 'list'>,
    <class 'tuple'>") — at the request *after* the tool ran, so the loop
    fails late (verified with botocore 1.44.18's `Stubber`).

    ## Fix safety
    The fix wraps a string as `[{"text": x}]`, a dict as `[{"json": d}]` and a
    number as `[{"text": str(n)}]`. It is unsafe: the model then reads the
    value in that block.

    ## References
    - [Bedrock: `ToolResultBlock`](https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultBlock.html)
    - [Bedrock: tool use with the Converse API](https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html)
    """

    code = "TRB001"
    name = "bedrock-tool-result-content-not-list"
    severity = Severity.ERROR
    framework = "bedrock"
    fix_applicability = Applicability.UNSAFE
    message = "A Bedrock `toolResult`'s `content` is not a list of blocks"

    invalid = (
        Example(
            title="the tool's string result",
            code=HEAD
            + """\
def answer(tool_use: dict) -> dict:
    forecast = f"sunny in {tool_use['input']['city']}"
    result = {"toolUseId": tool_use["toolUseId"], "content": forecast}
    return {"role": "user", "content": [{"toolResult": result}]}
""",
            fixed=HEAD
            + """\
def answer(tool_use: dict) -> dict:
    forecast = f"sunny in {tool_use['input']['city']}"
    result = {"toolUseId": tool_use["toolUseId"], "content": [{"text": forecast}]}
    return {"role": "user", "content": [{"toolResult": result}]}
""",
        ),
        Example(
            title="a dict, and a number",
            code=HEAD
            + """\
def answer(use: dict, count: int) -> list:
    return [
        {"toolResult": {"toolUseId": use["toolUseId"], "content": {"temperature": 20}}},
        {"toolResult": {"toolUseId": use["toolUseId"], "content": count}},
    ]
""",
            fixed=HEAD
            + """\
def answer(use: dict, count: int) -> list:
    return [
        {"toolResult": {"toolUseId": use["toolUseId"], "content": [{"json": {"temperature": 20}}]}},
        {"toolResult": {"toolUseId": use["toolUseId"], "content": [{"text": str(count)}]}},
    ]
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def answer(tool_use: dict) -> dict:
    forecast = f"sunny in {tool_use['input']['city']}"
    return {
        "role": "user",
        "content": [
            {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": forecast}]}}
        ],
    }
""",
        ),
        Example(
            title="content built elsewhere (unknown here)",
            code=HEAD
            + """\
def answer(tool_use: dict, blocks) -> dict:
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": blocks}}
""",
        ),
        Example(
            title="a tuple of blocks (botocore accepts tuples)",
            code=HEAD
            + """\
def answer(tool_use: dict) -> dict:
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": ({"text": "ok"},)}}
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for found in context.tool_results:
            entry = dict_entry(found.result, "content")
            if entry is None:
                continue
            value = entry.value
            shape = shape_of(context, found.scope, value)
            block = _WRAPS.get(shape.kind)
            if block is None:
                continue
            if block == "number":
                before, after = '[{"text": str(', ")}]"
            else:
                before, after = f'[{{"{block}": ', "}]"
            fix: FixSpec | None = FixSpec(
                title=f"Wrap as `{before}...{after}`",
                applicability=Applicability.UNSAFE,
                edits=(EditSpec(value, before, "before"), EditSpec(value, after, "after")),
            )
            if block == "number" and not means_builtin(context.module, value, "str"):
                fix = None  # `str` is not the builtin there
            yield Finding(
                node=value,
                message=(
                    f"The tool result's `content` is {known_kind(shape)}, not a list of "
                    "blocks: botocore raises `ParamValidationError` at the next request, "
                    f"after the tool ran; wrap it: `{before}...{after}`"
                ),
                fix=fix,
            )
