"""Project facts: what a rule needs to know about another module is read there.

A tool whose ``except`` branch ends in ``raise_tool_error(e)`` — a helper annotated
``NoReturn`` (or one that always raises) in a sibling module — does not fall off the
end; a helper that only logs does. A tool that returns ``format_price(p)`` from
``utils.py`` returns what that function's annotation says. Both through imports
(absolute, relative, ``as``, ``__init__`` re-exports, a module imported whole, a
``staticmethod`` called through its class), cached with the result and re-checked when
the other module changes; flake8, which sees one file, reads no other module and says
no more than it did.
"""

from __future__ import annotations

import ast
import os
import textwrap
from pathlib import Path

import pytest
from test_mcp_project import write

from lint_rules import runner
from lint_rules.analysis.project import Project
from lint_rules.analysis.summaries import SUMMARY_SOURCE_LIMIT, SummaryStore, summarise
from lint_rules.cache import ResultCache
from lint_rules.config import Settings, SettingsResolver
from lint_rules.engine import check_source

Found = list[tuple[str, int, str]]

ERRORS = """\
from typing import NoReturn

import logging

logger = logging.getLogger(__name__)


class ToolError(Exception):
    pass


def raise_tool_error(e: Exception, op: str) -> NoReturn:
    raise ToolError(op) from e


def fail(op):
    logger.error(op)
    raise ToolError(op)


async def handle_auth_error(e):
    raise ToolError(str(e))


def log_error(e):
    logger.error(e)


class Errors:
    @staticmethod
    def raise_it(e):
        raise ToolError(str(e))
"""

SERVER = """\
from mcp.server.fastmcp import FastMCP
<IMPORT>

mcp = FastMCP("x")


@mcp.tool()
async def get_profile(name: str) -> dict[str, str]:
    try:
        return {"name": name}
    except Exception as e:
        <CALL>
"""


def server(imports: str, call: str) -> str:
    return SERVER.replace("<IMPORT>", imports).replace("<CALL>", call)


def check(
    paths: list[Path], cache: ResultCache | None = None, store: SummaryStore | None = None
) -> Found:
    resolver = SettingsResolver()
    project = Project(revalidate=False, summaries=store or SummaryStore())
    result = runner.run(paths, resolver, project=project, cache=cache, jobs=1)
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics)


def flake8_style(path: Path) -> list[tuple[int, str]]:
    """What flake8 sees: one file, no other module read."""
    settings = Settings().with_overrides(select=["ALL"])
    found = check_source(path.read_text(), str(path), settings, Project())
    return [(d.location.row, d.code) for d in found]


# ------------------------------------------------------- the reproducer, and its forms

SILENT = [
    ("from pkg.errors import raise_tool_error", 'raise_tool_error(e, "get_profile")'),
    ("from pkg import raise_tool_error", 'raise_tool_error(e, "get_profile")'),  # re-export
    ("from pkg import rte", 'rte(e, "get_profile")'),  # re-exported under another name
    ("from pkg.errors import raise_tool_error as rte", 'rte(e, "get_profile")'),
    ("from pkg.errors import Errors", "Errors.raise_it(e)"),  # a staticmethod via its class
    ("from . import errors", 'errors.raise_tool_error(e, "get_profile")'),
    ("from .errors import fail", 'fail("get_profile")'),  # always raises, not annotated
    ("import pkg.errors", 'pkg.errors.fail("get_profile")'),
    ("from .errors import handle_auth_error", "await handle_auth_error(e)"),
]


@pytest.mark.parametrize(("imports", "call"), SILENT)
def test_an_imported_helper_that_never_returns_ends_the_tool(
    tmp_path: Path, imports: str, call: str
) -> None:
    write(
        tmp_path,
        {
            "pkg/__init__.py": "from .errors import raise_tool_error, raise_tool_error as rte\n",
            "pkg/errors.py": ERRORS,
            "pkg/server.py": server(imports, call),
        },
    )
    assert check([tmp_path]) == []
    assert check([tmp_path / "pkg" / "server.py"]) == []  # what pre-commit passes


