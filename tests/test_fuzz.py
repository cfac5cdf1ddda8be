"""Issue 19: property-based fuzzing of the engine and the fixer.

hypothesmith generates syntactically valid Python; each program becomes the
body of a tool function of one of the families (PolyAI, browser-use, OpenAI
Agents SDK, Chat Completions, Anthropic, MCP, LangChain, Pydantic AI; the
any-framework rules read all of their tools) and returns a generated,
tool-shaped value. For every such file:

- ``check_source`` never raises and never reports TRV002 (a rule crashed);
- every diagnostic's row and column are inside the file;
- every fix applies (none rejected, the passes converge), the result
  compiles, and fixing the fixed text changes nothing (idempotence).

The default budget is small, for CI. For a longer run set the profile:
``TOOLRET_FUZZ_PROFILE=fuzz-long python -m pytest -q tests/test_fuzz.py``
(``fuzz-ci``: the default). ``benchmarks/campaign.py`` runs the same cases
(see :func:`case_problems`) by the thousand, each in a subprocess with a
timeout, plus a mutation campaign over ``examples/``.
"""

from __future__ import annotations

import ast
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import hypothesmith
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lint_rules.config import Settings
from lint_rules.engine import check_bytes, check_source, decode_source
from lint_rules.fixes import fix_file, fix_source, line_offsets, split_lines
from lint_rules.model import Diagnostic, Location
from lint_rules.notebook import Notebook, NotebookError, is_notebook

_SLOW_GENERATION = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]
settings.register_profile(
    "fuzz-ci",
    max_examples=30,
    deadline=None,
    database=None,  # no .hypothesis/ in the work tree; a failure prints its example
    derandomize=True,  # CI sees the same examples every run: a failure is not a flake
    suppress_health_check=_SLOW_GENERATION,
)
settings.register_profile(
    "fuzz-long", settings.get_profile("fuzz-ci"), max_examples=2000, derandomize=False
)
FUZZ_SETTINGS = settings.get_profile(os.environ.get("TOOLRET_FUZZ_PROFILE", "fuzz-ci"))

SETTINGS = Settings()

# Generated code often draws CPython's SyntaxWarnings (``1()``: "perhaps you missed a
# comma?") when hypothesmith compiles it; they say nothing about toolret.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")

# ------------------------------------------------------------------ the programs

# Each preamble holds ``{body}`` (already indented into the function) and ``{value}``
# (what the function returns). ``{name}`` is the tool's name.
PREAMBLES: dict[str, str] = {
    "polyai": "def {name}(conv):\n{body}    return {value}\n",
    "browser_use": (
        "from browser_use import ActionResult, Tools\n"
        "\n"
        "tools = Tools()\n"
        "\n"
        "\n"
        '@tools.action("x")\n'
        "async def {name}(text: str):\n"
        "{body}"
        "    return {value}\n"
    ),
    "agents": (
        "from agents import Agent, ToolsToFinalOutputResult, function_tool\n"
        "\n"
        "\n"
        "@function_tool\n"
        "def {name}(A: int) -> str:\n"
        "{body}"
        "    return {value}\n"
        "\n"
        "\n"
        "def behavior(context, results):\n"
        "    return ToolsToFinalOutputResult(is_final_output=True, final_output={value})\n"
        "\n"
        "\n"
        'agent = Agent(name="a", tools=[{name}], tool_use_behavior=behavior)\n'
    ),
    "chat": (
        "import json\n"
        "\n"
        "from openai import OpenAI\n"
        "\n"
        "client = OpenAI()\n"
        "\n"
        "\n"
        "def {name}(A):\n"
        "{body}"
        "    return {value}\n"
        "\n"
        "\n"
        'REGISTRY = {{"{name}": {name}}}\n'
        "\n"
        "\n"
        "def run(messages, tools):\n"
        '    response = client.chat.completions.create(model="m", messages=messages, tools=tools)\n'
        "    message = response.choices[0].message\n"
        "    messages.append(message)\n"
        "    for call in message.tool_calls:\n"
        "        args = json.loads(call.function.arguments)\n"
        "        result = REGISTRY[call.function.name](**args)\n"
        "        content = json.dumps(result)\n"
        '        messages.append({{"role": "tool", "tool_call_id": call.id, "content": content}})\n'
        "\n"
        "\n"
        "def answer(messages, call, A):\n"
        '    messages.append({{"role": "tool", "tool_call_id": call.id, "content": {value}}})\n'
    ),
    "anthropic": (
        "import json\n"
        "\n"
        "import anthropic\n"
        "\n"
        "client = anthropic.Anthropic()\n"
        "\n"
        "\n"
        "def {name}(A):\n"
        "{body}"
        "    return {value}\n"
        "\n"
        "\n"
        "def run(messages, A):\n"
        '    response = client.messages.create(model="m", max_tokens=9, messages=messages)\n'
        '    messages.append({{"role": "assistant", "content": response.content}})\n'
        "    results = []\n"
        "    for block in response.content:\n"
        '        if block.type == "tool_use":\n'
        "            results.append(\n"
        '                {{"type": "tool_result", "tool_use_id": block.id, "content": {value}}}\n'
        "            )\n"
        '    messages.append({{"role": "user", "content": results}})\n'
    ),
    "mcp": (
        "from mcp.server.fastmcp import FastMCP\n"
        "\n"
        'mcp = FastMCP("shop")\n'
        "\n"
        "\n"
        "async def helper(A):\n"
        "    return A\n"
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def {name}(A: str) -> str:\n"
        "{body}"
        "    return {value}\n"
    ),
    "langchain": (
        "from langchain_core.tools import tool\n"
        "\n"
        "\n"
        "@tool\n"
        "def {name}(A: str):\n"
        '    """Look A up."""\n'
        "{body}"
        "    return {value}\n"
    ),
    "pydantic_ai": (
        "from pydantic_ai import Agent, RunContext\n"
        "\n"
        'agent = Agent("test")\n'
        "\n"
        "\n"
        "async def helper(A):\n"
        "    return A\n"
        "\n"
        "\n"
        "@agent.tool\n"
        "async def {name}(ctx: RunContext[None], A: str) -> str:\n"
        "{body}"
        "    return {value}\n"
    ),
}
"""One preamble per family; the any-framework rules (TRV9xx) read the tool functions of
all of them (``ValueError(A)``, ``helper(A)`` among the values)."""
FAMILIES = tuple(PREAMBLES)

