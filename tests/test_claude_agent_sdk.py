"""The TRC family (Claude Agent SDK in-process tools) through the CLI: only the SDK's own
`tool` is recognised, and a helper of another module that always raises ends a handler."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Invoke

RETURNS_TEXT = """

@tool("get_weather", "The weather", {"city": str})
def get_weather(args):
    return "sunny"
"""


def _found(root: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch) -> list:
    monkeypatch.chdir(root)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", "--select", "TRC", ".")
    return sorted((d["filename"].rsplit("/", 1)[-1], d["code"]) for d in json.loads(result.stdout))


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("from claude_agent_sdk import tool\n", ["TRC001", "TRC005"]),
        ("from claude_agent_sdk import tool as sdk_tool\ntool = sdk_tool\n", []),
        # LangChain's, Strands', CrewAI's and a project's own `tool` in the same project
        ("from langchain_core.tools import tool\n", []),
        ("from strands import tool\n", []),
        ("from crewai.tools import tool\n", []),
        ("import claude_agent_sdk\nfrom .registry import tool\n", []),
    ],
)
def test_only_the_sdks_tool_is_recognised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    head: str, expected: list[str],
) -> None:  # fmt: skip
    (tmp_path / "m.py").write_text(head + RETURNS_TEXT)
    assert [code for _, code in _found(tmp_path, toolret_cli, monkeypatch)] == expected


@pytest.mark.parametrize(
    ("helper", "expected"),
    [
        (
            "from typing import NoReturn\n\n\ndef fail(m) -> NoReturn:\n    raise OSError(m)\n",
            [],
        ),
        ("def fail(m: str):\n    raise ValueError(m)\n", []),
        ("def fail(m: str):\n    print(m)\n", [("tools.py", "TRC001")]),
    ],
)
def test_an_imported_helper_that_always_raises_ends_the_handler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    helper: str, expected: list,
) -> None:  # fmt: skip
    (tmp_path / "errors.py").write_text(helper)
    (tmp_path / "tools.py").write_text(
        "from claude_agent_sdk import tool\n\nfrom errors import fail\n\n\n"
        '@tool("lookup", "Look up", {"id": str})\nasync def lookup(args):\n'
        '    if args["id"]:\n'
        '        return {"content": [{"type": "text", "text": args["id"]}]}\n'
        '    fail("no id")\n'
    )
    assert _found(tmp_path, toolret_cli, monkeypatch) == expected


def test_handlers_get_the_any_framework_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    (tmp_path / "m.py").write_text(
        "from claude_agent_sdk import tool\n\n\n"
        '@tool("lookup", "Look up", {"id": str})\nasync def lookup(args):\n'
        '    if not args["id"]:\n        return ValueError("no id")\n'
        '    return {"content": [{"type": "text", "text": args["id"]}]}\n'
    )
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    codes = sorted(d["code"] for d in json.loads(result.stdout))
    assert codes == ["TRV901"]
    assert "Claude Agent SDK tool" in json.loads(result.stdout)[0]["message"]
    listed = toolret_cli("check", "--show-tool-functions", ".")
    assert "lookup" in listed.stdout and "Claude Agent SDK" in listed.stdout


@pytest.mark.parametrize(
    ("fallback", "expected"),
    [
        # an optional import: where `tool` decorates, it is the SDK's (or the module fails)
        ("    tool = None\n", ["TRC001"]),
        ("    SDK = False\n    tool = None\n", ["TRC001"]),
        # a stand-in decorator: unknown
        ("    def tool(*args):\n        return lambda f: f\n", []),
        # another handler: not an import's fallback
        ("    tool = None\n", []),
    ],
    ids=["none", "none-with-flag", "stand-in", "not-an-import-error"],
)
def test_an_optional_import_is_still_the_sdks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    request: pytest.FixtureRequest, fallback: str, expected: list[str],
) -> None:  # fmt: skip
    caught = "ValueError" if request.node.callspec.id == "not-an-import-error" else "ImportError"
    (tmp_path / "m.py").write_text(
        f"try:\n    from claude_agent_sdk import tool\nexcept {caught}:\n{fallback}\n\n"
        '@tool("get_weather", "The weather", {"city": str})\n'
        'async def get_weather(args):\n    return "sunny"\n'
    )
    assert [code for _, code in _found(tmp_path, toolret_cli, monkeypatch)] == expected


def test_other_tool_decorators_in_the_same_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    """One project with the SDK's tools and three other `@tool`s, bare and called: only
    the SDK's handlers are judged."""
    body = 'def get_weather(args):\n    """Weather."""\n    return "sunny"\n'
    (tmp_path / "registry.py").write_text("def tool(*args):\n    return lambda f: f\n")
    (tmp_path / "lc.py").write_text(f"from langchain_core.tools import tool\n\n\n@tool\n{body}")
    (tmp_path / "st.py").write_text(f"from strands import tool\n\n\n@tool\n{body}")
    (tmp_path / "own.py").write_text(
        f"from registry import tool\n\n\n@tool('w', 'd', {{}})\n{body}"
    )
    (tmp_path / "sdk.py").write_text(
        f"from claude_agent_sdk import tool\n\n\n@tool('w', 'd', {{}})\nasync {body}"
    )
    assert _found(tmp_path, toolret_cli, monkeypatch) == [("sdk.py", "TRC001")]


def test_a_handler_a_test_builds_is_not_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    """The SDK's own tests build handlers that return what the SDK must drop."""
    (tmp_path / "test_sdk.py").write_text(
        "from claude_agent_sdk import create_sdk_mcp_server, tool\n\n\n"
        "async def test_unknown_blocks_are_dropped():\n"
        '    @tool("w", "d", {})\n    async def widget(args):\n'
        '        return {"content": [{"type": "custom_widget"}]}\n\n'
        '    create_sdk_mcp_server("s", tools=[widget])\n'
    )
    assert _found(tmp_path, toolret_cli, monkeypatch) == []


def test_a_function_wrapped_by_a_call_of_tool_is_a_handler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    """`x_tool = tool("name", "description", schema)(x)`, the decorator written as a call."""
    (tmp_path / "m.py").write_text(
        "from claude_agent_sdk import tool\n\n\n"
        'async def lookup(args):\n    return {"content": "found"}\n\n\n'
        'def ping(args):\n    return {"content": [{"type": "text", "text": "pong"}]}\n\n\n'
        'lookup_tool = tool("lookup", "Look up", {"id": str})(lookup)\n'
        'ping_tool = tool("ping", "Ping", {})(ping)\n'
        "not_a_tool = print(lookup)\n"
    )
    assert _found(tmp_path, toolret_cli, monkeypatch) == [("m.py", "TRC001"), ("m.py", "TRC005")]
