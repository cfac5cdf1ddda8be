"""MCP servers (TRV601–TRV607): acceptance tests.

The server's origin is resolved by import (official 1.x ``FastMCP``, its
``mcp.server`` re-export, 2.x ``MCPServer``, standalone ``fastmcp``, the
low-level ``Server``), never by a bare class name; the server can be bound at
module level, in a factory, as an annotated parameter or as ``self.mcp``; tools
are decorated or registered (``add_tool(fn)``, ``tool()(fn)``). Each rule fires
on its mistake and stays silent on the shapes of real code that look like it
(mcp_corpus.md): docs stubs, elided examples, an exhaustive final ``match``,
``pytest.raises`` blocks, a bare ``-> dict`` under the official SDK, ``str``
under ``-> int``, optional annotations, unknown values and generators.

Sources mark the line where a diagnostic starts with ``# !TRV6NN``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import Invoke
from marks import Found, Marks

ROOT = Path(__file__).resolve().parent.parent
MARKS = Marks("TRV6", "server.py")
findings, marked, assert_marked = MARKS.findings, MARKS.marked, MARKS.assert_marked


# ------------------------------------------------------------------ origins and bindings

ORIGINS = {
    # name: (import line, constructor, annotation class, official?)
    "official-1.x": ("from mcp.server.fastmcp import FastMCP", 'FastMCP("x")', "FastMCP", True),
    "official-1.x-reexport": ("from mcp.server import FastMCP", 'FastMCP("x")', "FastMCP", True),
    "official-2.x": (
        "from mcp.server.mcpserver import MCPServer",
        'MCPServer("x")',
        "MCPServer",
        True,
    ),
    "official-2.x-reexport": (
        "from mcp.server import MCPServer",
        'MCPServer("x")',
        "MCPServer",
        True,
    ),
    "official-module-alias": (
        "import mcp.server.fastmcp as fm\nfrom mcp.server.fastmcp import FastMCP",
        'fm.FastMCP("x")',
        "FastMCP",
        True,
    ),
    "official-renamed": ("from mcp.server.fastmcp import FastMCP as FM", 'FM("x")', "FM", True),
    "standalone": ("from fastmcp import FastMCP", 'FastMCP("x")', "FastMCP", False),
    "standalone-server": ("from fastmcp.server import FastMCP", 'FastMCP("x")', "FastMCP", False),
}

TOOLS = """\
@SERVER.tool  # !TRV601
def bare(x: int) -> str:
    return str(x)


@SERVER.tool()
def lookup(x: int) -> str:
    return {"x": x}  # !TRV602


@SERVER.tool(name="refund")
async def refund(x: int, ctx) -> str:  # !TRV605
    return "ok"
