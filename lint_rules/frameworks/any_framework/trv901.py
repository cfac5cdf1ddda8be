"""TRV901 tool-returns-exception."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.bindings import mentions
from lint_rules.analysis.shapes import Kind, Shape, returned_values
from lint_rules.analysis.walk import find_indexed
from lint_rules.config import Settings
from lint_rules.frameworks.any_framework.consequences import exception_consequence, title
from lint_rules.frameworks.tool_function import ToolFunction
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule


class ToolReturnsException(Rule):
    """
    ## What it does
    Checks for tool functions that *return* an exception instance instead of
    raising it: `return ValueError("no such order")`, `return ToolError(...)`,
    `return ModelRetry(...)`, or a variable certainly bound to one.

    A tool function is what a framework family of toolret recognises as one:
    a PolyAI function, a browser-use action, an Agents SDK `@function_tool`, a
    function of a Chat Completions loop's registry, an Anthropic `@beta_tool`.
    An exception instance is a
    call of a builtin exception class (not shadowed), of a class of the same
    file that derives from one (through same-file bases), or of a framework's
    exception imported from it (`mcp`'s and `fastmcp`'s `ToolError`,
    Pydantic AI's `ModelRetry`, LangChain's `ToolException`, the Agents SDK's
    `UserError`, …).

    ## Why is this bad?
    A returned exception is just a value. No framework raises it for you:
    - PolyAI: Agent Studio accepts only a `str` or a `dict`; the turn fails.
    - browser-use: the registry raises `Invalid action result type` *after*
      the action's side effects ran.
    - Agents SDK: the tool's result is `str()` of the exception, delivered to
      the model as a success.
    - Chat Completions loops: the model reads the exception's repr as a
      result, or `json.dumps` raises in the loop.
    - Anthropic tool runner: 2.x sends an `is_error` result that says
      `TypeError("'ValueError' object is not iterable")` instead of the
      message; 0.x raises `TypeError: Object of type ValueError is not JSON
      serializable` (both verified with a mocked transport).
    - MCP: a success (`isError: false`) with the error text as content;
      Pydantic AI: the whole run aborts with a serialisation error.

    A helper that returns an exception for its caller to raise is fine: only
    the values a *tool* returns are checked.

    ## Fix safety
    The fix turns `return X(...)` into `raise X(...)`. It is unsafe: the tool
    now raises, which is what an error should do, but the caller sees an
    exception where it saw a value (the framework's error handling takes
    over, a `try` around the call may now catch it). It is offered only where
    the return statement's value is the exception call itself.
    """

    code = "TRV901"
    name = "tool-returns-exception"
    severity = Severity.ERROR
    framework = "any_framework"
    fix_applicability = Applicability.UNSAFE
    message = "A tool function returns an exception instance instead of raising it"

    invalid = (
        Example(
            title="an Agents SDK tool",
            code="""\
from agents import function_tool


@function_tool
def cancel_order(order_id: str) -> str:
    if not order_id.isdigit():
        return ValueError(f"bad order id {order_id!r}")
    return f"order {order_id} cancelled"
""",
            fixed="""\
from agents import function_tool


@function_tool
def cancel_order(order_id: str) -> str:
    if not order_id.isdigit():
        raise ValueError(f"bad order id {order_id!r}")
    return f"order {order_id} cancelled"
