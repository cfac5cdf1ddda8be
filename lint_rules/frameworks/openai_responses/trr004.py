"""TRR004 responses-unanswered-function-call."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import libcst as cst

from lint_rules.analysis.walk import TreeIndex
from lint_rules.config import Settings
from lint_rules.frameworks.openai_responses._examples import HEAD
from lint_rules.frameworks.openai_responses.recognition import ResponsesFile, chains, is_request
from lint_rules.frameworks.tool_loops import (
    Scope,
    collect,
    dict_entry,
    integer_index,
    key_read,
    next_pick,
    search_pick,
)
from lint_rules.frameworks.tool_loops import counted as tool_counted
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_ONE = (
    "Only one function call of `{response}` is answered, but all its calls reach the next "
    'request: HTTP 400 "No tool output found for function call …" when the model makes '
    "two; answer every `function_call` item, or pass `parallel_tool_calls=False`"
)


class ResponsesUnansweredFunctionCall(Rule):
    """
    ## What it does
    Checks for a Responses API loop that answers only one of a response's
    function calls while all of them reach the next request (`input +=
    response.output`, `previous_response_id=response.id`): the call picked
    by a fixed index (`response.output[0]`), by `next(...)`, or by a search
    loop that `break`s at the first; a loop over the calls that `break`s or
    `return`s after answering the first; or a request sent inside that loop,
    before the other calls are answered.

    ## Why is this bad?
    The model may call several functions in one response (parallel function
    calling is on by default). Every `function_call` item that reaches a
    request needs its `function_call_output`, or the server rejects the
    request: HTTP 400 "No tool output found for function call call_…". A
    loop tested with one call at a time fails the first time the model makes
    two.

    Not reported when a request of the module passes `parallel_tool_calls=`
    anything but a literal `True`, a `tool_choice=` other than `"auto"` or
    `"required"`, or `**kwargs` (the model may be limited to one call), when
    a loop or comprehension of the same function answers the response's
    calls, or when their number is tested (`len(...)`).

    ## References
    - [OpenAI: parallel function calling](https://platform.openai.com/docs/guides/function-calling#parallel-function-calling)
    """

    code = "TRR004"
    name = "responses-unanswered-function-call"
    severity = Severity.ERROR
    framework = "openai_responses"
    message = "Only one of a response's function calls is answered"

    invalid = (
        Example(
            title="the first function call, and the whole output sent back",
            code=HEAD
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
    calls = [item for item in response.output if item.type == "function_call"]
    if calls:
        call = calls[0]
        input_items += response.output
        input_items.append(
            {
                "type": "function_call_output",
                "call_id": call.call_id,
                "output": get_weather(**json.loads(call.arguments)),
            }
        )
        response = client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
    return response.output_text
""",
        ),
        Example(
            title="a request inside the loop over the calls",
            code=HEAD
            + """\
def run(question):
    response = client.responses.create(model="gpt-4.1", input=question, tools=tools)
    for item in response.output:
        if item.type == "function_call":
            result = get_weather(**json.loads(item.arguments))
            response = client.responses.create(
                model="gpt-4.1",
                previous_response_id=response.id,
                input=[{"type": "function_call_output", "call_id": item.call_id, "output": result}],
                tools=tools,
            )
    return response.output_text
""",
        ),
        Example(
            title="`next(...)` picks the first call",
            code=HEAD
            + """\
async def run(aclient, question):
    response = await aclient.responses.create(model="gpt-4.1", input=question, tools=tools)
    call = next(item for item in response.output if item.type == "function_call")
    output = {
        "type": "function_call_output",
        "call_id": call.call_id,
        "output": get_weather(**json.loads(call.arguments)),
    }
    return await aclient.responses.create(
        model="gpt-4.1", previous_response_id=response.id, input=[output], tools=tools
    )
""",
        ),
    )
    valid = (
        Example(
            title="every call answered, then one request",
            code=HEAD
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
    input_items += response.output
    for item in response.output:
        if item.type == "function_call":
            input_items.append(
                {
                    "type": "function_call_output",
                    "call_id": item.call_id,
                    "output": get_weather(**json.loads(item.arguments)),
                }
            )
    return client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
""",
        ),
        Example(
            title="one call per response (`parallel_tool_calls=False`)",
            code=HEAD
            + """\
def run(question):
    response = client.responses.create(
        model="gpt-4.1", input=question, tools=tools, parallel_tool_calls=False
    )
    call = response.output[0]
    return client.responses.create(
        model="gpt-4.1",
        previous_response_id=response.id,
        input=[{"type": "function_call_output", "call_id": call.call_id, "output": "ok"}],
        tools=tools,
    )
""",
        ),
        Example(
            title="the calls of the response do not reach the next request",
            code=HEAD
            + """\
def first_city(question):
    response = client.responses.create(model="gpt-4.1", input=question, tools=tools)
    call = response.output[0]
    return {"type": "function_call_output", "call_id": call.call_id, "output": "Paris"}
""",
        ),
        Example(
            title="the number of calls is tested",
            code=HEAD
            + """\
def run(question):
    response = client.responses.create(model="gpt-4.1", input=question, tools=tools)
    calls = [item for item in response.output if item.type == "function_call"]
    if len(calls) == 1:
        output = {"type": "function_call_output", "call_id": calls[0].call_id, "output": "ok"}
        return client.responses.create(
            model="gpt-4.1", previous_response_id=response.id, input=[output], tools=tools
        )
    return None
""",
        ),
    )

    def check(self, context: ResponsesFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked or not context.function_call_outputs:
            return
        if context.parallel_limited:
            return
        by_scope: dict[int, list[cst.Dict]] = {}
        for scope, item in context.function_call_outputs:
            by_scope.setdefault(id(scope), []).append(item)
        reported: set[int] = set()
        for scope in context.scopes:
            items = by_scope.get(id(scope))
            if not items:
                continue
            answered_by_loop = {
                r for item in items for r, _ in [_looped(context, scope, item)] if r is not None
            }
            counted = tool_counted(context.module, scope, partial(context.items_response, scope))
            for item in items:
                response, loop = _looped(context, scope, item)
                if response is not None and loop is not None:
                    if not context.carries_calls(scope, response):
                        continue
                    for node, message in _loop_mistakes(context, scope, loop, item, response):
                        if id(node) not in reported:
                            reported.add(id(node))
                            yield Finding(node=node, message=message)
                    continue
                response = _picked(context, scope, item)
                if response is None or response in answered_by_loop or response in counted:
                    continue
                if id(item) in reported or not context.carries_calls(scope, response):
                    continue
                reported.add(id(item))
                entry = dict_entry(item, "call_id")
                assert entry is not None
                yield Finding(node=entry.value, message=_ONE.format(response=response))


def _call_owner(item: cst.Dict) -> cst.BaseExpression | None:
    """``X`` of the item's ``"call_id": X.call_id`` (or ``X["call_id"]``)."""
    entry = dict_entry(item, "call_id")
    return key_read(entry.value, "call_id") if entry is not None else None


def _looped(
    context: ResponsesFile, scope: Scope, item: cst.Dict
) -> tuple[str | None, cst.For | None]:
    """``(response, loop)`` when the item answers the loop or comprehension variable
    over a response's calls (``loop`` is the ``for`` statement, ``None`` for a
    comprehension)."""
    owner = _call_owner(item)
    if not isinstance(owner, cst.Name) or not context.is_output_item(scope, owner, item):
        return None, None
    index = context.module.index
    at = index.span(item)[0]
    for found in collect(scope.node, cst.For, cst.ListComp, cst.GeneratorExp):
        if isinstance(found, cst.For):
            if isinstance(found.target, cst.Name) and found.target.value == owner.value:
                start, end = index.span(found.body)
                if start <= at < end:
                    return context.items_response(scope, found.iter), found
            continue
        assert isinstance(found, (cst.ListComp, cst.GeneratorExp))
        start, end = index.span(found.elt)
        clause = found.for_in
        target = clause.target
        if start <= at < end and isinstance(target, cst.Name) and target.value == owner.value:
            return context.items_response(scope, clause.iter), None
    return None, None


def _picked(context: ResponsesFile, scope: Scope, item: cst.Dict) -> str | None:
    """The response one of whose calls the item answers by a fixed pick:
    ``r.output[0]`` (or of a derived list), a name bound once to one, ``next(...)`` of
    the calls, or the result of a search loop that stops at the first."""
    owner = _call_owner(item)
    if owner is None:
        return None
    if isinstance(owner, cst.Name):
        name = owner.value
        picked = search_pick(scope, name, item)
        if picked is not None:
            return context.items_response(scope, picked[0].iter)
        value = scope.value_of(name)
        if value is None:
            return None
        owner = value
    if isinstance(owner, cst.Subscript) and integer_index(owner):
        return context.items_response(scope, owner.value)
    iterated = next_pick(context.module, owner)
    return context.items_response(scope, iterated) if iterated is not None else None


def _loop_mistakes(
    context: ResponsesFile, scope: Scope, loop: cst.For, item: cst.Dict, response: str
) -> Iterator[tuple[cst.CSTNode, str]]:
    """The ``break``/``return`` that ends the loop right after the first answer, and the
    requests inside the loop that carry the answer (or chain the response) before the
    other calls are answered."""
    index = context.module.index
    at = index.span(item)[0]
    sent: list[cst.Call] = []
    for call in collect(loop.body, cst.Call):
        assert isinstance(call, cst.Call)
        if not is_request(call) or index.span(call)[1] <= at:
            continue
        carried = any(value is item for value in context.input_items(scope, call))
        if carried or chains(call, response):
            sent.append(call)
            yield (
                call,
                "A request is sent inside the loop that answers the function calls, before "
                "all of them are answered: HTTP 400 when the model makes two calls; send it "
                "after the loop",
            )
    for body in collect(loop.body, cst.IndentedBlock):
        assert isinstance(body, cst.IndentedBlock)
        statements = list(body.body)
        holder = next(
            (i for i, s in enumerate(statements) if _holds(index, s, at)),
            None,
        )
        if holder is None:
            continue
        for statement in statements[holder + 1 :]:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.Return) and any(
                    _holds(index, small, index.span(r)[0]) for r in sent
                ):
                    continue  # ``return client.responses.create(...)``: the request is reported
                if isinstance(small, cst.Return) or (
                    isinstance(small, cst.Break) and _innermost(scope, index, small) is loop
                ):
                    yield (
                        small,
                        "The loop over the function calls ends after answering the first: the "
                        "others stay unanswered (HTTP 400 when the model makes two calls)",
                    )


def _holds(index: TreeIndex, statement: cst.CSTNode, at: int) -> bool:
    start, end = index.span(statement)
    return start <= at < end


def _innermost(scope: Scope, index: TreeIndex, node: cst.CSTNode) -> cst.CSTNode | None:
    at = index.span(node)[0]
    loops = [
        loop
        for loop in collect(scope.node, cst.For, cst.While)
        if index.span(loop)[0] <= at < index.span(loop)[1]
    ]
    return max(loops, key=lambda n: index.span(n)[0]) if loops else None