RETURNS = [
    ("from pkg.errors import log_error", "log_error(e)"),
    ("from . import errors", "errors.log_error(e)"),
    ("from pkg import log_error", "log_error(e)"),
    # an ``async def`` called without ``await`` returns a coroutine: its body never runs
    ("from .errors import handle_auth_error", "handle_auth_error(e)"),
]


@pytest.mark.parametrize(("imports", "call"), RETURNS)
def test_an_imported_helper_that_returns_is_still_a_fall_through(
    tmp_path: Path, imports: str, call: str
) -> None:
    write(
        tmp_path,
        {
            "pkg/__init__.py": "from .errors import log_error\n",
            "pkg/errors.py": ERRORS,
            "pkg/server.py": server(imports, call),
        },
    )
    # At the function's name (line 8), not at its return annotation.
    assert ("server.py", 8, "TRV602") in check([tmp_path])
    assert ("server.py", 8, "TRV602") in check([tmp_path / "pkg" / "server.py"])


def test_the_message_names_the_except_branch_that_falls_through(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pkg/errors.py": ERRORS,
            "pkg/server.py": server("from pkg.errors import log_error", "log_error(e)"),
        },
    )
    resolver = SettingsResolver()
    project = Project(revalidate=False, summaries=SummaryStore())
    result = runner.run([tmp_path], resolver, project=project, jobs=1)
    (found,) = result.diagnostics
    assert (found.location.row, found.location.column) == (8, 11)  # ``get_profile``
    assert "returns `None` when the `except` branch at line 11 is taken" in found.message
    assert "at every such call" not in found.message


def test_a_helper_defined_in_the_same_module_that_always_raises(tmp_path: Path) -> None:
    text = server("", 'fail("x")') + "\n\ndef fail(op):\n    raise RuntimeError(op)\n"
    write(tmp_path, {"server.py": text})
    assert check([tmp_path]) == []
    assert flake8_style(tmp_path / "server.py") == []


def test_a_method_called_through_self_is_looked_up_in_the_project_bases(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "base.py": "class Base:\n    def fail(self, e):\n        raise RuntimeError(e)\n",
            "tools.py": """\
            from mcp.server.fastmcp import FastMCP

            from base import Base

            mcp = FastMCP("x")


            class Tools(Base):
                def register(self):
                    @mcp.tool()
                    def lookup(x: int) -> str:
                        return str(x)

                def run(self, x: int) -> str:
                    try:
                        return str(x)
                    except ValueError as e:
                        self.fail(e)
            """,
        },
    )
    store = SummaryStore()
    check([tmp_path], store=store)
    path = str(tmp_path / "tools.py")
    assert store.method_never_returns(path, "Tools", "fail") is True
    assert store.method_never_returns(path, "Tools", "missing") is None


# ------------------------------------------------------------ what is not certain


def test_what_cannot_be_resolved_is_not_reported(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pkg/broken.py": "def fail(:\n",  # does not parse
            "pkg/cycle_a.py": "from pkg.cycle_b import b\n\ndef a(e):\n    b(e)\n",
            "pkg/cycle_b.py": "from pkg.cycle_a import a\n\ndef b(e):\n    a(e)\n",
            "pkg/big.py": "def fail(e):\n    raise e\n" + "#" * (SUMMARY_SOURCE_LIMIT + 1),
            "pkg/s1.py": server("from pkg.broken import fail", "fail(e)"),
            "pkg/s2.py": server("from pkg.cycle_a import a", "a(e)"),
            "pkg/s3.py": server("from pkg.big import fail", "fail(e)"),
            "pkg/s4.py": server("from ...above import fail", "fail(e)"),  # above the root
            "pkg/s5.py": server("from pkg.missing import fail", "fail(e)"),
            "pkg/s6.py": server(
                "from pkg.errors import ToolError", "handler = ToolError\n" + " " * 8 + "handler(e)"
            ),
        },
    )
    os.symlink(tmp_path / "pkg" / "loop.py", tmp_path / "pkg" / "loop.py")
    (tmp_path / "pkg" / "s7.py").write_text(server("from pkg.loop import fail", "fail(e)"))
    (tmp_path / "pkg" / "errors.py").write_text(ERRORS)
    assert check([tmp_path]) == [("loop.py", 1, "TRV003")]  # the walk's own finding
    assert check([tmp_path / "pkg" / f"s{n}.py" for n in range(1, 8)]) == []


