"""TRV703 langchain-tool-on-method."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.langchain.recognition import LangChainFile, LangChainTool
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_STATIC = frozenset({"staticmethod"})


class LangChainToolOnMethod(Rule):
    """
    ## What it does
    Checks for LangChain's `@tool` applied to a method in a class body (its
    first parameter `self` or `cls`).

    ## Why is this bad?
    The decorator turns the *function* into a tool when the class is created:
    `self` becomes a field of the tool's schema, the tool is not bound to any
    instance, and every call fails with "1 validation error … self Field
    required" (langchain-core 1.8, verified; under a `ToolNode` the model gets
    that error each time). Over `@classmethod` it fails earlier: `ValueError:
    The first argument must be a string or a callable` when the class is
    created (verified). Define the tool as a function, or build it from the
    bound method: `tool(instance.method)` /
    `StructuredTool.from_function(instance.method)`.

    ## References
    - [LangChain: how to create tools](https://python.langchain.com/docs/how_to/custom_tools/)
    """

    code = "TRV703"
    name = "langchain-tool-on-method"
    severity = Severity.ERROR
    framework = "langchain"
    message = "`@tool` on a method"

    invalid = (
        Example(
            code="""\
from langchain_core.tools import tool


class OrderTools:
    def __init__(self, db):
        self.db = db

    @tool
    def order_status(self, order_id: str) -> str:
        \"\"\"The status of an order.\"\"\"
        return self.db.status(order_id)
""",
        ),
        Example(
            code="""\
from langchain.tools import tool


class Catalogue:
    @tool("price")
    def price(cls, sku: str) -> str:
        \"\"\"The price of a product.\"\"\"
        return "9.99"
""",
        ),
    )
    valid = (
        Example(
            title="a bound method made a tool",
            code="""\
from langchain_core.tools import StructuredTool


class OrderTools:
    def __init__(self, db):
        self.db = db

    def order_status(self, order_id: str) -> str:
        \"\"\"The status of an order.\"\"\"
        return self.db.status(order_id)

    def tools(self):
        return [StructuredTool.from_function(self.order_status)]
""",
        ),
        Example(
            title="a static method",
            code="""\
from langchain_core.tools import tool


class OrderTools:
    @tool
    @staticmethod
    def order_status(order_id: str) -> str:
        \"\"\"The status of an order.\"\"\"
        return "shipped"
""",
        ),
        Example(
            title="another framework's `@tool` on methods",
            code="""\
from agno.tools import Toolkit, tool


class TaskTools(Toolkit):
    @tool
    def list_incidents(self) -> str:
        return "none"
""",
        ),
    )

    def check(self, context: LangChainFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.checked_tools:
            function = tool.function
            if tool.how != "decorator" or not context.in_class_body(function):
                continue
            if any(
                isinstance(d.decorator, cst.Name) and d.decorator.value in _STATIC
                for d in function.decorators
            ):
                continue
            params = [*function.params.posonly_params, *function.params.params]
            if not params or params[0].name.value not in ("self", "cls"):
                continue
            if any(
                isinstance(d.decorator, cst.Name) and d.decorator.value == "classmethod"
                for d in function.decorators
            ):
                yield Finding(
                    node=_decorator(tool),
                    message=(
                        f"`@tool` over `@classmethod` `{tool.name}`: LangChain raises "
                        "`ValueError: The first argument must be a string or a callable` when "
                        "the class is created"
                    ),
                )
                continue
            yield Finding(
                node=_decorator(tool),
                message=(
                    f"`@tool` on method `{tool.name}`: `{params[0].name.value}` becomes a field "
                    "of the tool's schema and every call fails (`Field required`); make it a "
                    "function, or a tool of the bound method"
                ),
            )


def _decorator(tool: LangChainTool) -> cst.CSTNode:
    """The ``@tool`` decorator's expression (after the ``@``), as TRV702 points."""
    anchor = tool.anchor
    return anchor.decorator if isinstance(anchor, cst.Decorator) else anchor
