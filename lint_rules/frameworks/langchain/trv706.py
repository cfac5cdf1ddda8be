"""TRV706 langchain-tuple-without-artifact-format."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.langchain._examples import HEAD
from lint_rules.frameworks.langchain.recognition import LangChainFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class LangChainTupleWithoutArtifactFormat(Rule):
    """
    ## What it does
    Checks LangChain tools with the default `response_format` that return a
    2-tuple whose second element is a dict or a list — the shape of a
    `(content, artifact)` pair. Off by default (an info rule).

    ## Why is this bad?
    Without `response_format="content_and_artifact"` the tuple is the content:
    LangChain serialises the whole of it into the message the model reads
    (`'["3 orders", {"rows": [...]}]'`, langchain-core 1.8, verified), so the
    raw data meant for the application is sent to the model, and nothing is
    kept as the message's `artifact`. Declare the format, or return only the
    content.

    ## References
    - [LangChain: tool artifacts](https://python.langchain.com/docs/how_to/tool_artifacts/)
    """

    code = "TRV706"
    name = "langchain-tuple-without-artifact-format"
    severity = Severity.INFO
    framework = "langchain"
    message = "A tool returns a `(content, artifact)` pair without declaring the format"

    invalid = (
        Example(
            code=HEAD
            + """\
@tool
def search_orders(query: str):
    \"\"\"Search the orders.\"\"\"
    rows = [{"id": "A1"}, {"id": "B2"}]
    return f"{len(rows)} orders", rows
""",
        ),
        Example(
            code=HEAD
            + """\
@tool("report")
def report(day: str):
    \"\"\"The day's report.\"\"\"
    return "Report ready", {"day": day, "lines": []}
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
    rows = [{"id": "A1"}, {"id": "B2"}]
    return f"{len(rows)} orders", rows
""",
        ),
        Example(
            title="a pair of values the model should read",
            code=HEAD
            + """\
@tool
def bounds(values: list[float]):
    \"\"\"The smallest and largest value.\"\"\"
    return min(values), max(values)
""",
        ),
        Example(
            title="a tuple of unknown values",
            code=HEAD
            + """\
@tool
def search_orders(query: str):
    \"\"\"Search the orders.\"\"\"
    return ORDERS.summary(query), ORDERS.rows(query)
""",
        ),
    )

    def check(self, context: LangChainFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.checked_tools:
            if tool.response_format() != "content":
                continue
            inference = context.inference(tool.function)
            for site in context.flow(tool.function).sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    if not isinstance(value, cst.Tuple) or len(value.elements) != 2:
                        continue
                    second = value.elements[1]
                    if isinstance(second, cst.StarredElement):
                        continue
                    if inference.infer(second.value).kind in (Kind.DICT, Kind.LIST):
                        yield Finding(
                            node=value,
                            message=(
                                f"Tool `{tool.name}` returns a `(content, artifact)` pair "
                                'without `response_format="content_and_artifact"`: the whole '
                                "tuple, raw data included, is serialised into what the model reads"
                            ),
                        )
