"""TRR007 responses-reasoning-item-dropped."""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_responses._examples import HEAD
from lint_rules.frameworks.openai_responses.recognition import ResponsesFile
from lint_rules.frameworks.tool_loops import (
    Scope,
    collect,
    dict_entry,
    has_double_star,
    keyword,
    literal_entry,
    sent_values,
    string_value,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

REASONING_MODEL = re.compile(r"(?:o1|o3|o4)(?:-|$)|gpt-5")
"""The model names that reason (``o1``, ``o3-mini``, ``o4-mini``, ``gpt-5``, ``gpt-5.1-…``)."""

_O3 = HEAD.replace("client = OpenAI()\n", 'client = OpenAI()\nMODEL = "o4-mini"\n')


class ResponsesReasoningItemDropped(Rule):
    """
    ## What it does
    Checks for a request to a reasoning model (a literal `model=` such as
    `"o4-mini"`, `"o3"` or `"gpt-5"`) whose `input` gets the `function_call`
    items filtered out of an earlier `response.output` — the SDK's items, or
    dicts that keep their `id` — without the rest of that output, and without
    `previous_response_id`.

    ## Why is this bad?
    A reasoning model's function call items belong to the reasoning item
    before them in `response.output`. Sent back without it, they are
    rejected: HTTP 400 "Item 'fc_…' of type 'function_call' was provided
    without its required 'reasoning' item: 'rs_…'". Send the whole output
    (`input += response.output`) or chain with `previous_response_id`.

    It is a warning: whether an item needs its reasoning item depends on the
    model and on `store`, which a literal model name only suggests. Not
    reported when the scope names `"reasoning"` (the loop keeps those items),
    when the request passes `**kwargs`, or when the whole output is added to
    the list too.

    ## References
    - [OpenAI: reasoning models, keeping reasoning items in context](https://platform.openai.com/docs/guides/reasoning)
    """

    code = "TRR007"
    name = "responses-reasoning-item-dropped"
    severity = Severity.WARNING
    framework = "openai_responses"
    message = "A reasoning model's function calls are sent back without their reasoning items"

    invalid = (
        Example(
            title="the function calls filtered out of the output",
            code=_O3
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model=MODEL, input=input_items, tools=tools)
    calls = [item for item in response.output if item.type == "function_call"]
    input_items += calls
    for call in calls:
        input_items.append(
            {
                "type": "function_call_output",
                "call_id": call.call_id,
                "output": get_weather(**json.loads(call.arguments)),
            }
        )
    return client.responses.create(model=MODEL, input=input_items, tools=tools)
""",
        ),
        Example(
            title="each call appended in the answer loop",
            code=HEAD
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-5", input=input_items, tools=tools)
    for item in response.output:
        if item.type == "function_call":
            input_items.append(item)
            input_items.append(
                {"type": "function_call_output", "call_id": item.call_id, "output": "ok"}
            )
    return client.responses.create(model="gpt-5", input=input_items, tools=tools)
""",
        ),
    )
    valid = (
        Example(
            title="the whole output sent back",
            code=_O3
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model=MODEL, input=input_items, tools=tools)
    input_items += response.output
    for item in response.output:
        if item.type == "function_call":
            input_items.append(
                {"type": "function_call_output", "call_id": item.call_id, "output": "ok"}
            )
    return client.responses.create(model=MODEL, input=input_items, tools=tools)
""",
        ),
        Example(
            title="chained with `previous_response_id`",
            code=_O3
            + """\
def run(question):
    response = client.responses.create(model=MODEL, input=question, tools=tools)
    calls = [item for item in response.output if item.type == "function_call"]
    outputs = [
        {"type": "function_call_output", "call_id": c.call_id, "output": "ok"} for c in calls
    ]
    return client.responses.create(
        model=MODEL, previous_response_id=response.id, input=calls + outputs, tools=tools
    )
""",
        ),
        Example(
            title="a model that does not reason",
            code=HEAD
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
    calls = [item for item in response.output if item.type == "function_call"]
    input_items += calls
    return client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
""",
        ),
        Example(
            title="the reasoning items kept",
            code=_O3
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model=MODEL, input=input_items, tools=tools)
    input_items += [i for i in response.output if i.type in ("reasoning", "function_call")]
    return client.responses.create(model=MODEL, input=input_items, tools=tools)