def test_a_third_party_function_returns(tmp_path: Path) -> None:
    write(tmp_path, {"server.py": server("from rich import print", "print(e)")})
    assert check([tmp_path]) == [("server.py", 8, "TRV602")]
    # ``sys.exit`` and ``pytest.fail`` are on the known list of functions that never return.
    write(tmp_path, {"server.py": server("import pytest", "pytest.fail(str(e))")})
    assert check([tmp_path]) == []


def test_flake8_reads_no_other_module_and_says_no_more(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pkg/errors.py": ERRORS,
            "pkg/a.py": server("from pkg.errors import log_error", "log_error(e)"),
            "pkg/b.py": server(
                "from pkg.errors import raise_tool_error", "raise_tool_error(e, 'x')"
            ),
            "pkg/c.py": server("import logging", "logging.exception(e)"),
        },
    )
    # Imported from a module it cannot read: not certain, silent (before: reported).
    assert flake8_style(tmp_path / "pkg" / "a.py") == []
    assert flake8_style(tmp_path / "pkg" / "b.py") == []
    # The standard library's functions return.
    assert flake8_style(tmp_path / "pkg" / "c.py") == [(8, "TRV602")]
    assert ("c.py", 8, "TRV602") in check([tmp_path])


# ------------------------------------------------------------------- value inference


def test_an_imported_functions_annotation_is_its_value(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "agent_settings/.keep": "",
            "utils.py": "def format_price(p) -> float:\n    return p / 100\n\n"
            "def describe(p) -> str:\n    return f'{p}'\n\n"
            "def shout(p):\n    return 'x'\n\n"
            "def count(p):\n    if p:\n        return 1\n    return 2\n",
            "functions/price.py": """\
            from _gen import *  # <AUTO GENERATED>

            from utils import count, describe, format_price, shout


            def price(conv: Conversation, p: int):
                if p > 10:
                    return describe(p)
                if p > 5:
                    return shout(p)
                if p > 2:
                    return count(p)
                return format_price(p)
            """,
        },
    )
    found = check([tmp_path])
    assert ("price.py", 12, "TRV101") in found  # ``count``: its returns agree on ``int``
    assert ("price.py", 13, "TRV101") in found  # ``-> float``
    assert not [f for f in found if f[1] in (8, 10)]  # ``str``: fine


def test_imported_exception_classes_and_coroutines_are_mistakes(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "errors.py": "class NotFound(LookupError):\n    pass\n\n"
            "class Deeper(NotFound):\n    pass\n\n"
            "async def fetch(x):\n    return x\n",
            "server.py": """\
            from mcp.server.fastmcp import FastMCP

            from errors import Deeper, NotFound, fetch

            mcp = FastMCP("x")


            @mcp.tool()
            async def lookup(x: str):
                if not x:
                    return NotFound(x)
                if x == "a":
                    return Deeper(x)
                return fetch(x)
            """,
        },
    )
    found = check([tmp_path])
    assert ("server.py", 11, "TRV901") in found
    assert ("server.py", 13, "TRV901") in found
    assert ("server.py", 14, "TRV902") in found


# --------------------------------------------------------------- cache, once per run


def test_a_changed_helper_re_checks_the_cached_tool_file(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pkg/errors.py": ERRORS,
            "pkg/server.py": server("from pkg.errors import fail", "fail('x')"),
        },
    )
    cache_dir = tmp_path / ".cache"
    errors = tmp_path / "pkg" / "errors.py"
    for paths in ([tmp_path], [tmp_path / "pkg" / "server.py"]):
        errors.write_text(ERRORS)
        assert check(paths, ResultCache(cache_dir)) == []
        assert check(paths, ResultCache(cache_dir)) == []  # warm
        errors.write_text(ERRORS.replace("    raise ToolError(op)\n", "    return None\n", 1))
        assert check(paths, ResultCache(cache_dir)) == [("server.py", 8, "TRV602")]
        errors.unlink()  # a module that went: uncertain again
        assert check(paths, ResultCache(cache_dir)) == []


