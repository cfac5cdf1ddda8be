"""TRG003 genai-function-response-without-call-turn."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.google_genai._examples import HEAD
from lint_rules.frameworks.google_genai.recognition import GenaiFile, is_request
from lint_rules.frameworks.google_genai.trg002 import answered_response
from lint_rules.frameworks.tool_loops import (
    Scope,
    collect,
    in_one_loop,
    keyword,
    lists_holding,
    sent_values,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class GenaiFunctionResponseWithoutCallTurn(Rule):
    """
    ## What it does
    Checks for function responses to a Gemini response's calls that are added
    to the `contents` of the next request while the model's turn holding the
    calls (`response.candidates[0].content`) is added nowhere: the function
    answers `response.function_calls`, appends a user turn of
    `Part.from_function_response(...)` parts to a list, and sends that list,
    but nothing of the response other than its calls ever reaches a list.

    ## Why is this bad?
    A function response turn must come right after the model turn that made
    the calls. Without it the request is rejected: HTTP 400 "Please ensure
    that function response turn comes immediately after a function call
    turn". The SDK sends the contents as they are.

    Not reported when the model turn *may* be added: anything read from the
    response other than `function_calls` and `text` (`response.candidates`,
    the response itself) added to a list, handed to a function or stored; a
    `Content(role="model", ...)` or `{"role": "model"}` turn in the
    function; the list handed to another function (a helper may add the
    turn); a chat session (`chat.send_message(...)` keeps the history); or
    the response bound more than once (a loop may add it on another turn).

    ## References
    - [Gemini API: function calling](https://ai.google.dev/gemini-api/docs/function-calling)
    """

    code = "TRG003"
    name = "genai-function-response-without-call-turn"
    severity = Severity.ERROR
    framework = "google_genai"
    message = "Function responses are sent without the model turn that made the calls"

    invalid = (
        Example(
            title="the responses appended, the model's turn forgotten",
            code=HEAD
            + """\
def run(question, config):
    contents = [types.Content(role="user", parts=[types.Part.from_text(text=question)])]
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents=contents, config=config
    )
    parts = [
        types.Part.from_function_response(name=c.name, response={"result": get_weather(**c.args)})
        for c in response.function_calls
    ]
    contents.append(types.Content(role="user", parts=parts))
    return client.models.generate_content(
        model="gemini-2.5-flash", contents=contents, config=config
    )
""",
        ),
        Example(
            title="one call answered in a loop, the turn never added",
            code=HEAD
            + """\
async def run(contents, config):
    response = await client.aio.models.generate_content(
        model="gemini-2.5-flash", contents=contents, config=config
    )
    for call in response.function_calls or []:
        result = get_weather(**call.args)
        part = types.Part.from_function_response(name=call.name, response={"result": result})
        contents.append(types.Content(role="user", parts=[part]))
    return await client.aio.models.generate_content(
        model="gemini-2.5-flash", contents=contents, config=config
    )
""",
        ),
    )
    valid = (
        Example(
            title="the model's turn first",
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
            title="a rebuilt model turn",
            code=HEAD
            + """\
def run(contents, config):
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents=contents, config=config
    )
    calls = [types.Part(function_call=c) for c in response.function_calls]
    contents.append(types.Content(role="model", parts=calls))
    parts = [
        types.Part.from_function_response(name=c.name, response={"ok": True})
        for c in response.function_calls
    ]
    contents.append(types.Content(role="user", parts=parts))
    return client.models.generate_content(model="gemini-2.5-flash", contents=contents)
""",
        ),
        Example(
            title="a helper keeps the history",
            code=HEAD
            + """\
def run(history, config):
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents=history.contents, config=config
    )
    history.record(response)
    parts = [
        types.Part.from_function_response(name=c.name, response={"ok": True})
        for c in response.function_calls
    ]
    history.contents.append(types.Content(role="user", parts=parts))
    return client.models.generate_content(model="gemini-2.5-flash", contents=history.contents)
""",
        ),
        Example(
            title="a chat session keeps the model's turn",
            code=HEAD
            + """\
def ask(chat, question):
    response = chat.send_message(question)
    parts = [
        types.Part.from_function_response(name=c.name, response={"ok": True})
        for c in response.function_calls
    ]
    return chat.send_message(parts)
