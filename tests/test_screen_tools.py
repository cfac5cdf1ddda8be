"""The tool-function families' second screens (``frameworks/<family>/screen.py``): a module
that only builds an agent, a client, a chain or options is skipped, and every construct a
rule or a tool function starts from — also through an alias, a registration call, a method
— keeps it; with the screen on and off the diagnostics are the same."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable

import pytest

from lint_rules import engine
from lint_rules.analysis.screen import ModuleView, view_of
from lint_rules.config import Settings
from tests.test_screen_loops import _check as check_counting

FAMILIES = (
    "polyai",
    "browser_use",
    "openai_agents",
    "mcp",
    "langchain",
    "pydantic_ai",
    "claude_agent_sdk",
)
SCREENED = Settings().with_overrides(select=["ALL"], ignore=["TRV005"])
"""Every rule but TRV005 (which reads every module's text: the screen is then off)."""
DEFAULT = Settings()


def _screen(family: str) -> Callable[[ModuleView], bool]:
    module = importlib.import_module(f"lint_rules.frameworks.{family}.screen")
    needs: Callable[[ModuleView], bool] = module.needs_libcst
    return needs


def _check(
    source: str, path: str, settings: Settings, screen: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[object], int]:
    """The diagnostics (as JSON) with the screen on or off, and how many LibCST parses
    (``test_screen_loops._check``, shared)."""
    found, parses = check_counting(source, path, settings, screen, monkeypatch)
    return [d.to_json() for d in found], parses


def _needs(family: str, source: str, path: str) -> bool:
    return _screen(family)(view_of(ast.parse(source), path))


# ------------------------------------------------------------------ skipped modules

SKIPPED: list[tuple[str, str, str, str]] = [
    # (family, case, path, source)
    (
        "polyai",
        "a functions/ folder of another project",
        "app/functions/helpers.py",
        "def helpers(values):\n    return sorted(values)\n",
    ),
    (
        "polyai",
        "a Conversation class, no conv parameter",
        "chat/models.py",
        "class Conversation:\n    pass\n\n\ndef handle(data: Conversation):\n    return {}\n",
    ),
    (
        "polyai",
        "conv is not the stem function's first parameter",
        "flows/booking/functions/confirm.py",
        "def confirm(flow, conv):\n    return 1\n\n\ndef other(conv):\n    return 2\n",
    ),
    (
        "browser_use",
        "an agent run",
        "run.py",
        "from browser_use import Agent\n\nagent = Agent(task='find a flight', llm=llm)\n"
        "agent.run_sync()\n",
    ),
    (
        "browser_use",
        "ActionResult named, never called",
        "hooks.py",
        "from browser_use import ActionResult\n\n\ndef last(results: list[ActionResult]):\n"
        "    return results[-1].extracted_content\n",
    ),
    (
        "openai_agents",
        "a runner",
        "main.py",
        "from agents import Runner\n\n\nasync def main(agent):\n"
        "    result = await Runner.run(agent, 'hi')\n    return result.final_output\n",
    ),
    (
        "openai_agents",
        "another library's Agent",
        "crew.py",
        "from agents.mcp import MCPServerStdio\nfrom crewai import Agent\n\n"
        "server = MCPServerStdio(params={})\n"
        "researcher = Agent(role='r', goal='g', tool_use_behavior='stop')\n",
    ),
    (
        "mcp",
        "a client",
        "client.py",
        "from mcp import ClientSession\n\n\nasync def ask(session: ClientSession):\n"
        "    tools = await session.list_tools()\n"
        "    return await session.call_tool('search', {'q': 'x'})\n",
    ),
    (
        "mcp",
        "a server that only runs",
        "main.py",
        "from mcp.server.fastmcp import FastMCP\n\nfrom .tools import register\n\n"
        "mcp = FastMCP('demo')\nregister(mcp)\n\nif __name__ == '__main__':\n    mcp.run()\n",
    ),
    (
        "mcp",
        "CrewAI's bare @tool beside an MCP client",
        "assistant.py",
        "from crewai.tools import tool\nfrom mcp import StdioServerParameters, stdio_client\n\n\n"
        "@tool\ndef search(q: str) -> str:\n    return q\n",
    ),
    (
        "langchain",
        "a chain",
        "chain.py",
        "from langchain_core.prompts import ChatPromptTemplate\n"
        "from langchain_openai import ChatOpenAI\n\n"
        "prompt = ChatPromptTemplate.from_messages([('system', 'be brief')])\n"
        "chain = prompt | ChatOpenAI()\n",
    ),
    (
        "langchain",
        "a graph",
        "graph.py",
        "from langgraph.graph import END, StateGraph\n\n\ndef node(state):\n"
        "    return {'messages': []}\n\n\ngraph = StateGraph(dict)\n"
        "graph.add_node('n', node)\ngraph.add_edge('n', END)\n",
    ),
    (
        "langchain",
        "CrewAI's tool in a LangChain module",
        "crew_tools.py",
        "from crewai.tools import tool\nfrom langchain_openai import ChatOpenAI\n\n\n"
        "@tool('search')\ndef search(q):\n    return q\n",
    ),
    (
        "pydantic_ai",
        "an agent without tools",
        "agent.py",
        "from pydantic_ai import Agent\n\nagent = Agent('openai:gpt-4o', system_prompt='x')\n"
        "print(agent.run_sync('hi').output)\n",
    ),
    (
        "pydantic_ai",
        "an output model",
        "models.py",
        "from pydantic import BaseModel\nfrom pydantic_ai import Agent\n\n\n"
        "class Answer(BaseModel):\n    text: str\n\n\n"
        "agent = Agent('openai:gpt-4o', output_type=Answer)\n",
    ),
    (
        "claude_agent_sdk",
        "options and a query",
        "run.py",
        "from claude_agent_sdk import ClaudeAgentOptions, query\n\n"
        "options = ClaudeAgentOptions(allowed_tools=['Read'])\n\n\nasync def main():\n"
        "    async for message in query(prompt='hi', options=options):\n        print(message)\n",
    ),
    (
        "claude_agent_sdk",
        "CrewAI's tool in a Claude Agent SDK module",
        "crew.py",
        "from claude_agent_sdk import query\nfrom crewai.tools import tool\n\n\n"
        "@tool('search')\ndef search(q):\n    return None\n",
    ),
]


@pytest.mark.parametrize(
    ("family", "case", "path", "source"), SKIPPED, ids=[f"{f}: {c}" for f, c, _, _ in SKIPPED]
)
def test_skipped(
    family: str, case: str, path: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert engine.frameworks()[engine_keys().index(family)].has_signal(source, path)
    assert not _needs(family, source, path)
    for settings in (SCREENED, DEFAULT):
        on, parses = _check(source, path, settings, True, monkeypatch)
        off, _ = _check(source, path, settings, False, monkeypatch)
        assert on == off == []
        assert parses == 0


def engine_keys() -> list[str]:
    return [f.key for f in engine.frameworks()]


# ------------------------------------------------------------------ kept modules

KEPT: list[tuple[str, str, str, str, str | None]] = [
    # (family, case, path, source, a code the module is reported with)
    (
        "polyai",
        "a layout function",
        "agent/functions/lookup.py",
        "def lookup(conv):\n    return 5\n",
        "TRV101",
    ),
    (
        "polyai",
        "a Conversation annotation outside the layout, in an if block",
        "src/lookup.py",
        "import sys\n\nif sys:\n    def lookup(c: 'poly.Conversation', flow=None):\n"
        "        return 5\n",
        None,
    ),
    (
        "polyai",
        "an attribute annotation",
        "src/lookup.py",
        "def lookup(c: poly.Conversation):\n    return 5\n",
        "TRV101",
    ),
    (
        "browser_use",
        "an action in a method",
        "tools.py",
        "from browser_use import Tools\n\n\nclass Mine:\n    def __init__(self):\n"
        "        self.tools = Tools()\n\n"
        "        @self.tools.registry.action('Count')\n        def count(n: int):\n"
        "            return n\n",
        "TRV201",
    ),
    (
        "browser_use",
        "an aliased ActionResult",
        "helpers.py",
        "from browser_use import ActionResult as AR\n\n\ndef done():\n"
        "    return AR(extracted_content=5)\n",
        "TRV205",
    ),
    (
        "browser_use",
        "an alias the view's import table loses",
        "helpers.py",
        "from browser_use import ActionResult as R\n\n\ndef done():\n"
        "    return R(extracted_content=5)\n\n\ndef other():\n"
        "    from collections import OrderedDict as R\n    return R()\n",
        "TRV205",
    ),
    (
        "openai_agents",
        "an Agent call through a module alias",
        "agent.py",
        "import agents as sdk\n\na = sdk.Agent(name='a', tool_use_behavior='stop_at_first_tool')\n",
        "TRV301",
    ),
    (
        "openai_agents",
        "a misspelled Agent argument",
        "agent.py",
        "from agents import Agent as A\n\na = A(name='a', instruction='be brief')\n",
        "TRV310",
    ),
    (
        "openai_agents",
        "an aliased function_tool",
        "tools.py",
        "from agents import function_tool as ft\n\n\n@ft\ndef search(q: str) -> object:\n"
        "    return object()\n",
        None,
    ),
    (
        "openai_agents",
        "a function_tool(fn) call",
        "tools.py",
        "from agents import function_tool\n\n\ndef search(q: str):\n    return None\n\n\n"
        "SEARCH = function_tool(search)\n",
        None,
    ),
    (
        "openai_agents",
        "a behaviour annotated with a string",
        "behaviour.py",
        "from agents import ToolsToFinalOutputResult as R\n\n\n"
        "def decide(ctx, results) -> 'R':\n    return None\n",
        "TRV303",
    ),
    (
        "mcp",
        "a bare @mcp.tool",
        "server.py",
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('demo')\n\n\n@mcp.tool\n"
        "def add(a: int, b: int) -> int:\n    return a + b\n",
        "TRV601",
    ),
    (
        "mcp",
        "add_tool",
        "server.py",
        "import json\n\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('demo')\n\n\n"
        "def find(q: str):\n    return json.dumps({'q': q})\n\n\nmcp.add_tool(find)\n",
        "TRV606",
    ),
    (
        "mcp",
        "tool(...)(fn)",
        "server.py",
        "import json\n\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('demo')\n\n\n"
        "def find(q: str):\n    return json.dumps({'q': q})\n\n\nmcp.tool(name='find')(find)\n",
        "TRV606",
    ),
    (
        "mcp",
        "tools=[...] of an aliased standalone FastMCP",
        "server.py",
        "import json\n\nfrom fastmcp import FastMCP as Server\n\n\n"
        "def find(q: str):\n    return json.dumps({'q': q})\n\n\n"
        "app = Server('demo', tools=[find])\n",
        "TRV606",
    ),
    (
        "mcp",
        "a tool of a server attribute",
        "server.py",
        "import json\n\nfrom mcp.server.fastmcp import FastMCP\n\n\nclass App:\n"
        "    def __init__(self):\n        self.mcp = FastMCP('demo')\n\n"
        "        @self.mcp.tool()\n        def find(q: str):\n"
        "            return json.dumps({'q': q})\n",
        "TRV606",
    ),
    (
        "mcp",
        "a low-level call_tool handler",
        "server.py",
        "from mcp.server.lowlevel import Server\n\nserver = Server('demo')\n\n\n"
        "@server.call_tool()\nasync def handle(name, arguments):\n    return None\n",
        "TRV603",
    ),
    (
        "langchain",
        "an aliased @tool",
        "tools.py",
        "from langchain_core.tools import tool as lc_tool\n\n\n@lc_tool\n"
        "def search(q: str) -> str:\n    return q\n",
        "TRV702",
    ),
    (
        "langchain",
        "@tool on a method",
        "tools.py",
        "from langchain.tools import tool\n\n\nclass Shop:\n    @tool\n"
        "    def price(self, item: str) -> str:\n        '''The price.'''\n        return item\n",
        "TRV703",
    ),
    (
        "langchain",
        "StructuredTool.from_function through a module alias",
        "tools.py",
        "import langchain_core.tools as t\n\n\ndef search(q: str) -> str:\n    return q\n\n\n"
        "SEARCH = t.StructuredTool.from_function(func=search, name='search')\n",
        "TRV702",
    ),
    (
        "langchain",
        "a BaseTool subclass",
        "tools.py",
        "from langchain_core.tools import BaseTool\n\n\nclass Search(BaseTool):\n"
        "    name: str = 'search'\n    description: str = 'Search'\n\n"
        "    def _run(self, q: str):\n        return 'found', {'q': q}\n",
        "TRV706",
    ),
    (
        "pydantic_ai",
        "@agent.tool_plain",
        "agent.py",
        "from pydantic_ai import Agent\n\nagent = Agent('openai:gpt-4o')\n\n\n"
        "@agent.tool_plain\ndef roll(ctx) -> int:\n    return 4\n",
        "TRV802",
    ),
    (
        "pydantic_ai",
        "an aliased Tool(fn)",
        "tools.py",
        "from pydantic_ai import Tool as PTool\n\n\ndef roll() -> int:\n    return 4\n\n\n"
        "ROLL = PTool(roll, takes_ctx=True)\n",
        "TRV801",
    ),
    (
        "pydantic_ai",
        "Agent(tools=[...])",
        "agent.py",
        "from pydantic_ai import Agent\n\n\ndef roll(ctx) -> int:\n    return 4\n\n\n"
        "agent = Agent('openai:gpt-4o', tools=[roll])\n",
        "TRV802",
    ),
    (
        "pydantic_ai",
        "FunctionToolset([...])",
        "toolset.py",
        "from pydantic_ai.toolsets import FunctionToolset\n\n\ndef roll(ctx) -> int:\n"
        "    return 4\n\n\ntoolset = FunctionToolset([roll])\n",
        "TRV802",
    ),
    (
        "pydantic_ai",
        "agent.tool(fn)",
        "agent.py",
        "from pydantic_ai import Agent\n\nagent = Agent('openai:gpt-4o')\n\n\n"
        "def roll() -> int:\n    return 4\n\n\nagent.tool(roll)\n",
        "TRV801",
    ),
    (
        "claude_agent_sdk",
        "an aliased @tool",
        "tools.py",
        "from claude_agent_sdk import tool as sdk_tool\n\n\n"
        "@sdk_tool('greet', 'Greet', {'name': str})\ndef greet(args):\n"
        "    return {'content': [{'type': 'text', 'text': 'hi'}]}\n",
        "TRC005",
    ),
    (
        "claude_agent_sdk",
        "a bare @sdk.tool",
        "tools.py",
        "import claude_agent_sdk as sdk\n\n\n@sdk.tool\nasync def greet(args):\n"
        "    return {'content': [{'type': 'text', 'text': 'hi'}]}\n",
        "TRC006",
    ),
    (
        "claude_agent_sdk",
        "a function wrapped by tool(...)(fn)",
        "tools.py",
        "from claude_agent_sdk import tool\n\n\ndef greet(args):\n"
        "    return {'content': [{'type': 'text', 'text': 'hi'}]}\n\n\n"
        "greet_tool = tool('greet', 'Greet', {})(greet)\n",
        "TRC005",
    ),
]


@pytest.mark.parametrize(
    ("family", "case", "path", "source", "code"),
    KEPT,
    ids=[f"{f}: {c}" for f, c, _, _, _ in KEPT],
)
def test_kept(
    family: str,
    case: str,
    path: str,
    source: str,
    code: str | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _needs(family, source, path)
    for settings in (SCREENED, DEFAULT):
        on, parses = _check(source, path, settings, True, monkeypatch)
        off, _ = _check(source, path, settings, False, monkeypatch)
        assert on == off
        assert parses == 1
    if code is not None:
        found, _ = _check(source, path, SCREENED, True, monkeypatch)
        assert code in {d["code"] for d in found if isinstance(d, dict)}


def test_every_family_has_its_screen() -> None:
    by_key = {f.key: f for f in engine.frameworks()}
    tree = ast.parse("x = 1\n")
    for family in FAMILIES:
        framework = by_key[family]
        view = view_of(tree, "x.py")
        assert framework.needs_libcst(view) is False  # type: ignore[attr-defined]


def test_screen_names_match_recognition() -> None:
    """The qualified names each screen resolves are recognition's own."""
    from lint_rules.frameworks.claude_agent_sdk import recognition as claude
    from lint_rules.frameworks.claude_agent_sdk import screen as claude_screen
    from lint_rules.frameworks.langchain import recognition as langchain
    from lint_rules.frameworks.langchain import screen as langchain_screen
    from lint_rules.frameworks.mcp import recognition as mcp
    from lint_rules.frameworks.mcp import screen as mcp_screen
    from lint_rules.frameworks.openai_agents import recognition as agents
    from lint_rules.frameworks.openai_agents import screen as agents_screen
    from lint_rules.frameworks.pydantic_ai import recognition as pydantic
    from lint_rules.frameworks.pydantic_ai import screen as pydantic_screen

    assert langchain_screen.TOOL_DECORATORS == langchain.TOOL_DECORATORS
    assert langchain_screen.STRUCTURED_TOOL == langchain.STRUCTURED_TOOL
    assert langchain_screen.BASE_TOOLS == langchain.BASE_TOOLS
    assert frozenset(mcp.SERVER_CLASSES) == mcp_screen.SERVER_CLASSES
    assert set(mcp_screen.REGISTRARS) == mcp.REGISTRARS
    assert pydantic_screen.AGENT_CLASSES == pydantic.AGENT_CLASSES
    assert pydantic_screen.TOOLSET_CLASSES == pydantic.TOOLSET_CLASSES
    assert pydantic_screen.TOOL_CLASSES == pydantic.TOOL_CLASSES
    assert frozenset({claude.TOOL}) == claude_screen.TOOL
    canonical = agents._CANONICAL
    assert {
        q for q, c in canonical.items() if c in agents._AGENT_CLASSES
    } == agents_screen.AGENT_CLASSES
    assert {q for q, c in canonical.items() if c == agents.RESULT} == agents_screen.RESULT
    assert {
        q for q, c in canonical.items() if c == agents.FUNCTION_TOOL
    } == agents_screen.FUNCTION_TOOL


def test_an_alias_bound_twice() -> None:
    """``ModuleView.imports`` keeps one import per local name (the last its walk meets);
    ``import_pairs`` keeps both, and an alias bound twice counts under each name it was
    imported as."""
    source = (
        "from browser_use import ActionResult as R\n\n\ndef done():\n"
        "    return R(extracted_content=5)\n\n\ndef other():\n"
        "    from collections import OrderedDict as R\n    return R()\n"
    )
    view = view_of(ast.parse(source), "helpers.py")
    assert view.calls("ActionResult") and view.calls("OrderedDict")
    assert _screen("browser_use")(view)