LEAVES = [
    "True", "False", "None", "A", "conv", "len(A)", "[]", "{}", "set()", "()", "str(A)",
    "f'{A}'", "json.dumps(A)", "conv.state", "flow.goto_step('x')", "Agent(name='b')",
    "ValueError(A)", "helper(A)", "ToolMessage(content=A, tool_call_id='x')",
    "TextContent(type='text', text=A)", "ModelRetry(A)",
]  # fmt: skip
KEYS = [
    "utterance", "hangup", "handoff", "transition", "utterence", "listen", "end_turn",
    "content", "role", "tool_call_id",
]  # fmt: skip
CALLS = [
    "ActionResult(extracted_content={})", "ActionResult(success={})", "ActionResult({})",
    "ActionResult(is_done=True, error={})", "ActionResult(data={})", "str({})",
    "ToolsToFinalOutputResult(is_final_output={})", "handoff({})", "json.dumps({})",
]  # fmt: skip


def _leaf() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(-(10**6), 10**6).map(str),
        st.floats(allow_nan=False, allow_infinity=False).map(repr),
        st.text(max_size=6).map(repr),
        st.sampled_from(LEAVES),
    )


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(st.sampled_from(KEYS), inner), max_size=3).map(
            lambda items: "{" + ", ".join(f"{k!r}: {v}" for k, v in items) + "}"
        ),
        st.tuples(st.sampled_from(CALLS), inner).map(lambda call: call[0].format(call[1])),
    )


VALUES = st.recursive(_leaf(), _compound, max_leaves=6)


def indent(body: str) -> str:
    """Every row of ``body`` four spaces deeper (string contents included), ending in a
    line break; the row's own break (``\\n``, ``\\r\\n`` or ``\\r``) is kept."""
    if not body.endswith(("\n", "\r")):
        body += "\n"
    return "".join("    " + row for row in split_lines(body))


def program(family: str, body: str, value: str, name: str = "lookup") -> tuple[str, str]:
    """(source, path) of a ``family`` tool function holding ``body`` and returning ``value``."""
    source = PREAMBLES[family].format(name=name, body=indent(body), value=value)
    path = f"functions/{name}.py" if family == "polyai" else f"{family}_tools.py"
    return source, path


