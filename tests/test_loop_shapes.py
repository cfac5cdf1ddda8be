"""Tool loops as real code writes them (RULES.md *Value inference*, TRV4xx, TRV5xx):
typed message constructors, ``dict(...)`` and small helpers read as the dict displays
they make, and the other spellings of "only one call is answered" — through the CLI
and the flake8 plugin alike.

Each fixture under ``tests/fixtures/loop_shapes/`` marks the lines that must be
reported with ``# expect: CODE``; every other line must stay silent.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lint_rules.flake8_plugin import ToolretChecker
from tests.conftest import Invoke

FIXTURES = Path(__file__).parent / "fixtures" / "loop_shapes"
SOURCES = sorted(FIXTURES.glob("*.py"))
_EXPECT = re.compile(r"# expect: ((?:TR[A-Z0-9]+[, ]*)+)")


def expected(path: Path) -> set[tuple[int, str]]:
    found = set()
    for row, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = _EXPECT.search(line)
        if match:
            found.update((row, code) for code in re.findall(r"TR[A-Z0-9]+", match.group(1)))
    return found


def cli(toolret_cli: Invoke, path: Path) -> set[tuple[int, str]]:
    result = toolret_cli(
        "check", str(path), "--no-cache", "--isolated", "--select", "TRV4,TRV5",
        "--output-format", "json",
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.stderr
    return {(d["location"]["row"], d["code"]) for d in json.loads(result.stdout)}


def flake8(path: Path) -> set[tuple[int, str]]:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return {
        (row, text.split(" ", 1)[0])
        for row, _, text, _ in ToolretChecker(None, lines, str(path)).run()
        if text.startswith(("TRV4", "TRV5"))
    }


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_the_cli_reports_exactly_the_marked_lines(toolret_cli: Invoke, path: Path) -> None:
    assert cli(toolret_cli, path) == expected(path)


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_the_flake8_plugin_reports_exactly_the_marked_lines(path: Path) -> None:
    assert flake8(path) == expected(path)


def test_every_fixture_expects_something() -> None:
    assert SOURCES and all(expected(path) for path in SOURCES)


def test_fixes_edit_the_constructor_and_the_helper_call(
    toolret_cli: Invoke, tmp_path: Path
) -> None:
    path = tmp_path / "loop.py"
    path.write_text(
        (FIXTURES / "anthropic_typed.py").read_text(encoding="utf-8")
        + (FIXTURES / "chat_typed.py").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    for _ in range(2):  # fixing twice equals fixing once
        toolret_cli(
            "check", str(path), "--no-cache", "--isolated", "--select", "TRV401,TRV501",
            "--fix", "--unsafe-fixes",
        )  # fmt: skip
        fixed = path.read_text(encoding="utf-8")
        assert (
            'ToolResultBlockParam(type="tool_result", tool_use_id=block.id, content="x")' in fixed
        )
        assert "tool_call_id=block.id" not in fixed
        assert "tool_message(call.id, json.dumps(42))" in fixed
        assert 'content=json.dumps({"ok": 1})' in fixed
    compile(fixed, str(path), "exec")


@pytest.mark.parametrize("joined", [True, False], ids=["one-string-cells", "line-list-cells"])
def test_a_notebook_loop_across_cells(toolret_cli: Invoke, tmp_path: Path, joined: bool) -> None:
    """The assistant turn appended in one cell, the first call answered in the next with
    a typed constructor, the request in a third; a cell's source may be one string, with
    its imports after an escaped line break in the raw JSON."""
    cells = [
        "import json\nfrom openai import OpenAI\nfrom openai.types.chat import "
        "ChatCompletionToolMessageParam\n\nclient = OpenAI()\ntools = []\n",
        'messages = [{"role": "user", "content": "hi"}]\n'
        'response = client.chat.completions.create(model="gpt-4o", messages=messages, '
        "tools=tools)\nmessage = response.choices[0].message\nmessages.append(message)\n",
        "tool_call = message.tool_calls[0]\nmessages.append(\n    ChatCompletionToolMessageParam("
        'role="tool", tool_call_id=tool_call.id, content={"t": 1})\n)\n',
        'response = client.chat.completions.create(model="gpt-4o", messages=messages)\n',
    ]
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {},
                "execution_count": None,
                "outputs": [],
                "source": text if joined else text.splitlines(keepends=True),
            }
            for text in cells
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "loop.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    result = toolret_cli(
        "check", str(path), "--no-cache", "--isolated", "--select", "TRV4",
        "--output-format", "json",
    )  # fmt: skip
    found = {(d["cell"], d["location"]["row"], d["code"]) for d in json.loads(result.stdout)}
    assert found == {(3, 1, "TRV405"), (3, 3, "TRV401")}