""",
        ),
        Example(
            title="a same-file exception class, bound to a variable first",
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


class LoginFailed(RuntimeError):
    pass


@tools.action("Log in to the shop")
async def log_in(user: str) -> ActionResult:
    error = LoginFailed(f"cannot log in as {user}")
    return error
""",
        ),
        Example(
            title="the caught exception, returned from its handler",
            code="""\
import json

from openai import OpenAI

client = OpenAI()


def get_order(order_id: str):
    try:
        with open(f"orders/{order_id}.json") as file:
            return json.load(file)
    except FileNotFoundError as error:
        return error


REGISTRY = {"get_order": get_order}


def answer(messages: list) -> None:
    response = client.chat.completions.create(model="gpt-4o", messages=messages)
    for call in response.choices[0].message.tool_calls:
        result = REGISTRY[call.function.name](**json.loads(call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
""",
        ),
    )
    valid = (
        Example(
            title="raised, not returned",
            code="""\
from agents import function_tool


@function_tool
def cancel_order(order_id: str) -> str:
    if not order_id.isdigit():
        raise ValueError(f"bad order id {order_id!r}")
    return f"order {order_id} cancelled"
""",
        ),
        Example(
            title="a helper that returns an exception for the tool to raise",
            code="""\
from agents import function_tool


def bad_id(order_id: str) -> ValueError:
    return ValueError(f"bad order id {order_id!r}")


@function_tool
def cancel_order(order_id: str) -> str:
    if not order_id.isdigit():
        raise bad_id(order_id)
    return f"order {order_id} cancelled"
""",
        ),
        Example(
            title="a class of the project's own that happens to be called Error",
            code="""\
from agents import function_tool
from .models import Error


@function_tool
def check(order_id: str) -> str:
    return str(Error(order_id))
""",
        ),
    )

    def check(self, context: ToolFunction, settings: Settings) -> Iterator[Finding]:
        handlers = _handlers(context)
        for site in context.flow.sites:
            returned = site.value
            if returned is None or site.statement is None:
                continue
            for value in returned_values(returned):
                shape = context.inference.infer(value)
                if shape.kind is not Kind.EXCEPTION:
                    caught = _caught(context, handlers, site.statement, value)
                    if caught is None:
                        continue
                    shape = caught
                fix = None
                if value is returned and isinstance(value, cst.Call) and shape.call is value:
                    code = context.module.code_for(value)
                    fix = FixSpec(
                        title="Raise the exception instead of returning it",
                        applicability=Applicability.UNSAFE,
                        edits=(EditSpec(site.statement, f"raise {code}"),),
                    )
                yield Finding(
                    node=value,
                    message=(
                        f"{title(context.framework)} `{context.name}` returns "
                        f"{_described(shape)} instead of raising it: "
                        f"{exception_consequence(context.framework)}; `raise` it"
                    ),
                    fix=fix,
                )


def _described(shape: Shape) -> str:
    """``an `Exception```, ``a `ValueError```, or the caught exception of unknown class."""
    name = shape.type_name
    if not name:
        return "the exception it caught"
    return f"an `{name}`" if name[0].lower() in "aeiou" else f"a `{name}`"


def _handlers(context: ToolFunction) -> list[cst.ExceptHandler]:
    """The tool's own ``except ... as name:`` handlers (not those of nested functions)."""
    return [
        handler
        for handler in find_indexed(context.node, cst.ExceptHandler, nested=False)
        if isinstance(handler, cst.ExceptHandler)
        and handler.name is not None
        and isinstance(handler.name.name, cst.Name)
    ]


def _caught(
    context: ToolFunction,
    handlers: list[cst.ExceptHandler],
    statement: cst.Return,
    value: cst.BaseExpression,
) -> Shape | None:
    """``except LookupError as error: ... return error``: the caught exception, returned
    from a statement of the handler's own body that nothing before it in that body can
    have rebound (a store to the name, a ``del``, a nested ``try``)."""
    if not isinstance(value, cst.Name):
        return None
    index = context.module.index
    at, _ = index.span(statement)
    for handler in handlers:
        assert handler.name is not None and isinstance(handler.name.name, cst.Name)
        name = handler.name.name.value
        start, end = index.span(handler.body)
        if value.value != name or not start <= at < end:
            continue
        if not isinstance(handler.body, cst.IndentedBlock):
            return None
        for line in handler.body.body:
            if isinstance(line, cst.SimpleStatementLine) and statement in line.body:
                return Shape(Kind.EXCEPTION, type_name=_caught_type(handler))
            if _may_rebind(line, name):
                return None
        return None
    return None


def _may_rebind(statement: cst.BaseStatement, name: str) -> bool:
    """Whether ``statement`` can bind or delete ``name`` (a mention in a store position,
    or any compound statement: a branch or loop may rebind it)."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return True
    for small in statement.body:
        targets: list[cst.CSTNode] = []
        if isinstance(small, cst.Assign):
            targets = [t.target for t in small.targets]
        elif isinstance(small, (cst.AugAssign, cst.AnnAssign, cst.Del)):
            targets = [small.target]
        elif isinstance(small, (cst.Import, cst.ImportFrom, cst.Global, cst.Nonlocal)):
            return True
        if any(mentions(target, {name}) for target in targets):
            return True
        if any(
            isinstance(n, cst.NamedExpr) and mentions(n.target, {name})
            for n in find_indexed(small, cst.NamedExpr)
        ):
            return True
    return False


def _caught_type(handler: cst.ExceptHandler) -> str | None:
    """``LookupError`` of ``except LookupError as e`` (a bare name or dotted name only)."""
    kind = handler.type
    if isinstance(kind, cst.Name):
        return kind.value
    if isinstance(kind, cst.Attribute):
        return kind.attr.value
    return None
