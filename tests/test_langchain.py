"""LangChain / LangGraph tools (TRV701–TRV706): acceptance tests.

A tool is recognised by import only — ``langchain_core.tools.tool`` and its
re-exports, aliased or not, ``StructuredTool.from_function(fn)`` and the
``_run`` / ``_arun`` of a direct ``BaseTool`` subclass — never by the bare name
``tool`` (CrewAI, Agno and many projects have their own). Each rule fires on
its mistake in the shapes that apply and stays silent on the shapes of real
code that look like it (/tmp/s7/corpus.md): ``pytest.raises`` blocks,
``description=""``, a documented ``args_schema``, ``@staticmethod`` tools,
``Command.PARENT`` hand-offs, graph nodes returning ``Command``, the
``ToolRuntime``'s call id, AG-UI's ``ToolMessage`` and test histories.

Sources mark the line where a diagnostic starts with ``# !TRV7NN``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from marks import Marks

ROOT = Path(__file__).resolve().parent.parent
MARKS = Marks("TRV7", "tools.py")
findings, marked, assert_marked = MARKS.findings, MARKS.marked, MARKS.assert_marked


# ------------------------------------------------------------------ recognition by import

# a tool without a docstring (TRV702 on the decorator / call) is the probe
DECORATED = {
    "core": ("from langchain_core.tools import tool", "tool"),
    "core-convert": ("from langchain_core.tools.convert import tool", "tool"),
    "langchain-reexport": ("from langchain.tools import tool", "tool"),
    "langchain-0x-agents": ("from langchain.agents import tool", "tool"),
    "alias": ("from langchain_core.tools import tool as lc_tool", "lc_tool"),
    "module-attribute": ("import langchain_core.tools as lct", "lct.tool"),
}


@pytest.mark.parametrize("origin", DECORATED)
@pytest.mark.parametrize("form", ["bare", "called", "named"])
def test_decorated_tools_are_recognised(origin: str, form: str) -> None:
    imports, name = DECORATED[origin]
    decorator = {"bare": name, "called": f"{name}()", "named": f'{name}("status")'}[form]
    source = f"{imports}\n\n\n@{decorator}  # !TRV702\ndef status(order_id: str) -> str:\n"
    source += "    return 'shipped'\n"
    assert_marked(source)


@pytest.mark.parametrize(
    "call",
    [
        "StructuredTool.from_function(status)",
        "StructuredTool.from_function(func=status)",
        "StructuredTool.from_function(func=status, name='status')",
    ],
)
@pytest.mark.parametrize(
    "imports",
    [
        "from langchain_core.tools import StructuredTool",
        "from langchain_core.tools.structured import StructuredTool",
    ],
)
def test_from_function_is_recognised(imports: str, call: str) -> None:
    source = (
        f"{imports}\n\n\ndef status(order_id: str) -> str:\n    return 'shipped'\n\n\n"
        f"status_tool = {call}  # !TRV702\n"
    )
    assert_marked(source)


def test_from_function_coroutine_is_recognised() -> None:
    source = """\
        from langchain_core.tools import StructuredTool


        async def status(order_id: str) -> str:
            return "shipped"


        status_tool = StructuredTool.from_function(coroutine=status)  # !TRV702
        """
    assert_marked(source)


@pytest.mark.parametrize(
    "base",
    [
        "from langchain_core.tools import BaseTool",
        "from langchain_core.tools.base import BaseTool",
        "from langchain.tools import BaseTool",
    ],
)
@pytest.mark.parametrize("method", ["def _run", "async def _arun"])
def test_base_tool_subclass_methods_are_recognised(base: str, method: str) -> None:
    source = f"""\
        {base}


        class Search(BaseTool):
            name: str = "search"
            description: str = "Search the orders."
            response_format: str = "content_and_artifact"

            {method}(self, query: str):
                return "no orders"  # !TRV701
        """
    assert_marked(source)


def test_indirect_base_tool_subclass_is_not_judged() -> None:
    source = """\
        from langchain_core.tools import BaseTool


        class Base(BaseTool):
            response_format: str = "content_and_artifact"


        class Search(Base):
            response_format: str = "content_and_artifact"

            def _run(self, query: str):
                return "no orders"
        """
    assert_marked(source)


NOT_LANGCHAIN = {
    "crewai": "from crewai.tools import tool",
    "agno": "from agno.tools import tool",
    "own-module": "from support.agent_kit import tool",
    "local": "def tool(fn=None, **kw):\n    return fn",
}


@pytest.mark.parametrize("origin", NOT_LANGCHAIN)
def test_other_libraries_tool_decorators_are_not_checked(origin: str) -> None:
    source = f"""\