def test_a_helper_module_is_summarised_once_per_run(tmp_path: Path) -> None:
    files: dict[str, str | None] = {"pkg/errors.py": ERRORS}
    for n in range(12):
        files[f"pkg/tool{n}.py"] = server("from pkg.errors import log_error, fail", "fail(e)")
    write(tmp_path, files)
    store = SummaryStore()
    assert check([tmp_path], store=store) == []
    errors = str(tmp_path / "pkg" / "errors.py")
    assert store.reads[errors] == 1


# ------------------------------------------------------------------ the summaries


def summary(source: str) -> dict[str, object]:
    return summarise(ast.parse(textwrap.dedent(source)))


def test_a_summary_says_which_functions_never_return() -> None:
    found = summary(
        """
        import sys
        from typing import NoReturn
        from .other import helper

        def annotated() -> NoReturn:
            log()
        def raises():
            raise ValueError
        def branches(x):
            if x:
                raise ValueError
            else:
                sys.exit(1)
        def calls():
            helper()
        def returns(x):
            if x:
                raise ValueError
            return 1
        def falls(x):
            if x:
                raise ValueError
        def param(cb):
            cb()
        def generator():
            yield 1
            raise StopIteration
        """
    )
    never = {name: facts["never"] for name, facts in found["functions"].items()}  # type: ignore[attr-defined]
    assert never["annotated"] is True and never["raises"] is True
    assert never["branches"] == ["call", ["name", "sys.exit"], False]
    assert never["calls"] == ["call", ["name", "helper"], False]
    assert never["returns"] is False and never["falls"] is False
    assert never["param"] is None  # a parameter called: not known
    assert never["generator"] is False


# ------------------------------------------- tools registered by another module (MCP)

REGISTERING = """\
from fastmcp import FastMCP
from fastmcp.tools import FunctionTool

from .tools import fetch, search
from .official import mcp as official

mcp = FastMCP("x", tools=[search])
mcp.add_tool(FunctionTool.from_function(fetch, name="fetch"))
official.add_tool(same)
"""
TOOLS = """\
import json


def search(q: str) -> str:
    return {"q": q}


def fetch(url: str) -> dict[str, str]:
    return json.dumps({"url": url})


def same(q: str) -> str:
    return [q]


def unrelated(q: str) -> str:
    return {"q": q}
"""
REGISTERED: Found = [
    ("tools.py", 5, "TRV602"),
    ("tools.py", 9, "TRV602"),
    ("tools.py", 13, "TRV602"),
]


def registering_project(root: Path, server_text: str = REGISTERING) -> None:
    write(
        root,
        {
            "pkg/__init__.py": "",
            "pkg/official.py": 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("y")\n',
            "pkg/server.py": server_text.replace("fetch, search", "fetch, same, search"),
            "pkg/tools.py": TOOLS,
        },
    )


def test_functions_registered_by_another_module_are_its_tools(tmp_path: Path) -> None:
    registering_project(tmp_path)
    assert check([tmp_path]) == REGISTERED
    assert check([tmp_path / "pkg" / "tools.py"]) == REGISTERED  # pre-commit's one file
    # flake8 sees tools.py alone: no server, no tool (as before).
    assert flake8_style(tmp_path / "pkg" / "tools.py") == []


def test_a_changed_registration_re_checks_the_cached_tools_module(tmp_path: Path) -> None:
    registering_project(tmp_path)
    cache_dir = tmp_path / ".cache"
    server_file = tmp_path / "pkg" / "server.py"
    for paths in ([tmp_path], [tmp_path / "pkg" / "tools.py"]):
        registering_project(tmp_path)
        assert check(paths, ResultCache(cache_dir)) == REGISTERED
        assert check(paths, ResultCache(cache_dir)) == REGISTERED  # warm
        server_file.write_text(REGISTERING.replace("tools=[search]", "tools=[]"))
        assert check(paths, ResultCache(cache_dir)) == REGISTERED[1:2]  # ``same``: not imported
        server_file.unlink()
        assert check(paths, ResultCache(cache_dir)) == []


