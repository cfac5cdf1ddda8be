"""The TRB family (Bedrock Converse loops, Strands tools) through the CLI: what the
recognition must and must not take for boto3 and Strands, across modules too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lint_rules import prefilter
from tests.conftest import Invoke

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bedrock"

STRING_RESULT = """
def answer(tool_use):
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": "sunny"}}
"""


def _found(root: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch, *args: str) -> list:
    monkeypatch.chdir(root)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", *args, ".")
    return sorted((d["filename"].rsplit("/", 1)[-1], d["code"]) for d in json.loads(result.stdout))


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("import boto3\n", ["TRB001"]),
        ("import aioboto3\n", ["TRB001"]),
        ("from strands import Agent\n", ["TRB001"]),
        # a helper module that answers the blocks another module receives
        ("def first(message):\n    return message['content'][0]['toolUse']\n", ["TRB001"]),
        # a `toolResult` key in a module with nothing of Bedrock: not its shape
        ("import json\n", []),
    ],
)
def test_the_module_is_recognised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    head: str, expected: list[str],
) -> None:  # fmt: skip
    (tmp_path / "m.py").write_text(head + STRING_RESULT)
    assert [code for _, code in _found(tmp_path, toolret_cli, monkeypatch)] == expected


def test_a_client_made_in_another_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    """`self.client` / an imported client: the Converse request itself (keywords only,
    `modelId=`) is the recognition; the loop module imports no AWS package."""
    (tmp_path / "aws.py").write_text('import boto3\n\nclient = boto3.client("bedrock-runtime")\n')
    (tmp_path / "loop.py").write_text(
        "from aws import client\n\n\n"
        "def send(messages, tool_use, output):\n"
        '    result = {"toolResult": {"toolUseId": tool_use["toolUseId"], '
        '"content": [{"text": output}]}}\n'
        '    messages.append({"role": "tool", "content": [result]})\n'
        '    return client.converse(modelId="m", messages=messages)\n'
    )
    assert _found(tmp_path, toolret_cli, monkeypatch) == [("loop.py", "TRB008")]


def test_typed_and_dict_constructors_are_read_as_displays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    (tmp_path / "m.py").write_text(
        "import boto3\n\n\ndef answer(tool_use):\n"
        '    return dict(toolResult=dict(toolUseId=tool_use["toolUseId"], content="sunny"))\n'
    )
    assert _found(tmp_path, toolret_cli, monkeypatch) == [("m.py", "TRB001")]


@pytest.mark.parametrize(
    "decorator",
    [
        "from langchain_core.tools import tool",
        "from crewai.tools import tool",
        "def tool(f):\n    return f",
    ],
)
def test_other_libraries_tool_decorators_are_not_strands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke, decorator: str
) -> None:
    (tmp_path / "m.py").write_text(
        f"import boto3\n{decorator}\n\n\n@tool\ndef book(r: str) -> dict:\n"
        '    """Book."""\n    return {"status": "success", "content": "booked"}\n'
    )
    assert _found(tmp_path, toolret_cli, monkeypatch, "--select", "TRB") == []


def test_strands_tools_get_the_any_framework_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    (tmp_path / "m.py").write_text(
        "import strands\n\n\n@strands.tool\ndef book(r: str):\n"
        '    """Book."""\n    if not r:\n        return ValueError("no restaurant")\n'
        '    return "booked"\n'
    )
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    (found,) = json.loads(result.stdout)
    assert found["code"] == "TRV901" and "Strands tool" in found["message"]
    listed = toolret_cli("check", "--show-tool-functions", ".")
    assert "book" in listed.stdout and "Strands" in listed.stdout


def test_the_family_alone_finds_what_all_rules_find(
    monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    every = [f for f in _found(EXAMPLES, toolret_cli, monkeypatch, "--select", "ALL")]
    alone = _found(EXAMPLES, toolret_cli, monkeypatch, "--select", "TRB")
    assert alone == [f for f in every if f[1].startswith("TRB")] and alone


@pytest.mark.parametrize(
    ("source", "signal"),
    [
        (b"import boto3\ns3 = boto3.client('s3')\n", False),
        # boto3 and a "tool" are no Converse loop (AWS's examples import `demo_tools`)
        (b"import boto3\nfrom demo_tools import question\n", False),
        (b"x = {'toolResult': {}}\n", True),
        (b"answer(block['toolUseId'])\n", True),  # a loop that only reads the id
        (b"from strands import tool\n", True),
        (b"from strands_like import tool\n", False),
    ],
)
def test_the_prefilter(source: bytes, signal: bool) -> None:
    assert prefilter.has_signal("bedrock", source, "m.py") is signal
    assert prefilter.has_signal("bedrock", source.decode(), "m.py") is signal


def test_the_sdks_typed_dicts_are_read_as_displays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    (tmp_path / "m.py").write_text(
        "import boto3\n"
        "from mypy_boto3_bedrock_runtime.type_defs import ToolResultBlockTypeDef\n"
        "from strands.types.tools import ToolResult\n\n\n"
        "def answer(tool_use):\n"
        '    first = ToolResult(toolUseId=tool_use["toolUseId"], content="sunny")\n'
        '    second = ToolResultBlockTypeDef(toolUseId="t", content=[], status="error")\n'
        '    return [{"toolResult": first}, {"toolResult": second}]\n'
    )
    assert _found(tmp_path, toolret_cli, monkeypatch) == [("m.py", "TRB001"), ("m.py", "TRB007")]
