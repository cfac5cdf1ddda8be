"""TRV001, TRV002 and TRV003 are never silenced and never written by ``--add-noqa``.

ruff neither honours nor writes a ``# noqa`` for a syntax error: a directive on a
file that was not checked would hide it from every later run (``--add-noqa`` as a
baseline, then "All checks passed!" in CI). The same holds for a rule that crashed
(TRV002) and a file that could not be read (TRV003).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from lint_rules.engine import check_source
from lint_rules.frameworks.polyai import PolyaiInvalidReturnType
from lint_rules.lsp import _with_noqa
from lint_rules.rules import UNSUPPRESSIBLE

Invoke = Callable[..., Result]

BROKEN = "def count_bookings(conv):\n    return 3\n\ndef half_typed(:\n    pass\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "functions").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_codes() -> None:
    assert {"TRV001", "TRV002", "TRV003"} == UNSUPPRESSIBLE


@pytest.mark.parametrize(
    "directive",
    [
        "def half_typed(:  # noqa",
        "def half_typed(:  # noqa: TRV001",
        "def half_typed(:  # noqa: TRV",
    ],
)
def test_a_line_directive_does_not_hide_a_parse_error(
    project: Path, toolret_cli: Invoke, directive: str
) -> None:
    path = project / "functions" / "broken.py"
    path.write_text(BROKEN.replace("def half_typed(:", directive), encoding="utf-8")
    result = toolret_cli("check", "-n", "--output-format", "concise", ".")
    assert result.exit_code == 1
    assert "functions/broken.py:4:" in result.stdout and "TRV001" in result.stdout


@pytest.mark.parametrize("header", ["# toolret: noqa", "# ruff: noqa", "# flake8: noqa: TRV001"])
def test_a_file_directive_does_not_hide_a_parse_error(header: str) -> None:
    found = check_source(f"{header}\n{BROKEN}", "functions/broken.py")
    assert [d.code for d in found] == ["TRV001"]


def test_a_directive_does_not_hide_a_crashed_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: object, context: object, settings: object) -> Iterator[object]:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(PolyaiInvalidReturnType, "check", boom)
    for source in (
        "# toolret: noqa\ndef count(conv):\n    return 3\n",
        "def count(conv):  # noqa\n    return 3\n",
    ):
        found = check_source(source, "functions/count.py")
        assert [d.code for d in found] == ["TRV002"], source


def test_add_noqa_writes_nothing_for_a_parse_error(project: Path, toolret_cli: Invoke) -> None:
    broken = project / "functions" / "broken.py"
    broken.write_text(BROKEN, encoding="utf-8")
    good = project / "functions" / "count.py"
    good.write_text("def count(conv):\n    return 3\n", encoding="utf-8")

    added = toolret_cli("check", "-n", ".", "--add-noqa")
    assert added.exit_code == 0, added.stderr
    assert added.stderr == "Added 1 noqa directive.\n"
    assert broken.read_text(encoding="utf-8") == BROKEN  # TRV101 on line 2 is not added either
    assert good.read_text(encoding="utf-8").endswith("return 3  # noqa: TRV101\n")

    after = toolret_cli("check", "-n", "--output-format", "json", ".")
    assert after.exit_code == 1  # the broken file is still reported, run after run
    assert [(d["filename"].endswith("broken.py"), d["code"]) for d in json.loads(after.stdout)] == [
        (True, "TRV001")
    ]


def _notebook(*cells: str) -> str:
    return json.dumps(
        {
            "cells": [
                {"cell_type": "code", "metadata": {}, "source": source, "outputs": []}
                for source in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


def test_a_notebook_cell_that_does_not_parse_is_neither_silenced_nor_baselined(
    project: Path, toolret_cli: Invoke
) -> None:
    notebook = project / "tools.ipynb"
    setup = "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('shop')"
    text = _notebook(setup, "@mcp.tool()\ndef half_typed(:  # noqa\n    pass")
    notebook.write_text(text, encoding="utf-8")

    checked = toolret_cli("check", "-n", "--output-format", "json", ".")
    assert checked.exit_code == 1
    assert [d["code"] for d in json.loads(checked.stdout)] == ["TRV001"]

    added = toolret_cli("check", "-n", ".", "--add-noqa")
    assert added.exit_code == 0, added.stderr
    assert notebook.read_text(encoding="utf-8") == text


def test_the_language_server_offers_no_directive_for_them() -> None:
    source = "def half_typed(:\n    pass\n"
    for code in sorted(UNSUPPRESSIBLE):
        assert _with_noqa(source, 1, code) is None
    assert _with_noqa(source, 1, "TRV101") == "def half_typed(:  # noqa: TRV101\n    pass\n"
