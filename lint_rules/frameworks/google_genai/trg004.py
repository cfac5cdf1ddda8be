"""TRG004 genai-mixed-call-and-response-parts."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.google_genai._examples import HEAD
from lint_rules.frameworks.google_genai.recognition import GenaiFile
from lint_rules.frameworks.tool_loops import Scope, collect, keyword
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_REQUESTS = frozenset({"generate_content", "generate_content_stream", "count_tokens"})


class GenaiMixedCallAndResponseParts(Rule):
    """
    ## What it does
    Checks for one Gemini turn that holds both a function-call part and a
    function-response part: `types.Content(parts=[call_part, response_part])`,
    or a nested list inside `contents=[...]` (`[prompt, [call_part,
    response_part]]`, which the SDK folds into one user turn).

    ## Why is this bad?
    A function call belongs to the model's turn and its response to the next
    (user) turn. One turn with both is rejected: HTTP 400 "Please ensure that
    function call turn contains at least one function_call part which can not
    be mixed with function_response parts" — the shape an early example of
    the SDK's own documentation had (googleapis/python-genai#81). A flat
    `contents=[prompt, call_part, response_part]` is fine: the SDK puts a
    loose function-call `Part` into a model turn of its own.

    Parts are recognised as written: the SDK's `Part.from_function_call(...)`,
    `Part.from_function_response(...)`, `Part(function_call=...)`,
    `Part(function_response=...)`, dict displays with those keys, and names
    bound once to one of them in the same function.

    ## References
    - [Gemini API: function calling](https://ai.google.dev/gemini-api/docs/function-calling)
    """

    code = "TRG004"
    name = "genai-mixed-call-and-response-parts"
    severity = Severity.ERROR
    framework = "google_genai"
    message = "One Gemini turn holds both a function call and a function response"

    invalid = (
        Example(
            title="the call and its response in one `Content`",
            code=HEAD
            + """\
def answer(question, call):
    call_part = types.Part.from_function_call(name=call.name, args=call.args)
    result = get_weather(**call.args)
    response_part = types.Part.from_function_response(name=call.name, response={"result": result})
    contents = [
        types.Content(role="user", parts=[types.Part.from_text(text=question)]),
        types.Content(role="user", parts=[call_part, response_part]),
    ]
    return client.models.generate_content(model="gemini-2.5-flash", contents=contents)
""",
        ),
        Example(
            title="a nested list of parts (the SDK makes it one user turn)",
            code=HEAD
            + """\
def answer(question, call):
    result = get_weather(**call.args)
    return client.models.generate_content(
        model="gemini-2.5-flash",
        contents=[
            question,
            [
                types.Part(function_call=call),
                types.Part.from_function_response(name=call.name, response={"result": result}),
            ],
        ],
    )
""",
        ),
    )
    valid = (
        Example(
            title="the model's turn, then the responses",
            code=HEAD
            + """\
def answer(contents, response):
    contents.append(response.candidates[0].content)
    parts = [
        types.Part.from_function_response(name=c.name, response={"result": get_weather(**c.args)})
        for c in response.function_calls
    ]
    contents.append(types.Content(role="user", parts=parts))
    return client.models.generate_content(model="gemini-2.5-flash", contents=contents)
""",
        ),
        Example(
            title="a flat list of parts (the call part gets a model turn of its own)",
            code=HEAD
            + """\
def answer(question, call):
    result = get_weather(**call.args)
    return client.models.generate_content(
        model="gemini-2.5-flash",
        contents=[
            question,
            types.Part(function_call=call),
            types.Part.from_function_response(name=call.name, response={"result": result}),
        ],
    )
""",
        ),
        Example(
            title="parts of unknown kind",
            code=HEAD
            + """\
def replay(history_parts, extra):
    return types.Content(role="user", parts=[*history_parts, extra])
""",
        ),
    )

    def check(self, context: GenaiFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for scope, call in context.calls_of("Content"):
            arg = keyword(call, "parts")
            if arg is not None and _mixed(context, scope, arg.value):
                yield Finding(node=call, message=_MESSAGE)
        for scope in context.scopes:
            for node in collect(scope.node, cst.Call):
                assert isinstance(node, cst.Call)
                func = node.func
                if not isinstance(func, cst.Attribute) or func.attr.value not in _REQUESTS:
                    continue
                arg = keyword(node, "contents")
                if arg is None or not isinstance(arg.value, cst.List):
                    continue
                for element in arg.value.elements:
                    value = element.value
                    if isinstance(value, cst.List) and _mixed(context, scope, value):
                        yield Finding(node=value, message=_MESSAGE)


_MESSAGE = (
    "One turn holds both a function-call part and a function-response part: the API "
    'rejects it (HTTP 400 "…function call turn … can not be mixed with function_response '
    "parts\"); send the model's turn (`response.candidates[0].content`), then a user turn "
    "with the responses"
)


def _mixed(context: GenaiFile, scope: Scope, node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name):
        value = scope.value_of(node.value)
        node = value if value is not None else node
    if not isinstance(node, (cst.List, cst.Tuple)):
        return False
    kinds = {
        context.kind_of_part(scope, e.value) for e in node.elements if isinstance(e, cst.Element)
    }
    return {"call", "response"} <= kinds
