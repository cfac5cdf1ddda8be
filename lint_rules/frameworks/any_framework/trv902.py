"""TRV902 tool-returns-coroutine."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, Shape, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.any_framework.consequences import coroutine_consequence, title
from lint_rules.frameworks.tool_function import ToolFunction
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule


class ToolReturnsCoroutine(Rule):
    """
    ## What it does
    Checks for tool functions that return a call of an `async def` of the
    same file (or an `async` method of the same class, through `self`)
    without `await`, directly or inside the list, tuple, set or dict they
    return.

    ## Why is this bad?
    Calling an `async def` only creates a coroutine; nothing runs until it is
    awaited. The tool hands the framework the coroutine object instead of the
    result: the model reads `"<coroutine object fetch_weather at 0x…>"` as
    a successful result (Agents SDK, Chat Completions loops, MCP, LangChain),
    browser-use and PolyAI reject the type, Pydantic AI aborts the run — and
    the work the coroutine would have done (the request, the booking) never
    happens; at most Python warns `coroutine ... was never awaited`.

    `async def` tools are checked in every family: the framework awaits such a
    tool once and takes what it returns as the result. A plain `def` tool is
    checked only where the framework is known to take its return value as it
    is (the Agents SDK runs it in a thread, verified with openai-agents 0.24;
    the Anthropic tool runner calls a `@beta_tool` and sends what it returns,
    verified with anthropic 0.125 and 2.15);
    elsewhere a runner may await whatever a tool returns (a Chat Completions
    loop's `await registry[name](**args)`).
    `asyncio.create_task(...)`, `asyncio.ensure_future(...)` and other calls
    that take the coroutine are not reported, nor is an `async def` with a
    decorator (it may return anything), nor a name the file defines twice.

    ## Fix safety
    When the tool is an `async def` and the call is in its own body, the fix
    inserts `await` before it. It is unsafe: the awaited work
    now runs (that is the point), with its side effects and its time, and
    its exceptions now reach the tool.
    """

    code = "TRV902"
    name = "tool-returns-coroutine"
    severity = Severity.ERROR
    framework = "any_framework"
    fix_applicability = Applicability.UNSAFE
    message = "A tool function returns a coroutine it never awaited"

    invalid = (
        Example(
            title="an async Agents SDK tool",
            code="""\
import httpx
from agents import function_tool


async def fetch_weather(city: str) -> str:
    async with httpx.AsyncClient() as client:
        response = await client.get(f"https://wttr.in/{city}?format=3")
        return response.text


@function_tool
async def get_weather(city: str) -> str:
    return fetch_weather(city)
""",
            fixed="""\
import httpx
from agents import function_tool


async def fetch_weather(city: str) -> str:
    async with httpx.AsyncClient() as client:
        response = await client.get(f"https://wttr.in/{city}?format=3")
        return response.text


@function_tool
async def get_weather(city: str) -> str:
    return await fetch_weather(city)
""",
        ),
        Example(
            title="inside the returned dict, in a Chat Completions registry function",
            code="""\
import json

from openai import OpenAI

client = OpenAI()


async def lookup_price(sku: str) -> float:
    return 9.5


async def get_price(sku: str) -> dict:
    return {"sku": sku, "price": lookup_price(sku)}


TOOLS = {"get_price": get_price}


async def answer(messages: list) -> None:
    response = client.chat.completions.create(model="gpt-4o", messages=messages)
    for call in response.choices[0].message.tool_calls:
        result = await TOOLS[call.function.name](**json.loads(call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
""",
            fixed="""\
import json

from openai import OpenAI

client = OpenAI()


async def lookup_price(sku: str) -> float:
    return 9.5


async def get_price(sku: str) -> dict:
    return {"sku": sku, "price": await lookup_price(sku)}


TOOLS = {"get_price": get_price}


async def answer(messages: list) -> None:
    response = client.chat.completions.create(model="gpt-4o", messages=messages)
    for call in response.choices[0].message.tool_calls:
        result = await TOOLS[call.function.name](**json.loads(call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
""",
        ),
        Example(
            title="a plain def Agents SDK tool (the SDK runs it in a thread: no fix)",
            code="""\
from agents import function_tool


async def fetch_weather(city: str) -> str:
    return f"sunny in {city}"


@function_tool
def get_weather(city: str) -> str:
    return fetch_weather(city)
""",
        ),
    )
    valid = (
        Example(
            title="awaited",
            code="""\
from agents import function_tool


async def fetch_weather(city: str) -> str:
    return f"sunny in {city}"


@function_tool
async def get_weather(city: str) -> str:
    return await fetch_weather(city)
""",
        ),
        Example(
            title="handed to the event loop on purpose",
            code="""\
import asyncio

from agents import function_tool


async def send_report(email: str) -> None:
    ...


@function_tool
async def schedule_report(email: str) -> str:
    asyncio.create_task(send_report(email))
    return "scheduled"
""",
        ),
        Example(
            title="a plain def whose coroutine the loop awaits",
            code="""\
import json

from openai import OpenAI

client = OpenAI()


async def lookup_price(sku: str) -> float:
    return 9.5


def get_price(sku: str):
    return lookup_price(sku)


TOOLS = {"get_price": get_price}


async def answer(messages: list) -> None:
    response = client.chat.completions.create(model="gpt-4o", messages=messages)
    for call in response.choices[0].message.tool_calls:
        result = await TOOLS[call.function.name](**json.loads(call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
""",
        ),
        Example(
            title="a helper that returns the coroutine to a caller that awaits it",
            code="""\
from agents import function_tool


async def fetch_weather(city: str) -> str:
    return f"sunny in {city}"


def weather_request(city: str):
    return fetch_weather(city)


@function_tool
async def get_weather(city: str) -> str:
    return await weather_request(city)
""",
        ),
    )

    def check(self, context: ToolFunction, settings: Settings) -> Iterator[Finding]:
        if not context.is_async and context.framework not in _RESULT_NEVER_AWAITED:
            return  # a plain ``def``'s coroutine may be awaited by its runner
        for site in context.flow.sites:
            returned = site.value
            if returned is None:
                continue
            for value in returned_values(returned):
                for shape, node in _coroutines(context.inference.infer(value), value):
                    yield Finding(
                        node=node,
                        message=(
                            f"{title(context.framework)} `{context.name}` returns "
                            f"`{shape.type_name}(...)` without `await`: "
                            f"{coroutine_consequence(context.framework)}"
                        ),
                        fix=_await(context, shape, node),
                    )


_RESULT_NEVER_AWAITED = frozenset({"openai_agents", "anthropic"})
"""Families whose runner takes a plain ``def`` tool's return value as it is (verified with
openai-agents 0.24: ``asyncio.to_thread(the_func, ...)``, the coroutine is the result; and
with anthropic 0.125 / 2.15: a sync ``@beta_tool``'s coroutine is sent, or ``list()``-ed)."""


def _coroutines(
    shape: Shape, node: cst.BaseExpression
) -> Iterator[tuple[Shape, cst.BaseExpression]]:
    """The un-awaited coroutines of a returned value: itself, or the elements and entries
    of the display it is (at any depth), each with the node to report."""
    if shape.kind is Kind.COROUTINE:
        yield shape, shape.call if shape.call is not None else node
        return
    if shape.kind is Kind.DICT and isinstance(node, cst.Dict):
        for entry in shape.entries:
            if entry.value_node is not None:
                yield from _coroutines(entry.value, entry.value_node)
        return
    if shape.kind in (Kind.LIST, Kind.TUPLE, Kind.SET) and isinstance(
        node, (cst.List, cst.Tuple, cst.Set)
    ):
        for element, element_node in zip(shape.elements, node.elements, strict=False):
            yield from _coroutines(element, element_node.value)


def _await(context: ToolFunction, shape: Shape, node: cst.BaseExpression) -> FixSpec | None:
    """``await`` before the call, in an ``async def`` tool's own body."""
    call = shape.call
    if call is None or call is not node or not context.is_async:
        return None
    if context.module.index.enclosing_scope(call) is not context.node:
        return None
    return FixSpec(
        title="Await the coroutine",
        applicability=Applicability.UNSAFE,
        edits=(EditSpec(call, "await ", "before"),),
    )