from langchain_core.messages import ToolMessage
{NOT_LANGCHAIN[origin]}


@tool
def status(order_id: str) -> str:
    return "shipped"


class Tools:
    @tool
    def list_incidents(self) -> str:
        \"\"\"The open incidents.\"\"\"
        return ToolMessage("none", tool_call_id="call_1")


@tool(response_format="content_and_artifact")
def search(query: str):
    \"\"\"Search.\"\"\"
    return "nothing", {{"rows": []}}
"""
    assert findings(source) == set()


def test_a_local_tool_shadowing_the_import_is_not_checked() -> None:
    source = """\
        from langchain_core.tools import tool


        def make():
            def tool(fn):
                return fn

            @tool
            def status(order_id: str) -> str:
                return "shipped"

            return status
        """
    assert findings(source) == set()


# ------------------------------------------------------------------ TRV701

HEAD = "from langchain_core.tools import tool\n\n\n"

TRV701_CASES = {
    "str-on-error-branch": """\
        @tool(response_format="content_and_artifact")
        def search(query: str):
            \"\"\"Search.\"\"\"
            if not query:
                return "empty query"  # !TRV701
            return "1 row", [{"id": 1}]
        """,
    "dict": """\
        @tool("search", response_format="content_and_artifact")
        def search(query: str):
            \"\"\"Search.\"\"\"
            return {"rows": []}  # !TRV701
        """,
    "none-and-three-tuple": """\
        @tool(response_format="content_and_artifact")
        def search(query: str):
            \"\"\"Search.\"\"\"
            if query == "x":
                return None  # !TRV701
            return "a", [], {}  # !TRV701
        """,
    "list": """\
        @tool(response_format="content_and_artifact")
        async def search(query: str):
            \"\"\"Search.\"\"\"
            return ["a", []]  # !TRV701
        """,
    "pairs-everywhere": """\
        @tool(response_format="content_and_artifact")
        def search(query: str):
            \"\"\"Search.\"\"\"
            try:
                rows = find(query)
            except KeyError as error:
                return repr(error), {}
            return f"{len(rows)} rows", rows
        """,
    "unknown-values": """\
        @tool(response_format="content_and_artifact")
        def search(query: str):
            \"\"\"Search.\"\"\"
            return convert(find(query))
        """,
    "format-not-literal": """\
        @tool(response_format=FORMAT)
        def search(query: str):
            \"\"\"Search.\"\"\"
            return "no rows"
        """,
    "default-format": """\
        @tool
        def search(query: str) -> str:
            \"\"\"Search.\"\"\"
            return "no rows"
        """,
    "generator": """\
        @tool(response_format="content_and_artifact")
        def search(query: str):
            \"\"\"Search.\"\"\"
            yield "a"
        """,
}


@pytest.mark.parametrize("case", TRV701_CASES)
def test_trv701(case: str) -> None:
    assert_marked(HEAD + textwrap.dedent(TRV701_CASES[case]))


def test_trv701_from_function() -> None:
    source = """\
        from langchain_core.tools import StructuredTool


        def search(query: str):
            \"\"\"Search.\"\"\"
            return "no rows"  # !TRV701


        search_tool = StructuredTool.from_function(search, response_format="content_and_artifact")
        """
    assert_marked(source)


# ------------------------------------------------------------------ TRV702

TRV702_CASES = {
    "bare": """\
        @tool  # !TRV702
        def status(order_id: str) -> str:
            return "shipped"
        """,
    "async-zero-args": """\
        @tool("now")  # !TRV702
        async def now() -> str:
            return "12:00"
        """,
    "undocumented-schema": """\
        from pydantic import BaseModel


        class Query(BaseModel):
            order_id: str


        @tool(args_schema=Query)  # !TRV702
        def status(order_id: str) -> str:
            return "shipped"
        """,
    "docstring": """\
        @tool
        def status(order_id: str) -> str:
            \"\"\"The status of an order.\"\"\"
            return "shipped"
        """,
    "empty-description": """\
        @tool(description="")
        def status(order_id: str) -> str:
            return "shipped"
        """,
    "description": """\
        @tool("status", description="The status of an order.")
        def status(order_id: str) -> str:
            return "shipped"
        """,
    "documented-schema": """\
        from pydantic import BaseModel


        class Query(BaseModel):
            \"\"\"Look an order up.\"\"\"

            order_id: str


        @tool("status", args_schema=Query)
        def status(order_id: str) -> str:
            return "shipped"
        """,
    "imported-schema": """\
        from orders.schemas import Query


        @tool(args_schema=Query)
        def status(order_id: str) -> str:
            return "shipped"
        """,
    "parse-docstring": """\
        @tool(parse_docstring=True)
        def status(order_id: str) -> str:
            \"\"\"The status of an order.

            Args:
                order_id: The order's id.
            \"\"\"
            return "shipped"
        """,
    "kwargs": """\
        @tool(**OPTIONS)
        def status(order_id: str) -> str:
            return "shipped"
        """,
    "pytest-raises": """\
        import pytest


        def test_docstring_required() -> None:
            with pytest.raises(ValueError, match="Function must have a docstring"):

                @tool
                def search_api(query: str) -> str:
                    return query
        """,
}


@pytest.mark.parametrize("case", TRV702_CASES)
def test_trv702(case: str) -> None:
    assert_marked(HEAD + textwrap.dedent(TRV702_CASES[case]))


def test_trv702_from_function_with_description() -> None:
    source = """\
        from langchain_core.tools import StructuredTool


        def status(order_id: str) -> str:
            return "shipped"


        status_tool = StructuredTool.from_function(func=status, description="An order's status.")
        """
    assert_marked(source)


# ------------------------------------------------------------------ TRV703

TRV703_CASES = {
    "self": """\
        class OrderTools:
            @tool  # !TRV703
            def status(self, order_id: str) -> str:
                \"\"\"The status of an order.\"\"\"
                return "shipped"
        """,
    "called-decorator-cls": """\
        class OrderTools:
            @tool("status")  # !TRV703
            def status(cls, order_id: str) -> str:
                \"\"\"The status of an order.\"\"\"
                return "shipped"
        """,
    "over-classmethod": """\
        class OrderTools:
            @tool(  # !TRV703
                "status",
            )
            @classmethod
            def status(cls, order_id: str) -> str:
                \"\"\"The status of an order.\"\"\"
                return "shipped"
        """,
    "below-another-decorator": """\
        import functools


        class OrderTools:
            @functools.cache
            @tool  # !TRV703
            def status(self, order_id: str) -> str:
                \"\"\"The status of an order.\"\"\"
                return "shipped"
        """,
    "staticmethod": """\
        class OrderTools:
            @tool
            @staticmethod
            def status(order_id: str) -> str:
                \"\"\"The status of an order.\"\"\"
                return "shipped"
        """,
    "function-with-self-elsewhere": """\
        @tool
        def status(order_id: str, self_service: bool) -> str:
            \"\"\"The status of an order.\"\"\"
            return "shipped"
        """,
    "nested-in-method": """\
        class Agent:
            def tools(self):
                @tool
                def status(order_id: str) -> str:
                    \"\"\"The status of an order.\"\"\"
                    return self.db.status(order_id)

                return [status]
        """,
}


@pytest.mark.parametrize("case", TRV703_CASES)
def test_trv703(case: str) -> None:
    assert_marked(HEAD + textwrap.dedent(TRV703_CASES[case]))


# ------------------------------------------------------------------ TRV704

CMD_HEAD = """\
from typing import Annotated

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.types import Command