@pytest.mark.parametrize(
    "server_text",
    [
        # The official SDK takes ``Tool`` objects in ``tools=[...]``, not functions.
        "from mcp.server.fastmcp import FastMCP\nfrom .tools import search\n\n"
        'mcp = FastMCP("x", tools=[search])\n',
        # An output schema of its own: the annotation does not decide it.
        "from fastmcp import FastMCP\nfrom fastmcp.tools import FunctionTool\n"
        "from .tools import search\n\nmcp = FastMCP('x')\n"
        "mcp.add_tool(FunctionTool.from_function(search, output_schema=None))\n",
        "from mcp.server.fastmcp import FastMCP\nfrom .tools import search\n\n"
        'mcp = FastMCP("x")\nmcp.add_tool(search, structured_output=False)\n',
        # A look-alike ``Tool`` class, and a server that is not known.
        "from fastmcp import FastMCP\nfrom mylib import Tool\nfrom .tools import search\n\n"
        "mcp = FastMCP('x')\nmcp.add_tool(Tool.from_function(search))\n",
        "from .tools import search\nfrom .app import mcp\n\nmcp.add_tool(search)\n",
    ],
)
def test_registrations_that_do_not_make_a_checked_tool(tmp_path: Path, server_text: str) -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": server_text, "pkg/tools.py": TOOLS})
    assert check([tmp_path]) == []


def test_same_module_from_function_and_tools_list(tmp_path: Path) -> None:
    text = """\
    from mcp.server.fastmcp import FastMCP
    from mcp.server.fastmcp.tools import Tool


    def search(q: str) -> str:
        return {"q": q}


    def fetch(url: str) -> str:
        return ["x"]


    mcp = FastMCP("x", tools=[Tool.from_function(search)])
    mcp.add_tool(Tool.from_function(fn=fetch))
    """
    write(tmp_path, {"server.py": text})
    assert check([tmp_path]) == [("server.py", 6, "TRV602"), ("server.py", 10, "TRV602")]
    assert [row for row, _ in flake8_style(tmp_path / "server.py")] == [6, 10]


def test_a_package_holding_a_marker_file_still_imports_from_its_parent(tmp_path: Path) -> None:
    # A package with a module named ``setup.py`` looks like a project root of its own; the
    # absolute import ``pkg.errors`` is still found where Python finds it: above ``pkg``.
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/setup.py": "def wizard():\n    pass\n",
            "pkg/errors.py": ERRORS,
            "pkg/tools/__init__.py": "",
            "pkg/tools/server.py": server(
                "from pkg.errors import raise_tool_error", "raise_tool_error(e, 'x')"
            ),
        },
    )
    assert check([tmp_path]) == []
    assert check([tmp_path / "pkg" / "tools" / "server.py"]) == []


# ------------------------------------------- agents and servers made by other modules


AGENTS = """\
from pydantic_ai import Agent


def build_agent(model: str):
    agent = Agent(model, instructions="Be helpful")
    return agent


def typed_agent() -> Agent[None, str]:
    return make()


def maybe_agent(flag):
    if flag:
        return Agent("x")
    return None


support = Agent("openai:gpt-5")
other = build_agent("x")
"""
AGENT_TOOLS = """\
from pydantic_ai import RunContext

from .agents import build_agent, maybe_agent, other, support, typed_agent

agent = build_agent("openai:gpt-5")
second = typed_agent()
third = maybe_agent(True)


@agent.tool
def lookup(city: str) -> str:
    return city


@support.tool_plain
def plain(ctx: RunContext[None], city: str) -> str:
    return city


@other.tool
def lookup2(city: str) -> str:
    return city


@second.tool
def lookup3(city: str) -> str:
    return city


@third.tool
def not_known(city: str) -> str:
    return city
"""


def test_agents_made_by_factories_of_another_module(tmp_path: Path) -> None:
    write(tmp_path, {"app/__init__.py": "", "app/agents.py": AGENTS, "app/tools.py": AGENT_TOOLS})
    expected = [("tools.py", row, "TRV801") for row in (11, 16, 21, 26)]
    assert check([tmp_path]) == expected
    assert check([tmp_path / "app" / "tools.py"]) == expected
    assert flake8_style(tmp_path / "app" / "tools.py") == []  # one file: not known


