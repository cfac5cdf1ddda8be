"""A file larger than toolret parses (``MAX_SOURCE``, 2 MiB of code) is one TRV001 at
1:1 and the run goes on: no file can take the machine's memory (a LibCST tree costs up
to about a thousand bytes per character of dense code)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from lint_rules.analysis.module import MAX_SOURCE, code_size
from lint_rules.engine import check_bytes, check_source

Invoke = Callable[..., Result]

TOOL = (
    "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('shop')\n"  # no blank line: every
    "@mcp.tool\ndef f() -> str:\n    return 'x'\n"  # character is code
)


def _padded(size: int) -> str:
    filler = "x = " + "1" * 75 + "\n"
    text = TOOL
    text += filler * ((size - len(text)) // len(filler))
    return text + "y" * (size - len(text) - 1) + "\n"


def test_a_file_at_the_limit_is_checked() -> None:
    source = _padded(MAX_SOURCE)
    assert len(source) == code_size(source) == MAX_SOURCE
    assert [d.code for d in check_source(source, "server.py")] == ["TRV601"]


def test_comments_and_blank_lines_do_not_count() -> None:
    header = "# a long generated header line\n" * 40_000 + "\n  \n" * 1_000
    source = header + _padded(MAX_SOURCE)
    assert code_size(source) == MAX_SOURCE
    assert [d.code for d in check_source(source, "server.py")] == ["TRV601"]
    assert code_size(source + "z\n") == MAX_SOURCE + 2


def test_a_larger_file_is_one_trv001_and_the_others_are_checked(
    tmp_path: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _padded(MAX_SOURCE + 1)
    (diagnostic,) = check_source(source, "server.py")
    assert (diagnostic.code, diagnostic.location.row, diagnostic.location.column) == (
        "TRV001",
        1,
        1,
    )
    assert "too large" in diagnostic.message
    assert "2,097,153 characters of code" in diagnostic.message
    assert check_source(source.replace("mcp", "pkg"), "plain.py") == []  # no framework: not parsed

    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.py").write_text(source, encoding="utf-8")
    (tmp_path / "small.py").write_text(TOOL, encoding="utf-8")
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    found = sorted((Path(d["filename"]).name, d["code"]) for d in json.loads(result.stdout))
    assert found == [("big.py", "TRV001"), ("small.py", "TRV601")]
    assert result.exit_code == 1


def test_a_notebook_whose_cells_are_too_large_is_one_trv001() -> None:
    cells = [TOOL, _padded(MAX_SOURCE)]
    notebook = {
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": c} for c in cells],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (diagnostic,) = check_bytes(json.dumps(notebook).encode(), "tools.ipynb")
    assert diagnostic.code == "TRV001" and "too large" in diagnostic.message
