"""TRV602 mcp-return-contradicts-annotation."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, Shape, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.mcp._examples import OFFICIAL, STANDALONE
from lint_rules.frameworks.mcp.contracts import Contract, contract, required_fields
from lint_rules.frameworks.mcp.recognition import McpFile, McpTool
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class McpReturnContradictsAnnotation(Rule):
    """
    ## What it does
    Checks MCP tools whose return annotation produces an output schema for
    return values that certainly contradict it: a dict or list under `-> str`;
    a dict under `-> list[X]`;
    a `str` (also `json.dumps(...)`) under `-> dict[str, X]`, `Dict[...]`, a
    `TypedDict`, a pydantic model or a dataclass; `None` (returned, or falling
    off the end) under an annotation that is not optional; a dict display that
    lacks a required field of the same-module pydantic model it is annotated
    with.

    In the official SDK a bare `-> dict` / `-> list` builds no schema and is
    not checked; standalone `fastmcp` validates `-> dict` too. A `str` under
    `-> int` / `-> float` is not reported (the official SDK's pydantic accepts
    numeric strings). A value whose type is not known is never reported, nor
    the end of a stub or an elided example (a body with a bare `...`), nor the
    end of a function whose last statement is a `match` (its cases may cover
    every type). A body that ends in a call of a function that never returns —
    annotated `NoReturn`, or raising on every path, in this module or imported
    from another module of the project — does not fall off its end; one that
    ends in a call whose target cannot be read (a parameter, a module that
    does not parse) is not reported, nor a tool registered with an output
    schema of its own (`structured_output=False`, fastmcp's `output_schema=`;
    verified with mcp 2.3: the result is then sent as text, not validated). A
    fall-through is reported at the function's name, with the `except` branch it
    is reached through.

    ## Why is this bad?
    The official SDK validates the tool's result against the schema built
    from its annotation (`func_metadata.py`): a mismatch turns *every* call
    into an `isError` result — mcp 1.30: "1 validation error for
    get_orderOutput … Input should be a valid string"; mcp 2.3 only "Error
    executing tool get_order" — and the tool's own text is lost
    (effytech/freshservice_mcp#28, dgunning/edgartools#662). Standalone
    `fastmcp` 4.x does not validate on the server: it answers with a success
    whose structured content contradicts the advertised schema, and clients
    built on the MCP SDK raise `RuntimeError: Invalid structured content
    returned by tool` (fastmcp 2.x answered "Output validation error"). All
    verified by calling the tools through each server. Return what the
    annotation says, or change the annotation.

    ## References
    - [MCP Python SDK: structured output](https://github.com/modelcontextprotocol/python-sdk#structured-output)
    """

    code = "TRV602"
    name = "mcp-return-contradicts-annotation"
    severity = Severity.ERROR
    framework = "mcp"
    message = "A tool's return value contradicts its return annotation"

    invalid = (
        Example(
            title="a dict under `-> str`",
            code=OFFICIAL
            + """\
@mcp.tool()
def order_status(order_id: str) -> str:
    \"\"\"The status of an order.\"\"\"
    return {"id": order_id, "status": "shipped"}
""",
        ),
        Example(
            title="`json.dumps` under `-> dict[str, Any]`",
            code="""\
import json
from typing import Any

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool()
def order(order_id: str) -> dict[str, Any]:
    \"\"\"An order.\"\"\"
    return json.dumps({"id": order_id, "status": "shipped"})
""",
        ),
        Example(
            title="an error dict that the model does not allow",
            code="""\
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("orders")


class Order(BaseModel):
    id: str
    status: str


@mcp.tool()
def order(order_id: str) -> Order:
    \"\"\"An order.\"\"\"
    if not order_id:
        return {"error": "no order id"}
    return Order(id=order_id, status="shipped")
""",
        ),
        Example(
            title="falling off the end under `-> str`",
            code=OFFICIAL
            + """\
@mcp.tool()
def order_status(order_id: str) -> str:
    \"\"\"The status of an order.\"\"\"
    if order_id.startswith("A"):
        return "shipped"
""",
        ),
    )
    valid = (
        Example(
            code=OFFICIAL
            + """\
@mcp.tool()
def order(order_id: str) -> dict:
    \"\"\"An order (a bare `dict` builds no schema in the official SDK).\"\"\"
    return {"id": order_id, "status": "shipped"}
""",
        ),
        Example(
            title="`None` under an optional annotation",
            code=OFFICIAL
            + """\
@mcp.tool()
def order_status(order_id: str) -> str | None:
    \"\"\"The status of an order, if there is one.\"\"\"
    if not order_id:
        return None
    return "shipped"
""",
        ),
        Example(
            title="every `except` branch ends in a helper that always raises",
            code=OFFICIAL
            + """\
@mcp.tool()
def order_status(order_id: str) -> str:
    \"\"\"The status of an order.\"\"\"
    try:
        return lookup(order_id)
    except KeyError as error:
        tool_error(error)


def tool_error(error: Exception):
    raise ValueError(f"unknown order: {error}") from error
""",
        ),
        Example(
            title="`structured_output=False`: no output schema, whatever the annotation",
            code=OFFICIAL
            + """\
@mcp.tool(structured_output=False)
def order_status(order_id: str) -> str:
    \"\"\"The status of an order, as JSON text.\"\"\"
    return {"id": order_id, "status": "shipped"}
""",
        ),
        Example(
            title="a value whose type is not known",
            code=STANDALONE
            + """\
@mcp.tool
async def order(order_id: str) -> dict:
    \"\"\"An order.\"\"\"
    return await ORDERS.fetch(order_id)
""",
        ),
    )

    def check(self, context: McpFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.tools:
            if tool.own_schema:
                continue  # ``structured_output=``/``output_schema=``: not the annotation's
            promised = contract(context.module, tool.function)
            if promised is None or not promised.has_schema(tool.origin):
                continue
            flow = context.flow(tool.function)
            if flow.is_generator:
                continue
            inference = context.inference(tool.function)
            for site in flow.sites:
                if site.value is None:
                    if site.statement is None and not context.may_fall_through(tool.function):
                        continue
                    if not promised.optional:
                        node = site.statement if site.statement is not None else tool.function.name
                        yield _finding(tool, node, "`None`", promised, context, site.handlers)
                    continue
                for value in returned_values(site.value):
                    what = contradiction(context, promised, value, inference.infer(value))
                    if what is not None:
                        yield _finding(tool, value, what, promised, context)


def contradiction(
    context: McpFile, promised: Contract, value: cst.BaseExpression, shape: Shape
) -> str | None:
    """What a returned value is when it certainly contradicts the contract."""
    kind = shape.kind
    if kind is Kind.NONE:
        return None if promised.optional else "`None`"
    if promised.kind == "str" and kind in (Kind.DICT, Kind.LIST, Kind.TUPLE):
        return f"a `{kind.value}`"
    if promised.kind == "list" and kind is Kind.DICT:
        return "a `dict`"
    if promised.is_mapping and kind is Kind.STR:
        return "a `str`"
    if promised.kind == "model" and promised.model is not None and isinstance(value, cst.Dict):
        required = required_fields(context.module, promised.model)
        keys = shape.keys() if kind is Kind.DICT and shape.is_closed_dict else None
        if required and keys is not None:
            missing = sorted(required - keys)
            if missing:
                return f"a dict without the required field `{missing[0]}`"
    return None


def _finding(
    tool: McpTool,
    node: cst.CSTNode,
    what: str,
    promised: Contract,
    context: McpFile,
    handlers: tuple[cst.ExceptHandler, ...] = (),
) -> Finding:
    annotation = context.module.code_for(promised.annotation).strip()
    when, calls = "", "at every such call"
    if handlers:
        lines = [context.module.range_of(h).start.line for h in handlers]
        branches = "branch at line" if len(lines) == 1 else "branches at lines"
        when = f" when the `except` {branches} {', '.join(map(str, lines))} is taken"
        calls = "each time, instead of the error's own message"
    return Finding(
        node=node,
        message=(
            f"Tool `{tool.name}` returns {what}{when} but is annotated `-> {annotation}`: "
            "the result contradicts the output schema the server advertises: an `isError` "
            "result (official SDK) or a client-side `Invalid structured content` error "
            f"(fastmcp) {calls}"
        ),
    )