def test_an_mcp_server_made_by_a_factory_of_another_module(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/factory.py": "from fastmcp import FastMCP\n\n"
            "def create_server(name: str) -> FastMCP:\n    return FastMCP(name)\n",
            # (the module imports from ``fastmcp``: the family's signal)
            "app/tools.py": "from fastmcp import Context\n\nfrom .factory import create_server\n\n"
            "mcp = create_server('x')\n\n\n"
            "@mcp.tool\ndef lookup(x: int, ctx: Context) -> str:\n    return {'x': x}\n",
        },
    )
    assert check([tmp_path]) == [("tools.py", 10, "TRV602")]


# ------------------------------------------------- loops whose client is made elsewhere

LOOP = """\
import json

from .llm import <IMPORT>

TOOLS = {"lookup": lambda order_id: order_id}


def answer(question: str, tools: list) -> str:
    <CLIENT>
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model="m", max_tokens=9, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use":
            output = json.dumps(TOOLS[block.name](**block.input))
            results.append({"type": "tool_result", "tool_call_id": block.id, "content": output})
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="m", max_tokens=9, tools=tools, messages=messages)
"""
LLM = """\
import anthropic
import mylib


def get_client() -> anthropic.Anthropic:
    return anthropic.Anthropic()


def make_client():
    client = anthropic.AsyncAnthropic()
    return client


def other_client():
    return mylib.Client()


client = get_client()
"""


@pytest.mark.parametrize(
    ("imports", "binding", "reported"),
    [
        ("get_client", "client = get_client()", True),
        ("make_client", "client = make_client()", True),
        ("client", "pass", True),  # a module-level client of llm.py
        ("other_client", "client = other_client()", False),  # not Anthropic's
        ("get_client", "client = pick()", False),  # not known
    ],
)
def test_a_loop_whose_client_comes_from_another_module(
    tmp_path: Path, imports: str, binding: str, reported: bool
) -> None:
    loop = LOOP.replace("<IMPORT>", imports).replace("<CLIENT>", binding)
    write(tmp_path, {"app/__init__.py": "", "app/llm.py": LLM, "app/loop.py": loop})
    expected = [("loop.py", 17, "TRV501")] if reported else []
    assert check([tmp_path]) == expected
    assert check([tmp_path / "app" / "loop.py"]) == expected
    assert flake8_style(tmp_path / "app" / "loop.py") == []


def test_a_chat_loop_whose_client_comes_from_another_module(tmp_path: Path) -> None:
    loop = """\
    import json

    from .llm import get_client

    client = get_client()


    def run(messages, tools):
        response = client.chat.completions.create(model="m", messages=messages, tools=tools)
        message = response.choices[0].message
        messages.append(message)
        for call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": {"ok": 1}})
        return client.chat.completions.create(model="m", messages=messages, tools=tools)
    """
    llm = "from openai import OpenAI\n\n\ndef get_client():\n    return OpenAI()\n"
    write(tmp_path, {"app/__init__.py": "", "app/llm.py": llm, "app/loop.py": loop})
    found = check([tmp_path])
    assert found and all(f[0] == "loop.py" for f in found)
    assert flake8_style(tmp_path / "app" / "loop.py") == []


RESPONSES_LOOP = """\
import json

from .llm import <IMPORT>

<CLIENT>


def run(question, tools):
    response = client.responses.create(model="gpt-4.1", input=question, tools=tools)
    outputs = [
        {"type": "function_call_output", "call_id": item.call_id, "output": {"ok": 1}}
        for item in response.output
        if item.type == "function_call"
    ]
    return client.responses.create(
        model="gpt-4.1", previous_response_id=response.id, input=outputs, tools=tools
    )
"""
RESPONSES_LLM = """\
import openai
import mylib


def get_client() -> openai.OpenAI:
    return openai.OpenAI()


def other_client():
    return mylib.Client()


client = openai.AsyncOpenAI()
"""


@pytest.mark.parametrize(
    ("imports", "binding", "reported"),
    [
        ("get_client", "client = get_client()", True),
        ("client", "", True),  # a module-level client of llm.py
        ("other_client", "client = other_client()", False),  # not OpenAI's
        ("get_client", "client = pick()", False),  # not known
    ],
)
def test_a_responses_loop_whose_client_comes_from_another_module(
    tmp_path: Path, imports: str, binding: str, reported: bool
) -> None:
    """The loop module need not import ``openai`` (*Project facts*): the prefilter passes
    it on the request it writes, and the family reads the client's class in ``llm.py``."""
    loop = RESPONSES_LOOP.replace("<IMPORT>", imports).replace("<CLIENT>", binding)
    write(tmp_path, {"app/__init__.py": "", "app/llm.py": RESPONSES_LLM, "app/loop.py": loop})
    expected = [("loop.py", 11, "TRR002")] if reported else []
    assert check([tmp_path]) == expected
    assert check([tmp_path / "app" / "loop.py"]) == expected