"""

BINDINGS = {
    "module": "mcp = CTOR\n\n\nTOOLS",
    "factory-local": "def create():\n    mcp = CTOR\n\n    INDENTED_TOOLS\n    return mcp\n",
    "factory-annotated-local": (
        "def create():\n    mcp: CLASS = CTOR\n\n    INDENTED_TOOLS\n    return mcp\n"
    ),
    "factory-returns-server": (
        "def create_server():\n    return CTOR\n\n\nmcp = create_server()\n\n\nTOOLS"
    ),
    "annotated-parameter": "def register(mcp: CLASS) -> None:\n    INDENTED_TOOLS\n",
    "self-attribute-from-parameter": (
        "class Module:\n"
        "    def __init__(self, mcp: CLASS) -> None:\n"
        "        self.mcp = mcp\n\n"
        "    def register(self) -> None:\n"
        "        DOUBLE_INDENTED_TOOLS\n"
    ),
    "self-attribute-built": (
        "class Module:\n"
        "    def __init__(self) -> None:\n"
        "        self.mcp = CTOR\n\n"
        "    def register(self) -> None:\n"
        "        DOUBLE_INDENTED_TOOLS\n"
    ),
}


def build(origin: str, binding: str) -> str:
    imports, ctor, klass, _ = ORIGINS[origin]
    server = "self.mcp" if binding.startswith("self-") else "mcp"
    tools = TOOLS.replace("SERVER", server)
    body = (
        BINDINGS[binding]
        .replace("DOUBLE_INDENTED_TOOLS", textwrap.indent(tools, " " * 8).lstrip())
        .replace("INDENTED_TOOLS", textwrap.indent(tools, " " * 4).lstrip())
        .replace("TOOLS", tools)
        .replace("CTOR", ctor)
        .replace("CLASS", klass)
    )
    return f"{imports}\n\n\n{body}"


def expected_for(origin: str, source: str) -> Found:
    want = marked(source)
    if not ORIGINS[origin][3]:
        want = {(code, row) for code, row in want if code != "TRV601"}  # bare @tool is fine
    return want


BINDING_BUGS: dict[str, str] = {}
"""binding → why recognition misses it (none left)."""


def _binding(name: str) -> object:
    if name in BINDING_BUGS:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=BINDING_BUGS[name]))
    return name


@pytest.mark.parametrize("binding", [_binding(b) for b in sorted(BINDINGS)])
@pytest.mark.parametrize("origin", sorted(ORIGINS))
def test_server_origins_and_bindings(origin: str, binding: str) -> None:
    source = build(origin, binding)
    assert findings(source) == expected_for(origin, source), source


REGISTRATIONS = {
    "add_tool": "mcp.add_tool(lookup)",
    "tool-call": "mcp.tool()(lookup)",
    "tool-call-named": 'mcp.tool(name="x")(lookup)',
}


@pytest.mark.parametrize("origin", ["official-1.x", "official-2.x", "standalone"])
@pytest.mark.parametrize("registration", sorted(REGISTRATIONS))
def test_registered_tools(origin: str, registration: str) -> None:
    imports, ctor, _, _ = ORIGINS[origin]
    source = f"""\
{imports}

mcp = {ctor}


def lookup(x: int, ctx) -> str:  # !TRV605
    return {{"x": x}}  # !TRV602


