"""TRG002 genai-unanswered-function-call."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.google_genai._examples import HEAD
from lint_rules.frameworks.google_genai.recognition import GenaiFile
from lint_rules.frameworks.tool_loops import (
    Scope,
    collect,
    counted,
    dict_entry,
    integer_index,
    keyword,
    loop_over,
    next_pick,
    search_pick,
    sent_values,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class GenaiUnansweredFunctionCall(Rule):
    """
    ## What it does
    Checks for a Gemini loop that sends the model's whole turn back
    (`contents.append(response.candidates[0].content)`, or a chat session,
    which keeps it) but answers only one of its function calls: the call
    picked by a fixed index (`response.function_calls[0]`), by `next(...)`,
    or by a search loop that `break`s at the first, with no loop of the same
    function answering the others.

    ## Why is this bad?
    Gemini may call several functions in one turn (parallel function
    calling). The turn after it must answer every call, or the request is
    rejected: HTTP 400 "Please ensure that the number of function response
    parts is equal to the number of function call parts of the function call
    turn" — one of the most reported Gemini errors. The SDK sends the turn as
    it is. The Developer API gives calls no `id`, so answers are matched by
    count and position: each call needs its own `Part.from_function_response`.

    Not reported when the calls are counted (`len(response.function_calls)`),
    or when the module sets a `function_calling_config` (it may force one
    function).

    ## References
    - [Gemini API: parallel function calling](https://ai.google.dev/gemini-api/docs/function-calling#parallel_function_calling)
    """

    code = "TRG002"
    name = "genai-unanswered-function-call"
    severity = Severity.ERROR
    framework = "google_genai"
    message = "Only one of a Gemini turn's function calls is answered"

    invalid = (
        Example(
            title="the first call answered, the whole turn sent back",
            code=HEAD
            + """\
def run(contents, config):
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents=contents, config=config
    )
    if response.function_calls:
        call = response.function_calls[0]
        contents.append(response.candidates[0].content)
        part = types.Part.from_function_response(
            name=call.name, response={"result": get_weather(**call.args)}
        )
        contents.append(types.Content(role="user", parts=[part]))
        response = client.models.generate_content(
            model="gemini-2.5-flash", contents=contents, config=config
        )
    return response.text
""",
        ),
        Example(
            title="a chat session keeps the turn; one call is answered",
            code=HEAD
            + """\
def ask(question, config):
    chat = client.chats.create(model="gemini-2.5-flash", config=config)
    response = chat.send_message(question)
    call = next(iter(response.function_calls))
    result = get_weather(**call.args)
    answer = types.Part.from_function_response(name=call.name, response={"result": result})
    return chat.send_message(answer).text
""",
        ),
    )
    valid = (
        Example(
            title="every call answered",
            code=HEAD
            + """\