# ----------------------------------- Pydantic AI tools listed by an agent of another module


PYDANTIC_AGENT = """\
from pydantic_ai import Agent, Tool

from app.tools.unified import query_income


def get_agent(model: str) -> Agent:
    from app.tools.search import search_transactions

    return Agent(model, tools=[search_transactions, Tool(query_income, takes_ctx=False)])
"""
PYDANTIC_SEARCH = (
    "class Row:\n    pass\n\n\ndef search_transactions(query: str) -> Row:\n    return Row()\n"
)
PYDANTIC_UNIFIED = (
    "from pydantic_ai import RunContext\n\n\n"
    "def query_income(ctx: RunContext[None], month: str) -> str:\n    return month\n"
)


def test_pydantic_ai_tools_listed_by_an_agent_of_another_module(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/tools/__init__.py": "",
            "app/agent.py": PYDANTIC_AGENT,
            "app/tools/search.py": PYDANTIC_SEARCH,
            "app/tools/unified.py": PYDANTIC_UNIFIED,
        },
    )
    # ``search.py`` imports nothing of pydantic_ai: it is checked because agent.py lists it.
    expected = [("search.py", 6, "TRV803"), ("unified.py", 4, "TRV801")]
    assert check([tmp_path]) == expected
    assert check([tmp_path / "app" / "tools" / "search.py"]) == expected[:1]
    assert flake8_style(tmp_path / "app" / "tools" / "search.py") == []
    cache_dir = tmp_path / ".cache"
    assert check([tmp_path], ResultCache(cache_dir)) == expected
    (tmp_path / "app" / "agent.py").write_text(PYDANTIC_AGENT.replace("search_transactions, ", ""))
    assert check([tmp_path], ResultCache(cache_dir)) == expected[1:]


def test_a_tool_with_its_own_output_schema_is_not_judged_by_its_annotation(
    tmp_path: Path,
) -> None:
    text = """\
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("x")


    @mcp.tool(structured_output=False)
    def search(q: str) -> str:
        return {"q": q}


    @mcp.tool()
    def lookup(q: str) -> str:
        return {"q": q}
    """
    write(tmp_path, {"server.py": text})
    assert check([tmp_path]) == [("server.py", 13, "TRV602")]


# ------------------------------- Gemini tools listed by another module's automatic calling

GEMINI_RUNNER = """\
from google import genai
from google.genai import types

from .tools import city_tags, lookup

client = genai.Client()


def ask(question):
    config = types.GenerateContentConfig(tools=[city_tags, lookup]<AFC>)
    return client.models.generate_content(model="m", contents=question, config=config)
"""
GEMINI_TOOLS = """\
def city_tags(city: str):
    \"\"\"Tags of a city.\"\"\"
    return {"sunny", city}


def lookup(city: str) -> str:
    \"\"\"Weather.\"\"\"
    if not city:
        return ValueError("no city")
    return city


def helper():
    return {1, 2}
"""


@pytest.mark.parametrize(
    ("afc", "expected"),
    [
        ("", [("tools.py", 3, "TRG101"), ("tools.py", 9, "TRV901")]),
        (", automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True)", []),
    ],
)
def test_gemini_tools_listed_by_another_module(
    tmp_path: Path, afc: str, expected: list[tuple[str, int, str]]
) -> None:
    """``tools.py`` imports nothing of the SDK: the runner's listing names it (*Project
    facts*), its listed functions are judged there, the unlisted one is not; flake8 (one
    file) cannot know."""
    write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/runner.py": GEMINI_RUNNER.replace("<AFC>", afc),
            "app/tools.py": GEMINI_TOOLS,
        },
    )
    assert check([tmp_path]) == expected
    assert flake8_style(tmp_path / "app" / "tools.py") == []