def compiles(source: str) -> bool:
    try:
        compile(source, "<fuzz>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


BODIES = st.one_of(hypothesmith.from_grammar(), hypothesmith.from_node())


@st.composite
def programs(draw: st.DrawFn) -> tuple[str, str]:
    family = draw(st.sampled_from(FAMILIES))
    source, path = program(family, draw(BODIES), draw(VALUES))
    assume(compiles(source))  # e.g. a generated ``nonlocal`` or form feed does not fit a body
    return source, path


# ------------------------------------------------------------------ the properties


@dataclass(frozen=True)
class Problem:
    kind: str
    """crash, TRV002, position, fix-crash, fix-rejected, fix-not-converged,
    fix-unparsable, fix-not-idempotent; screen (``screen_problems``)."""
    detail: str


def position_problem(source: str, diagnostic: Diagnostic) -> str | None:
    """Why ``diagnostic``'s span is not inside ``source`` (rows and columns 1-based; the
    end may be just after the last character of its row, or row ``n + 1``'s column 1
    after a final line break), or ``None``."""
    offsets = line_offsets(source)

    def offset(location: Location) -> int | None:
        row, column = location.row, location.column
        if not 1 <= row <= len(offsets) or column < 1:
            return None
        row_end = offsets[row] if row < len(offsets) else len(source)
        text = source[offsets[row - 1] : row_end]
        width = len(text.rstrip("\r\n"))
        return offsets[row - 1] + column - 1 if column - 1 <= width else None

    start, end = offset(diagnostic.location), offset(diagnostic.end_location)
    if start is None or end is None or start > end:
        span = (diagnostic.location, diagnostic.end_location)
        return f"{diagnostic.code} at {span} is not inside the file ({len(offsets)} rows)"
    return None


def case_problems(
    text: str | bytes, path: str, on_checked: Callable[[float], None] | None = None
) -> list[Problem]:
    """What is wrong with toolret on this one file (empty: nothing). ``text`` as bytes
    goes through ``check_bytes`` (decoding as Python does). ``on_checked`` gets the
    seconds the check took, before fixing starts."""
    if isinstance(text, bytes) and is_notebook(path):
        return notebook_problems(text, path, on_checked)
    started = time.perf_counter()
    try:
        if isinstance(text, bytes):
            diagnostics = check_bytes(text, path, SETTINGS)
        else:
            diagnostics = check_source(text, path, SETTINGS)
    except Exception as error:
        return [Problem("crash", f"{type(error).__name__}: {error}"[:300])]
    if on_checked is not None:
        on_checked(time.perf_counter() - started)
    if isinstance(text, bytes):
        try:
            source = decode_source(text)
        except Exception:  # check_bytes reported it (TRV001): nothing to fix
            return [Problem("TRV002", d.message[:300]) for d in diagnostics if d.code == "TRV002"]
    else:
        source = text
    problems = [Problem("TRV002", d.message[:300]) for d in diagnostics if d.code == "TRV002"]
    problems += [
        Problem("position", why)
        for why in map(lambda d: position_problem(source, d), diagnostics)
        if why is not None
    ]

    def check(text: str) -> list[Diagnostic]:
        return check_source(text, path, SETTINGS)

    try:
        once = fix_source(source, check, unsafe=True, diagnostics=diagnostics)
        twice = fix_source(once.source, check, unsafe=True) if once.changed else once
    except Exception as error:
        return [*problems, Problem("fix-crash", f"{type(error).__name__}: {error}"[:300])]
    problems += [Problem("fix-rejected", f"{r.diagnostic.code}: {r.reason}") for r in once.rejected]
    if not once.converged:
        problems.append(Problem("fix-not-converged", f"after {once.passes} passes"))
    if once.changed and compiles(source) and not compiles(once.source):
        problems.append(Problem("fix-unparsable", "the fixed text does not compile"))
    if twice.source != once.source:
        problems.append(Problem("fix-not-idempotent", "fixing the fixed text changed it"))
    return problems


EVERY_RULE = Settings().with_overrides(select=["ALL"], ignore=["TRV005"])
"""The screen's proof runs every rule but TRV005 (which turns the screen off)."""


def screen_problems(text: str | bytes, path: str) -> list[Problem]:
    """Issue 29: the check reports the same with the screen on (``analysis.screen``: a
    module no family needs is never LibCST-parsed) as with it off, under every rule. A
    case whose check raises is ``case_problems``' to report."""
    try:
        if isinstance(text, bytes):
            on = check_bytes(text, path, EVERY_RULE, screen=True)
            off = check_bytes(text, path, EVERY_RULE, screen=False)
        else:
            on = check_source(text, path, EVERY_RULE, screen=True)
            off = check_source(text, path, EVERY_RULE, screen=False)
    except Exception:
        return []
    seen_on = [d.to_json() for d in on]
    seen_off = [d.to_json() for d in off]
    if seen_on == seen_off:
        return []
    lost = sorted({d["code"] for d in seen_off if d not in seen_on})
    added = sorted({d["code"] for d in seen_on if d not in seen_off})
    return [Problem("screen", f"screened: lost {lost}, added {added}")]


def notebook_problems(
    data: bytes, path: str, on_checked: Callable[[float], None] | None = None
) -> list[Problem]:
    """:func:`case_problems` for a notebook's bytes, fixed as ``toolret fix`` fixes it
    (``fix_file``). Beyond the file's classes: ``fix-unwritable`` (a notebook the reader
    read but the writer refused) and ``fix-outside-cells`` (the fixed JSON differs from
    the original anywhere but the code cells' sources)."""
    started = time.perf_counter()
    try:
        diagnostics = check_bytes(data, path, SETTINGS)
    except Exception as error:
        return [Problem("crash", f"{type(error).__name__}: {error}"[:300])]
    if on_checked is not None:
        on_checked(time.perf_counter() - started)
    problems = [Problem("TRV002", d.message[:300]) for d in diagnostics if d.code == "TRV002"]

    def check(text: str) -> list[Diagnostic]:
        return check_source(text, path, SETTINGS)

    try:
        once = fix_file(path, data, check, unsafe=True)
        twice = fix_file(path, once.fixed_bytes, check, unsafe=True) if once.changed else None
    except Exception as error:
        return [*problems, Problem("fix-crash", f"{type(error).__name__}: {error}"[:300])]
    for problem in once.problems:
        if "write the notebook back" in problem.message or "outside its code" in problem.message:
            problems.append(Problem("fix-unwritable", problem.message[:300]))
    if once.result is not None:
        problems += [
            Problem("fix-rejected", f"{r.diagnostic.code}: {r.reason}")
            for r in once.result.rejected
        ]
        if not once.result.converged:
            problems.append(Problem("fix-not-converged", f"after {once.result.passes} passes"))
    if once.fixed_bytes is None:
        return problems
    try:
        before, after = Notebook.from_bytes(data), Notebook.from_bytes(once.fixed_bytes)
    except NotebookError as error:
        return [*problems, Problem("fix-unparsable", f"the fixed notebook: {error}"[:300])]
    if _outside_sources(before) != _outside_sources(after):
        problems.append(Problem("fix-outside-cells", "the JSON changed outside code sources"))
    if compiles(before.python_source) and not compiles(after.python_source):
        problems.append(Problem("fix-unparsable", "the fixed cells do not compile"))
    if twice is not None and twice.changed and twice.fixed_bytes != once.fixed_bytes:
        problems.append(Problem("fix-not-idempotent", "fixing the fixed notebook changed it"))
    return problems


def _outside_sources(notebook: Notebook) -> str:
    """The notebook's JSON with every code cell's ``source`` blanked (NaN dumps as NaN)."""
    import json

    data = notebook.data
    cells = [
        {**cell, "source": None} if isinstance(cell, dict) and cell.get("cell_type") == "code"
        else cell
        for cell in data.get("cells", [])
    ]  # fmt: skip
    return json.dumps({**data, "cells": cells}, sort_keys=True)


# ------------------------------------------------------------------ the test


@settings(FUZZ_SETTINGS)
@given(programs())
def test_generated_tool_functions_never_crash_and_fix_cleanly(case: tuple[str, str]) -> None:
    source, path = case
    assert case_problems(source, path) == []


@settings(FUZZ_SETTINGS)
@given(programs())
def test_generated_tool_functions_are_reported_alike_with_the_screen_on_and_off(
    case: tuple[str, str],
) -> None:
    source, path = case
    assert screen_problems(source, path) == []


WRONG_RETURNS = {
    "polyai": ("3", "TRV101"),
    "browser_use": ("3", "TRV201"),
    "agents": ("3", "TRV312"),
    "chat": ("{1, 2}", "TRV402"),
    "anthropic": ("3", "TRV505"),
    "mcp": ("None", "TRV602"),
    "langchain": ("ValueError(A)", "TRV901"),  # its own return rules are opt-in (TRV706)
    "pydantic_ai": ("helper(A)", "TRV902"),
}


def test_every_family_recognises_its_tool_function() -> None:
    # The preambles are what the rules look at: a wrong return is found in each family,
    # and the any-framework rules read each family's tools.
    assert set(WRONG_RETURNS) == set(FAMILIES)
    for family, (value, code) in WRONG_RETURNS.items():
        source, path = program(family, "pass\n", value)
        assert code in {d.code for d in check_source(source, path, SETTINGS)}, family
        source, path = program(family, "pass\n", "ValueError(A)")
        found = {d.code for d in check_source(source, path, SETTINGS)}
        if family != "anthropic":  # its tool is any function: the loop is what is checked
            assert "TRV901" in found, family
