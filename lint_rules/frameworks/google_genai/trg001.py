"""TRG001 genai-function-response-not-dict."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, ShapeInference
from lint_rules.config import Settings
from lint_rules.frameworks.google_genai._examples import HEAD
from lint_rules.frameworks.google_genai.recognition import GenaiFile
from lint_rules.frameworks.tool_loops import Scope, collect, dict_entry, keyword
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule

_NOT_A_DICT = {
    Kind.STR: "a `str`",
    Kind.BYTES: "`bytes`",
    Kind.INT: "an `int`",
    Kind.FLOAT: "a `float`",
    Kind.BOOL: "a `bool`",
    Kind.LIST: "a `list`",
    Kind.TUPLE: "a `tuple`",
    Kind.SET: "a `set`",
}


class GenaiFunctionResponseNotDict(Rule):
    """
    ## What it does
    Checks for a Gemini function response whose `response` is certainly not a
    dict — a string, a number, a bool, a list — in
    `types.Part.from_function_response(name=..., response=X)`,
    `types.FunctionResponse(name=..., response=X)`, or a
    `{"function_response": {"name": ..., "response": X}}` display.

    ## Why is this bad?
    `FunctionResponse.response` is a pydantic `dict[str, Any]` field
    (google-genai `types.py`): anything else raises `ValidationError`
    ("Input should be a valid dictionary") where the part is built — after
    the tool already ran, so the loop fails late. A dict display in
    `contents` fails the same way when the request is validated. Automatic
    function calling wraps a tool's return value as `{"result": value}`; a
    hand-written loop must do the same.

    ## Fix safety
    The fix wraps the value as `{"result": X}`, the shape the SDK's own
    automatic function calling sends. It is unsafe: the model then reads the
    value under a `result` key.

    ## References
    - [Gemini API: function calling](https://ai.google.dev/gemini-api/docs/function-calling)
    - [google-genai: `FunctionResponse`](https://googleapis.github.io/python-genai/genai.html#genai.types.FunctionResponse)
    """

    code = "TRG001"
    name = "genai-function-response-not-dict"
    severity = Severity.ERROR
    framework = "google_genai"
    fix_applicability = Applicability.UNSAFE
    message = "A Gemini function response's `response` is not a dict"

    invalid = (
        Example(
            title="the tool's string result",
            code=HEAD
            + """\
def answer(contents, response):
    contents.append(response.candidates[0].content)
    parts = []
    for call in response.function_calls:
        result = get_weather(**call.args)
        parts.append(types.Part.from_function_response(name=call.name, response=result))
    contents.append(types.Content(role="user", parts=parts))
    return client.models.generate_content(model="gemini-2.5-flash", contents=contents)
""",
            fixed=HEAD
            + """\
def answer(contents, response):
    contents.append(response.candidates[0].content)
    parts = []
    for call in response.function_calls:
        result = get_weather(**call.args)
        parts.append(types.Part.from_function_response(name=call.name, response={"result": result}))
    contents.append(types.Content(role="user", parts=parts))
    return client.models.generate_content(model="gemini-2.5-flash", contents=contents)
""",
        ),
        Example(
            title="a list, in a `FunctionResponse`",
            code=HEAD
            + """\
def forecast_part(call):
    days = ["sunny", "rain", "sunny"]
    answer = types.FunctionResponse(name=call.name, response=days)
    return types.Part(function_response=answer)
""",
            fixed=HEAD
            + """\
def forecast_part(call):
    days = ["sunny", "rain", "sunny"]
    answer = types.FunctionResponse(name=call.name, response={"result": days})
    return types.Part(function_response=answer)
""",
        ),
        Example(
            title="a dict display of the part",
            code=HEAD
            + """\
def answer_part(call, count: int):
    return {"function_response": {"name": call.name, "response": count + 1}}
""",
            fixed=HEAD
            + """\
def answer_part(call, count: int):
    return {"function_response": {"name": call.name, "response": {"result": count + 1}}}
""",
        ),
    )
    valid = (
        Example(
            title="the result wrapped as a dict",
            code=HEAD
            + """\
def answer(call):
    result = get_weather(**call.args)
    return types.Part.from_function_response(name=call.name, response={"result": result})
""",
        ),
        Example(
            title="a value of unknown type (a registry's result)",
            code=HEAD
            + """\
def answer(call, registry):
    output = registry[call.name](**call.args)
    return types.Part.from_function_response(name=call.name, response=output)
""",
        ),
        Example(
            title="another library's `from_function_response`",
            code="""\
from mylib import Part


def answer(call):
    return Part.from_function_response(name=call.name, response="done")
""",
        ),
    )

    def check(self, context: GenaiFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for scope, value in _responses(context):
            function = scope.node if isinstance(scope.node, cst.FunctionDef) else None
            shape = ShapeInference(context.module, function).infer(value)
            what = _NOT_A_DICT.get(shape.kind)
            if what is None:
                continue
            yield Finding(
                node=value,
                message=(
                    f"The function response is {what}: `FunctionResponse.response` must be a "
                    'dict, and pydantic raises `ValidationError` ("Input should be a valid '
                    'dictionary") after the tool ran; wrap it: `{"result": ...}`'
                ),
                fix=FixSpec(
                    title='Wrap as `{"result": ...}`',
                    applicability=Applicability.UNSAFE,
                    edits=(
                        EditSpec(value, '{"result": ', "before"),
                        EditSpec(value, "}", "after"),
                    ),
                ),
            )


def _responses(context: GenaiFile) -> Iterator[tuple[Scope, cst.BaseExpression]]:
    """The ``response`` value of every function response the module builds."""
    for scope, call in context.calls_of("Part.from_function_response", "FunctionResponse"):
        arg = keyword(call, "response")
        if arg is not None:
            yield scope, arg.value
    for scope in context.scopes:
        for node in collect(scope.node, cst.Dict):
            assert isinstance(node, cst.Dict)
            entry = dict_entry(node, "function_response")
            if entry is None or not isinstance(entry.value, cst.Dict):
                continue
            inner = dict_entry(entry.value, "response")
            if inner is not None:
                yield scope, inner.value
