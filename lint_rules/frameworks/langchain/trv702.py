"""TRV702 langchain-tool-without-description."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.config import Settings
from lint_rules.frameworks.langchain._examples import HEAD
from lint_rules.frameworks.langchain.recognition import LangChainFile, LangChainTool
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class LangChainToolWithoutDescription(Rule):
    """
    ## What it does
    Checks for `@tool` functions and `StructuredTool.from_function(fn)` whose
    function has no docstring, with no `description=` (any value, even `""`,
    counts) and no `args_schema=` whose class has a docstring.

    ## Why is this bad?
    LangChain takes the tool's description from the docstring and refuses a
    tool without one: `ValueError: Function must have a docstring if
    description not provided` when the module is imported (langchain-core
    1.8, `tools/structured.py`, verified), so the agent never starts. An
    `args_schema` class lends its own docstring — one without a docstring does
    not help (verified). Not reported inside `with pytest.raises(...)`.

    ## References
    - [LangChain: how to create tools](https://python.langchain.com/docs/how_to/custom_tools/)
    """

    code = "TRV702"
    name = "langchain-tool-without-description"
    severity = Severity.ERROR
    framework = "langchain"
    message = "A tool without a docstring or description"

    invalid = (
        Example(
            code=HEAD
            + """\
@tool
def order_status(order_id: str) -> str:
    return f"Order {order_id} has shipped"
""",
        ),
        Example(
            title="a schema without a docstring",
            code="""\
from langchain_core.tools import StructuredTool
from pydantic import BaseModel


class OrderQuery(BaseModel):
    order_id: str


def order_status(order_id: str) -> str:
    return f"Order {order_id} has shipped"


status_tool = StructuredTool.from_function(order_status, args_schema=OrderQuery)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
@tool
def order_status(order_id: str) -> str:
    \"\"\"The status of an order.\"\"\"
    return f"Order {order_id} has shipped"
""",
        ),
        Example(
            title="a description given",
            code=HEAD
            + """\
@tool("order_status", description="The status of an order")
def order_status(order_id: str) -> str:
    return f"Order {order_id} has shipped"
""",
        ),
        Example(
            title="another library's `tool`",
            code="""\
from crewai.tools import tool


@tool("Order status")
def order_status(order_id: str) -> str:
    return f"Order {order_id} has shipped"
""",
        ),
    )

    def check(self, context: LangChainFile, settings: Settings) -> Iterator[Finding]:
        module = context.module
        for tool in context.checked_tools:
            if tool.how == "base_tool" or tool.unknown_arguments:
                continue
            if "description" in tool.keywords or has_docstring(tool.function):
                continue
            schema = tool.keywords.get("args_schema")
            if schema is not None and not _undocumented_schema(module, schema):
                continue
            yield Finding(
                node=_anchor(tool),
                message=(
                    f"Tool `{tool.name}` has no docstring and no `description`: LangChain "
                    "raises `ValueError: Function must have a docstring if description not "
                    "provided` at import"
                ),
            )


def has_docstring(function: cst.FunctionDef) -> bool:
    body = function.body
    statements = body.body if isinstance(body, cst.IndentedBlock) else ()
    if not statements or not isinstance(statements[0], cst.SimpleStatementLine):
        return False
    first = statements[0].body[0]
    return isinstance(first, cst.Expr) and isinstance(
        first.value, (cst.SimpleString, cst.ConcatenatedString)
    )


def _undocumented_schema(module: ParsedModule, schema: cst.BaseExpression) -> bool:
    """A same-module class without a docstring (anything else may lend a description)."""
    if not isinstance(schema, cst.Name) or schema.value not in module.classes:
        return False
    if schema.value in module.shadowed:
        return False
    body = module.classes[schema.value].body
    statements = body.body if isinstance(body, cst.IndentedBlock) else ()
    if statements and isinstance(statements[0], cst.SimpleStatementLine):
        first = statements[0].body[0]
        if isinstance(first, cst.Expr) and isinstance(
            first.value, (cst.SimpleString, cst.ConcatenatedString)
        ):
            return False
    return True


def _anchor(tool: LangChainTool) -> cst.CSTNode:
    anchor = tool.anchor
    return anchor.decorator if isinstance(anchor, cst.Decorator) else anchor