""",
        ),
    )

    def check(self, context: GenaiFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        reported: set[int] = set()
        for scope, answer in context.calls_of("Part.from_function_response", "FunctionResponse"):
            response = answered_response(context, scope, answer)
            if response is None or len(scope.assignments.get(response, [])) != 1:
                continue
            if _turn_may_be_added(context, scope, response):
                continue
            for listed, turn in _sent_user_turns(context, scope, answer):
                if id(turn) in reported:
                    continue
                reported.add(id(turn))
                yield Finding(
                    node=turn,
                    message=(
                        f"Function responses to `{response}`'s calls are sent, but its model "
                        f'turn is added nowhere before them: HTTP 400 ("…function response '
                        'turn comes immediately after a function call turn"); append '
                        f"`{response}.candidates[0].content` to `{listed}` first"
                    ),
                )


def _turn_may_be_added(context: GenaiFile, scope: Scope, response: str) -> bool:
    """Anything of the response besides its calls and text is read, or a model turn is
    written in the scope, or the request was a chat's."""
    for value in scope.assignments.get(response, []):
        if isinstance(value, cst.Await):
            value = value.expression
        if not (isinstance(value, cst.Call) and is_request(value)):
            return True
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value.startswith("send_message"):
            return True
    for node in collect(scope.node, cst.Name):
        assert isinstance(node, cst.Name)
        if node.value != response:
            continue
        read = _read_of(context, scope, node)
        if read not in ("function_calls", "text", "binding", "keyword", "attribute name"):
            return True
    for scope_call in collect(scope.node, cst.Call):
        assert isinstance(scope_call, cst.Call)
        if context.sdk_name(scope_call.func) == "Content":
            role = keyword(scope_call, "role")
            if (
                role is None
                or not isinstance(role.value, cst.SimpleString)
                or (role.value.evaluated_value != "user")
            ):
                return True
    for node in collect(scope.node, cst.Dict):
        assert isinstance(node, cst.Dict)
        for element in node.elements:
            if (
                isinstance(element, cst.DictElement)
                and isinstance(element.key, cst.SimpleString)
                and element.key.evaluated_value == "role"
                and not (
                    isinstance(element.value, cst.SimpleString)
                    and element.value.evaluated_value == "user"
                )
            ):
                return True
    return False


def _read_of(context: GenaiFile, scope: Scope, name: cst.Name) -> str:
    """What a use of the response's name reads: ``function_calls``, ``text``, the
    ``binding`` itself (an assignment target), or anything else."""
    for node in collect(scope.node, cst.Attribute, cst.Arg, cst.Param):
        if isinstance(node, cst.Attribute):
            if node.value is name:
                return node.attr.value
            if node.attr is name:
                return "attribute name"
        elif isinstance(node, cst.Arg) and node.keyword is name:
            return "keyword"
        elif isinstance(node, cst.Param) and node.name is name:
            return "parameter"
    for binder in collect(scope.node, cst.Assign, cst.AugAssign, cst.AnnAssign):
        targets: list[cst.BaseExpression]
        if isinstance(binder, cst.Assign):
            targets = [t.target for t in binder.targets]
        else:
            assert isinstance(binder, (cst.AugAssign, cst.AnnAssign))
            targets = [binder.target]
        if any(t is name for t in targets):
            return "binding"
    return "other"


def _sent_user_turns(
    context: GenaiFile, scope: Scope, answer: cst.Call
) -> Iterator[tuple[str, cst.Call]]:
    """The ``Content(role="user", parts=...)`` turns holding the answer (directly, or
    through a parts list it is appended to or written in) that are appended to a list
    of the scope which a later request sends as ``contents=``, and which no other
    function receives."""
    index = context.module.index
    answer_at = index.span(answer)[0]
    holders = lists_holding(scope, answer)
    for node in collect(scope.node, cst.Call):
        assert isinstance(node, cst.Call)
        func = node.func
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
            continue
        for value in sent_values(node):
            if not (isinstance(value, cst.Call) and context.sdk_name(value.func) == "Content"):
                continue
            parts = keyword(value, "parts")
            if parts is None:
                continue
            start, end = index.span(parts.value)
            named = [parts.value]
            if isinstance(parts.value, (cst.List, cst.Tuple)):
                named = [e.value for e in parts.value.elements if isinstance(e, cst.Element)]
            holds = start <= answer_at < end or any(
                isinstance(n, cst.Name) and n.value in holders for n in named
            )
            if holds and _sent_later(context, scope, func.value.value, node):
                yield func.value.value, value


def _sent_later(context: GenaiFile, scope: Scope, listed: str, change: cst.Call) -> bool:
    """A request after ``change`` (or in a loop holding both) sends ``listed`` as its
    ``contents=``, and the list is handed to no other call of the scope."""
    index = context.module.index
    where = index.span(change)[0]
    sent = False
    for node in collect(scope.node, cst.Call):
        assert isinstance(node, cst.Call)
        for arg in node.args:
            if isinstance(arg.value, cst.Name) and arg.value.value == listed:
                if not (
                    is_request(node) and arg.keyword is not None and arg.keyword.value == "contents"
                ):
                    return False  # a helper, a history object: it may add the turn
                if index.span(node)[0] > where or in_one_loop(scope, node, change):
                    sent = True
    return sent
