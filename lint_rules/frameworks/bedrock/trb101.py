"""TRB101 strands-tool-result-shape."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.returns import analyse_function
from lint_rules.analysis.shapes import Kind, Shape, ShapeInference, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import STRANDS_HEAD
from lint_rules.frameworks.bedrock.recognition import STATUSES, BedrockFile, known_kind
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_NOT_AN_OBJECT = frozenset({Kind.LIST, Kind.STR, Kind.INT, Kind.FLOAT, Kind.BOOL})
_MODELS = (
    " (Strands sends `status` and `json` blocks as they are for its default Bedrock model "
    "and Claude model ids)"
)


class StrandsToolResultShape(Rule):
    """
    ## What it does
    Checks the functions decorated with Strands' `@tool` for a returned dict
    with both `"status"` and `"content"` keys — which Strands takes as a
    finished `ToolResult`, unchanged — whose `content` is certainly not a
    list of blocks (a string, a dict, a number), whose `status` is a literal
    other than `"success"` or `"error"`, or whose `content` holds a `{"json":
    X}` block with `X` a list, string, number or bool.

    ## Why is this bad?
    Strands passes such a dict through as the tool's result
    (`strands/tools/decorator.py`, strands-agents 1.62.0). With a string
    `content`, building the next model request raises `TypeError:
    content_type=<d> | unsupported type` — after the tool ran (verified). A
    `status` such as `"ok"` and a `json` list are forwarded to Bedrock, which
    rejects the request (TRB008, TRB003). Strands sends `status` only for
    Claude model ids and turns `json` blocks into text for Nova models: those
    two readings hold for the default and Claude models. A dict with only one
    of the two keys is JSON-encoded as text and is fine.

    ## References
    - [Strands Agents: python tools](https://strandsagents.com/latest/documentation/docs/user-guide/concepts/tools/python-tools/)
    """

    code = "TRB101"
    name = "strands-tool-result-shape"
    severity = Severity.ERROR
    framework = "bedrock"
    message = "A Strands tool returns a `ToolResult` dict of the wrong shape"

    invalid = (
        Example(
            title="text content",
            code=STRANDS_HEAD
            + """\
@tool
def book_table(restaurant: str, time: str) -> dict:
    \"\"\"Book a table.\"\"\"
    return {"status": "success", "content": f"Booked {restaurant} at {time}"}
""",
        ),
        Example(
            title="an unknown status",
            code=STRANDS_HEAD
            + """\
@tool
def book_table(restaurant: str) -> dict:
    \"\"\"Book a table.\"\"\"
    return {"status": "ok", "content": [{"text": f"Booked {restaurant}"}]}
""",
        ),
        Example(
            title="a list in a `json` block",
            code=STRANDS_HEAD
            + """\
@tool
def free_tables(restaurant: str) -> dict:
    \"\"\"Free tables.\"\"\"
    tables = [1, 4, 7]
    return {"status": "success", "content": [{"json": tables}]}
""",
        ),
    )
    valid = (
        Example(
            code=STRANDS_HEAD
            + """\
@tool
def book_table(restaurant: str, time: str) -> dict:
    \"\"\"Book a table.\"\"\"
    return {"status": "success", "content": [{"text": f"Booked {restaurant} at {time}"}]}
""",
        ),
        Example(
            title="a plain dict (JSON-encoded as text)",
            code=STRANDS_HEAD
            + """\
@tool
def book_table(restaurant: str) -> dict:
    \"\"\"Book a table.\"\"\"
    return {"restaurant": restaurant, "content": "booked"}
""",
        ),
        Example(
            title="another library's `tool`",
            code="""\
from langchain_core.tools import tool


@tool
def book_table(restaurant: str) -> dict:
    \"\"\"Book a table.\"\"\"
    return {"status": "success", "content": "booked"}
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        module = context.module
        for function in context.strands_tools:
            flow = analyse_function(function, module)
            inference = ShapeInference(module, function)
            for site in flow.sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    problem = _problem(inference.infer(value))
                    if problem is not None:
                        yield Finding(
                            node=value,
                            message=(
                                f"`{function.name.value}` returns a `ToolResult` dict (both "
                                f'"status" and "content") {problem}'
                            ),
                        )


def _problem(shape: Shape) -> str | None:
    if shape.kind is not Kind.DICT:
        return None
    status, content = shape.entry("status"), shape.entry("content")
    if status is None or content is None:
        return None
    if content.value.kind in (Kind.STR, Kind.DICT, Kind.INT, Kind.FLOAT, Kind.BOOL):
        return (
            f"whose `content` is {known_kind(content.value)}, not a list of blocks: Strands "
            "passes it through, and the next model request raises `TypeError: "
            'content_type=<d> | unsupported type`; write `"content": [{"text": ...}]`'
        )
    literal = status.value.literal if status.value.has_literal else None
    if isinstance(literal, str) and literal not in STATUSES:
        return (
            f'whose `status` is "{literal}": Bedrock accepts only "success" or "error" and '
            f"rejects the request{_MODELS}"
        )
    for element in content.value.element_shapes() if content.value.kind is Kind.LIST else ():
        block = element.entry("json") if element.kind is Kind.DICT else None
        if block is not None and block.value.kind in _NOT_AN_OBJECT:
            return (
                f"whose `json` block holds {known_kind(block.value)}: Bedrock accepts only an "
                f'object there (HTTP 400 "Provide a json object for the field"){_MODELS}'
            )
    return None