{REGISTRATIONS[registration]}
"""
    assert_marked(source)


def test_registration_inside_a_factory() -> None:
    assert_marked(
        """\
        from mcp.server.fastmcp import FastMCP


        def lookup(x: int) -> str:
            return {"x": x}  # !TRV602


        def create() -> FastMCP:
            mcp = FastMCP("x")
            mcp.add_tool(lookup)
            return mcp
        """
    )


NOT_MCP = {
    "own-class-imported": "from myproject.server import FastMCP\n\nmcp = FastMCP('x')\n",
    "own-class-defined": (
        "class FastMCP:\n    def tool(self, fn=None):\n        return fn\n\n\nmcp = FastMCP('x')\n"
    ),
    "own-mcpserver-wrapping": (
        "from mcp_server.server import MCPServer\n\nmcp = MCPServer().mcp_server\n"
    ),
    "no-import": "mcp = FastMCP('x')\n",
    "unknown-factory": "from .app import build_server\n\nmcp = build_server()\n",
}


@pytest.mark.parametrize("case", sorted(NOT_MCP))
def test_servers_not_from_mcp_are_not_checked(case: str) -> None:
    source = NOT_MCP[case] + "\n\n" + TOOLS.replace("SERVER", "mcp")
    assert findings(source) == set()


def test_a_tool_decorator_of_another_library() -> None:
    assert (
        findings(
            """\
            import json

            from langchain_core.tools import tool
            from mcp.server.fastmcp import FastMCP

            mcp = FastMCP("x")


            @tool
            def lookup(x: int, ctx) -> str:
                return {"x": x}


            @tool()
            def rows(x: int):
                return json.dumps([x])
            """
        )
        == set()
    )


# ------------------------------------------------------------------ per rule

OFFICIAL = 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n\n\n'
STANDALONE = 'from fastmcp import FastMCP\n\nmcp = FastMCP("x")\n\n\n'
LOWLEVEL = (
    "import mcp.types as types\n"
    'from mcp.server.lowlevel import Server\n\nserver = Server("x")\n\n\n'
)

CASES: dict[str, str] = {
    # TRV601
    "601-bare-prompt-2x": (
        "from mcp.server.mcpserver import MCPServer\n\nserver = MCPServer('x')\n\n\n"
        "@server.prompt  # !TRV601\ndef p() -> str:\n    return 'hi'\n"
    ),
    "601-bare-resource-official": OFFICIAL
    + "@mcp.resource  # !TRV601\ndef r() -> str:\n    return 'a'\n",
    "601-bare-resource-standalone": STANDALONE
    + "@mcp.resource  # !TRV601\ndef r() -> str:\n    return 'a'\n",
    "601-standalone-bare-tool-and-prompt": STANDALONE
    + "@mcp.tool\ndef t() -> str:\n    return 'a'\n\n"
    "\n@mcp.prompt\ndef p() -> str:\n    return 'a'\n",
    "601-pytest-raises": (
        "import pytest\nfrom mcp.server.fastmcp import FastMCP\n\n\n"
        "def test_bare():\n    mcp = FastMCP('x')\n"
        "    with pytest.raises(TypeError, match='Did you forget'):\n\n"
        "        @mcp.tool\n        def f(x: int) -> str:\n            return str(x)\n"
    ),
    # TRV602
    "602-dict-under-str": OFFICIAL
    + "@mcp.tool()\ndef t() -> str:\n    return {'a': 1}  # !TRV602\n",
    "602-list-under-str": OFFICIAL + "@mcp.tool()\ndef t() -> str:\n    return [1, 2]  # !TRV602\n",
    "602-dumps-under-dict": (
        "import json\nfrom typing import Any\n\n" + OFFICIAL + "@mcp.tool()\n"
        "def t() -> dict[str, Any]:\n    return json.dumps({'a': 1})  # !TRV602\n"
    ),
    "602-str-under-Dict": (
        "from typing import Any, Dict\n\n" + OFFICIAL + "@mcp.tool()\n"
        "def t() -> Dict[str, Any]:\n    return 'no'  # !TRV602\n"
    ),
    "602-none-under-str": OFFICIAL + "@mcp.tool()\ndef t(x: int) -> str:\n    if x:\n"
    "        return None  # !TRV602\n    return 'a'\n",
    "602-fall-through": OFFICIAL
    + "@mcp.tool()\ndef t(x: int) -> str:  # !TRV602\n    if x:\n        return 'a'\n",
    "602-fall-through-in-try": OFFICIAL
    + (
        "@mcp.tool()\ndef t(kind: str) -> str:  # !TRV602\n    try:\n"
        "        if kind == 'a':\n            return 'a'\n        elif kind == 'b':\n"
        "            return 'b'\n    except ValueError as e:\n        return str(e)\n"
    ),
    "602-model-missing-field": (
        "from pydantic import BaseModel\n\n" + OFFICIAL + "class M(BaseModel):\n    a: str\n\n\n"
        "@mcp.tool()\ndef t(x: str) -> M:\n    if not x:\n"
        "        return {'error': 'db down'}  # !TRV602\n    return M(a=x)\n"
    ),
    "602-standalone-str-under-bare-dict": STANDALONE
    + "@mcp.tool\ndef t() -> dict:\n    return 'no'  # !TRV602\n",
    "602-docs-stub": OFFICIAL + "@mcp.tool()\ndef t(x: int) -> str:\n    ...\n",
    "602-docs-stub-docstring": OFFICIAL + '@mcp.tool()\ndef t(x: int) -> str:\n    """Do it."""\n',
    "602-elided-comment": OFFICIAL
    + (
        "@mcp.tool()\nasync def t(x: int, ctx) -> str:  # !TRV605\n"
        "    await ctx.info('start')\n    # ... do work ...\n"
    ),
    "602-elided-ellipsis": OFFICIAL
    + "@mcp.tool()\ndef t(x: int) -> str:\n    if x:\n        return 'a'\n    ...\n",
    "602-final-match": (
        "from mcp.server.fastmcp import Context\n\n" + OFFICIAL + "@mcp.tool()\n"
        "async def t(ctx: Context) -> str:\n    result = await ctx.elicit('sure?', bool)\n"
        "    match result:\n        case Accepted():\n            return 'deleted'\n"
        "        case Declined():\n            return 'kept'\n"
    ),
    "602-bare-dict-official": OFFICIAL + "@mcp.tool()\ndef t(x: int) -> dict:\n    if x:\n"
    "        return f'error {x}'\n    return {'a': x}\n",
    "602-bare-Dict-official": (
        "from typing import Dict\n\n" + OFFICIAL + "@mcp.tool()\ndef t() -> Dict:\n    return 'x'\n"
    ),
    "602-str-under-int": OFFICIAL + "@mcp.tool()\ndef t() -> int:\n    return '42'\n",
    "602-optional": (
        "from typing import Optional\n\n" + OFFICIAL + "@mcp.tool()\n"
        "def t(x: int) -> Optional[str]:\n    if x:\n        return 'a'\n"
    ),
    "602-pipe-none": OFFICIAL
    + "@mcp.tool()\ndef t(x: int) -> str | None:\n    if x:\n        return None\n    return 'a'\n",
    "602-awaited": OFFICIAL
    + "@mcp.tool()\nasync def t(x: int) -> str:\n    return await DB.fetch(x)\n",
    "602-generator": OFFICIAL
    + "@mcp.tool()\ndef t(x: int) -> str:\n    yield 'a'\n    yield {'b': 1}\n",
    "602-raise-at-end": OFFICIAL + "@mcp.tool()\ndef t(x: int) -> str:\n    if x:\n"
    "        return 'a'\n    raise ValueError(x)\n",
    "602-not-a-tool": OFFICIAL + "def helper(x: int) -> str:\n    return {'x': x}\n",
    # TRV603
    "603-bare-string": LOWLEVEL
    + (
        "@server.call_tool()\nasync def call_tool(name: str, arguments: dict):\n"
        "    if name == 'a':\n        return 'hello'  # !TRV603\n    raise ValueError(name)\n"
    ),
    "603-falls-through": LOWLEVEL
    + (
        "@server.call_tool()\nasync def call_tool(name: str, arguments: dict):  # !TRV603\n"
        "    if name == 'a':\n        return [types.TextContent(type='text', text='a')]\n"
    ),
    "603-list-of-strings": LOWLEVEL
    + (
        "@server.call_tool()\nasync def call_tool(name: str, arguments: dict):\n"
        "    if name == 'a':\n        return ['hello']  # !TRV603\n    raise ValueError(name)\n"
    ),
    "603-nested-in-serve": (
        "from mcp.server import Server\nfrom mcp.types import TextContent\n\n\n"
        "async def serve() -> None:\n    server = Server('git')\n\n"
        "    @server.call_tool()\n    async def call_tool(name: str, arguments: dict):\n"
        "        match name:\n            case 'status':\n"
        "                return TextContent(type='text', text='clean')  # !TRV603\n"
        "            case _:\n                raise ValueError(name)\n"
    ),
    "603-ok-match-raise": (
        "from mcp.server import Server\nfrom mcp.types import TextContent\n\n\n"
        "async def serve() -> None:\n    server = Server('git')\n\n"
        "    @server.call_tool()\n    async def call_tool(name: str, arguments: dict):\n"
        "        match name:\n            case 'status':\n"
        "                return [TextContent(type='text', text='clean')]\n"
        "            case _:\n                raise ValueError(name)\n"
    ),
    "603-ok-dict-and-pair": LOWLEVEL
    + (
        "@server.call_tool()\nasync def call_tool(name: str, arguments: dict):\n"
        "    if name == 'a':\n        return {'a': 1}\n"
        "    if name == 'b':\n"
        "        return ([types.TextContent(type='text', text='b')], {'b': 1})\n"
        "    raise ValueError(name)\n"
    ),
    "603-on-call-tool-2x": (
        "from mcp.server import Server\nfrom mcp.types import CallToolResult, TextContent\n\n\n"
        "async def handle(ctx, params):\n    if params.name == 'a':\n"
        "        return [TextContent(type='text', text='a')]  # !TRV603\n"
        "    return CallToolResult(content=[TextContent(type='text', text='b')])\n\n\n"
        "server = Server('x', on_call_tool=handle)\n"
    ),
    "603-unknown-server": (
        "from .app import server\n\n\n@server.call_tool()\nasync def call_tool(name, arguments):\n"
        "    return 'x'\n"
    ),
    # TRV604
    "604-optional": (
        "from typing import Optional\n\nfrom mcp.types import CallToolResult\n\n"
        + OFFICIAL
        + "@mcp.tool()\ndef t() -> Optional[CallToolResult]:  # !TRV604\n    return None\n"
    ),
    "604-pipe-none-2x": (
        "from mcp.server.mcpserver import MCPServer\nfrom mcp.types import CallToolResult\n\n"
        "mcp = MCPServer('x')\n\n\n"
        "@mcp.tool()\ndef t() -> CallToolResult | None:  # !TRV604\n    return None\n"
    ),
    "604-standalone-accepts-it": (
        "from mcp.types import CallToolResult\n\n"
        + STANDALONE
        + "@mcp.tool\ndef t() -> CallToolResult | None:\n    return None\n"
    ),
    "604-plain-call-tool-result": (
        "from mcp.types import CallToolResult\n\n"
        + OFFICIAL
        + "@mcp.tool()\ndef t() -> CallToolResult:\n    return CallToolResult(content=[])\n"
    ),
    # TRV605
    "605-call-tool-result-annotation": (
        "from mcp.types import CallToolResult\n\n"
        + OFFICIAL
        + "@mcp.tool()\nasync def t(ctx: CallToolResult, path: str = '/') -> str:  # !TRV605\n"
        "    return 'a'\n"
    ),
    "605-context-default-none": STANDALONE
    + "@mcp.tool\nasync def t(x: int, context=None) -> str:  # !TRV605\n    return 'a'\n",
    "605-ok-context": (
        "from typing import Optional\n\nfrom mcp.server.fastmcp import Context\n\n"
        + OFFICIAL
        + "@mcp.tool()\nasync def t(ctx: Context, c2: Optional[Context] = None) -> str:\n"
        "    return 'a'\n"
    ),
    "605-ok-string-annotation": OFFICIAL
    + "@mcp.tool()\nasync def t(ctx: 'Context') -> str:\n    return 'a'\n",
    "605-ok-helper": OFFICIAL + "async def log(ctx, text):\n    await ctx.info(text)\n",
    # TRV606
    "606-dumps-under-str": (
        "import json\n\n" + OFFICIAL + "@mcp.tool()\ndef t() -> str:\n"
        "    return json.dumps({'a': 1})  # !TRV606\n"
    ),
    "606-dumps-standalone-unannotated": (
        "import json\n\n" + STANDALONE + "@mcp.tool\ndef t():\n"
        "    return json.dumps([1, 2], indent=2)  # !TRV606\n"
    ),
    "606-not-under-dict-annotation": (
        "import json\nfrom typing import Any\n\n" + OFFICIAL + "@mcp.tool()\n"
        "def t() -> dict[str, Any]:\n    return json.dumps({'a': 1})  # !TRV602\n"
    ),
    "606-helper-dumps": (
        "import json\n\n" + OFFICIAL + "def as_json(v):\n    return json.dumps(v)\n\n\n"
        "@mcp.tool()\ndef t() -> str:\n    return as_json({'a': 1})\n"
    ),
    # TRV607
    "607-list-unannotated": OFFICIAL
    + "@mcp.tool()\ndef t():\n    return [{'a': 1}, {'b': 2}]  # !TRV607\n",
    "607-tuple-bare-list": OFFICIAL
    + "@mcp.tool()\ndef t() -> list:\n    return ('summary', {'raw': [1]})  # !TRV607\n",
    "607-annotated": (
        "from typing import Any\n\n" + OFFICIAL + "@mcp.tool()\n"
        "def t() -> list[dict[str, Any]]:\n    return [{'a': 1}]\n"
    ),
    "607-standalone-merges": STANDALONE + "@mcp.tool\ndef t():\n    return [{'a': 1}, {'b': 2}]\n",
    "607-unknown": OFFICIAL + "@mcp.tool()\ndef t():\n    return DB.rows()\n",
    # found while probing
    "601-subclass-of-fastmcp": (
        "from mcp.server.fastmcp import FastMCP\n\n\nclass S3Server(FastMCP):\n    pass\n\n\n"
        "app = S3Server('x')\n\n\n@app.tool  # !TRV601\ndef t() -> str:\n    return 'a'\n"
    ),
    "602-assert-never-at-end": (
        "from typing import assert_never\n\n" + OFFICIAL + "@mcp.tool()\n"
        "def t(x: int | None) -> str:\n    if isinstance(x, int):\n        return 'a'\n"
        "    if x is None:\n        return 'b'\n    assert_never(x)\n"
    ),
    "602-while-true": OFFICIAL + "@mcp.tool()\ndef t(x: int) -> str:\n    while True:\n"
    "        if x:\n            return 'a'\n        x += 1\n",
    "602-with-return": OFFICIAL
    + "@mcp.tool()\ndef t(p: str) -> str:\n    with open(p) as f:\n        return f.read()\n",
    "602-sys-exit": (
        "import sys\n\n" + OFFICIAL + "@mcp.tool()\ndef t(x: int) -> str:\n    if x:\n"
        "        return 'a'\n    sys.exit(1)\n"
    ),
    "602-except-only-logs": (
        "import logging\n\n" + OFFICIAL + "@mcp.tool()\ndef t(x: int) -> str:  # !TRV602\n"
        "    try:\n        return str(1 / x)\n    except ZeroDivisionError:\n"
        "        logging.exception('x')\n"
    ),
    "602-conditional-expression": OFFICIAL
    + "@mcp.tool()\ndef t(x: int) -> str:\n    return {'a': 1} if x else 'b'  # !TRV602\n",
    "602-dict-variable": OFFICIAL
    + "@mcp.tool()\ndef t(x: str) -> str:\n    out = {'a': x}\n    return out  # !TRV602\n",
    "602-typeddict": (
        "import json\nfrom typing import TypedDict\n\n" + OFFICIAL + "class TD(TypedDict):\n"
        "    a: int\n\n\n@mcp.tool()\ndef t() -> TD:\n    return json.dumps({'a': 1})  # !TRV602\n"
    ),
    "602-dataclass": (
        "from dataclasses import dataclass\n\n"
        + OFFICIAL
        + "@dataclass\nclass D:\n    a: int\n\n\n"
        "@mcp.tool()\ndef t() -> D:\n    return 'x'  # !TRV602\n"
    ),
    "602-none-under-dict-standalone": (
        "from typing import Any\n\n" + STANDALONE + "@mcp.tool\ndef t() -> dict[str, Any]:\n"
        "    return None  # !TRV602\n"
    ),
    "603-elif-else-raise": LOWLEVEL
    + (
        "@server.call_tool()\nasync def h(name, arguments):\n    if name == 'a':\n"
        "        return [types.TextContent(type='text', text='a')]\n    elif name == 'b':\n"
        "        return [types.TextContent(type='text', text='b')]\n    else:\n"
        "        raise ValueError(name)\n"
    ),
    "603-error-as-content": LOWLEVEL
    + (
        "@server.call_tool()\nasync def h(name, arguments):\n    try:\n        if name == 'a':\n"
        "            return [types.TextContent(type='text', text='a')]\n"
        "        raise ValueError(name)\n    except Exception as e:\n"
        "        return [types.TextContent(type='text', text=f'Error: {e}')]\n"
    ),
    "603-on-call-tool-ok": (
        "from mcp.server import Server\nfrom mcp.types import CallToolResult, TextContent\n\n\n"
        "async def handle(ctx, params):\n"
        "    if params.name != 'a':\n        raise ValueError('x')\n"
        "    return CallToolResult(content=[TextContent(type='text', text='b')])\n\n\n"
        "server = Server('x', on_call_tool=handle)\n"
    ),
    "605-ok-fastmcp-context-module": (
        "from fastmcp.server.context import Context\n\n"
        + STANDALONE
        + "@mcp.tool\nasync def t(ctx: Context) -> str:\n    return 'a'\n"
    ),
}

BUGS: dict[str, str] = {}
"""case → why the rule is wrong there (a rule bug: see the report)."""


def _case(name: str) -> object:
    if name in BUGS:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=BUGS[name]))
    return name


@pytest.mark.parametrize("name", [_case(n) for n in sorted(CASES)])
def test_rule_cases(name: str) -> None:
    assert_marked(CASES[name])


def test_context_named_argument_with_a_real_type() -> None:
    """awslabs ccapi: ``context: str = Field(default='')`` is a real argument."""
    assert_marked(
        OFFICIAL
        + "from pydantic import Field\n\n\n@mcp.tool()\n"
        + "def t(context: str = Field(default='')) -> str:\n    return context\n"
    )


# ------------------------------------------------------------------ default selection


def test_default_selection_leaves_out_the_info_rules() -> None:
    source = (
        "import json\n\n" + OFFICIAL + "@mcp.tool\ndef a() -> str:\n    return 'a'\n\n\n"
        "@mcp.tool()\ndef b() -> str:\n    return json.dumps({'a': 1})\n\n\n"
        "@mcp.tool()\ndef c():\n    return [1, 2]\n"
    )
    codes = {code for code, _ in findings(source, select=None)}
    assert "TRV601" in codes
    assert not codes & {"TRV606", "TRV607"}
    assert {code for code, _ in findings(source)} >= {"TRV601", "TRV606", "TRV607"}


# ------------------------------------------------------------------ TRV901 / TRV902


@pytest.mark.parametrize(
    ("imports", "server"),
    [
        ("from mcp.server.fastmcp.exceptions import ToolError\n" + OFFICIAL, "@mcp.tool()"),
        ("from fastmcp.exceptions import ToolError\n" + STANDALONE, "@mcp.tool"),
    ],
    ids=["official", "standalone"],
)
def test_returned_tool_error(imports: str, server: str) -> None:
    source = (
        imports + f"{server}\ndef t(x: int) -> str:\n    if not x:\n"
        "        return ToolError('no order')  # !TRV901\n    return 'a'\n"
    )
    assert findings(source, "TRV901") == marked(source, "TRV901")


def test_unawaited_coroutine() -> None:
    source = (
        OFFICIAL + "async def fetch(x: int) -> str:\n    return str(x)\n\n\n"
        "@mcp.tool()\nasync def t(x: int) -> str:\n    return fetch(x)  # !TRV902\n\n\n"
        "@mcp.tool()\nasync def ok(x: int) -> str:\n    return await fetch(x)\n"
    )
    assert findings(source, "TRV902") == marked(source, "TRV902")


# ------------------------------------------------------------------ --fix (TRV601)


def fix(tmp_path: Path, toolret_cli: Invoke, source: str, *flags: str) -> str:
    target = tmp_path / "server.py"
    target.write_text(source)
    toolret_cli("check", "--fix", "--no-cache", "--select", "TRV601", *flags, str(target))
    return target.read_text()


FIXABLE = (
    "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n"
    "@mcp.tool\ndef a() -> str:\n    return 'a'\n\n\n"
    "@mcp.prompt\ndef p() -> str:\n    return 'p'\n\n\n"
    "@mcp.resource\ndef r() -> str:\n    return 'r'\n\n\n"
    "class M:\n    def __init__(self) -> None:\n        self.mcp = FastMCP('y')\n\n"
    "    def register(self) -> None:\n        @self.mcp.tool\n        def b() -> str:\n"
    "            return 'b'\n"
)


def test_fix_adds_parentheses_and_is_idempotent(tmp_path: Path, toolret_cli: Invoke) -> None:
    fixed = fix(tmp_path, toolret_cli, FIXABLE)
    assert fixed == (
        FIXABLE.replace("@mcp.tool\n", "@mcp.tool()\n")
        .replace("@mcp.prompt\n", "@mcp.prompt()\n")
        .replace("@self.mcp.tool\n", "@self.mcp.tool()\n")
    )
    assert "@mcp.resource\n" in fixed  # needs its URI: no fix
    assert findings(fixed, "TRV601") == {("TRV601", fixed.splitlines().index("@mcp.resource") + 1)}
    assert fix(tmp_path, toolret_cli, fixed) == fixed


def test_no_fix_for_standalone(tmp_path: Path, toolret_cli: Invoke) -> None:
    source = (
        STANDALONE + "@mcp.tool\ndef a() -> str:\n    return 'a'\n"
        "\n\n@mcp.resource\ndef r():\n    return 'r'\n"
    )
    assert fix(tmp_path, toolret_cli, source, "--unsafe-fixes") == source


# ------------------------------------------------------------------ flake8 parity


def test_flake8_reports_what_toolret_reports_on_one_file() -> None:
    path = "examples/mcp/orders_server.py"
    toolret = subprocess.run(
        [sys.executable, "-m", "lint_rules", "check", path, "--select", "TRV6",
         "--output-format", "json", "--no-cache"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    flake8 = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TRV6", "--format", "%(row)d|%(code)s", path],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    ours = {(d["location"]["row"], d["code"]) for d in json.loads(toolret.stdout)}
    theirs = {(int(r), c) for r, c in (line.split("|") for line in flake8.stdout.splitlines())}
    assert ours and ours == theirs
