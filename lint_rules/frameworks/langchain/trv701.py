"""TRV701 langchain-artifact-not-tuple."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.langchain._examples import HEAD
from lint_rules.frameworks.langchain.recognition import ARTIFACT, LangChainFile
from lint_rules.frameworks.tool_function import may_fall_through
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_NOT_PAIRS = {
    Kind.STR: "a `str`",
    Kind.DICT: "a dict",
    Kind.LIST: "a list",
    Kind.NONE: "`None`",
    Kind.INT: "an `int`",
    Kind.FLOAT: "a `float`",
    Kind.BOOL: "a `bool`",
}


class LangChainArtifactNotTuple(Rule):
    """
    ## What it does
    Checks tools declared with `response_format="content_and_artifact"` (the
    `@tool` argument, the `StructuredTool.from_function` argument, or a
    `BaseTool` subclass's class attribute) for return values that are certainly
    not a 2-tuple: a `str`, a dict, a list, `None`, a number, a tuple of
    another length.

    ## Why is this bad?
    Such a tool must return `(content, artifact)`: anything else raises
    `ValueError: Since response_format='content_and_artifact' a two-tuple of
    the message content and raw tool output is expected` (langchain-core 1.8,
    `tools/base.py`). LangGraph 1.x's `ToolNode` does not turn that error into
    a message: the graph run crashes; LangGraph 0.x (`handle_tool_errors=True`
    by default) answers every call with an error message instead (both
    verified). Typically an error branch returns a plain string
    (cnoe-io/ai-platform-engineering#1105): return `(message, None)` there.

    ## References
    - [LangChain: tool artifacts](https://python.langchain.com/docs/how_to/tool_artifacts/)
    """

    code = "TRV701"
    name = "langchain-artifact-not-tuple"
    severity = Severity.ERROR
    framework = "langchain"
    message = "A `content_and_artifact` tool returns something other than a 2-tuple"

    invalid = (
        Example(
            title="an error branch returns a plain string",
            code=HEAD
            + """\
@tool(response_format="content_and_artifact")
def search_orders(query: str):
    \"\"\"Search the orders.\"\"\"
    rows = ORDERS.search(query)
    if not rows:
        return "No orders found"
    return f"{len(rows)} orders", rows
""",
        ),
        Example(
            title="a BaseTool subclass",
            code="""\
from typing import Literal

from langchain_core.tools import BaseTool


class SearchTool(BaseTool):
    name: str = "search"
    description: str = "Search the web"
    response_format: Literal["content_and_artifact"] = "content_and_artifact"

    def _run(self, query: str):
        results = {"query": query, "hits": []}
        return results
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
@tool(response_format="content_and_artifact")
def search_orders(query: str):
    \"\"\"Search the orders.\"\"\"
    rows = ORDERS.search(query)
    if not rows:
        return "No orders found", []
    return f"{len(rows)} orders", rows
""",
        ),
        Example(
            title="the default format returns anything",
            code=HEAD
            + """\
@tool
def search_orders(query: str) -> str:
    \"\"\"Search the orders.\"\"\"
    return "No orders found"
""",
        ),
        Example(
            title="a value whose type is not known",
            code=HEAD
            + """\
@tool(response_format="content_and_artifact")
def search_orders(query: str):
    \"\"\"Search the orders.\"\"\"
    return format_results(ORDERS.search(query))
""",
        ),
    )

    def check(self, context: LangChainFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.checked_tools:
            if tool.response_format() != ARTIFACT:
                continue
            flow = context.flow(tool.function)
            if flow.is_generator:
                continue
            inference = context.inference(tool.function)
            for site in flow.sites:
                if site.value is None:
                    if site.statement is None and not may_fall_through(
                        context.module, tool.function
                    ):
                        continue
                    node = site.statement if site.statement is not None else tool.function.name
                    yield _finding(tool.name, node, "`None`")
                    continue
                for value in returned_values(site.value):
                    what = _not_a_pair(value, inference.infer(value).kind)
                    if what is not None:
                        yield _finding(tool.name, value, what)


def _not_a_pair(value: cst.BaseExpression, kind: Kind) -> str | None:
    if isinstance(value, cst.Tuple):
        starred = any(isinstance(e, cst.StarredElement) for e in value.elements)
        count = len(value.elements)
        return None if starred or count == 2 else f"a {count}-tuple"
    return _NOT_PAIRS.get(kind)


def _finding(name: str, node: cst.CSTNode, what: str) -> Finding:
    return Finding(
        node=node,
        message=(
            f'Tool `{name}` has `response_format="content_and_artifact"` but returns {what}: '
            "`ValueError` at every such call (a LangGraph 1.x `ToolNode` run crashes); "
            "return `(content, artifact)`"
        ),
    )
