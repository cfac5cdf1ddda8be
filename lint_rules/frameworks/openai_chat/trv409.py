"""TRV409 chat-tool-call-left-unanswered."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import (
    ChatFile,
    ToolCallsLoop,
    collect,
    dict_entry,
    string_value,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatToolCallLeftUnanswered(Rule):
    """
    ## What it does
    Checks, in a loop over `tool_calls` that builds tool messages (an *answer
    loop*), for an unconditional `return` or `break` in the loop body, and for
    a `continue` that skips an iteration before its tool message is built: at
    the end of an `if`, `elif` or `else` branch (the `else:` of an `if`/`elif`
    dispatch on the tool name), or of an `except` handler (`except
    json.JSONDecodeError: continue`) whose `try` could not have answered the
    call yet. A branch that answers the call first (appends an error tool
    message, then `continue`s) skips nothing.
    Answer loops are found in every function and in the module body, and by
    what they do rather than how the iterable is spelled: a loop over
    `message.tool_calls` or a local alias of it, and also a loop over a
    parameter or any other name (`def execute_tool_calls(tool_calls): for
    call in tool_calls: ...`) whose tool messages answer the loop variable's
    `.id`. A loop through the builtin `enumerate` (`for i, call in
    enumerate(message.tool_calls)`) counts the same, with `call` as its loop
    variable. A helper's loop is judged in the helper.

    A `continue` guarded by a type test of the call is not reported when the
    module's tools make the test always false: `if not isinstance(call,
    ChatCompletionMessageFunctionToolCall): continue` (the class resolved
    through imports to openai's), `if call.type != "function": continue`, `if
    call.type == "custom": continue`, or the `else:` of `if isinstance(call,
    ChatCompletionMessageFunctionToolCall)`, as long as every `tools=` schema
    is a function tool or the module writes no custom tool (`{"type":
    "custom", "custom": {...}}`). With a custom tool the guard does skip a
    call and is reported. A type test that cannot be read (`isinstance`
    against another class, `.type` of something else) is not judged.

    ## Why is this bad?
    A `return answers` indented one level too deep ends the loop after the
    first call; a `continue` for an unknown tool name leaves that call without
    an answer. Either way the next request carries an assistant message whose
    calls are not all answered: HTTP 400 "An assistant message with
    'tool_calls' must be followed by tool messages responding to each
    'tool_call_id'". The same holds for a call whose arguments fail to parse
    and is skipped in an `except` handler. Answer every call — with an error
    message for an unknown tool or bad arguments — and return after the loop.
    Loops that only search the calls are not answer loops and are not checked.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRV409"
    name = "chat-tool-call-left-unanswered"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "A tool call is left unanswered by the answer loop"

    invalid = (
        Example(
            title="`return` indented into the loop",
            code=HEAD
            + """\
def answer_calls(message):
    answers = []
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        answers.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
        return answers
""",
        ),
        Example(
            title="an unknown tool skipped",
            code=HEAD
            + """\
available = {"get_weather": get_weather}


def answer_calls(messages, message):
    messages.append(message)
    for tool_call in message.tool_calls:
        function = available.get(tool_call.function.name)
        if function is None:
            continue
        result = function(**json.loads(tool_call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
""",
        ),
        Example(
            title="a call whose arguments do not parse skipped",
            code=HEAD
            + """\
def answer_calls(messages, message):
    messages.append(message)
    for tool_call in message.tool_calls:
        try:
            args = json.loads(tool_call.function.arguments)
        except json.JSONDecodeError:
            continue
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
""",
        ),
        Example(
            title="a helper's loop over the `tool_calls` it is given",
            code=HEAD
            + """\
def execute_tool_calls(tool_calls, messages):
    for tool_call in tool_calls:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
        return messages


def chat(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    return execute_tool_calls(message.tool_calls, messages)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def answer_calls(message):
    answers = []
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        answers.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
    return answers
""",
        ),
        Example(
            title="an unknown tool answered with an error",
            code=HEAD
            + """\
available = {"get_weather": get_weather}


def answer_calls(messages, message):
    for tool_call in message.tool_calls:
        function = available.get(tool_call.function.name)
        if function is None:
            messages.append(
                {"role": "tool", "tool_call_id": tool_call.id, "content": "unknown tool"}
            )
            continue
        result = function(**json.loads(tool_call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
""",
        ),
        Example(
            title="bad arguments answered with an error",
            code=HEAD
            + """\
def answer_calls(messages, message):
    for tool_call in message.tool_calls:
        try:
            args = json.loads(tool_call.function.arguments)
        except json.JSONDecodeError as error:
            messages.append(
                {"role": "tool", "tool_call_id": tool_call.id, "content": f"bad arguments: {error}"}
            )
            continue
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
""",
        ),
        Example(
            title="a type guard that skips nothing: every tool is a function tool",
            code=HEAD.replace(
                "from openai import OpenAI\n",
                "from openai import OpenAI\n"
                "from openai.types.chat import ChatCompletionMessageFunctionToolCall\n",
            )
            + """\
def answer_calls(messages, message):
    for tool_call in message.tool_calls:
        if not isinstance(tool_call, ChatCompletionMessageFunctionToolCall):
            continue
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
""",
        ),
        Example(
            title="a loop that only searches the calls",
            code=HEAD
            + """\
def find_weather_call(message):
    for tool_call in message.tool_calls:
        if tool_call.function.name == "get_weather":
            return tool_call
    return None
""",
        ),
        Example(
            title="a helper that answers the one call it is asked about",
            code=HEAD
            + """\
def answer_for(tool_calls, call_id, result):
    for tool_call in tool_calls:
        if tool_call.id == call_id:
            return {"role": "tool", "tool_call_id": tool_call.id, "content": result}
    return None
""",
        ),
        Example(
            title="a script's conversation loop: the `break` ends the `while`, not the answers",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "What's the weather in Paris and in Rome?"}]
while True:
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    if not message.tool_calls:
        break
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
print(messages[-1].content)
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.checks(self.code, settings):
            return
        for loop in context.loops:
            if not loop.is_answer_loop:
                continue
            for finding in _check_loop(loop, _TypeTests(context, loop.variable)):
                yield replace(finding, message=context.contract.say(finding.message))


_ANSWERING_METHODS = frozenset({"append", "extend", "insert", "put", "put_nowait", "add"})
_FUNCTION_CALL = "ChatCompletionMessageFunctionToolCall"
_CUSTOM_CALL = "ChatCompletionMessageCustomToolCall"


def _check_loop(loop: ToolCallsLoop, types: _TypeTests) -> Iterator[Finding]:
    body = loop.node.body
    if not isinstance(body, cst.IndentedBlock):
        return
    answered = False
    for stmt in body.body:
        if not answered:
            for skip, handler in _skipping_continues(stmt, loop, types):
                where = "`continue` in the `except` handler" if handler else "`continue`"
                yield Finding(
                    node=skip,
                    message=(
                        f"{where} skips this tool call before its tool message is built: "
                        "the call is left unanswered (HTTP 400); answer it with an error "
                        "message instead"
                    ),
                )
        if any(m in collect(stmt, cst.Dict) for m in loop.tool_messages):
            answered = True
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Return, cst.Break)):
                    word = "return" if isinstance(small, cst.Return) else "break"
                    yield Finding(
                        node=small,
                        message=(
                            f"`{word}` in the body of the loop that answers `tool_calls` ends it "
                            "after the first call: the others are left unanswered (HTTP 400); "
                            "move it after the loop"
                        ),
                    )


def _skipping_continues(
    stmt: cst.BaseStatement, loop: ToolCallsLoop, types: _TypeTests
) -> Iterator[tuple[cst.Continue, bool]]:
    """The ``continue`` statements that end a branch of ``stmt`` — an ``if``/``elif``/
    ``else`` branch or an ``except`` handler, also nested in one another — with nothing
    in the branch that could answer the call; ``True`` with those of a handler.

    A branch that runs only for calls the module's tools cannot make (a type guard, see
    ``_TypeTests``) skips nothing. A handler counts when nothing in its ``try`` body
    could have answered the call before the exception (only its last statement may
    build the answer)."""
    if isinstance(stmt, cst.If):
        preceding: list[cst.BaseExpression] = []
        node: cst.If | cst.Else | None = stmt
        while node is not None:
            if isinstance(node, cst.If):
                branch = _Branch(node.body, node.test, tuple(preceding))
                preceding.append(node.test)
                node = node.orelse
            else:
                branch = _Branch(node.body, None, tuple(preceding))
                node = None
            if types.skips_nothing(branch):
                continue
            yield from _skips_in(branch.block, loop, types, handler=False)
    elif isinstance(stmt, (cst.Try, cst.TryStar)):
        tried = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ()
        if any(_may_answer(s, loop, given="call") for s in tried[:-1]):
            return
        for handler in stmt.handlers:
            yield from _skips_in(handler.body, loop, types, handler=True)


def _skips_in(
    block: cst.BaseSuite, loop: ToolCallsLoop, types: _TypeTests, *, handler: bool
) -> Iterator[tuple[cst.Continue, bool]]:
    if not isinstance(block, cst.IndentedBlock) or not block.body or _may_answer(block, loop):
        return
    last = block.body[-1]
    if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Continue):
        yield last.body[-1], handler
        return
    for stmt in block.body:
        for skip, _ in _skipping_continues(stmt, loop, types):
            yield skip, handler


def _may_answer(node: cst.CSTNode, loop: ToolCallsLoop, given: str = "any") -> bool:
    """Whether anything in ``node`` could answer the call: an append-like call, a call
    given the loop variable (a helper that answers it), a dict display, a ``yield``.
    ``given="any"``: an argument that reads the loop variable anyhow counts
    (``log(call.function.name)``); ``"call"``: only the call or its ``.id`` does
    (``json.loads(call.function.arguments)`` answers nothing)."""
    for call in collect(node, cst.Call):
        assert isinstance(call, cst.Call)
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in _ANSWERING_METHODS:
            return True
        if loop.variable is not None and any(
            _is_variable(value, loop.variable)
            for arg in call.args
            for value in (
                collect(arg.value, cst.Name) if given == "any" else _call_or_id(arg.value)
            )
        ):
            return True
    return bool(collect(node, cst.Yield, cst.Dict))


@dataclass(frozen=True)
class _Branch:
    """One branch of an ``if`` chain: its block, its own test (``None`` for ``else``)
    and the tests of the branches before it (all false where the block runs)."""

    block: cst.BaseSuite
    test: cst.BaseExpression | None
    preceding: tuple[cst.BaseExpression, ...]


class _TypeTests:
    """Type tests of the loop variable — ``isinstance(call, <openai class>)``,
    ``call.type == "function"`` (``call["type"]``) and their negations — and whether
    the module's tools make the non-function calls they let a branch skip impossible."""

    def __init__(self, context: ChatFile, variable: str | None) -> None:
        self.context = context
        self.variable = variable

    def skips_nothing(self, branch: _Branch) -> bool:
        """Whether the branch runs for no call the module's tools can make, or depends on
        a type test of the call that cannot be told (not judged)."""
        own = [branch.test] if branch.test is not None else []
        guarded = any(self.only_other(t) for t in own) or any(
            self.covers_function(t) for t in branch.preceding
        )
        if guarded:
            return self.only_function_tools
        return any(self.uncertain(t) for t in (*own, *branch.preceding))

    @cached_property
    def only_function_tools(self) -> bool:
        """Every tool is a function tool: every ``tools=`` schema is a function schema,
        or no custom tool (``{"type": "custom", ...}``) is written in the module."""
        if self.context.schemas is not None:
            return True
        return not any(
            isinstance(d, cst.Dict) and _is_custom_tool(d)
            for d in collect(self.context.module.tree, cst.Dict, nested=True)
        )

    def only_other(self, test: cst.BaseExpression) -> bool:
        """``test`` holds only for calls that are not function calls."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self.covers_function(test.expression)
        if isinstance(test, cst.BooleanOperation):
            left, right = self.only_other(test.left), self.only_other(test.right)
            return left or right if isinstance(test.operator, cst.And) else left and right
        kind = self._kind(test)
        return kind is not None and (kind[0] == "function") == kind[1]

    def covers_function(self, test: cst.BaseExpression) -> bool:
        """``test`` holds for every function call."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self.only_other(test.expression)
        if isinstance(test, cst.BooleanOperation):
            left, right = self.covers_function(test.left), self.covers_function(test.right)
            return left or right if isinstance(test.operator, cst.Or) else left and right
        kind = self._kind(test)
        return kind is not None and (kind[0] == "function") != kind[1]

    def _kind(self, test: cst.BaseExpression) -> tuple[str, bool] | None:
        """``(type, negated)`` of ``call.type == "<type>"`` (``!=``: negated) and of
        ``isinstance(call, <openai function or custom tool-call class>)``."""
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            target = test.comparisons[0]
            if not isinstance(target.operator, (cst.Equal, cst.NotEqual)):
                return None
            negated = isinstance(target.operator, cst.NotEqual)
            for subject, value in ((test.left, target.comparator), (target.comparator, test.left)):
                if self._is_type_of_call(subject):
                    kind = string_value(value)
                    return (kind, negated) if kind is not None else None
            return None
        if isinstance(test, cst.Call) and self._is_isinstance_of_call(test):
            qualified = self.context.module.qualified_name(test.args[1].value) or ""
            if qualified.startswith("openai."):
                if qualified.endswith("." + _FUNCTION_CALL):
                    return "function", False
                if qualified.endswith("." + _CUSTOM_CALL):
                    return "custom", False
        return None

    def uncertain(self, test: cst.CSTNode) -> bool:
        """A type test of the call that is not read: ``isinstance`` against a class that
        is not openai's function or custom tool call, ``type(call)``, a ``.type`` that is
        not ``call.type`` compared with a string."""
        if isinstance(test, cst.BaseExpression) and self._kind(test) is not None:
            return False
        if isinstance(test, cst.Call) and (
            self._is_isinstance_of_call(test)
            or (
                self.context.module.is_builtin(test.func, "type")
                and any(self._is_call(a.value) for a in test.args)
            )
        ):
            return True
        if isinstance(test, cst.Attribute) and test.attr.value == "type":
            return True
        return any(self.uncertain(child) for child in test.children)

    def _is_call(self, node: cst.BaseExpression) -> bool:
        """``node`` is the loop variable (the tool call)."""
        return (
            self.variable is not None and isinstance(node, cst.Name) and node.value == self.variable
        )

    def _is_type_of_call(self, node: cst.BaseExpression) -> bool:
        """``call.type``, or ``call["type"]`` of a call read as a dict."""
        if isinstance(node, cst.Attribute):
            return node.attr.value == "type" and self._is_call(node.value)
        return (
            isinstance(node, cst.Subscript)
            and len(node.slice) == 1
            and isinstance(node.slice[0].slice, cst.Index)
            and string_value(node.slice[0].slice.value) == "type"
            and self._is_call(node.value)
        )

    def _is_isinstance_of_call(self, call: cst.Call) -> bool:
        return (
            self.context.module.is_builtin(call.func, "isinstance")
            and len(call.args) == 2
            and all(a.keyword is None and not a.star for a in call.args)
            and self._is_call(call.args[0].value)
        )


def _is_variable(node: cst.CSTNode, variable: str) -> bool:
    return isinstance(node, cst.Name) and node.value == variable


def _call_or_id(node: cst.BaseExpression) -> tuple[cst.BaseExpression, ...]:
    """``node`` itself, and the owner of ``node.id``."""
    if isinstance(node, cst.Attribute) and node.attr.value == "id":
        return node, node.value
    return (node,)


def _is_custom_tool(node: cst.Dict) -> bool:
    """``{"type": "custom", "custom": {...}}``: a custom (free-form text) tool."""
    kind = dict_entry(node, "type")
    return (
        kind is not None
        and string_value(kind.value) == "custom"
        and dict_entry(node, "custom") is not None
    )