def run(contents, config):
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents=contents, config=config
    )
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
            title="the number of calls is tested",
            code=HEAD
            + """\
def run(contents, config):
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents=contents, config=config
    )
    calls = response.function_calls or []
    if len(response.function_calls or []) != 1:
        return None
    contents.append(response.candidates[0].content)
    part = types.Part.from_function_response(name=calls[0].name, response={"ok": True})
    contents.append(types.Content(role="user", parts=[part]))
    return client.models.generate_content(model="gemini-2.5-flash", contents=contents)
""",
        ),
        Example(
            title="only the answered call is sent back (a rebuilt turn)",
            code=HEAD
            + """\
def run(contents, config):
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents=contents, config=config
    )
    call = response.function_calls[0]
    contents.append(types.Content(role="model", parts=[types.Part(function_call=call)]))
    part = types.Part.from_function_response(name=call.name, response={"ok": True})
    contents.append(types.Content(role="user", parts=[part]))
    return client.models.generate_content(model="gemini-2.5-flash", contents=contents)
""",
        ),
    )

    def check(self, context: GenaiFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked or _may_force_one(context):
            return
        answers = context.calls_of("Part.from_function_response", "FunctionResponse")
        looped: set[tuple[int, str]] = set()
        for scope, call in answers:
            owner = _owner(call)
            if owner is not None:
                response = _looped_response(context, scope, owner, call)
                if response is not None:
                    looped.add((id(scope), response))
        for scope, call in answers:
            owner = _owner(call)
            if owner is None:
                continue
            response = _picked(context, scope, owner, call)
            if response is None or (id(scope), response) in looped:
                continue
            counts = counted(context.module, scope, partial(_calls_of, context, scope))
            if response in counts or not _carries(context, scope, response):
                continue
            yield Finding(
                node=owner,
                message=(
                    f"Only one function call of `{response}` is answered, but its whole turn "
                    'is sent back: HTTP 400 ("…number of function response parts is equal to '
                    'the number of function call parts…") when the model makes two calls; '
                    "answer every call of `function_calls`"
                ),
            )


def answered_response(context: GenaiFile, scope: Scope, answer: cst.Call) -> str | None:
    """The response whose function call a function response answers (``name=X.name``):
    ``X`` a loop or comprehension variable over its ``function_calls``, or a fixed pick."""
    owner = _owner(answer)
    if owner is None:
        return None
    looped = _looped_response(context, scope, owner, answer)
    return looped if looped is not None else _picked(context, scope, owner, answer)


def _owner(call: cst.Call) -> cst.BaseExpression | None:
    """``X`` of the answer's ``name=X.name``."""
    arg = keyword(call, "name")
    if arg is None:
        return None
    value = arg.value
    if isinstance(value, cst.Attribute) and value.attr.value == "name":
        return value.value
    return None


def _looped_response(
    context: GenaiFile, scope: Scope, owner: cst.BaseExpression, anchor: cst.CSTNode
) -> str | None:
    """The response whose calls a loop or comprehension variable ``owner`` iterates."""
    if not isinstance(owner, cst.Name):
        return None
    iterated = loop_over(scope, owner.value, anchor)
    return _calls_of(context, scope, iterated) if iterated is not None else None


def _calls_of(context: GenaiFile, scope: Scope, node: cst.BaseExpression) -> str | None:
    """The response of ``r.function_calls`` (also ``r.function_calls or []``,
    ``list(...)``, ``iter(...)``, a name bound once to one)."""
    if isinstance(node, cst.BooleanOperation):
        node = node.left
    if isinstance(node, cst.Name):
        value = scope.value_of(node.value)
        node = value if value is not None else node
        if isinstance(node, cst.BooleanOperation):
            node = node.left
    if (
        isinstance(node, cst.Call)
        and len(node.args) == 1
        and any(context.module.is_builtin(node.func, b) for b in ("list", "iter"))
    ):
        node = node.args[0].value
    return context.calls_of_response(scope, node)


def _picked(
    context: GenaiFile, scope: Scope, owner: cst.BaseExpression, anchor: cst.CSTNode
) -> str | None:
    """The response one of whose calls ``owner`` is by a fixed pick."""
    if isinstance(owner, cst.Name):
        picked = search_pick(scope, owner.value, anchor)
        if picked is not None:
            return _calls_of(context, scope, picked[0].iter)
        value = scope.value_of(owner.value)
        if value is None:
            return None
        owner = value
    if isinstance(owner, cst.Subscript) and integer_index(owner):
        return _calls_of(context, scope, owner.value)
    iterated = next_pick(context.module, owner)
    return _calls_of(context, scope, iterated) if iterated is not None else None


def _carries(context: GenaiFile, scope: Scope, response: str) -> bool:
    """The response's whole turn goes back: ``r.candidates[0].content`` is appended,
    inserted, extended or written in a list display, or ``r`` came from a chat whose
    ``send_message`` is called again in the scope (the session keeps the turn)."""
    for node in collect(scope.node, cst.Call, cst.List, cst.AugAssign):
        if isinstance(node, cst.Call):
            values = sent_values(node)
        elif isinstance(node, cst.List):
            values = [e.value for e in node.elements if isinstance(e, cst.Element)]
        else:
            assert isinstance(node, cst.AugAssign)
            values = [node.value]
        if any(context.model_turn_of(scope, v) == response for v in values):
            return True
    chats = set()
    for value in scope.assignments.get(response, []):
        if isinstance(value, cst.Await):
            value = value.expression
        func = value.func if isinstance(value, cst.Call) else None
        if isinstance(func, cst.Attribute) and func.attr.value.startswith("send_message"):
            chats.add(context.module.code_for(func.value).strip())
    if not chats:
        return False
    sends = [
        node
        for node in collect(scope.node, cst.Call)
        if isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value.startswith("send_message")
        and context.module.code_for(node.func.value).strip() in chats
    ]
    return len(sends) > 1


def _may_force_one(context: GenaiFile) -> bool:
    """The module sets a function-calling mode (``tool_config=...function_calling_config``):
    it may force a single function."""
    for node in collect(context.module.tree, cst.Call, cst.Dict, nested=True):
        if isinstance(node, cst.Call) and (
            keyword(node, "function_calling_config") is not None
            or keyword(node, "allowed_function_names") is not None
        ):
            return True
        if isinstance(node, cst.Dict) and (
            dict_entry(node, "function_calling_config") is not None
            or dict_entry(node, "allowed_function_names") is not None
        ):
            return True
    return False