""",
        ),
    )

    def check(self, context: ResponsesFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        reported: set[int] = set()
        for scope, request in context.requests:
            if keyword(request, "previous_response_id") is not None or has_double_star(request):
                continue
            if not _reasons(context, scope, request):
                continue
            arg = keyword(request, "input")
            if arg is None or not isinstance(arg.value, cst.Name):
                continue
            if _names_reasoning(scope):
                continue
            adds = list(_calls_added(context, scope, arg.value.value))
            if not adds or any(whole for _, whole in adds):
                continue
            for node, _ in adds:
                if id(node) in reported:
                    continue
                reported.add(id(node))
                yield Finding(
                    node=node,
                    message=(
                        "The function calls of a reasoning model's response are sent back "
                        "without its reasoning items (and without `previous_response_id`): "
                        "HTTP 400 \"Item 'fc_…' of type 'function_call' was provided without "
                        "its required 'reasoning' item\"; send the whole `response.output`"
                    ),
                )


def _reasons(context: ResponsesFile, scope: Scope, request: cst.Call) -> bool:
    arg = keyword(request, "model")
    if arg is None:
        return False
    value: cst.BaseExpression | None = arg.value
    if isinstance(value, cst.Name):
        value = context.value_of(scope, value.value)
    name = string_value(value)
    return name is not None and REASONING_MODEL.match(name) is not None


def _names_reasoning(scope: Scope) -> bool:
    """The scope writes the string ``"reasoning"`` (it handles those items)."""
    return any(
        isinstance(node, cst.SimpleString) and string_value(node) == "reasoning"
        for node in collect(scope.node, cst.SimpleString)
    )


def _calls_added(
    context: ResponsesFile, scope: Scope, name: str
) -> Iterator[tuple[cst.CSTNode, bool]]:
    """What adds a response's items to the list ``name``: ``(site, whole)`` — ``whole``
    when it is the response's whole output, else it adds function call items filtered
    out of it (a derived list, a loop variable over one, a ``function_call`` dict with
    its ``id``)."""
    for node in collect(scope.node, cst.AugAssign, cst.Call):
        target: cst.BaseExpression
        if isinstance(node, cst.AugAssign):
            target = node.target
            added = [node.value]
        else:
            assert isinstance(node, cst.Call)
            func = node.func
            if not isinstance(func, cst.Attribute):
                continue
            target = func.value
            added = (
                [node.args[0].value]
                if func.attr.value == "extend" and len(node.args) == 1
                else sent_values(node)
            )
        if not (isinstance(target, cst.Name) and target.value == name):
            continue
        for value in added:
            if context.response_output(scope, value) is not None:
                yield node, True
            elif _filtered_calls(context, scope, value, node) or (
                isinstance(value, cst.Dict)
                and literal_entry(value, "type") == "function_call"
                and dict_entry(value, "id") is not None
            ):
                yield node, False


def _filtered_calls(
    context: ResponsesFile, scope: Scope, value: cst.BaseExpression, site: cst.CSTNode
) -> bool:
    """``value`` holds function call items filtered out of a response's output: a list
    derived from it whose making tests ``"function_call"``, or a loop variable over the
    output added under such a test."""
    if context.items_response(scope, value) is not None:
        made = scope.value_of(value.value) if isinstance(value, cst.Name) else value
        return made is not None and _tests_function_call(made)
    if not context.is_output_item(scope, value, site):
        return False
    index = context.module.index
    at = index.span(site)[0]
    return any(
        isinstance(node, cst.If)
        and index.span(node.body)[0] <= at < index.span(node.body)[1]
        and _tests_function_call(node.test)
        for node in collect(scope.node, cst.If)
    )


def _tests_function_call(node: cst.CSTNode) -> bool:
    return any(
        isinstance(s, cst.SimpleString) and string_value(s) == "function_call"
        for s in collect(node, cst.SimpleString)
    )