"""

TRV704_CASES = {
    "no-messages": """\
        @tool
        def set_name(name: str) -> Command:
            \"\"\"Remember the user's name.\"\"\"
            return Command(update={"user_name": name})  # !TRV704
        """,
    "no-messages-with-goto": """\
        @tool
        def done(
            report: str, tool_call_id: Annotated[str, InjectedToolCallId]
        ) -> Command:
            \"\"\"Finish.\"\"\"
            return Command(update={"report": report}, goto="__end__")  # !TRV704
        """,
    "ai-message-only": """\
        @tool
        def approve(request_id: str) -> Command:
            \"\"\"Approve a request.\"\"\"
            return Command(update={"messages": [AIMessage("ok")]})  # !TRV704
        """,
    "tool-message-not-in-list": """\
        @tool
        def approve(request_id: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
            \"\"\"Approve a request.\"\"\"
            return Command(
                update={"messages": ToolMessage("ok", tool_call_id=tool_call_id)}  # !TRV704
            )
        """,
    "with-tool-message": """\
        @tool
        def set_name(name: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
            \"\"\"Remember the user's name.\"\"\"
            return Command(
                update={
                    "user_name": name,
                    "messages": [ToolMessage("Saved", tool_call_id=tool_call_id)],
                }
            )
        """,
    "role-tool-dict": """\
        @tool
        def set_name(name: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
            \"\"\"Remember the user's name.\"\"\"
            return Command(
                update={
                    "messages": [{"role": "tool", "content": "ok", "tool_call_id": tool_call_id}]
                }
            )
        """,
    "parent-graph": """\
        @tool
        def transfer_to_billing() -> Command:
            \"\"\"Hand the conversation to billing.\"\"\"
            return Command(goto="billing", graph=Command.PARENT, update={"active": "billing"})
        """,
    "goto-only": """\
        @tool
        def finish() -> Command:
            \"\"\"Finish.\"\"\"
            return Command(goto="__end__")
        """,
    "computed-update": """\
        @tool
        def set_name(name: str) -> Command:
            \"\"\"Remember the user's name.\"\"\"
            return Command(update=build_update(name))
        """,
    "spread-update": """\
        @tool
        def set_name(name: str) -> Command:
            \"\"\"Remember the user's name.\"\"\"
            return Command(update={"user_name": name, **EXTRA})
        """,
    "graph-node": """\
        def route(state) -> Command:
            return Command(update={"step": state["step"] + 1}, goto="next")
        """,
}


@pytest.mark.parametrize("case", TRV704_CASES)
def test_trv704(case: str) -> None:
    assert_marked(CMD_HEAD + textwrap.dedent(TRV704_CASES[case]))


def test_trv704_graph_state_command_and_from_function() -> None:
    source = """\
        from langchain_core.tools import StructuredTool
        from langgraph.graph.state import Command


        def set_name(name: str) -> Command:
            \"\"\"Remember the user's name.\"\"\"
            return Command(update={"user_name": name})  # !TRV704


        set_name_tool = StructuredTool.from_function(set_name)
        """
    assert_marked(source)


# ------------------------------------------------------------------ TRV705

TRV705_CASES = {
    "literal-in-command": """\
        @tool
        def set_name(name: str) -> Command:
            \"\"\"Remember the user's name.\"\"\"
            return Command(
                update={"messages": [ToolMessage("Saved", tool_call_id="call_1")]}  # !TRV705
            )
        """,
    "literal-returned": """\
        @tool
        def lookup(order_id: str) -> ToolMessage:
            \"\"\"Look an order up.\"\"\"
            return ToolMessage("shipped", tool_call_id="abc")  # !TRV705
        """,
    "injected-id-not-used": """\
        @tool
        def lookup(order_id: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> ToolMessage:
            \"\"\"Look an order up.\"\"\"
            return ToolMessage("shipped", tool_call_id=order_id)  # !TRV705
        """,
    "injected-id": """\
        @tool
        def lookup(order_id: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> ToolMessage:
            \"\"\"Look an order up.\"\"\"
            return ToolMessage("shipped", tool_call_id=tool_call_id)
        """,
    "injected-id-other-name": """\
        @tool
        def lookup(order_id: str, call_id: Annotated[str, InjectedToolCallId]) -> ToolMessage:
            \"\"\"Look an order up.\"\"\"
            return ToolMessage("shipped", tool_call_id=call_id)
        """,
    "test-history": """\
        def history():
            return [ToolMessage("Sunny", tool_call_id="call_1")]


        def test_history() -> None:
            messages = [AIMessage("", tool_calls=[]), ToolMessage("ok", tool_call_id="call_1")]
            assert messages
        """,
}


@pytest.mark.parametrize("case", TRV705_CASES)
def test_trv705(case: str) -> None:
    assert_marked(CMD_HEAD + textwrap.dedent(TRV705_CASES[case]))


def test_trv705_tool_runtime_id() -> None:
    source = """\
        from langchain.tools import ToolRuntime, tool
        from langchain_core.messages import ToolMessage
        from langgraph.types import Command


        @tool
        def set_name(name: str, runtime: ToolRuntime) -> Command:
            \"\"\"Remember the user's name.\"\"\"
            message = ToolMessage("Saved", tool_call_id=runtime.tool_call_id)
            return Command(update={"user_name": name, "messages": [message]})


        @tool
        def echo(name: str, runtime: ToolRuntime) -> Command:
            \"\"\"Echo.\"\"\"
            return Command(
                update={"messages": [ToolMessage(name, tool_call_id=runtime.tool_call_id)]}
            )
        """
    assert_marked(source)


def test_trv705_ag_ui_tool_message_is_not_langchains() -> None:
    source = """\
        from ag_ui.core import ToolMessage
        from langchain_core.tools import tool


        @tool
        def lookup(order_id: str) -> ToolMessage:
            \"\"\"Look an order up.\"\"\"
            return ToolMessage(id="m1", role="tool", content="ok", tool_call_id="call_1")
        """
    assert_marked(source)


# ------------------------------------------------------------------ TRV706

TRV706_CASES = {
    "dict-artifact": """\
        @tool
        def search(query: str):
            \"\"\"Search.\"\"\"
            return "1 row", {"rows": [1]}  # !TRV706
        """,
    "list-artifact": """\
        @tool("search")
        def search(query: str):
            \"\"\"Search.\"\"\"
            rows = [{"id": 1}]
            return f"{len(rows)} rows", rows  # !TRV706
        """,
    "declared": """\
        @tool(response_format="content_and_artifact")
        def search(query: str):
            \"\"\"Search.\"\"\"
            return "1 row", {"rows": [1]}
        """,
    "pair-of-numbers": """\
        @tool
        def bounds(values: list[float]):
            \"\"\"The smallest and largest value.\"\"\"
            return min(values), max(values)
        """,
    "unknown-pair": """\
        @tool
        def search(query: str):
            \"\"\"Search.\"\"\"
            return summary(query), rows(query)
        """,
    "format-unknown": """\
        @tool(**OPTIONS)
        def search(query: str):
            \"\"\"Search.\"\"\"
            return "1 row", {"rows": [1]}
        """,
}


@pytest.mark.parametrize("case", TRV706_CASES)
def test_trv706(case: str) -> None:
    assert_marked(HEAD + textwrap.dedent(TRV706_CASES[case]))


def test_default_selection_leaves_out_trv706() -> None:
    source = (
        HEAD
        + textwrap.dedent(TRV706_CASES["dict-artifact"])
        + textwrap.dedent(
            """\


        @tool
        def status(order_id: str) -> str:
            return "shipped"
        """
        )
    )
    codes = {code for code, _ in findings(source, select=None)}
    assert codes == {"TRV702"}
    assert {code for code, _ in findings(source)} == {"TRV702", "TRV706"}


# ------------------------------------------------------------------ TRV901 / TRV902


def test_returned_tool_exception() -> None:
    source = """\
        from langchain_core.tools import ToolException, tool


        @tool
        def status(order_id: str) -> str:
            \"\"\"The status of an order.\"\"\"
            if not order_id:
                return ToolException("no order id")  # !TRV901
            return "shipped"
        """
    assert_marked(source, "TRV901")


def test_unawaited_coroutine() -> None:
    source = """\
        from langchain_core.tools import tool


        async def fetch(order_id: str) -> str:
            return order_id


        @tool
        async def status(order_id: str) -> str:
            \"\"\"The status of an order.\"\"\"
            return fetch(order_id)  # !TRV902


        @tool
        async def status_ok(order_id: str) -> str:
            \"\"\"The status of an order.\"\"\"
            return await fetch(order_id)
        """
    assert_marked(source, "TRV902")


# ------------------------------------------------------------------ flake8 parity


def test_flake8_reports_what_toolret_reports_on_one_file() -> None:
    path = "examples/langchain/support_tools.py"
    toolret = subprocess.run(
        [sys.executable, "-m", "lint_rules", "check", path, "--select", "TRV7",
         "--output-format", "json", "--no-cache"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    flake8 = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TRV7", "--format", "%(row)d|%(code)s", path],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    ours = {(d["location"]["row"], d["code"]) for d in json.loads(toolret.stdout)}
    theirs = {(int(r), c) for r, c in (line.split("|") for line in flake8.stdout.splitlines())}
    assert len(ours) == 7 and ours == theirs
