"""Pydantic AI tools (TRV801–TRV803): acceptance tests.

Agents and function toolsets are recognised by import (``pydantic_ai.Agent``,
``Agent[Deps, Out](...)``, ``FunctionToolset`` from ``pydantic_ai`` or
``pydantic_ai.toolsets``), bound at module level, as function locals, as
annotated parameters or as ``self.x``; tools are decorated (``tool``,
``tool_plain``, with or without arguments), built with ``Tool(...)`` or listed
in ``tools=[...]``. Whether a tool takes the context follows pydantic-ai-slim
1.107 / 2.68; ``FunctionToolset.tool`` on a plain function (1.x warns, 2.x
raises) is not reported.

Sources mark the line where a diagnostic starts with ``# !TRV8NN``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from marks import Marks

ROOT = Path(__file__).resolve().parent.parent
MARKS = Marks("TRV8", "agent.py")
findings, marked, assert_marked = MARKS.findings, MARKS.marked, MARKS.assert_marked


# ------------------------------------------------------------------ recognition forms

AGENTS = [
    ("from pydantic_ai import Agent", "Agent('test')"),
    ("from pydantic_ai.agent import Agent", "Agent('test')"),
    ("import pydantic_ai", "pydantic_ai.Agent('test')"),
    ("from pydantic_ai import Agent as PAgent", "PAgent('test')"),
    ("from pydantic_ai import Agent", "Agent[Deps, str]('test', deps_type=Deps)"),
]


@pytest.mark.parametrize(("imports", "constructor"), AGENTS)
@pytest.mark.parametrize("decorator", ["tool", "tool(retries=2)"])
def test_agent_constructors_and_decorators(imports: str, constructor: str, decorator: str) -> None:
    assert_marked(f"""\
        {imports}

        agent = {constructor}


        @agent.{decorator}
        def lookup(order_id: str) -> str:  # !TRV801
            return order_id
    """)


@pytest.mark.parametrize("decorator", ["tool_plain", "tool_plain(requires_approval=True)"])
def test_tool_plain_forms(decorator: str) -> None:
    assert_marked(f"""\
        from pydantic_ai import Agent, RunContext

        agent = Agent('test')


        @agent.{decorator}
        def lookup(ctx: RunContext[int], order_id: str) -> str:  # !TRV801
            return order_id
    """)


def test_local_agent_self_attribute_and_annotated_parameter() -> None:
    assert_marked("""\
        from pydantic_ai import Agent, RunContext


        def build():
            agent = Agent('test')

            @agent.tool
            async def local(query: str) -> str:  # !TRV801
                return query

            return agent


        def register(agent: Agent[int, str]) -> None:
            @agent.tool
            def annotated(query: str) -> str:  # !TRV801
                return query


        class Assistant:
            def __init__(self) -> None:
                self.agent = Agent('test')

                @self.agent.tool
                def attribute(query: str) -> str:  # !TRV801
                    return query

                @self.agent.tool
                def right(ctx: RunContext[None], query: str) -> str:
                    return query
    """)


@pytest.mark.parametrize(
    "imports",
    ["from pydantic_ai import FunctionToolset", "from pydantic_ai.toolsets import FunctionToolset"],
)
def test_function_toolset_forms(imports: str) -> None:
    assert_marked(f"""\
        {imports}
        from pydantic_ai import RunContext


        def fetch(arxiv_id: str, ctx: RunContext[int]) -> str:  # !TRV801
            return arxiv_id


        def plain(arxiv_id: str) -> str:
            return arxiv_id


        toolset = FunctionToolset([fetch, plain])
        other = FunctionToolset(tools=[plain])


        @toolset.tool
        def now() -> str:
            return "now"


        @toolset.tool
        def version_split(arxiv_id: str) -> str:
            return arxiv_id


        @toolset.tool(metadata={{"kind": "search"}})
        def second(arxiv_id: str, ctx: RunContext[int]) -> str:  # !TRV801
            return arxiv_id


        @toolset.tool_plain
        def plain_ctx(ctx: RunContext[int]) -> str:  # !TRV801
            return "x"
    """)


def test_tool_objects_and_tools_lists() -> None:
    assert_marked("""\
        from pydantic_ai import Agent, RunContext, Tool


        def roll(sides: int) -> str:  # !TRV801
            return str(sides)


        def player(ctx: RunContext[str]) -> str:  # !TRV801
            return ctx.deps


        def inferred(ctx: RunContext[str], x: int) -> str:
            return ctx.deps


        def unannotated(ctx, x: int) -> str:  # !TRV802
            return str(x)


        TOOLS = [inferred, unannotated]
        agent = Agent(
            'test',
            tools=[Tool(roll, takes_ctx=True), Tool(function=player, takes_ctx=False), *TOOLS],
        )
        other = Agent('test', tools=TOOLS)
    """)


def test_a_projects_own_agent_class_is_not_pydantic_ai() -> None:
    source = """\
        from pydantic_ai import RunContext


        class Agent:
            def tool(self, fn):
                return fn

            tool_plain = tool


        class Record:
            pass


        agent = Agent()


        @agent.tool
        def lookup(order_id: str) -> Record:
            return Record()


        @agent.tool_plain
        def plain(ctx, c: RunContext[int]) -> str:
            return ""
    """
    assert findings(source, "TRV8") == set()
    assert findings(source, "TRV9") == set()


def test_unimported_agent_name_is_not_recognised() -> None:
    assert (
        findings("""\
        from myframework import Agent

        agent = Agent('x')


        @agent.tool
        def today() -> str:
            return "today"
    """)
        == set()
    )


# ------------------------------------------------------------------ TRV801


def test_trv801_positives() -> None:
    assert_marked("""\
        from typing import Annotated, Optional

        from pydantic import BaseModel, Field
        from pydantic_ai import Agent, RunContext

        agent = Agent('test')


        class Query(BaseModel):
            text: str


        @agent.tool
        def a(query: list[str]) -> str:  # !TRV801
            return ""


        @agent.tool
        def b(query: Optional[str] = None) -> str:  # !TRV801
            return ""


        @agent.tool
        def c(query: Query) -> str:  # !TRV801
            return ""


        @agent.tool
        def d(query: str | None) -> str:  # !TRV801
            return ""


        @agent.tool
        def e(query: Annotated[str, Field(description="q")]) -> str:  # !TRV801
            return ""


        @agent.tool
        def f() -> str:  # !TRV801
            return ""


        @agent.tool
        def g(ctx: RunContext[int], other: "RunContext[int]") -> str:  # !TRV801
            return ""


        @agent.tool
        def h(query: "str") -> str:  # !TRV801
            return ""
    """)


def test_trv801_negatives_from_real_code() -> None:
    assert_marked("""\
        from __future__ import annotations

        from pydantic_ai import Agent, RunContext
        from pydantic_ai import tools as pai_tools

        from .deps import Deps, Ctx

        agent = Agent('test', deps_type=Deps)
        Alias = RunContext[Deps]


        @agent.tool
        async def bare(ctx: RunContext, q: str) -> str:
            return q


        @agent.tool
        async def string_form(ctx: "RunContext[Deps]", q: str) -> str:
            return q


        @agent.tool
        async def qualified(ctx: pai_tools.RunContext[Deps], q: str) -> str:
            return q


        @agent.tool
        async def unannotated(ctx, q: str) -> str:
            return q


        @agent.tool
        async def alias(ctx: Alias, q: str) -> str:
            return q


        @agent.tool
        async def imported_alias(ctx: Ctx, q: str) -> str:
            return q


        @agent.tool_plain
        def plain(q: str) -> str:
            return q


        @agent.tool
        def star(*args) -> str:
            return ""
    """)


# ------------------------------------------------------------------ TRV802


def test_trv802() -> None:
    assert_marked("""\
        from pydantic_ai import Agent, RunContext, Tool

        agent = Agent('test')


        @agent.tool_plain
        def a(ctx, city: str) -> str:  # !TRV802
            return city


        @agent.tool_plain()
        def b(context) -> str:  # !TRV802
            return ""


        @agent.tool_plain
        def optional(ctx=None, city: str = "") -> str:
            return city


        @agent.tool_plain
        def real_argument(context: str) -> str:
            return context


        @agent.tool
        def context_tool(ctx, city: str) -> str:
            return city


        def later(city: str, ctx) -> str:
            return city


        def plain_ctx(ctx, city: str) -> str:  # !TRV802
            return city


        other = Agent('test', tools=[later, Tool(plain_ctx, takes_ctx=False)])
    """)


# ------------------------------------------------------------------ TRV803


def test_trv803() -> None:
    assert_marked("""\
        import enum
        from dataclasses import dataclass
        from typing import NamedTuple, TypedDict

        from pydantic import BaseModel
        from pydantic_ai import Agent

        from .base import Record

        agent = Agent('test')


        class Plain:
            def __init__(self, x: int) -> None:
                self.x = x


        class WithObject(object):
            def __str__(self) -> str:
                return "x"


        class Model(BaseModel):
            x: int


        @dataclass
        class Data:
            x: int


        class Row(NamedTuple):
            x: int


        class Typed(TypedDict):
            x: int


        class Colour(enum.Enum):
            RED = 1


        class Unknown(Record):
            pass


        class Custom:
            @classmethod
            def __get_pydantic_core_schema__(cls, source, handler):
                return handler(str)


        @agent.tool_plain
        def direct(x: int):
            return Plain(x)  # !TRV803


        @agent.tool_plain
        def via_name(x: int):
            result = WithObject()
            return result  # !TRV803


        @agent.tool_plain
        def nested(x: int) -> dict:
            return {"ok": True, "items": [Plain(x)]}  # !TRV803


        @agent.tool_plain
        def comprehension(xs: list[int]) -> list:
            return [Plain(x) for x in xs]  # !TRV803


        @agent.tool_plain
        def fine(x: int):
            if x:
                return Model(x=x)
            if x > 1:
                return Data(x)
            if x > 2:
                return Row(x)
            if x > 3:
                return Typed(x=x)
            if x > 4:
                return Colour.RED
            if x > 5:
                return Unknown(x)
            return Custom()


        def not_a_tool(x: int):
            return Plain(x)


        @agent.tool_plain
        def parameter(p: Plain) -> str:
            return str(p)
    """)


# ------------------------------------------------------------------ TRV901 through the family


def test_trv901_on_a_returned_model_retry() -> None:
    source = """\
        from pydantic_ai import Agent, ModelRetry, RunContext

        agent = Agent('test', deps_type=dict)


        @agent.tool
        def lookup(ctx: RunContext[dict], order_id: str) -> str:
            if order_id not in ctx.deps:
                return ModelRetry(f"No order {order_id}")  # !TRV901
            return ctx.deps[order_id]


        @agent.tool
        def raising(ctx: RunContext[dict], order_id: str) -> str:
            if order_id not in ctx.deps:
                raise ModelRetry(f"No order {order_id}")
            return ctx.deps[order_id]
    """
    assert_marked(source, "TRV9")
    assert findings(source, "TRV8") == set()


# ------------------------------------------------------------------ corpus shapes


def test_all_rag_strategies_shape() -> None:
    """ottomator-agents/all-rag-strategies/examples/02_agentic_rag.py (16 such tools)."""
    assert_marked("""\
        from pydantic_ai import Agent

        agent = Agent('openai:gpt-4o-mini', system_prompt='You are a RAG assistant.')


        @agent.tool
        async def vector_search(query: str, limit: int = 5) -> str:  # !TRV801
            \"\"\"Search the vector database.\"\"\"
            return ""


        @agent.tool
        async def sql_query(question: str) -> str:  # !TRV801
            return ""
    """)


# ------------------------------------------------------------------ flake8 parity


def test_flake8_reports_what_toolret_reports_on_one_file() -> None:
    path = "examples/pydantic_ai/support_agent.py"
    toolret = subprocess.run(
        [sys.executable, "-m", "lint_rules", "check", path, "--select", "TRV8",
         "--output-format", "json", "--no-cache"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    flake8 = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TRV8", "--format", "%(row)d|%(code)s", path],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    ours = {(d["location"]["row"], d["code"]) for d in json.loads(toolret.stdout)}
    theirs = {(int(r), c) for r, c in (line.split("|") for line in flake8.stdout.splitlines())}
    assert ours and ours == theirs
