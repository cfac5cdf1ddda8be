"""The TRG family (google-genai function calling) through the real entry points: the
CLI, flake8 as a subprocess; what the recognition must and must not take for the SDK."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Invoke

HEAD = """\
from google import genai
from google.genai import types

client = genai.Client()
"""


def _codes(root: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(root)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    return sorted(d["code"] for d in json.loads(result.stdout))


@pytest.mark.parametrize(
    ("imports", "expected"),
    [
        (HEAD, ["TRG001"]),
        ("import google.genai as genai\n\nclient = genai.Client()\n", ["TRG001"]),
        ("from google.genai.types import Part\n", ["TRG001"]),
        # the old SDK and other libraries' `Part`: not google-genai
        ("import google.generativeai as genai\n", []),
        ("from vertexai.generative_models import Part\n", []),
    ],
)
def test_the_sdk_is_recognised_through_its_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    imports: str, expected: list[str],
) -> None:  # fmt: skip
    call = (
        "Part.from_function_response"
        if "import Part" in imports
        else "genai.types.Part.from_function_response"
        if "types" not in imports
        else "types.Part.from_function_response"
    )
    (tmp_path / "m.py").write_text(
        f"{imports}\n\ndef answer(call):\n    return {call}(name=call.name, response='sunny')\n"
    )
    assert _codes(tmp_path, toolret_cli, monkeypatch) == expected


AFC = (
    HEAD
    + """\


class Hit:
    def __init__(self, name):
        self.name = name


def search(query: str):
    \"\"\"Search.\"\"\"
    return [Hit(query)]


config = types.GenerateContentConfig(tools=[search]{afc})
"""
)


@pytest.mark.parametrize(
    ("afc", "expected"),
    [
        ("", ["TRG101"]),
        (
            ", automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=False)",
            ["TRG101"],
        ),
        (
            ", automatic_function_calling=types.AutomaticFunctionCallingConfig("
            "maximum_remote_calls=5)",
            ["TRG101"],
        ),
        (", automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True)", []),
        (", automatic_function_calling={'disable': True}", []),
        (
            ", automatic_function_calling=types.AutomaticFunctionCallingConfig("
            "maximum_remote_calls=0)",
            [],
        ),
        (", automatic_function_calling=settings.afc", []),  # not known: may disable it
    ],
)
def test_automatic_function_calling_unless_disabled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    afc: str, expected: list[str],
) -> None:  # fmt: skip
    (tmp_path / "m.py").write_text(AFC.format(afc=afc))
    assert _codes(tmp_path, toolret_cli, monkeypatch) == expected


def test_a_returned_exception_of_an_afc_tool_is_trv901(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    (tmp_path / "m.py").write_text(
        HEAD + "\n\ndef lookup(city: str) -> str:\n    if not city:\n"
        "        return ValueError('no city')\n    return city\n\n\n"
        "chat = client.chats.create(model='gemini-2.5-flash', config={'tools': [lookup]})\n"
    )
    monkeypatch.chdir(tmp_path)
    found = json.loads(toolret_cli("check", "--no-cache", "--output-format", "json", ".").stdout)
    assert [d["code"] for d in found] == ["TRV901"]
    assert found[0]["message"].startswith("Gemini automatic-function-calling tool `lookup`")


def test_flake8_shows_the_trg_prefix_by_default_and_once(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        HEAD + "\n\ndef answer(call):\n"
        "    return types.Part.from_function_response(name=call.name, response='x')\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "TR", "m.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    assert [line.split(" ", 2)[1] for line in done.stdout.splitlines()] == ["TRG001"]
    default = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--extend-ignore", "E,W,F,C", "m.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert [line.split(" ", 2)[1] for line in default.stdout.splitlines()] == ["TRG001"]


@pytest.mark.parametrize(
    ("tools", "expected"),
    [
        ("list(FUNCTIONS.values())", ["TRG101"]),
        ("TOOLS", ["TRG101"]),
        ("tools", []),  # the parameter, not the module's list
        ("[types.Tool(function_declarations=[])]", []),
    ],
)
def test_afc_tools_listed_through_a_registry_or_a_module_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    tools: str, expected: list[str],
) -> None:  # fmt: skip
    (tmp_path / "m.py").write_text(
        HEAD + '\n\ndef tags(city: str):\n    """Tags."""\n    return {\'a\', city}\n\n\n'
        "FUNCTIONS = {'tags': tags}\nTOOLS = [tags]\n\n\n"
        f"def ask(question, tools):\n    config = types.GenerateContentConfig(tools={tools})\n"
        "    return client.models.generate_content(model='m', contents=question, config=config)\n"
    )
    assert _codes(tmp_path, toolret_cli, monkeypatch) == expected
